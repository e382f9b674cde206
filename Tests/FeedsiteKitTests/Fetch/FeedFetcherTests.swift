import Foundation
import NIOHTTP1
import Testing

@testable import FeedsiteKit

@Suite("Feed fetcher", .serialized)
struct FeedFetcherTests {
    static let options = FeedFetcher.Options(
        timeoutSeconds: 2, maxBodyBytes: 100_000, maxRedirects: 5,
        userAgent: FeedFetcher.Options.userAgent(baseURL: URL(string: "https://planet.example/")))

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

    static func fetch(
        _ path: String, routes: [String: FixtureServer.Route]
    ) async throws -> (
        Result<FetchedFeed, FetchError>, FixtureServer
    ) {
        let server = try await FixtureServer(routes: routes)
        let result = try await FeedFetcher.withFetcher(options: options) { fetcher in
            await fetcher.fetch(server.url(path))
        }
        try await server.shutdown()
        return (result, server)
    }

    @Test("a feed is fetched with an identifying User-Agent and gzip accepted")
    func identifies() async throws {
        let (result, server) = try await Self.fetch("/feed", routes: ["/feed": .feed(Data("<rss/>".utf8))])
        let fetched = try result.get()
        #expect(fetched.body == Data("<rss/>".utf8))
        #expect(fetched.status == 200)
        #expect(fetched.contentType == "application/xml")
        let request = try #require(server.requests.first)
        #expect(request.header("User-Agent") == "feedsite/\(Feedsite.version) (+https://planet.example/)")
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test("a gzip body is decompressed")
    func gzip() async throws {
        let body = Data(String(repeating: "<item>x</item>", count: 500).utf8)
        let route = FixtureServer.Route(
            headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")], body: try Self.gzip(body))
        let (result, _) = try await Self.fetch("/feed", routes: ["/feed": route])
        #expect(try result.get().body == body)
    }

    @Test("redirects are followed and the final URL is the base for the feed")
    func redirects() async throws {
        let routes: [String: FixtureServer.Route] = [
            "/old": .init(status: .movedPermanently, headers: [("Location", "/middle")]),
            "/middle": .init(status: .found, headers: [("Location", "/new/feed.xml")]),
            "/new/feed.xml": .feed(Data("<rss/>".utf8)),
        ]
        let (result, server) = try await Self.fetch("/old", routes: routes)
        #expect(try result.get().finalURL == server.url("/new/feed.xml"))
    }

    @Test("a redirect loop and too many redirects are errors")
    func redirectLoop() async throws {
        let loop: [String: FixtureServer.Route] = [
            "/a": .init(status: .found, headers: [("Location", "/b")]),
            "/b": .init(status: .found, headers: [("Location", "/a")]),
        ]
        let (result, _) = try await Self.fetch("/a", routes: loop)
        #expect(throws: FetchError.tooManyRedirects(limit: 5)) { try result.get() }

        var chain: [String: FixtureServer.Route] = [:]
        for step in 0..<7 { chain["/r\(step)"] = .init(status: .found, headers: [("Location", "/r\(step + 1)")]) }
        chain["/r7"] = .feed(Data("<rss/>".utf8))
        let (long, _) = try await Self.fetch("/r0", routes: chain)
        #expect(throws: FetchError.tooManyRedirects(limit: 5)) { try long.get() }
    }

    @Test("HTTP errors carry status and reason")
    func httpErrors() async throws {
        let (missing, _) = try await Self.fetch("/nope", routes: [:])
        #expect(throws: FetchError.http(status: 404, reason: "Not Found")) { try missing.get() }
        #expect(FetchError.http(status: 404, reason: "Not Found").description == "HTTP 404 Not Found")
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

    @Test("a slow server times out; a closed port is connection refused")
    func timeouts() async throws {
        let slow = FixtureServer.Route(body: Data("<rss/>".utf8), delay: .seconds(4))
        let (result, _) = try await Self.fetch("/slow", routes: ["/slow": slow])
        #expect(throws: FetchError.timedOut(seconds: 2)) { try result.get() }

        let refused = try await FeedFetcher.withFetcher(options: Self.options) { fetcher in
            await fetcher.fetch(URL(string: "http://127.0.0.1:9/feed")!)
        }
        guard case .failure(.transport(let message)) = refused else {
            Issue.record("expected a transport error, got \(refused)")
            return
        }
        #expect(message.contains("connection refused"))
    }
}
