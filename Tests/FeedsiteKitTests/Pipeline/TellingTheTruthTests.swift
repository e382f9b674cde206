import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// What the site and the terminal say about feeds is true: a build that did not fetch says so and
/// keeps each feed's last health, a web page's feed is remembered and listed, a twin entry is
/// shown once, and feeds are named by their titles.
@Suite("Telling the truth", .serialized)
struct TellingTheTruthTests {
    static func rss(_ title: String, _ slugs: [String]) -> Data {
        var xml = "<rss version=\"2.0\"><channel><title>\(title)</title><link>https://site.example/</link>"
        for (index, slug) in slugs.enumerated() {
            xml +=
                "<item><title>\(title) \(slug)</title><link>https://site.example/\(slug)</link><pubDate>Tue, 1\(index) Nov 2026 10:00:00 GMT</pubDate></item>"
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    static func rows(_ build: TestBuild) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: build.output.appendingPathComponent("status/status.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let feeds = try #require(object["feeds"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: feeds.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test("--offline keeps each feed's last health and HTTP status and says it was not fetched")
    func offlineHealth() async throws {
        let server = try await FixtureServer(routes: ["/ok": .feed(Self.rss("Fine", ["a", "b"]))])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = """
            title: Offline
            retries: 0
            feeds:
              - url: \(server.url("/ok"))
              - url: \(server.url("/missing"))
                name: Missing

            """
        _ = try await build.run(yaml: yaml)
        let requests = server.requests.count
        let offline = try await build.run(yaml: yaml, offline: true)
        try await server.shutdown()
        #expect(server.requests.count == requests)
        #expect(offline.summary.hasPrefix("rendered "), "\(offline.summary)")
        #expect(offline.summary.contains("from saved state"))
        let rows = try Self.rows(build)
        #expect(rows["Missing"]?["health"] as? String == "failing")
        #expect(rows["Missing"]?["httpStatus"] as? Int == 404)
        #expect(rows["Missing"]?["fetched"] as? Bool == false)
        #expect(rows["Missing"]?["note"] as? String == "not fetched in this build")
        #expect((rows["Missing"]?["lastError"] as? String)?.contains("404") == true)
        #expect(rows["Fine"]?["health"] as? String == "ok")
        #expect(rows["Fine"]?["httpStatus"] as? Int == 200)
        #expect(rows["Fine"]?["items"] as? Int == 2)
        let page = build.site.files["status/index.html"] ?? ""
        #expect(page.contains("Rendered from saved state: no feed was fetched in this build."))
        #expect(!page.contains("refreshed in the last build"))
        #expect(page.contains("not fetched in this build"))
    }

    @Test("two entries that differ only by a #fragment (never sent) are one feed: shown once, and the second is named")
    func fragmentTwin() async throws {
        let server = try await FixtureServer(routes: ["/ok": .feed(Self.rss("Fine", ["a", "b"]))])
        let build = try TestBuild()
        defer { build.remove() }
        let url = server.url("/ok").absoluteString
        // The same URL spelt other ways: `/./` got a feed page of its own with no items (found by a
        // hostile-configuration review).
        let spellings = [
            url + "#top", url.replacingOccurrences(of: "http://", with: "HTTP://"),
            url.replacingOccurrences(of: "/ok", with: "/./ok"), url.replacingOccurrences(of: "/ok", with: "/x/../ok"),
        ]
        let report = try await build.run(
            yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(url)\n" + spellings.map { "  - url: \($0)\n" }.joined())
        try await server.shutdown()
        let twin = report.diagnostics.filter { $0.message.contains("reads the same feed as line 4") }
        #expect(twin.count == spellings.count, "\(report.diagnostics)")
        let index = build.site.files["index.html"] ?? ""
        #expect(index.components(separatedBy: "<li><a href=\"feeds/").count - 1 == 1, "\(index)")
    }

    @Test("a feed added while offline gets no slug, page or ok until it is fetched")
    func addedOffline() async throws {
        let server = try await FixtureServer(routes: [
            "/a": .feed(Self.rss("Alpha", ["a1"])), "/b": .feed(Self.rss("Bravo Blog", ["b1", "b2"])),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let one = "title: T\nretries: 0\nfeeds:\n  - url: \(server.url("/a"))\n"
        let two = one + "  - url: \(server.url("/b"))\n"
        _ = try await build.run(yaml: one)
        let offline = try await build.run(yaml: two, offline: true)
        let host = try #require(server.url("/b").host)
        let row = try Self.rows(build)[host]
        #expect(row?["health"] as? String == "pending")
        #expect(row?["note"] as? String == "not fetched yet")
        #expect(row?["page"] == nil)
        #expect(!build.site.pages.contains { $0.hasPrefix("feeds/") && !$0.hasPrefix("feeds/alpha/") })
        #expect(offline.diagnostics.contains { $0.message.contains("not fetched yet") })
        let state = StateStore(directory: build.work.appendingPathComponent("state"))
        #expect(state.loadAll().0.feeds[server.url("/b").absoluteString] == nil)

        _ = try await build.run(yaml: two)
        try await server.shutdown()
        #expect(build.site.files["feeds/bravo-blog/index.html"] != nil)
        #expect(try Self.rows(build)["Bravo Blog"]?["health"] as? String == "ok")
    }

    @Test("serve's re-render after a feeds.yml edit fetches only the new feed and says the rest are saved")
    func onlyNewFeeds() async throws {
        let server = try await FixtureServer(routes: [
            "/a": .feed(Self.rss("Alpha", ["a1"])), "/b": .feed(Self.rss("Bravo", ["b1"])),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let one = "title: T\nretries: 0\nfeeds:\n  - url: \(server.url("/a"))\n"
        _ = try await build.run(yaml: one)
        try Data(TestBuild.patient(one + "  - url: \(server.url("/b"))\n").utf8).write(to: build.config)
        var options = SiteGenerator.Options(
            configFile: build.config, outputDirectory: build.output,
            templatesDirectory: Fixtures.repositoryRoot.appendingPathComponent("Templates"),
            stateDirectory: build.work.appendingPathComponent("state"), now: Date(timeIntervalSince1970: 1_795_000_000))
        options.onlyNewFeeds = true
        options.fetchesAvatars = false
        let report = try await SiteGenerator(options: options).build()
        try await server.shutdown()
        #expect(server.requests.filter { $0.path == "/a" }.count == 1)
        #expect(server.requests.filter { $0.path == "/b" }.count == 1)
        #expect(report.summary.contains("from 1 of 1 fetched feeds and 1 from saved state"), "\(report.summary)")
        let rows = try Self.rows(build)
        #expect(rows["Alpha"]?["note"] as? String == "not fetched in this build")
        #expect(rows["Bravo"]?["note"] == nil)
        let page = build.site.files["status/index.html"] ?? ""
        #expect(page.contains("1 of 1 fetched feed refreshed in this build; 1 more rendered from saved state"))
    }

    /// `/page`, a web page linking its feed `/feed.xml` ("Found Blog", items f1 and f2).
    static func pageAndFeed() async throws -> FixtureServer {
        let html = """
            <!doctype html><html><head><title>Found</title>
            <link rel="alternate" type="application/rss+xml" title="Feed" href="/feed.xml"></head><body>Hi</body></html>
            """
        return try await FixtureServer(routes: [
            "/page": FixtureServer.Route(headers: [("Content-Type", "text/html")], body: Data(html.utf8)),
            "/feed.xml": .feed(Self.rss("Found Blog", ["f1", "f2"])),
        ])
    }

    /// A saved state is anyone's file: its `discoveredURL` could send a feed's requests to an
    /// internal host, whose answer the site would publish.
    @Test("a saved feed URL discovered on another host than the page's is not requested; the page is read again")
    func discoveredURLOnAnotherHost() async throws {
        let server = try await Self.pageAndFeed()
        let elsewhere = try await FixtureServer(routes: ["/secret.xml": .feed(Self.rss("Internal", ["s1"]))])
        let build = try TestBuild()
        defer { build.remove() }
        let page = server.url("/page").absoluteString
        let yaml = "title: T\nretries: 0\nfeeds:\n  - url: \(page)\n"
        _ = try await build.run(yaml: yaml)
        let store = StateStore(directory: build.work.appendingPathComponent("state"))
        var (state, _) = store.loadAll()
        state.feeds[page]?.discoveredURL = elsewhere.url("/secret.xml").absoluteString
        _ = try store.save(state)

        let before = server.requests.count
        let second = try await build.run(yaml: yaml)
        #expect(elsewhere.requests.isEmpty)
        #expect(server.requests.dropFirst(before).map(\.path) == ["/page", "/feed.xml"])
        #expect(
            second.diagnostics.contains { $0.message.hasSuffix("its feed is \(server.url("/feed.xml")) — use that") })
        #expect(!(build.site.files["index.html"] ?? "").contains("Internal"))
        try await server.shutdown()
        try await elsewhere.shutdown()
    }

    @Test("a web page's feed is remembered, read directly, listed in opml.xml and status, and warned about")
    func webPage() async throws {
        let server = try await Self.pageAndFeed()
        let build = try TestBuild()
        defer { build.remove() }
        let page = server.url("/page").absoluteString
        let feed = server.url("/feed.xml").absoluteString
        let notice = "\(page) is a web page; its feed is \(feed) — use that"
        let first = try await build.run(yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(page)\n")
        #expect(first.diagnostics.contains { $0.message == notice })
        let itemPages = build.site.itemPages
        #expect(itemPages.count == 2)

        // Next time the feed is read directly, and the advice is repeated.
        let before = server.requests.count
        let second = try await build.run(yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(page)\n")
        #expect(server.requests.dropFirst(before).map(\.path) == ["/feed.xml"])
        #expect(second.diagnostics.contains { $0.message == notice })
        let opml = build.site.files["opml.xml"] ?? ""
        #expect(opml.contains("xmlUrl=\"\(feed)\""), "\(opml)")
        #expect(!opml.contains("xmlUrl=\"\(page)\""))
        let row = try Self.rows(build)["Found Blog"]
        #expect(row?["url"] as? String == feed)
        #expect(row?["configuredURL"] as? String == page)

        // feeds.yml now names the feed: no advice, and the items keep their pages.
        let third = try await build.run(yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(feed)\n")
        #expect(!third.diagnostics.contains { $0.message.contains("is a web page") })
        #expect(third.newItemCount == 0)
        #expect(build.site.itemPages == itemPages)

        // Both in feeds.yml: the feed is shown once, under the entry that names it; no empty twin.
        let both = try await build.run(yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(page)\n  - url: \(feed)\n")
        try await server.shutdown()
        let index = build.site.files["index.html"] ?? ""
        #expect(index.components(separatedBy: "<li><a href=\"feeds/").count - 1 == 1, "\(index)")
        #expect(build.site.itemPages == itemPages)
        #expect(both.diagnostics.contains { $0.message.contains("reads the same feed as line 5") })
        let twinOPML = build.site.files["opml.xml"] ?? ""
        #expect(twinOPML.components(separatedBy: "<outline ").count - 1 == 1)
    }

    @Test("a feed listed beside the web page that was listed before keeps the page's slug")
    func twinKeepsSlug() async throws {
        let server = try await Self.pageAndFeed()
        let build = try TestBuild()
        defer { build.remove() }
        let page = server.url("/page").absoluteString
        let feed = server.url("/feed.xml").absoluteString
        _ = try await build.run(yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(page)\n")
        let itemPages = build.site.itemPages
        #expect(itemPages.count == 2 && itemPages.allSatisfy { $0.hasPrefix("items/found-blog/") }, "\(itemPages)")
        #expect(build.site.files["feeds/found-blog/index.html"] != nil)

        // The feed itself is added below the page: it shows the feed now, at the same addresses.
        _ = try await build.run(yaml: "title: T\nretries: 0\nfeeds:\n  - url: \(page)\n  - url: \(feed)\n")
        try await server.shutdown()
        #expect(build.site.itemPages == itemPages)
        #expect(build.site.files["feeds/found-blog/index.html"] != nil)
        let index = build.site.files["index.html"] ?? ""
        #expect(index.components(separatedBy: "<li><a href=\"feeds/").count - 1 == 1, "\(index)")
    }

    @Test("warnings name a feed by its title once known, not by its host")
    func titlesInWarnings() async throws {
        let server = try await FixtureServer(
            routes: ["/b": .feed(Self.rss("Bravo", ["b1"]))],
            sequences: ["/a": [.feed(Self.rss("Alpha Blog", ["a1"])), .status(.internalServerError, body: "down")]])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: T\nretries: 0\nfeeds:\n  - url: \(server.url("/a"))\n  - url: \(server.url("/b"))\n"
        _ = try await build.run(yaml: yaml)
        let report = try await build.run(yaml: yaml)
        try await server.shutdown()
        let warning = report.diagnostics.first { $0.message.contains("HTTP 500") }
        #expect(
            warning?.message.hasPrefix("feed 'Alpha Blog' (\(server.url("/a")))") == true,
            "\(String(describing: warning))")
        #expect(ReportFormatter.stepSummary(report).contains("[Alpha Blog]"))
    }

    /// A saved state's keys, a server's words and a feed's text reach the terminal and the CI log:
    /// their escape sequences cleared the screen and retitled the window.
    @Test("control characters in a diagnostic are written out, not sent to the terminal or the CI log")
    func controlCharactersArePrinted() {
        let diagnostic = Diagnostic.warning("feed \"a\u{1B}[2J\u{1B}]0;title\u{07}\u{9B}b\u{7F}\"\tkept\nlines")
        let expected = #"feed "a\u{1B}[2J\u{1B}]0;title\u{7}\u{9B}b\u{7F}""# + "\tkept\nlines"
        #expect(ReportFormatter.line(diagnostic, color: false) == "warning: " + expected)
        let colored = ReportFormatter.line(diagnostic, color: true)
        #expect(colored.hasSuffix(" " + expected))
        #expect(colored.filter { $0 == "\u{1B}" }.count == 2, "only feedsite's own colour codes")
        #expect(
            !ReportFormatter.annotation(diagnostic).unicodeScalars.contains {
                ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F
            })
        #expect(ReportFormatter.printable("naïve 🚀 text") == "naïve 🚀 text")
    }
}
