import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// The front page's per-feed cap and the day headings of list pages.
@Suite("Front page and day headings")
struct FrontPageTests {
    /// Items named by feed and number (`A1` is feed `a`'s newest), in the given order (newest first),
    /// an hour apart.
    static func items(_ names: [String]) -> [SiteItem] {
        names.enumerated().map { index, name in
            SiteItem(
                slug: name.lowercased(), feedSlug: String(name.prefix(1)).lowercased(),
                feedName: String(name.prefix(1)),
                title: name, link: nil, authors: [],
                date: Date(timeIntervalSince1970: 1_795_000_000 - Double(index) * 3600),
                content: .empty, excerpt: "", categories: [], enclosures: [])
        }
    }

    /// (items newest first, page size, per feed, the arranged order): each worked out by hand.
    static let cases: [(items: [String], size: Int, perFeed: Int, expected: [String])] = [
        // A busy feed: two of it, then the next feeds fill the page; the rest follow by date.
        (
            ["A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "C1", "C2"], 5, 2,
            ["A1", "A2", "B1", "B2", "C1", "A3", "A4", "A5", "A6", "C2"]
        ),
        // Too few other items: the page is filled up with the newest held back, in date order.
        (
            ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "B1"], 5, 2,
            ["A1", "A2", "A3", "A4", "B1", "A5", "A6", "A7", "A8"]
        ),
        // One feed alone: nothing moves.
        (["A1", "A2", "A3", "A4", "A5", "A6", "A7"], 5, 2, ["A1", "A2", "A3", "A4", "A5", "A6", "A7"]),
        // 0: no cap.
        (["A1", "A2", "A3", "B1"], 2, 0, ["A1", "A2", "A3", "B1"]),
        // Everything fits on the first page anyway: nothing moves.
        (["A1", "A2", "A3", "B1"], 4, 1, ["A1", "A2", "A3", "B1"]),
        // Interleaved feeds under the cap: nothing moves.
        (["A1", "B1", "A2", "B2", "C1", "A3"], 3, 2, ["A1", "B1", "A2", "B2", "C1", "A3"]),
        // Feeds beyond the page come forward past a feed's third item.
        (["A1", "A2", "A3", "B1", "A4", "C1", "D1"], 4, 1, ["A1", "B1", "C1", "D1", "A2", "A3", "A4"]),
    ]

    @Test("the first page takes at most N items of a feed; nothing is lost", arguments: cases.indices)
    func arrange(_ index: Int) {
        let (names, size, perFeed, expected) = Self.cases[index]
        let arranged = FrontPage.arrange(Self.items(names), pageSize: size, perFeed: perFeed)
        #expect(arranged.map(\.title) == expected)
    }

