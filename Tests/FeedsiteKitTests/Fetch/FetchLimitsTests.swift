import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

@testable import FeedsiteKit

/// Time limits, failing fast, and the words failures are reported in: each against a real server
/// (or a real refused, reset or unresolvable connection) on this machine.
@Suite("Fetch limits", .serialized)
struct FetchLimitsTests {
    static let userAgent = FeedFetcher.Options.userAgent(baseURL: nil)

    static func fetch(_ url: URL, policy: FetchPolicy) async throws -> Result<FetchResponse, FetchError> {
        try await FeedFetcher.withFetcher(options: .init(policy: policy)) { fetcher in
            await fetcher.fetch(FetchRequest(url: url, userAgent: userAgent))
        }
    }

    /// 27 KB, 64 bytes every half second: about 211 s in all, yet never silent for a second.
    @Test("timeout bounds the whole request, body included: a trickling server fails at the timeout, unretried")
    func trickle() async throws {
        var route = FixtureServer.Route.feed(Data(repeating: UInt8(ascii: "x"), count: 27_000))
        route.trickle = (bytes: 64, every: .milliseconds(500))
        let server = try await FixtureServer(routes: ["/slow": route])
        // read_timeout (10 s) never fires: a byte comes every half second.
        // retries: 2, yet one attempt: a server that used the whole timeout is not asked again.
        let policy = FetchPolicy(timeoutSeconds: 3, connectTimeoutSeconds: 3, readTimeoutSeconds: 10, retries: 2)
        let start = ContinuousClock.now
        let result = try await Self.fetch(server.url("/slow"), policy: policy)
        let elapsed = ContinuousClock.now - start
        let requests = server.requests.count
        try await server.shutdown()
        #expect(throws: FetchError.timedOut(.whole(seconds: 3))) { try result.get() }
        #expect(requests == 1)
        // Generous (the parallel suite on 2 cores stretched 3 s to 140 s once): the point is that
        // the timeout ends it, not the 211 s the trickle takes.
        #expect(elapsed < .seconds(200), "took \(elapsed)")
    }

    @Test("a connection that never completes names connect_timeout and its value")
    func connectTimeout() async throws {
        let blackhole = try Blackhole()
        let policy = FetchPolicy(timeoutSeconds: 10, connectTimeoutSeconds: 1, readTimeoutSeconds: 5, retries: 0)
        let result = try await Self.fetch(
            try #require(URL(string: "http://127.0.0.1:\(blackhole.port)/feed")), policy: policy)
        #expect(throws: FetchError.timedOut(.connect(seconds: 1))) { try result.get() }
        #expect(
            FetchError.timedOut(.connect(seconds: 1)).description
                == "timed out: could not connect within 1 s (connect_timeout)")
        withExtendedLifetime(blackhole) {}
    }

