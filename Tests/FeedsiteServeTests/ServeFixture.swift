import AsyncHTTPClient
import FeedsiteServe
import Foundation
import NIOCore
import ServiceLifecycleTestKit
import Synchronization

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// A temporary project (a copy of `Templates/`, a `feeds.yml`, an output folder) and a rebuild
/// that renders a fixed site through the real templates and writer, without any network.
final class ServeFixture: Sendable {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FeedsiteServeTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    let work: URL
    var templates: URL { work.appendingPathComponent("Templates") }
    var config: URL { work.appendingPathComponent("feeds.yml") }
    var site: URL { work.appendingPathComponent("Site") }
    private let builds = Mutex(0)
    var buildCount: Int { builds.withLock { $0 } }

    /// - Parameter name: the start of the work folder's name (the site is its `Site` folder).
    init(name: String = "feedsite-serve-") throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.repositoryRoot.appendingPathComponent("Templates"), to: work.appendingPathComponent("Templates"))
        try Data("title: Serve test\nfeeds:\n  - https://example.invalid/feed\n".utf8).write(to: config)
    }

    func remove() {
        try? FileManager.default.removeItem(at: work)
    }

    /// Renders `Self.sampleSite()` with the fixture's templates into its output folder.
    func rebuild() async throws -> String {
        builds.withLock { $0 += 1 }
        let templates = try SiteTemplates.load(from: templates)
        let files = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(
            Self.sampleSite())
        let report = try await SiteWriter().write(files, to: site)
        return "built \(report.totalFiles) files"
    }

    func server(
        host: String = "127.0.0.1", port: Int = 0, buildsFirst: Bool = true, headerTimeout: Duration = .seconds(5),
        stallTimeout: Duration = .seconds(60)
    ) -> PreviewServer {
        PreviewServer(
            options: .init(
                host: host, port: port, siteDirectory: site, configFile: config,
                watchedPaths: [templates, config],
                buildsFirst: buildsFirst, pollInterval: .milliseconds(100), headerTimeout: headerTimeout,
                stallTimeout: stallTimeout),
            log: { _ in },
            rebuild: { _ in try await self.rebuild() })
    }

    /// Edits a template in place (the size changes too, so even a coarse mtime notices).
    func edit(_ template: String, _ change: (String) -> String) throws {
        let url = templates.appendingPathComponent(template)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(change(text).utf8).write(to: url)
    }

    static func sampleSite() -> Site {
        let content = HTMLSanitiser().sanitise(html: "<p>Hello <b>there</b></p>", baseURL: nil)
        let item = SiteItem(
            slug: "first-post", feedSlug: "alpha", feedName: "Alpha", title: "First post",
            link: "https://alpha.example/first", authors: ["Ada"], date: Date(timeIntervalSince1970: 1_795_000_000),
            content: content.html, excerpt: "Hello there", categories: [], enclosures: [])
        let source = FeedSource(url: URL(string: "https://alpha.example/feed.xml")!, name: "Alpha")
        return Site(
            configuration: SiteConfiguration(
                title: "Serve test", baseURL: URL(string: "https://planet.example/"), feeds: [source]),
            feeds: [
                SiteFeed(
                    source: source, slug: "alpha", name: "Alpha", description: nil, siteLink: nil, items: [item])
            ],
            items: [item])
    }
}

