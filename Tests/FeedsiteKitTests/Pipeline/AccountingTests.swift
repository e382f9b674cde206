import Foundation
import Testing

@testable import FeedsiteKit

/// Whole builds against feeds written by hand: which posts are shown, and how every item read that
/// is not shown is accounted for in `status/status.json`.
@Suite("Identity and accounting", .serialized)
struct AccountingTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z

    /// An RSS 2.0 document; each item is (guid, title, link, pubDate), any of them optional.
    static func rss(_ title: String, _ items: [(guid: String?, title: String, link: String?, date: String?)]) -> Data {
        var xml = "<rss version=\"2.0\"><channel><title>\(title)</title><link>https://site.example/</link>"
        for item in items {
            xml += "<item><title>\(item.title)</title>"
            if let guid = item.guid { xml += "<guid isPermaLink=\"false\">\(guid)</guid>" }
            if let link = item.link { xml += "<link>\(link)</link>" }
            if let date = item.date { xml += "<pubDate>\(date)</pubDate>" }
            xml += "</item>"
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    /// `status/status.json`'s rows by name.
    static func status(_ build: TestBuild) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: build.output.appendingPathComponent("status/status.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let feeds = try #require(object["feeds"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: feeds.map { ($0["name"] as? String ?? "", $0) })
    }

    static func dropped(_ row: [String: Any]?) -> [String: Any] {
        row?["dropped"] as? [String: Any] ?? [:]
    }

    @Test("fragments tell posts apart, an empty href is no link, and bare ids belong to their feed")
    func identity() async throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title><id>urn:a</id><updated>2026-11-10T00:00:00Z</updated>
            <entry><id>tag:a.example,2026:1</id><title>A one</title><link rel="alternate" href=""/><updated>2026-11-10T00:00:00Z</updated></entry>
            <entry><id>tag:a.example,2026:2</id><title>A two</title><link rel="alternate" href=""/><updated>2026-11-11T00:00:00Z</updated></entry>
            <entry><id>tag:a.example,2026:3</id><title>A three</title><link rel="alternate" href=""/><updated>2026-11-12T00:00:00Z</updated></entry>
            </feed>
            """
        let server = try await FixtureServer(routes: [
            "/day": .feed(
                Self.rss(
                    "Day",
                    [
                        (nil, "Morning", "http://scripting.example/2026/11/10.html#a080605", nil),
                        (nil, "Noon", "http://scripting.example/2026/11/10.html#a120000", nil),
                        (nil, "Evening", "http://scripting.example/2026/11/10.html#a190000", nil),
                    ])),
            "/atom": .feed(Data(atom.utf8)),
            "/first": .feed(
                Self.rss(
                    "First",
                    [
                        ("1", "First one", "https://one.example/a", "Tue, 10 Nov 2026 10:00:00 GMT"),
                        ("2", "First two", "https://one.example/b", "Wed, 11 Nov 2026 10:00:00 GMT"),
                    ])),
            "/second": .feed(
                Self.rss(
                    "Second",
                    [
                        ("1", "Second one", "https://two.example/a", "Tue, 10 Nov 2026 10:00:00 GMT"),
                        ("2", "Second two", "https://two.example/b", "Wed, 11 Nov 2026 10:00:00 GMT"),
                    ])),
            "/copy": .feed(
                Self.rss(
                    "Copy",
                    [
                        ("9", "Copied", "http://www.one.example/a/?utm_source=copy", "Tue, 10 Nov 2026 10:00:00 GMT"),
                        ("10", "Own", "https://copy.example/own", "Tue, 10 Nov 2026 11:00:00 GMT"),
                    ])),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await build.run(
            yaml: "title: Identity\nretries: 0\nfeeds:\n"
                + ["/day", "/atom", "/first", "/second", "/copy"].map { "  - url: \(server.url($0))\n" }.joined())
        try await server.shutdown()
        let status = try Self.status(build)
        #expect(status["Day"]?["items"] as? Int == 3)
        #expect(status["Atom"]?["items"] as? Int == 3)
        #expect(status["First"]?["items"] as? Int == 2)
        #expect(status["Second"]?["items"] as? Int == 2)
        #expect(status["Copy"]?["items"] as? Int == 1)
        #expect(report.itemCount == 11)
        // The copy of First's post is accounted for, naming First.
        #expect(status["Copy"]?["read"] as? Int == 2)
        let duplicates = Self.dropped(status["Copy"])["duplicates"] as? [[String: Any]]
        #expect(duplicates?.count == 1)
        #expect(duplicates?.first?["feedName"] as? String == "First")
        #expect(duplicates?.first?["title"] as? String == "Copied")
        // An empty href is no link: no "original article" pointing at the feed itself.
        let atomItems = build.site.itemPages.filter { $0.hasPrefix("items/atom/") }
        #expect(atomItems.count == 3)
        for page in atomItems {
            #expect(build.site.files[page]?.contains(server.url("/atom").absoluteString) == false, "\(page)")
        }
    }

    @Test("every dropped item has a reason: repeated id, max_items, future date, keep_days")
    func reasons() async throws {
        let first = Self.rss(
            "Counted",
            [
                ("g1", "One", "https://c.example/1", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("g2", "Two", "https://c.example/2", "Tue, 17 Nov 2026 10:00:00 GMT"),
                ("g3", "Tomorrow", "https://c.example/3", "Sat, 28 Nov 2026 10:00:00 GMT"),
                ("g1", "One repeated", "https://c.example/1", "Mon, 16 Nov 2026 10:00:00 GMT"),
            ])
        let later = Self.rss("Counted", [("g5", "Five", "https://c.example/5", "Sun, 27 Dec 2026 10:00:00 GMT")])
        let server = try await FixtureServer(routes: [:], sequences: ["/feed": [.feed(first), .feed(later)]])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = """
            title: Counting
            retries: 0
            future_dates: drop
            keep_days: 30
            feeds:
              - url: \(server.url("/feed"))
                max_items: 1

            """
        _ = try await build.run(yaml: yaml, now: Self.now)
        var row = try Self.status(build)["Counted"]
        // 4 entries: g1 twice (one post), g3 in the future, and of g1 and g2 only the newest (max_items: 1).
        #expect(row?["read"] as? Int == 4)
        #expect(row?["items"] as? Int == 1)
        #expect(Self.dropped(row)["repeatedId"] as? Int == 1)
        #expect(Self.dropped(row)["futureDate"] as? Int == 1)
        #expect(Self.dropped(row)["maxItems"] as? Int == 1)
        #expect(Self.dropped(row)["keepDays"] as? Int == 0)
        #expect(build.site.itemPages == ["items/counted/two/index.html"])

        // 40 days later the feed holds one new item: the three that left are past keep_days.
        _ = try await build.run(yaml: yaml, now: Self.now.addingTimeInterval(40 * 86_400))
        try await server.shutdown()
        row = try Self.status(build)["Counted"]
        #expect(row?["read"] as? Int == 1)
        #expect(row?["items"] as? Int == 1)
        #expect(row?["kept"] as? Int == 0)
        #expect(Self.dropped(row)["keepDays"] as? Int == 3)
        let page = build.site.files["status/index.html"] ?? ""
        #expect(page.contains("read 1, shown 1; dropped: 3 older than keep_days"), "\(page)")

        // A build that reads nothing (--offline) does not say it read the feed.
        _ = try await build.run(yaml: yaml, offline: true, now: Self.now.addingTimeInterval(40 * 86_400))
        let offlinePage = build.site.files["status/index.html"] ?? ""
        #expect(offlinePage.contains("1 in the feed when last read, shown 1"), "\(offlinePage)")
        #expect(!offlinePage.contains("read 1,"), "\(offlinePage)")
        #expect(try Self.status(build)["Counted"]?["read"] as? Int == 1)
    }

    @Test("a title without Latin letters gets the hash slug, not its digits")
    func hashSlugs() async throws {
        let server = try await FixtureServer(routes: [
            "/cn": .feed(
                Self.rss(
                    "20 周年",
                    [("cn-1", "建国35周年纪念，华表，和平鸽", "https://cn.example/35", "Tue, 10 Nov 2026 10:00:00 GMT")]))
        ])
        let build = try TestBuild()
        defer { build.remove() }
        _ = try await build.run(yaml: "title: Slugs\nretries: 0\nfeeds:\n  - url: \(server.url("/cn"))\n")
        try await server.shutdown()
        let feedSlug = "feed-" + Slug.hash(server.url("/cn").absoluteString)
        #expect(build.site.itemPages == ["items/\(feedSlug)/item-\(Slug.hash("cn-1"))/index.html"])
    }

    @Test("state saved under the former keys keeps its slugs and first-seen dates")
    func formerState() async throws {
        // Two posts share a day page's link (the former rule kept only the first, keyed by the
        // link); one has an empty link (keyed `title#position`); one has a guid.
        let feed = Self.rss(
            "Upgraded",
            [
                (nil, "Alpha", "https://u.example/day", "Tue, 17 Nov 2026 10:00:00 GMT"),
                (nil, "Beta", "https://u.example/day", "Tue, 17 Nov 2026 09:00:00 GMT"),
                (nil, "Gamma", "", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("id-9", "Delta", "https://u.example/d", "Sun, 15 Nov 2026 10:00:00 GMT"),
            ])
        let server = try await FixtureServer(routes: ["/feed": .feed(feed)])
        let build = try TestBuild()
        defer { build.remove() }
        let url = server.url("/feed").absoluteString
        // As feedsite wrote state.json before this rule (no field this rule added).
        func stored(_ key: String, _ slug: String, _ title: String, _ link: String?) -> String {
            let link = link.map { #","link":"\#($0)""# } ?? ""
            return #"""
                {"firstSeen":"2026-10-01T00:00:00Z","isInFeed":true,"item":{"authors":[],"categories":[],"content":{"html":""},"enclosures":[],"excerpt":"","feedName":"Upgraded","feedSlug":"upgraded"\#(link),"slug":"\#(slug)","title":"\#(title)","wordCount":0},"key":"\#(key)"}
                """#
        }
        let items = [
            stored("https://u.example/day", "alpha-kept", "Alpha", "https://u.example/day"),
            stored("Gamma#2", "gamma-kept", "Gamma", url),
            stored("id-9", "delta-kept", "Delta", "https://u.example/d"),
        ]
        let state =
            #"{"feeds":{""# + url
            + #"":{"channel":{"title":"Upgraded"},"health":{"consecutiveFailures":0,"lastSuccess":"2026-10-01T00:00:00Z"},"items":["#
            + items.joined(separator: ",") + #"],"slug":"upgraded"}},"version":1}"#
        let stateDirectory = build.work.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        try Data(state.utf8).write(to: stateDirectory.appendingPathComponent("state.json"))

        let report = try await build.run(
            yaml: "title: Upgrade\nretries: 0\nfeeds:\n  - url: \(url)\n", stateDirectory: stateDirectory, now: Self.now
        )
        try await server.shutdown()
        #expect(report.newItemCount == 1)
        #expect(
            Set(build.site.itemPages) == [
                "items/upgraded/alpha-kept/index.html", "items/upgraded/beta/index.html",
                "items/upgraded/gamma-kept/index.html", "items/upgraded/delta-kept/index.html",
            ])
        let (saved, _) = StateStore.decode(
            try Data(contentsOf: stateDirectory.appendingPathComponent("state.json")), origin: "test", trusted: true)
        let firstSeen = Dictionary(
            uniqueKeysWithValues: (saved.feeds[url]?.items ?? []).map { ($0.item.title, $0.firstSeen) })
        let october = Date(timeIntervalSince1970: 1_790_812_800)  // 2026-10-01T00:00:00Z
        #expect(firstSeen == ["Alpha": october, "Beta": Self.now, "Gamma": october, "Delta": october])
        #expect(saved.feeds[url]?.items.count == 4)
    }
}
