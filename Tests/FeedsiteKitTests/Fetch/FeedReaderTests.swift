import Foundation
import NIOCore
import Synchronization
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// `FeedReader` runs `FeedSchedule`'s actions against a real local server: outcomes in
/// `feeds.yml` order, skipped feeds untouched, and a cancelled build ends with every feed
/// accounted for.
@Suite("Feed reader", .serialized)
struct FeedReaderTests {
    static func reader(
        _ server: FixtureServer, _ paths: [String], state: SiteState = SiteState(), onlyNewFeeds: Bool = false,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) -> FeedReader {
        let feeds = paths.map { FeedSource(url: server.url($0)) }
        let configuration = SiteConfiguration(
            feeds: feeds, fetch: FetchPolicy(timeoutSeconds: 120, connectTimeoutSeconds: 60, readTimeoutSeconds: 120))
        return FeedReader(
            configuration: configuration, state: state, savedItemCounts: [:], concurrency: 4,
            onlyNewFeeds: onlyNewFeeds, progress: progress)
    }

    @Test(
        "outcomes come back in feeds.yml order, typed; a feed with saved state is skipped when only new feeds are read")
    func order() async throws {
        let server = try await FixtureServer(routes: [
            "/a": .feed(try Fixtures.data("real-feeds/substack-rss2.xml")),
            "/slow": {
                var route = FixtureServer.Route.feed(try Fixtures.data("real-feeds/github-releases-atom.xml"))
                route.delay = .milliseconds(300)
                return route
            }(),
            "/gone": .status(.notFound),
            "/old": .feed(try Fixtures.data("real-feeds/substack-rss2.xml")),
        ])
        var state = SiteState()
        state.feeds[server.url("/old").absoluteString] = FeedState()
        let runs = try await Self.reader(server, ["/slow", "/a", "/gone", "/old"], state: state, onlyNewFeeds: true)
            .readAll()
        let paths = server.requests.map(\.path)
        try await server.shutdown()
        #expect(runs.map(\.source.url.path) == ["/slow", "/a", "/gone", "/old"])
        guard case .fresh(let slow) = runs[0].outcome, case .fresh = runs[1].outcome else {
            Issue.record("not read: \(runs.map(\.outcome))")
            return
        }
        #expect(slow.entries.count == 4)
        #expect(runs[2].outcome == .failed(.fetch(.http(status: 404, reason: "Not Found"))))
        #expect(runs[3].outcome == .skipped)
        #expect(!paths.contains("/old"))
    }

    @Test("a cancelled read ends at once with every feed accounted for: unfinished ones failed as cancelled")
    func cancelled() async throws {
        var slow = FixtureServer.Route.feed(try Fixtures.data("real-feeds/substack-rss2.xml"))
        slow.delay = .seconds(60)
        let server = try await FixtureServer(routes: [
            "/fast": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml")), "/slow": slow,
        ])
        let finished = Mutex(0)
        let reader = Self.reader(
            server, ["/fast", "/slow", "/slow?2", "/slow?3", "/slow?4", "/slow?5"],
            progress: { done, _ in finished.withLock { $0 = done } })
        let task = Task { try await reader.readAll() }
        // The fast feed read, four slow requests in flight (the concurrency): then cancel.
        for _ in 0..<1200 where finished.withLock({ $0 }) < 1 || server.requests.count < 5 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(finished.withLock { $0 } == 1)
        #expect(server.requests.count == 5)
        task.cancel()
        let runs = try await task.value
        try await server.shutdown()
        #expect(runs.count == 6)
        guard case .fresh = runs[0].outcome else {
            Issue.record("the fast feed was not read: \(runs[0].outcome)")
            return
        }
        for run in runs.dropFirst() {
            #expect(run.outcome == .failed(.fetch(.cancelled)), "\(run.source.url)")
        }
    }
}
