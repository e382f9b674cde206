import Foundation
import Testing

@testable import FeedsiteKit

/// Whole builds with `exclude:`/`include:` rules: what is shown, and how what is left out is
/// accounted for in `status.json`, on the status page and in the build report.
@Suite("Filters in a build", .serialized)
struct FilteringTests {
    @Test("filtered items are counted per rule with its line; another feed may still show the post")
    func build() async throws {
        let news = AccountingTests.rss(
            "News",
            [
                ("n1", "Swift 6 released", "https://news.example/swift-6", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("n2", "Sponsored: a VPN deal", "https://deals.example/vpn", "Mon, 16 Nov 2026 11:00:00 GMT"),
                ("n3", "[Ad] Buy now", "https://news.example/ad", "Mon, 16 Nov 2026 12:00:00 GMT"),
                ("n4", "Rust 2.0", "https://news.example/rust-2", "Mon, 16 Nov 2026 13:00:00 GMT"),
                ("n5", "Another sponsored one", "https://news.example/vpn-2", "Mon, 16 Nov 2026 14:00:00 GMT"),
            ])
        let mirror = AccountingTests.rss(
            "Mirror",
            [("m1", "Sponsored: a VPN deal", "https://deals.example/vpn", "Mon, 16 Nov 2026 11:00:00 GMT")])
        let server = try await FixtureServer(routes: ["/news": .feed(news), "/mirror": .feed(mirror)])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = """
            title: Filters
            retries: 0
            exclude:
              - title: '^\\[Ad\\]'
            feeds:
              - url: \(server.url("/news"))
                exclude: [sponsored]
              - url: \(server.url("/mirror"))

            """
        let report = try await build.run(yaml: yaml)
        try await server.shutdown()
        let status = try AccountingTests.status(build)
        let row = try #require(status["News"])
        #expect(row["read"] as? Int == 5)
        #expect(row["items"] as? Int == 2)
        #expect(row["filtered"] as? Int == 3)
        #expect(AccountingTests.dropped(row)["filtered"] as? Int == 3)
        let rules = try #require(row["filteredBy"] as? [[String: Any]])
        #expect(rules.map { $0["rule"] as? String } == [#"exclude title ~ /^\[Ad\]/"#, #"exclude "sponsored""#])
        #expect(rules.map { $0["line"] as? Int } == [4, 7])
        #expect(rules.map { $0["count"] as? Int } == [1, 2])
        // The mirror's copy is shown: News left its own out, so it is no duplicate.
        #expect(status["Mirror"]?["items"] as? Int == 1)
        #expect(status["Mirror"]?["filtered"] as? Int == 0)
        #expect((AccountingTests.dropped(status["Mirror"])["duplicates"] as? [Any])?.count == 0)
        #expect(
            build.site.itemPages == [
                "items/mirror/sponsored-a-vpn-deal/index.html", "items/news/rust-2-0/index.html",
                "items/news/swift-6-released/index.html",
            ])
        // The status page and the build report say why, with the rule's line.
        let page = build.site.files["status/index.html"] ?? ""
        #expect(page.contains("1 filtered (exclude title ~ /^\\[Ad\\]/, line 4)"), "\(page)")
        #expect(page.contains("2 filtered (exclude &quot;sponsored&quot;, line 7)"), "\(page)")
        let account = try #require(report.accounts.first)
        #expect(account.summary.hasPrefix("read 5, shown 2; dropped: 1 filtered"))
        #expect(account.shown + account.droppedCount == account.read - account.repeated + account.kept)
    }

    @Test("a pattern that backtracks too much on an item's text shows the item and says so at the rule's line")
    func patternGivesUp() async throws {
        // `(a+)+$` on 40 `a`s and a `!` would try 2⁴⁰ ways to split them.
        let hostile = String(repeating: "a", count: 40) + "!"
        let feed = AccountingTests.rss(
            "News",
            [
                ("n1", "Normal post", "https://news.example/normal", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("n2", hostile, "https://news.example/hostile", "Mon, 16 Nov 2026 11:00:00 GMT"),
                ("n3", "Ends in aaa", "https://news.example/aaa", "Mon, 16 Nov 2026 12:00:00 GMT"),
            ])
        let server = try await FixtureServer(routes: ["/news": .feed(feed)])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = """
            title: Filters
            retries: 0
            exclude:
              - title: '(a+)+$'
              - title: '(a|aa)+$'
            feeds:
              - url: \(server.url("/news"))

            """
        let report = try await build.run(yaml: yaml)
        try await server.shutdown()
        let row = try #require(try AccountingTests.status(build)["News"])
        #expect(row["read"] as? Int == 3)
        #expect(row["items"] as? Int == 2)
        #expect(row["filtered"] as? Int == 1)
        #expect(build.site.itemPages.count == 2)
        #expect(build.site.itemPages.contains("items/news/normal-post/index.html"))
        #expect(!build.site.itemPages.contains("items/news/ends-in-aaa/index.html"))
        let account = try #require(report.accounts.first)
        #expect(
            account.summary
                == "read 3, shown 2 (1 because exclude title ~ /(a+)+$/, line 4, gave up on it) (1 because exclude"
                + " title ~ /(a|aa)+$/, line 5, gave up on it); dropped: 1 filtered (exclude title ~ /(a+)+$/, line 4)")
        let warnings = report.diagnostics.filter { $0.message.contains("gave up") }.map(\.description)
        #expect(
            warnings == [
                "feeds.yml:4: warning: exclude title ~ /(a+)+$/ gave up on the text of 1 item in 1 feed, which are "
                    + "shown: the pattern backtracks too much (nested repetition such as '(a+)+' can take "
                    + "exponential time); simplify it",
                // Every rule that gave up is named, not only the first (each slow pattern can be found).
                "feeds.yml:5: warning: exclude title ~ /(a|aa)+$/ gave up on the text of 1 item in 1 feed, which are "
                    + "shown: the pattern backtracks too much (nested repetition such as '(a+)+' can take "
                    + "exponential time); simplify it",
            ])
    }

    @Test("changing the rules rebuilds the site from the saved items: nothing is lost")
    func rulesChange() async throws {
        let feed = AccountingTests.rss(
            "Blog",
            [
                ("b1", "Weekly roundup 12", "https://blog.example/12", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("b2", "On parsers", "https://blog.example/parsers", "Tue, 17 Nov 2026 10:00:00 GMT"),
            ])
        let server = try await FixtureServer(routes: ["/blog": .feed(feed)])
        let build = try TestBuild()
        defer { build.remove() }
        let feeds = "feeds:\n  - url: \(server.url("/blog"))\n"
        _ = try await build.run(yaml: "title: Blog\nretries: 0\ninclude: [parser]\n" + feeds)
        #expect(build.site.itemPages == ["items/blog/on-parsers/index.html"])
        #expect(try AccountingTests.status(build)["Blog"]?["filtered"] as? Int == 1)
        // Offline, from the saved state: the rule is gone, the item is back.
        _ = try await build.run(yaml: "title: Blog\nretries: 0\n" + feeds, offline: true)
        try await server.shutdown()
        #expect(
            build.site.itemPages == ["items/blog/on-parsers/index.html", "items/blog/weekly-roundup-12/index.html"])
        #expect(try AccountingTests.status(build)["Blog"]?["filtered"] as? Int == 0)
    }
}