    /// `.invalid` never resolves (RFC 2606), and the resolver says so without the network.
    @Test("a DNS failure reads 'cannot resolve host …' without internal type names")
    func unresolvableHost() async throws {
        let policy = FetchPolicy(timeoutSeconds: 10, connectTimeoutSeconds: 5, readTimeoutSeconds: 5, retries: 0)
        let result = try await Self.fetch(
            try #require(URL(string: "http://feedsite-test.invalid/feed.xml")), policy: policy)
        #expect(throws: FetchError.cannotResolve(host: "feedsite-test.invalid")) { try result.get() }
        guard case .failure(let error) = result else { return }
        #expect(error.description == "cannot resolve host feedsite-test.invalid: check the host name")
        #expect(!error.description.contains("NIO") && !error.description.contains("Error"))
    }

    /// Before: each refused feed waited out `connect_timeout` (the client retried the connection
    /// until then), so 20 feeds at 8 at a time took 3 × `connect_timeout` (30 s at the default 10 s;
    /// 60 s here). Alone on an idle machine this takes 0.3 s; the bound is for a busy one.
    @Test("refused connections fail at once: 20 feeds on closed ports, retries 0, connect_timeout 300")
    func refusedFailFast() async throws {
        let ports = (0..<20).map { _ in closedPort() }
        let build = try TestBuild()
        defer { build.remove() }
        var yaml = "title: Refused\nretries: 0\nconnect_timeout: 300\ntimeout: 600\nfeeds:\n"
        // A path of its own for each: the kernel can hand out a closed port twice.
        for (index, port) in ports.enumerated() { yaml += "  - url: http://127.0.0.1:\(port)/feed\(index).xml\n" }
        let start = ContinuousClock.now
        let report = try await build.run(yaml: yaml, policy: .count(20))
        let elapsed = ContinuousClock.now - start
        #expect(report.records.count == 20)
        for (record, port) in zip(report.records, ports) {
            #expect(record.failure == .fetch(.connectionRefused(host: "127.0.0.1", port: port)))
        }
        // Not one feed waited out connect_timeout (the failures above say so too: a wait would
        // fail as `.timedOut(.connect)`); the bound only catches a regression, never load.
        #expect(elapsed < .seconds(240), "took \(elapsed)")
    }

    /// feedsite's own policy still retries a refused connection, with backoff, `retries` times.
    @Test("a refused connection is retried by feedsite's policy only")
    func refusedRetried() async throws {
        let policy = FetchPolicy(timeoutSeconds: 600, connectTimeoutSeconds: 300, readTimeoutSeconds: 5, retries: 2)
        let start = ContinuousClock.now
        let result = try await Self.fetch(
            try #require(URL(string: "http://127.0.0.1:\(closedPort())/feed")), policy: policy)
        let elapsed = ContinuousClock.now - start
        guard case .failure(.connectionRefused) = result else {
            Issue.record("expected connection refused, got \(result)")
            return
        }
        // Two backoffs, 0.25–0.5 s and 0.5–1 s (1.2 s alone on an idle machine); before, each of
        // the three attempts waited out connect_timeout.
        #expect(elapsed >= .milliseconds(700) && elapsed < .seconds(240), "took \(elapsed)")
    }

    @Test("a connection reset mid-request fails at once; retries are feedsite's, counted by the server")
    func resetConnections() async throws {
        let server = try await ResettingServer()
        var policy = FetchPolicy(timeoutSeconds: 600, connectTimeoutSeconds: 300, readTimeoutSeconds: 300, retries: 0)
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/feed"))
        let start = ContinuousClock.now
        let once = try await Self.fetch(url, policy: policy)
        #expect(ContinuousClock.now - start < .seconds(240))
        guard case .failure(let error) = once else {
            Issue.record("expected a failure, got \(once)")
            return
        }
        #expect(error.isRetryable)
        #expect(error.description == "the server reset the connection")
        #expect(server.requests == 1)

        policy.retries = 2
        _ = try await Self.fetch(url, policy: policy)
        #expect(server.requests == 1 + 3)
        try await server.shutdown()
    }

    @Test(
        "a port that answers with something other than HTTP is named in words, not in the HTTP parser's",
        arguments: [
            ("SSH-2.0-OpenSSH_9.2\r\n", "its first line is not an HTTP status line"),
            ("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n", "its status code is not a number of three digits"),
            ("HTTP/1.1 200 OK\r\nBad Header\r\n\r\n", "its headers hold bytes HTTP does not allow there"),
        ])
    func notHTTP(answer: String, reason: String) async throws {
        let server = try await ResettingServer(answer: answer)
        let policy = FetchPolicy(timeoutSeconds: 600, connectTimeoutSeconds: 300, readTimeoutSeconds: 300, retries: 0)
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/feed"))
        let result = try await Self.fetch(url, policy: policy)
        try await server.shutdown()
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(
            error.description
                == "the server's response is not valid HTTP/1.1 (\(reason)); check that the URL names a web server's "
                + "port (an https: URL for an HTTPS one) and tell the feed's owner")
    }

    @Test(
        "a feed compressed as br (never asked for) is asked for once more uncompressed, then named; utf-8 as a coding is read"
    )
    func unreadableContentEncoding() async throws {
        let rss = Data(
            #"<rss version="2.0"><channel><title>T</title><item><title>A</title></item></channel></rss>"#.utf8)
        let server = try await FixtureServer(routes: [
            "/br": .init(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "br")],
                body: Data([0x1B, 0x03, 0x00, 0xF8, 0xA5, 0x10])),
            "/utf8": .init(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "utf-8")], body: rss),
        ])
        let policy = FetchPolicy(timeoutSeconds: 600, connectTimeoutSeconds: 300, readTimeoutSeconds: 300, retries: 0)
        let br = try await Self.fetch(server.url("/br"), policy: policy)
        let utf8 = try await Self.fetch(server.url("/utf8"), policy: policy)
        try await server.shutdown()
        guard case .failure(let error) = br else {
            Issue.record("expected a failure, got \(br)")
            return
        }
        #expect(
            error.description
                == "the server sent the feed compressed as 'br' (Content-Encoding), which feedsite did not ask for and "
                + "does not read (it asks for gzip or deflate), even when asked for it uncompressed; tell the feed's owner"
        )
        let asked = server.requests.filter { $0.path == "/br" }.map { $0.header("Accept-Encoding") }
        #expect(asked == ["gzip, deflate", "identity"])
        guard case .success(.fetched(let feed)) = utf8 else {
            Issue.record("expected the feed, got \(utf8)")
            return
        }
        #expect(feed.body == rss)
    }

    @Test("validators go to the URL that issued them: a 302's target is revalidated")
    func conditionalBehindRedirect() async throws {
        var feed = FixtureServer.Route.feed(Data("<rss version=\"2.0\"><channel><title>T</title></channel></rss>".utf8))
        feed.etag = "\"v1\""
        let server = try await FixtureServer(routes: [
            "/old": .init(status: .found, headers: [("Location", "/feed")]), "/feed": feed,
        ])
        let result = try await FeedFetcher.withFetcher(options: .init()) { fetcher in
            await fetcher.fetch(
                FetchRequest(
                    url: server.url("/old"), etag: "\"v1\"", validatorURL: server.url("/feed"),
                    userAgent: Self.userAgent))
        }
        try await server.shutdown()
        guard case .success(.notModified(let info)) = result else {
            Issue.record("expected a 304, got \(result)")
            return
        }
        #expect(info.finalURL == server.url("/feed"))
        #expect(server.requests.map(\.path) == ["/old", "/feed"])
        #expect(server.requests.first?.header("If-None-Match") == nil)
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
    }

    @Test("a second build gets a 304 from the target of a 302")
    func conditionalBehindRedirectBuild() async throws {
        var feed = FixtureServer.Route.feed(try Fixtures.data("real-feeds/substack-rss2.xml"))
        feed.etag = "\"abc\""
        let server = try await FixtureServer(routes: [
            "/old": .init(status: .found, headers: [("Location", "/feed.xml")]), "/feed.xml": feed,
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let first = try await build.run(server: server, feeds: [("/old", "Moved")])
        #expect(first.records.first?.run.status == 200)
        let second = try await build.run(server: server, feeds: [("/old", "Moved")])
        try await server.shutdown()
        let run = try #require(second.records.first?.run)
        #expect(run.outcome == .notModified)
        #expect(run.status == 304)
        #expect(second.itemCount == first.itemCount)
        let targetRequests = server.requests.filter { $0.path == "/feed.xml" }
        #expect(targetRequests.count == 2)
        #expect(targetRequests.last?.header("If-None-Match") == "\"abc\"")
        #expect(server.requests.filter { $0.path == "/old" }.allSatisfy { $0.header("If-None-Match") == nil })
    }

    @Test("a web page's feed is revalidated too: the second build's feed request answers 304")
    func conditionalBehindDiscovery() async throws {
        let page = """
            <html><head><link rel="alternate" type="application/atom+xml" href="/releases.atom"></head></html>
            """
        var feed = FixtureServer.Route.feed(try Fixtures.data("real-feeds/github-releases-atom.xml"))
        feed.etag = "\"r1\""
        let server = try await FixtureServer(routes: [
            "/blog": .feed(Data(page.utf8), contentType: "text/html"), "/releases.atom": feed,
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let first = try await build.run(server: server, feeds: [("/blog", "Blog")])
        let second = try await build.run(server: server, feeds: [("/blog", "Blog")])
        try await server.shutdown()
        #expect(first.itemCount == 4)
        #expect(second.itemCount == 4)
        #expect(second.records.first?.run.outcome == .notModified)
        #expect(server.requests.filter { $0.path == "/releases.atom" }.last?.header("If-None-Match") == "\"r1\"")
        // The page did not issue the validators and never gets them.
        #expect(server.requests.filter { $0.path == "/blog" }.allSatisfy { $0.header("If-None-Match") == nil })
        // The advice repeats every build until feeds.yml names the feed.
        #expect(second.diagnostics.map(\.description).contains { $0.contains("is a web page; its feed is") })
    }
}

/// Accepts connections, reads the request, then resets the connection (RST, not FIN): a server
/// that crashes mid-request; or, with `answer`, writes those bytes and closes (a port that does
/// not speak HTTP). Counts the requests it received.
final class ResettingServer: Sendable {
    let port: Int
    private let counter: Counter
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    private final class Counter: Sendable {
        let value = Mutex(0)
    }

    var requests: Int { counter.value.withLock { $0 } }

    init(answer: String? = nil) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let counter = Counter()
        let count: @Sendable () -> Void = { counter.value.withLock { $0 += 1 } }
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ResetHandler(count: count, answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        self.counter = counter
        self.channel = channel
        self.group = group
        self.port = channel.localAddress?.port ?? 0
    }

    func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }

    /// One per connection, on its event loop.
    private final class ResetHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let count: @Sendable () -> Void
        let answer: String?
        private var hasRead = false

        init(count: @escaping @Sendable () -> Void, answer: String?) {
            self.count = count
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !hasRead else { return }
            hasRead = true
            count()
            let channel = context.channel
            if let answer {
                channel.writeAndFlush(ByteBuffer(string: answer)).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            // SO_LINGER 0: close() sends RST.
            guard let socket = channel as? any SocketOptionProvider else {
                channel.close(promise: nil)
                return
            }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }
}
