import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

@Suite("Site generator", .serialized)
struct SiteGeneratorTests {
    @Test("a URL that serves a web page is followed to the feed it links, with advice to use that URL")
    func webPageDiscovery() async throws {
        let page = """
            <!DOCTYPE html><html><head><title>Blog</title>
            <link rel="alternate" type="application/atom+xml" title="Feed" href="/releases.atom">
            </head><body><p>Hello</p></body></html>
            """
        let server = try await FixtureServer(routes: [
            "/blog": .feed(Data(page.utf8), contentType: "text/html"),
            "/releases.atom": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml")),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await build.run(server: server, feeds: [("/blog", "Blog")])
        try await server.shutdown()
        #expect(report.itemCount == 4)
        let advice = report.diagnostics.map(\.description)
        #expect(
            advice == [
                "feeds.yml:4: warning: \(server.url("/blog")) is a web page; its feed is \(server.url("/releases.atom")) — use that"
            ])
    }

    @Test("a web page that links no feed fails that feed with a clear reason")
    func webPageWithoutFeed() async throws {
        let server = try await FixtureServer(routes: [
            "/page": .feed(Data("<!DOCTYPE html><html><body>hi</body></html>".utf8), contentType: "text/html"),
            "/feed": .feed(try Fixtures.data("real-feeds/substack-rss2.xml")),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await build.run(server: server, feeds: [("/page", "Page"), ("/feed", nil)])
        try await server.shutdown()
        let failure = try #require(report.records.first?.failure)
        guard case .pageWithoutFeed(let page, linked: nil) = failure else {
            Issue.record("not a page without a feed: \(failure)")
            return
        }
        #expect(page.isHTMLPage)
        #expect(failure.description.contains("HTML page, not a feed"))
        #expect(failure.description.hasSuffix("and it links to no feed either; check the feed's address"))
        #expect(report.records.last?.failure == nil)
    }

    @Test("the HTTP charset reaches the parser (a Latin-1 feed without declaration)")
    func charsetFromHeader() async throws {
        let latin1 =
            "<rss version=\"2.0\"><channel><title>Caf\u{E9}</title><item><title>\u{DC}ber</title><link>http://x.example/1</link></item></channel></rss>"
        let server = try await FixtureServer(routes: [
            "/feed": .feed(latin1.data(using: .isoLatin1)!, contentType: "application/rss+xml; charset=ISO-8859-1")
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await build.run(server: server, feeds: [("/feed", nil)])
        try await server.shutdown()
        #expect(report.itemCount == 1)
        #expect(build.site.files["feeds/cafe/index.html"]?.contains("<bdi>Café</bdi></h1>") == true)
        #expect(build.site.itemPages == ["items/cafe/uber/index.html"])
    }
}

@Suite("Per-host politeness", .serialized)
struct PerHostTests {
    @Test("per_host bounds the requests in flight to one host; loopback is unlimited by default")
    func perHostLimit() async throws {
        var routes: [String: FixtureServer.Route] = [:]
        for index in 0..<6 {
            var route = FixtureServer.Route.feed(try Fixtures.data("real-feeds/substack-rss2.xml"))
            route.delay = .milliseconds(400)
            routes["/feed\(index)"] = route
        }
        let server = try await FixtureServer(routes: routes)
        let build = try TestBuild()
        defer { build.remove() }
        var feeds = ""
        for index in 0..<6 { feeds += "  - url: \(server.url("/feed\(index)"))\n" }
        let start = ContinuousClock.now
        _ = try await build.run(yaml: "title: Polite\nper_host: 2\nfeeds:\n" + feeds)
        // 6 requests of 400 ms, two at a time: at least three rounds.
        #expect(ContinuousClock.now - start >= .milliseconds(1150))
        try await server.shutdown()

        #expect(FetchPolicy().perHostLimit(for: "example.com") == 2)
        #expect(FetchPolicy().perHostLimit(for: "127.0.0.1") == Int.max)
        #expect(FetchPolicy().perHostLimit(for: "[::1]") == Int.max)
        #expect(FetchPolicy(perHostConcurrency: 3).perHostLimit(for: "127.0.0.1") == 3)
    }

    @Test("--concurrency requests are in flight at once, never more, while earlier feeds are being read")
    func concurrencyBound() async throws {
        // Twelve slow feeds, four at a time: the server must see exactly four requests at once.
        // A fetch slot is freed when its body arrives (reading runs separately), so the bound is
        // both respected and reached.
        var routes: [String: FixtureServer.Route] = [:]
        for index in 0..<12 {
            var route = FixtureServer.Route.feed(try Fixtures.data("real-feeds/substack-rss2.xml"))
            route.delay = .milliseconds(300)
            routes["/feed\(index)"] = route
        }
        let server = try await FixtureServer(routes: routes)
        let build = try TestBuild()
        defer { build.remove() }
        var feeds = ""
        for index in 0..<12 { feeds += "  - url: \(server.url("/feed\(index)"))\n" }
        let report = try await build.run(yaml: "title: Bounded\nfeeds:\n" + feeds, concurrency: 4)
        try await server.shutdown()
        #expect(server.requests.count == 12)
        #expect(server.maxInFlight == 4)
        #expect(report.records.allSatisfy { $0.failure == nil })
        #expect(report.records.map(\.source.url.path) == (0..<12).map { "/feed\($0)" })
    }
}