    @Test("front_page_per_feed defaults to 5, accepts 0, and rejects what is not a whole number")
    func configuration() throws {
        let feeds = "feeds:\n  - https://example.com/feed\n"
        #expect(try SiteConfiguration.parse(yaml: feeds).0.frontPagePerFeed == 5)
        #expect(try SiteConfiguration.parse(yaml: "front_page_per_feed: 0\n" + feeds).0.frontPagePerFeed == 0)
        #expect(try SiteConfiguration.parse(yaml: "front_page_per_feed: 3\n" + feeds).0.frontPagePerFeed == 3)
        #expect(throws: ConfigurationError.self) {
            try SiteConfiguration.parse(yaml: "front_page_per_feed: -1\n" + feeds)
        }
    }

    static func site(_ items: [SiteItem], timeZone: String, pageSize: Int = 25, perFeed: Int = 5) -> Site {
        let slugs = items.reduce(into: [String]()) { if !$0.contains($1.feedSlug) { $0.append($1.feedSlug) } }
        return Site(
            configuration: SiteConfiguration(
                title: "Days", pageSize: pageSize, frontPagePerFeed: perFeed,
                timeZone: TimeZone(identifier: timeZone) ?? .current, feeds: []),
            feeds: slugs.map { slug in
                SiteFeed(
                    source: FeedSource(url: URL(string: "https://\(slug).example/feed")!), slug: slug,
                    name: slug.uppercased(), description: nil, siteLink: nil,
                    items: items.filter { $0.feedSlug == slug })
            },
            items: items)
    }

    static func render(_ site: Site) throws -> SiteInspector {
        let templates = try SiteTemplates.load(from: Fixtures.repositoryRoot.appendingPathComponent("Templates"))
        return SiteInspector(
            files: try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(site))
    }

    /// The day headings of a list page and the titles under each: `["2026-11-24: X Y", …]`.
    static func days(_ html: String) -> [String] {
        var days: [String] = []
        for line in html.split(separator: "\n") {
            if line.hasPrefix("<h2 class=\"day\">") {
                let date = line.split(separator: "\"").dropFirst(3).first.map(String.init) ?? "?"
                days.append(line.contains("<time") ? date : "undated")
            } else if line.hasPrefix("<h3"), let start = line.range(of: "\">", options: .backwards),
                let end = line.range(of: "</a>"), !days.isEmpty
            {
                days[days.count - 1] += " " + line[start.upperBound..<end.lowerBound]
            }
        }
        return days
    }

    /// X 2026-11-24T23:30Z, Y 2026-11-24T00:30Z, Z 2026-11-23T20:00Z, and U without a date.
    static func timeZoneItems() -> [SiteItem] {
        func item(_ title: String, _ iso: String?) -> SiteItem {
            SiteItem(
                slug: title.lowercased(), feedSlug: "f", feedName: "F", title: title, link: nil, authors: [],
                date: iso.flatMap { FeedDate.parse($0) }, content: .empty, excerpt: "", categories: [],
                enclosures: [])
        }
        return [
            item("X", "2026-11-24T23:30:00Z"), item("Y", "2026-11-24T00:30:00Z"), item("Z", "2026-11-23T20:00:00Z"),
            item("U", nil),
        ]
    }

    /// (time zone, the day groups): the local dates worked out by hand from the offsets in November.
    static let zones: [(zone: String, expected: [String])] = [
        ("UTC", ["2026-11-24 X Y", "2026-11-23 Z", "undated U"]),
        ("Europe/Berlin", ["2026-11-25 X", "2026-11-24 Y", "2026-11-23 Z", "undated U"]),  // UTC+1
        ("America/New_York", ["2026-11-24 X", "2026-11-23 Y Z", "undated U"]),  // UTC−5
        ("Asia/Kolkata", ["2026-11-25 X", "2026-11-24 Y Z", "undated U"]),  // UTC+5:30
        ("Pacific/Kiritimati", ["2026-11-25 X", "2026-11-24 Y Z", "undated U"]),  // UTC+14
    ]

    @Test("items are grouped under the day they are dated in the site's time zone", arguments: zones.indices)
    func dayHeadings(_ index: Int) throws {
        let (zone, expected) = Self.zones[index]
        let site = try Self.render(Self.site(Self.timeZoneItems(), timeZone: zone))
        #expect(Self.days(site.files["index.html"] ?? "") == expected, "\(zone) index")
        #expect(Self.days(site.files["feeds/f/index.html"] ?? "") == expected, "\(zone) feed page")
    }

    @Test("a heading reads as a date and names it in words")
    func headingText() throws {
        let site = try Self.render(Self.site(Self.timeZoneItems(), timeZone: "Europe/Berlin"))
        let index = site.files["index.html"] ?? ""
        #expect(index.contains(#"<h2 class="day"><time datetime="2026-11-25">Wednesday, 25 November 2026</time></h2>"#))
        #expect(index.contains(#"<h2 class="day"><time datetime="2026-11-24">Tuesday, 24 November 2026</time></h2>"#))
        #expect(index.contains(#"<h2 class="day">Undated</h2>"#))
    }

    @Test("days follow daylight saving time: the offset of each item's own date")
    func daylightSaving() throws {
        // New York leaves summer time on 1 November 2026 at 06:00Z (02:00 EDT → 01:00 EST).
        func item(_ title: String, _ iso: String) -> SiteItem {
            SiteItem(
                slug: title.lowercased(), feedSlug: "f", feedName: "F", title: title, link: nil, authors: [],
                date: FeedDate.parse(iso), content: .empty, excerpt: "", categories: [], enclosures: [])
        }
        let items = [
            item("P", "2026-11-02T04:30:00Z"),  // 23:30 EST on 1 Nov (−5; −4 would make it 2 Nov)
            item("Q", "2026-11-01T04:30:00Z"),  // 00:30 EDT on 1 Nov
            item("R", "2026-11-01T03:30:00Z"),  // 23:30 EDT on 31 Oct
        ]
        let site = try Self.render(Self.site(items, timeZone: "America/New_York"))
        #expect(Self.days(site.files["index.html"] ?? "") == ["2026-11-01 P Q", "2026-10-31 R"])
        // The archive counts months in the same zone and groups its pages the same way.
        #expect(Self.days(site.files["archive/2026/11/index.html"] ?? "") == ["2026-11-01 P Q"])
        #expect(Self.days(site.files["archive/2026/10/index.html"] ?? "") == ["2026-10-31 R"])
    }

    @Test("in a build: a busy feed keeps N items on the front page, the rest on page 2 and its own page")
    func build() async throws {
        var busy: [(guid: String?, title: String, link: String?, date: String?)] = []
        for hour in 0..<6 {
            busy.append(
                ("s\(hour)", "Busy \(hour)", "https://busy.example/\(hour)", "Wed, 18 Nov 2026 0\(hour):00:00 GMT"))
        }
        let quiet = AccountingTests.rss(
            "Quiet",
            [
                ("q1", "Quiet one", "https://quiet.example/1", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("q2", "Quiet two", "https://quiet.example/2", "Sun, 15 Nov 2026 10:00:00 GMT"),
            ])
        let server = try await FixtureServer(routes: [
            "/busy": .feed(AccountingTests.rss("Busy", busy)), "/quiet": .feed(quiet),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        _ = try await build.run(
            yaml: """
                title: Front
                retries: 0
                page_size: 4
                front_page_per_feed: 2
                feeds:
                  - url: \(server.url("/busy"))
                  - url: \(server.url("/quiet"))

                """)
        try await server.shutdown()
        #expect(
            Self.days(build.site.files["index.html"] ?? "") == [
                "2026-11-18 Busy 5 Busy 4", "2026-11-16 Quiet one", "2026-11-15 Quiet two",
            ])
        #expect(Self.days(build.site.files["page/2/index.html"] ?? "") == ["2026-11-18 Busy 3 Busy 2 Busy 1 Busy 0"])
        #expect(
            Self.days(build.site.files["feeds/busy/index.html"] ?? "") == ["2026-11-18 Busy 5 Busy 4 Busy 3 Busy 2"])
    }
}