/// Runs a preview server for the duration of `body`, then shuts it down gracefully, as SIGINT
/// does. Cancelling the server instead would drop connections it has accepted but not yet served,
/// which traps in NIO ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#2637,
/// #3481) and takes the whole test process down: so a body that overruns `limit` (a loaded
/// machine) also ends in a graceful shutdown, and the server is only cancelled if that shutdown
/// itself does not end within `shutdownLimit`.
///
/// Both limits are long on purpose: the body, the service group and its shutdown run on Swift's
/// cooperative pool, one thread per core, which other suites running at the same time (the
/// 100,000-level sanitiser cases, minutes of synchronous work) can hold for minutes on a 2-core
/// machine. A shutdown normally ends in milliseconds; the limits only catch one that never ends.
func withPreviewServer<T: Sendable>(
    _ server: PreviewServer, limit: Duration = .seconds(600), _ body: @escaping @Sendable (URL) async throws -> T
) async throws -> T {
    return try await testGracefulShutdown { trigger in
        let (ready, readyContinuation) = AsyncStream.makeStream(of: URL.self)
        return try await withThrowingTaskGroup(of: ServeOutcome<T>.self) { group in
            group.addTask {
                try await server.run(handlesSignals: false) { url in
                    readyContinuation.yield(url)
                    readyContinuation.finish()
                }
                return .serverStopped
            }
            group.addTask {
                var iterator = ready.makeAsyncIterator()
                guard let url = await iterator.next() else { return .body(.failure(CancellationError())) }
                do {
                    return .body(.success(try await body(url)))
                } catch {
                    return .body(.failure(error))
                }
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return .overran
            }
            // Only a server error, or a shutdown that does not end, gets here with the server running.
            defer { group.cancelAll() }
            var result: Result<T, any Error>?
            while let outcome = try await group.next() {
                switch outcome {
                case .body(let outcome):
                    // The body is done: stop the server as SIGINT would, and wait for it.
                    result = outcome
                    trigger.triggerGracefulShutdown()
                    group.addTask {
                        try await Task.sleep(for: shutdownLimit)
                        return .shutdownOverran
                    }
                case .overran:
                    guard result == nil else { continue }
                    result = .failure(ServeTestError("the test took longer than \(limit)"))
                    trigger.triggerGracefulShutdown()
                    group.addTask {
                        try await Task.sleep(for: shutdownLimit)
                        return .shutdownOverran
                    }
                case .shutdownOverran:
                    throw ServeTestError("the server did not shut down within \(shutdownLimit)")
                case .serverStopped:
                    guard let result else { throw ServeTestError("the server stopped before the test finished") }
                    return try result.get()
                }
            }
            throw ServeTestError("no result")
        }
    }
}

/// How long `withPreviewServer` waits for a graceful shutdown before it gives up on the server.
let shutdownLimit = Duration.seconds(600)

/// How a child task of `withPreviewServer` ended.
enum ServeOutcome<T: Sendable>: Sendable {
    case body(Result<T, any Error>)
    case serverStopped
    /// The body took longer than its limit.
    case overran
    /// The graceful shutdown did not end in time.
    case shutdownOverran
}

struct ServeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A small HTTP client for the tests (redirects are not followed, so they can be checked).
struct TestClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    static func get(_ url: URL, method: String = "GET") async throws -> Reply {
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(redirectConfiguration: .disallow))
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .init(rawValue: method)
            // Generous: the suite runs beside builds and 100,000-level nesting tests on 2 cores, where a
            // 10 s limit ran out in a CI run; a server that never answers still fails the test.
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 10_000_000)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            try await client.shutdown()
            return Reply(status: Int(response.status.code), headers: headers, body: String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Opens the event stream and returns each chunk of text as it arrives.
    static func events(_ url: URL) -> AsyncThrowingStream<String, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
                do {
                    let request = HTTPClientRequest(url: url.appendingPathComponent("_feedsite/events").absoluteString)
                    let response = try await client.execute(request, timeout: .seconds(120))
                    for try await buffer in response.body {
                        continuation.yield(String(buffer: buffer))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                try? await client.shutdown()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Reads an event stream until `text` has appeared (`withPreviewServer` bounds the wait).
func waitFor(
    _ text: String, in stream: inout AsyncThrowingStream<String, any Error>.AsyncIterator
) async throws
    -> String
{
    var seen = ""
    while !seen.contains(text) {
        guard let chunk = try await stream.next() else { throw ServeTestError("stream ended; got \(seen)") }
        seen += chunk
    }
    return seen
}
