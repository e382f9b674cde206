import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// No post lost: one site built from every real capture that parses, served from 127.0.0.1, shows
/// per feed every distinct item read from it (items are distinct by id within the feed, else by
/// position, as `../shared/tools/item_accounting.py` counts them).
@Suite("Real captures: every item read is shown", .serialized)
struct RealCaptureAccountingTests {
    static let folder = Fixtures.url("real-feeds")

    /// Distinct items in a parsed feed: one per id, and one per item without id.
    static func distinctItems(_ feed: Feed) -> Int {
        var ids: Set<String> = []
        var withoutID = 0
        for item in feed.items {
            if item.id.isEmpty { withoutID += 1 } else { ids.insert(item.id) }
        }
        return ids.count + withoutID
    }

    @Test("shown == distinct items read, per feed, in one site built from all of them")
    func everyItemShown() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
        let parser = FeedParser()
        var expected: [String: Int] = [:]
        var routes: [String: FixtureServer.Route] = [:]
        for name in names {
            let data = try Fixtures.data("real-feeds/\(name)")
            // Served under its own name; what does not parse is not a feed to account for.
            let url = try #require(URL(string: "http://127.0.0.1/\(name)"))
            guard let feed = try? parser.parse(data, url: url, contentType: nil) else { continue }
            expected[name] = Self.distinctItems(feed)
            routes["/\(name)"] = .feed(data)
        }
        #expect(expected.count >= 50, "\(expected.count) captures parse")
        let server = try await FixtureServer(routes: routes)
        let build = try TestBuild()
        defer { build.remove() }
        let yaml =
            "title: Every capture\nbase_url: https://planet.example.org/\nretries: 0\nfeeds:\n"
            + expected.keys.sorted().map { "  - url: \(server.url("/\($0)"))\n" }.joined()
        let report = try await build.run(yaml: yaml, now: Date(timeIntervalSince1970: 1_795_000_000), concurrency: 4)
        try await server.shutdown()
        #expect(report.failedFeedCount == 0)

        let data = try Data(contentsOf: build.output.appendingPathComponent("status/status.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rows = try #require(object["feeds"] as? [[String: Any]])
        var shown: [String: Int] = [:]
        for row in rows {
            guard let url = row["url"] as? String, let items = row["items"] as? Int else { continue }
            shown[String(url.split(separator: "/").last ?? "")] = items
        }
        for (name, count) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(shown[name] == count, "\(name): \(shown[name] ?? 0) of \(count) items shown")
        }
        #expect(report.itemCount == expected.values.reduce(0, +))
        // Counted by hand in the files: the feeds whose posts were merged by accident before.
        #expect(shown["scripting-news-rss2-source-namespace.xml"] == 48)
        #expect(shown["rdf-rss1-euc-jp-tdiary.rdf"] == 15)
        #expect(shown["wordpress-atom.xml"] == 25)
        #expect(shown["rdf-rss1-shift-jis-2ch.xml"] == 3)
    }
}
