import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteShared

@Suite("Feed fetcher", .serialized)
struct FeedFetcherTests {
    // Generous limits: a loaded test machine must not make an ordinary fetch time out. The
    // timeout tests set their own.
    static let policy = FetchPolicy(
        timeoutSeconds: 60, connectTimeoutSeconds: 30, readTimeoutSeconds: 30, retries: 0, maxRetryAfterSeconds: 2,
        maxBodyBytes: 100_000)
    static let userAgent = FeedFetcher.Options.userAgent(baseURL: URL(string: "https://planet.example/"))

    static func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    /// `data` in zlib's container (RFC 1950, HTTP's `deflate`): gzip's raw deflate stream between a
    /// two-byte header (`78 9C`) and the Adler-32 checksum of `data`, big-endian.
    static func zlib(_ data: Data) throws -> Data {
        let gzipped = try gzip(data)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return Data([0x78, 0x9C]) + gzipped.subdata(in: 10..<(gzipped.count - 8))
            + Data([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) })
    }

    /// An RSS document of `items` items, each with a title and a link.
    static func rss(items: Int) -> Data {
        Data(
            (#"<rss version="2.0"><channel><title>T</title>"#
                + (1...items).map { "<item><title>Post \($0)</title><link>https://example.org/\($0)</link></item>" }
                .joined() + "</channel></rss>").utf8)
    }

    static func fetch(
        _ path: String, routes: [String: FixtureServer.Route] = [:], sequences: [String: [FixtureServer.Route]] = [:],
        policy: FetchPolicy = policy, etag: String? = nil, headers: [String: String] = [:]
    ) async throws -> (Result<FetchResponse, FetchError>, FixtureServer) {
        let server = try await FixtureServer(routes: routes, sequences: sequences)
        let result = try await FeedFetcher.withFetcher(options: .init(policy: policy)) { fetcher in
            await fetcher.fetch(
                FetchRequest(url: server.url(path), etag: etag, userAgent: userAgent, headers: headers))
        }
        try await server.shutdown()
        return (result, server)
    }

    static func body(_ result: Result<FetchResponse, FetchError>) throws -> FetchedFeed {
        guard case .fetched(let feed) = try result.get() else { throw FetchError.transport("not a 200") }
        return feed
    }

    @Test("a feed is fetched with an identifying User-Agent, gzip accepted and extra headers sent")
    func identifies() async throws {
        let (result, server) = try await Self.fetch(
            "/feed", routes: ["/feed": .feed(Data("<rss/>".utf8))], headers: ["X-Api-Key": "k"])
        let fetched = try Self.body(result)
        #expect(fetched.body == Data("<rss/>".utf8))
        #expect(fetched.info.status == 200)
        #expect(fetched.contentType == "application/xml")
        let request = try #require(server.requests.first)
        #expect(request.header("User-Agent") == "feedsite/\(Feedsite.version) (+https://planet.example/)")
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
        #expect(request.header("X-Api-Key") == "k")
    }

    @Test("a gzip body is decompressed")
    func gzip() async throws {
        let body = Data(String(repeating: "<item>x</item>", count: 500).utf8)
        let route = FixtureServer.Route(
            headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")], body: try Self.gzip(body))
        let (result, _) = try await Self.fetch("/feed", routes: ["/feed": route])
        #expect(try Self.body(result).body == body)
    }

    @Test("saved validators are sent back; an unchanged feed answers 304 and a changed one 200 with its ETag")
    func conditional() async throws {
        var route = FixtureServer.Route.feed(Data("<rss/>".utf8))
        route.etag = "\"v1\""
        let (unchanged, server) = try await Self.fetch("/feed", routes: ["/feed": route], etag: "\"v1\"")
        #expect(server.requests.first?.header("If-None-Match") == "\"v1\"")
        guard case .notModified(let info) = try unchanged.get() else {
            Issue.record("expected a 304")
            return
        }
        #expect(info.status == 304)
        let (changed, _) = try await Self.fetch("/feed", routes: ["/feed": route], etag: "\"v0\"")
        #expect(try Self.body(changed).etag == "\"v1\"")
    }

    @Test("redirects are followed and the final URL is the base; a permanent move is reported")
    func redirects() async throws {
        let routes: [String: FixtureServer.Route] = [
            "/old": .init(status: .movedPermanently, headers: [("Location", "/middle")]),
            "/middle": .init(status: .found, headers: [("Location", "/new/feed.xml")]),
            "/new/feed.xml": .feed(Data("<rss/>".utf8)),
        ]
        let (result, server) = try await Self.fetch("/old", routes: routes)
        let fetched = try Self.body(result)
        #expect(fetched.finalURL == server.url("/new/feed.xml"))
        // Only the permanent part of the chain is where the feed "moved" to.
        #expect(fetched.info.permanentRedirect == server.url("/middle"))

        let (temporary, _) = try await Self.fetch(
            "/t", routes: ["/t": .init(status: .temporaryRedirect, headers: [("Location", "/f")]), "/f": .feed(Data())])
        #expect(try Self.body(temporary).info.permanentRedirect == nil)
    }

    @Test("feeds.yml's headers follow a redirect on the same origin, not one to another host or port")
    func headersStayOnTheirOrigin() async throws {
        let other = try await FixtureServer(routes: ["/feed": .feed(Data("<rss/>".utf8))])
        let routes: [String: FixtureServer.Route] = [
            "/same": .init(status: .found, headers: [("Location", "/feed")]),
            "/feed": .feed(Data("<rss/>".utf8)),
            "/away": .init(status: .found, headers: [("Location", other.url("/feed").absoluteString)]),
        ]
        let secret = ["Authorization": "Bearer s3cret", "X-Api-Key": "k"]
        let (same, server) = try await Self.fetch("/same", routes: routes, headers: secret)
        _ = try Self.body(same)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer s3cret", "Bearer s3cret"])
        let (away, first) = try await Self.fetch("/away", routes: routes, headers: secret)
        #expect(try Self.body(away).finalURL == other.url("/feed"))
        #expect(first.requests.first?.header("X-Api-Key") == "k")
        try await other.shutdown()
        let arrived = try #require(other.requests.first)
        #expect(arrived.header("Authorization") == nil)
        #expect(arrived.header("X-Api-Key") == nil)
        #expect(arrived.header("User-Agent") == "feedsite/\(Feedsite.version) (+https://planet.example/)")
    }

    @Test(
        "what the state could not save is not kept: a validator over 1 KB or not ASCII, a redirect to a URL over 16 KB")
    func unsavableValuesRefused() async throws {
        for etag in ["\"" + String(repeating: "e", count: 1_100) + "\"", "\"caf\u{E9}\""] {
            var route = FixtureServer.Route.feed(Data("<rss/>".utf8))
            route.etag = etag
            let (result, _) = try await Self.fetch("/feed", routes: ["/feed": route])
            #expect(try Self.body(result).etag == nil)
        }
        var short = FixtureServer.Route.feed(Data("<rss/>".utf8))
        short.etag = "\"v1\""
        let (kept, _) = try await Self.fetch("/feed", routes: ["/feed": short])
        #expect(try Self.body(kept).etag == "\"v1\"")

        let long = "/" + String(repeating: "l", count: 17_000)
        let (redirected, server) = try await Self.fetch(
            "/r",
            routes: ["/r": .init(status: .found, headers: [("Location", long)]), long: .feed(Data("<rss/>".utf8))])
        let error = try #require(throws: FetchError.self) { try redirected.get() }
        #expect(error.description.contains("longer than the 16 KB feedsite follows"))
        #expect(server.requests.count == 1)
    }

    @Test("a redirect loop and too many redirects are errors")
    func redirectLoop() async throws {
        let loop: [String: FixtureServer.Route] = [
            "/a": .init(status: .found, headers: [("Location", "/b")]),
            "/b": .init(status: .found, headers: [("Location", "/a")]),
        ]
        let (result, server) = try await Self.fetch("/a", routes: loop)
        #expect(throws: FetchError.redirectLoop(server.url("/a").absoluteString)) { try result.get() }

        var chain: [String: FixtureServer.Route] = [:]
        for step in 0..<7 { chain["/r\(step)"] = .init(status: .found, headers: [("Location", "/r\(step + 1)")]) }
        chain["/r7"] = .feed(Data("<rss/>".utf8))
        let (long, _) = try await Self.fetch("/r0", routes: chain)
        #expect(throws: FetchError.tooManyRedirects(limit: 5)) { try long.get() }
    }

    @Test("a redirect to another scheme is refused")
    func redirectScheme() async throws {
        let (result, _) = try await Self.fetch(
            "/x", routes: ["/x": .init(status: .found, headers: [("Location", "file:///etc/passwd")])])
        #expect(throws: FetchError.unusableURL("file:///etc/passwd", .scheme)) { try result.get() }
        #expect(
            FetchError.unusableURL("file:///etc/passwd", .scheme).description
                == "refusing to fetch file:///etc/passwd: only http and https are allowed")
    }

    @Test("a URL with a port no connection can have is refused before the client sees it, also behind a redirect")
    func impossiblePort() async throws {
        // async-http-client stops the process on a port above 65535: the whole build crashed.
        let result = try await FeedFetcher.withFetcher(options: .init(policy: Self.policy)) { fetcher in
            await fetcher.fetch(
                FetchRequest(url: URL(string: "http://127.0.0.1:99999/feed")!, userAgent: Self.userAgent))
        }
        #expect(throws: FetchError.unusableURL("http://127.0.0.1:99999/feed", .port(99999))) { try result.get() }
        let (redirected, _) = try await Self.fetch(
            "/x", routes: ["/x": .init(status: .found, headers: [("Location", "http://127.0.0.1:70000/feed")])])
        #expect(throws: FetchError.unusableURL("http://127.0.0.1:70000/feed", .port(70000))) { try redirected.get() }
        #expect(
            FetchError.unusableURL("http://127.0.0.1:70000/feed", .port(70000)).description
                == "refusing to fetch http://127.0.0.1:70000/feed: port 70000 is not a TCP port (1–65535)")
    }

    @Test("a 304 to a request that sent no validators is a failure, not an unchanged feed")
    func unaskedNotModified() async throws {
        let route = FixtureServer.Route(status: .notModified, headers: [])
        let (result, _) = try await Self.fetch("/feed", routes: ["/feed": route])
        #expect(throws: FetchError.notModifiedUnasked) { try result.get() }
        #expect(FetchError.notModifiedUnasked.httpStatus == 304)
        // Validators of the feed's own (`headers:` in feeds.yml) make it a conditional request.
        let (own, _) = try await Self.fetch(
            "/feed", routes: ["/feed": route], headers: ["If-Modified-Since": "Tue, 01 Dec 2026 00:00:00 GMT"])
        guard case .notModified = try own.get() else {
            Issue.record("expected an unchanged feed")
            return
        }
    }

    @Test("HTTP errors carry status and reason")
    func httpErrors() async throws {
        let (missing, _) = try await Self.fetch("/nope")
        #expect(throws: FetchError.http(status: 404, reason: "Not Found")) { try missing.get() }
        #expect(FetchError.http(status: 404, reason: "Not Found").description == "HTTP 404 Not Found")
    }

    @Test("502/503/504 are retried with backoff; 404 is not")
    func retries() async throws {
        var policy = Self.policy
        policy.retries = 2
        let (result, server) = try await Self.fetch(
            "/flaky",
            sequences: ["/flaky": [.status(.badGateway), .status(.serviceUnavailable), .feed(Data("<rss/>".utf8))]],
            policy: policy)
        let fetched = try Self.body(result)
        #expect(fetched.info.attempts == 3)
        #expect(server.requests.count == 3)

        let (missing, missingServer) = try await Self.fetch("/gone", policy: policy)
        #expect(throws: FetchError.self) { try missing.get() }
        #expect(missingServer.requests.count == 1)
    }

    @Test("Retry-After is honoured up to the cap; past it the feed is skipped this run")
    func retryAfter() async throws {
        var policy = Self.policy
        policy.retries = 1
        let short = FixtureServer.Route(status: .tooManyRequests, headers: [("Retry-After", "1")])
        let start = ContinuousClock.now
        let (result, _) = try await Self.fetch(
            "/limited", sequences: ["/limited": [short, .feed(Data("<rss/>".utf8))]], policy: policy)
        #expect(try Self.body(result).info.attempts == 2)
        #expect(ContinuousClock.now - start >= .seconds(1))

        let long = FixtureServer.Route(status: .serviceUnavailable, headers: [("Retry-After", "3600")])
        let (skipped, server) = try await Self.fetch("/busy", routes: ["/busy": long], policy: policy)
        #expect(
            throws: FetchError.retryLater(status: 503, cause: .retryAfterTooLong(seconds: 3600, limit: 2))
        ) { try skipped.get() }
        #expect(server.requests.count == 1)
    }

    /// The 429 message says why feedsite stopped: the server asked for longer than
    /// `max_retry_after`, or every attempt `retries` allows was rate-limited.
    @Test("a 429 names its real cause: Retry-After beyond max_retry_after, or retries used up")
    func tooManyRequests() async throws {
        var policy = Self.policy
        policy.retries = 1
        let beyond = FixtureServer.Route(status: .tooManyRequests, headers: [("Retry-After", "120")])
        let (longWait, longServer) = try await Self.fetch("/429", routes: ["/429": beyond], policy: policy)
        #expect(throws: FetchError.retryLater(status: 429, cause: .retryAfterTooLong(seconds: 120, limit: 2))) {
            try longWait.get()
        }
        #expect(longServer.requests.count == 1)
        #expect(
            FetchError.retryLater(status: 429, cause: .retryAfterTooLong(seconds: 120, limit: 2)).description
                == "HTTP 429: the server asks to retry after 120 s, longer than max_retry_after (2 s); skipped this run"
        )

        // Within the cap, but every attempt is answered 429: retries used up, not "longer than max_retry_after".
        let within = FixtureServer.Route(status: .tooManyRequests, headers: [("Retry-After", "1")])
        let (usedUp, usedUpServer) = try await Self.fetch("/429", routes: ["/429": within], policy: policy)
        let usedUpError = FetchError.retryLater(status: 429, cause: .retriesUsedUp(attempts: 2, retryAfter: 1))
        #expect(throws: usedUpError) { try usedUp.get() }
        #expect(usedUpServer.requests.count == 2)
        #expect(
            usedUpError.description
                == "HTTP 429 Too Many Requests on all 2 attempts (retries: 1), the last asking to retry after 1 s; skipped this run"
        )

        // No Retry-After and no retries: one request, and the message says so.
        policy.retries = 0
        let (bare, bareServer) = try await Self.fetch(
            "/429", routes: ["/429": .status(.tooManyRequests)], policy: policy)
        let bareError = FetchError.retryLater(status: 429, cause: .retriesUsedUp(attempts: 1, retryAfter: nil))
        #expect(throws: bareError) { try bare.get() }
        #expect(bareServer.requests.count == 1)
        #expect(
            bareError.description == "HTTP 429 Too Many Requests on the only attempt (retries: 0); skipped this run")
    }

    /// Raw deflate sent as `Content-Encoding: deflate` (which names zlib's format; old IIS did
    /// this) failed the feed with "request failed: inflationError(-3)"; browsers read it.
    @Test(
        "raw deflate sent as deflate is read at once; a body that does not decompress is asked for again uncompressed, then the error says why"
    )
    func undecodableBody() async throws {
        let feed = Data(#"<rss version="2.0"><channel><title>T</title></channel></rss>"#.utf8)
        let gzipped = try Self.gzip(feed)
        // gzip's 10-byte header and 8-byte trailer around the raw deflate stream (no file name: stdin).
        let rawDeflate = gzipped.subdata(in: 10..<(gzipped.count - 8))
        let deflated = FixtureServer.Route(
            headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "deflate")], body: rawDeflate)
        let (result, server) = try await Self.fetch("/feed", sequences: ["/feed": [deflated, .feed(feed)]])
        #expect(try Self.body(result).body == feed)
        #expect(try Self.body(result).warnings == [])
        #expect(server.requests.map { $0.header("Accept-Encoding") } == ["gzip, deflate"])

        // Damaged gzip whatever it is asked for: one plain request more (retries: 0), then the reason.
        // After gzip's header, 0xFF starts a deflate block of the reserved type 3: not one byte
        // decompresses. (Data damaged later is read as far as it goes: cutOffGzip.)
        let damaged = FixtureServer.Route(
            headers: [("Content-Encoding", "gzip")], body: gzipped.prefix(10) + Data(repeating: 0xFF, count: 40))
        let (failed, failedServer) = try await Self.fetch("/bad", routes: ["/bad": damaged])
        guard case .failure(let error) = failed else {
            Issue.record("expected a failure, got \(failed)")
            return
        }
        #expect(error.description.hasPrefix("the server's compressed body cannot be decompressed"))
        #expect(!error.description.contains("inflationError"))
        #expect(failedServer.requests.count == 2)
    }

    /// Each way a server's compression goes wrong that browsers and feedparser still read: the
    /// body is the document, whole, in one request.
    @Test(
        "gzip of several members, gzip followed by junk, zlib sent as gzip and a plain body sent as gzip are read",
        arguments: ["members", "trailing", "zlib", "plain"])
    func lenientDecompression(_ kind: String) async throws {
        let feed = Self.rss(items: 20)
        let body: Data =
            switch kind {
            case "members": try Self.gzip(feed.prefix(300)) + Self.gzip(feed.dropFirst(300)) + Self.gzip(Data())
            case "trailing": try Self.gzip(feed) + Data([0, 0, 0]) + Data("garbage".utf8)
            case "zlib": try Self.zlib(feed)
            default: feed
            }
        let route = FixtureServer.Route(
            headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")], body: body)
        let (result, server) = try await Self.fetch("/feed", routes: ["/feed": route])
        let fetched = try Self.body(result)
        #expect(fetched.body == feed)
        #expect(server.requests.count == 1)
        if kind == "plain" {
            #expect(
                fetched.warnings == [
                    "the response says 'Content-Encoding: gzip' but the body is not compressed: read as sent; the"
                        + " server should not send that header"
                ])
        } else {
            #expect(fetched.warnings == [])
        }
    }

    /// A gzip body cut off in the middle (a proxy's timeout, a full disk on the server): asked for
    /// once more uncompressed; a server that sends the whole document then is read as if nothing
    /// happened, one that sends the same cut body again is read as far as it goes, and the
    /// feed says so.
    @Test("a cut-off gzip body is asked for again uncompressed, then read as far as it goes with a warning")
    func cutOffGzip() async throws {
        let feed = Self.rss(items: 50)
        let gzipped = try Self.gzip(feed)
        let cut = FixtureServer.Route(
            headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")],
            body: gzipped.prefix(gzipped.count / 2))
        let (healed, healedServer) = try await Self.fetch("/feed", sequences: ["/feed": [cut, .feed(feed)]])
        #expect(try Self.body(healed).body == feed)
        #expect(try Self.body(healed).warnings == [])
        #expect(healedServer.requests.map { $0.header("Accept-Encoding") } == ["gzip, deflate", "identity"])

        let (partial, partialServer) = try await Self.fetch("/feed", routes: ["/feed": cut])
        let fetched = try Self.body(partial)
        #expect(partialServer.requests.count == 2)
        // What arrived is the document's beginning, up to where the data stops.
        #expect(!fetched.body.isEmpty && fetched.body.count < feed.count)
        #expect(feed.starts(with: fetched.body))
        #expect(
            fetched.warnings == [
                "the server's gzip-compressed body is cut off after \(fetched.body.count) bytes of the feed, even when"
                    + " asked for it uncompressed: read as far as it goes, so later items may be missing; tell the"
                    + " feed's owner"
            ])
    }

    /// A server that dies in the middle of a response: asked again (`retries`); when the last
    /// attempt is cut off too, what arrived is read, and the feed says where it stopped.
    @Test("a body the server cuts off is asked for again, and the last attempt's part is read with a warning")
    func connectionClosedMidBody() async throws {
        let feed = Self.rss(items: 50)
        let cut = FixtureServer.Route(headers: [("Content-Type", "application/rss+xml")], body: feed, closeAfter: 1_000)
        var policy = Self.policy
        policy.retries = 1
        let (healed, healedServer) = try await Self.fetch(
            "/feed", sequences: ["/feed": [cut, .feed(feed)]], policy: policy)
        #expect(try Self.body(healed).body == feed)
        #expect(try Self.body(healed).warnings == [])
        #expect(healedServer.requests.count == 2)

        let (partial, partialServer) = try await Self.fetch("/feed", routes: ["/feed": cut], policy: policy)
        let fetched = try Self.body(partial)
        #expect(partialServer.requests.count == 2)
        #expect(fetched.body == feed.prefix(1_000))
        #expect(
            fetched.warnings == [
                "the server closed the connection after 1000 of the feed's \(feed.count) bytes (its Content-Length),"
                    + " on every attempt: read as far as it goes, so later items may be missing; tell the feed's owner"
            ])

        // With no attempt left and nothing received, it is a failure that says so.
        let empty = FixtureServer.Route(headers: [("Content-Type", "application/rss+xml")], body: feed, closeAfter: 0)
        let (failed, _) = try await Self.fetch("/feed", routes: ["/feed": empty])
        #expect(
            throws: FetchError.transport(
                "the server closed the connection after 0 of the feed's \(feed.count) bytes (its Content-Length)")
        ) {
            try failed.get()
        }
    }

    @Test("bodies over the cap are refused, declared or not, compressed or not")
    func bodyCap() async throws {
        let big = Data(repeating: UInt8(ascii: "a"), count: 200_000)
        let (declared, _) = try await Self.fetch("/big", routes: ["/big": .feed(big)])
        #expect(throws: FetchError.tooLarge(limitBytes: 100_000)) { try declared.get() }
        let bomb = FixtureServer.Route(headers: [("Content-Encoding", "gzip")], body: try Self.gzip(big))
        let (compressed, _) = try await Self.fetch("/bomb", routes: ["/bomb": bomb])
        #expect(throws: FetchError.tooLarge(limitBytes: 100_000)) { try compressed.get() }
    }

    @Test("a slow server and a body that stalls time out, each naming the limit in force")
    func timeouts() async throws {
        // No head within timeout (2 s); read_timeout (5 s) would come later.
        var patient = Self.policy
        patient.timeoutSeconds = 2
        patient.readTimeoutSeconds = 5
        let slow = FixtureServer.Route(body: Data("<rss/>".utf8), delay: .seconds(4))
        let (result, _) = try await Self.fetch("/slow", routes: ["/slow": slow], policy: patient)
        #expect(throws: FetchError.timedOut(.whole(seconds: 2))) { try result.get() }

        // read_timeout (1 s) fires before timeout (30 s), and the message says which.
        let stalling = FixtureServer.Route(body: Data(repeating: UInt8(ascii: "x"), count: 5000), stallAfter: 100)
        var impatient = Self.policy
        impatient.timeoutSeconds = 30
        impatient.readTimeoutSeconds = 1
        let (stalled, _) = try await Self.fetch("/stall", routes: ["/stall": stalling], policy: impatient)
        #expect(throws: FetchError.timedOut(.read(seconds: 1))) { try stalled.get() }
        #expect(
            FetchError.timedOut(.read(seconds: 1)).description
                == "timed out: no complete response headers, nor body data, came for 1 s (read_timeout)")
        #expect(
            FetchError.timedOut(.whole(seconds: 5)).description
                == "timed out: no complete response within 5 s (timeout)")
    }

    @Test("deny_private_networks refuses loopback, private and link-local targets")
    func privateNetworks() async throws {
        var policy = Self.policy
        policy.denyPrivateNetworks = true
        let (result, server) = try await Self.fetch("/feed", routes: ["/feed": .feed(Data())], policy: policy)
        #expect(throws: FetchError.privateNetwork(host: "127.0.0.1")) { try result.get() }
        #expect(server.requests.isEmpty)
        #expect(NetworkAddress.isPrivate(address: [10, 1, 2, 3]))
        #expect(NetworkAddress.isPrivate(address: [192, 168, 0, 1]))
        #expect(NetworkAddress.isPrivate(address: [172, 20, 0, 1]))
        #expect(NetworkAddress.isPrivate(address: [169, 254, 169, 254]))
        #expect(!NetworkAddress.isPrivate(address: [93, 184, 216, 34]))
        #expect(!NetworkAddress.isPrivate(address: [172, 32, 0, 1]))
        #expect(NetworkAddress.isPrivate(host: "localhost"))
        #expect(NetworkAddress.isPrivate(host: "[::1]"))
        #expect(NetworkAddress.isPrivate(address: [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]))
        // IPv6 spellings of an IPv4 address reached through a translator or tunnel: the IPv4 decides.
        #expect(NetworkAddress.isPrivate(host: "[64:ff9b::7f00:1]"))  // NAT64 of 127.0.0.1
        #expect(!NetworkAddress.isPrivate(host: "[64:ff9b::5db8:d822]"))  // NAT64 of 93.184.216.34
        #expect(NetworkAddress.isPrivate(host: "[64:ff9b:1::5db8:d822]"))  // local-use NAT64
        #expect(NetworkAddress.isPrivate(host: "[2002:7f00:1::]"))  // 6to4 of 127.0.0.1
        #expect(NetworkAddress.isPrivate(host: "[2002:a9fe:a9fe::1]"))  // 6to4 of 169.254.169.254
        #expect(!NetworkAddress.isPrivate(host: "[2002:5db8:d822::1]"))  // 6to4 of 93.184.216.34
        #expect(NetworkAddress.isPrivate(host: "[::127.0.0.1]"))  // IPv4-compatible
        #expect(NetworkAddress.isPrivate(host: "[2001:0:4136:e378:8000:63bf:80ff:fffe]"))  // Teredo, client 127.0.0.1
        #expect(!NetworkAddress.isPrivate(host: "[2606:4700::6810:84e5]"))
    }

    @Test("Retry-After accepts seconds and HTTP dates")
    func retryAfterParsing() {
        #expect(FeedFetcher.retryAfterSeconds("120") == 120)
        #expect(FeedFetcher.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0)
        #expect(FeedFetcher.retryAfterSeconds("soon") == nil)
    }
}
