import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// Issue 23: one hostile item costs at most that item's content — never its feed, never the build.
@Suite("Hostile items: an item that cannot be sanitised loses its content, not its feed")
struct HostileItemTests {
    @Test("a kind of warning repeated on many items is three lines and a count; other kinds stay in sight")
    func repeatedWarningsAreGrouped() {
        var warnings = (1...5_000).map { "item \($0): unparseable date 'day \($0)'" }
        warnings.insert("line 7: <item> elements inside <list>, not directly in the channel; read as its posts", at: 2)
        warnings.append(contentsOf: (1...4).map { "item \($0) 'T\($0)': content left out: its HTML is 2.\($0) MB" })
        #expect(
            ReadFeed.groupingRepeats(warnings) == [
                "item 1: unparseable date 'day 1'",
                "item 2: unparseable date 'day 2'",
                "line 7: <item> elements inside <list>, not directly in the channel; read as its posts",
                "item 3: unparseable date 'day 3'",
                "… and 4997 more warnings like the one above (`feedsite parse` lists every one)",
                // Four of a kind are listed whole: a count would save nothing.
                "item 1 'T1': content left out: its HTML is 2.1 MB",
                "item 2 'T2': content left out: its HTML is 2.2 MB",
                "item 3 'T3': content left out: its HTML is 2.3 MB",
                "item 4 'T4': content left out: its HTML is 2.4 MB",
            ])
        #expect(ReadFeed.groupingRepeats(Array(warnings.prefix(3))) == Array(warnings.prefix(3)))
    }

    @Test("a warning quoting what the feed wrote (a 200,000-character encoding label) is cut to 1,000 characters")
    func longQuotesAreCut() throws {
        let label = String(repeating: "'", count: 200_000)
        let xml = """
            <?xml version="1.0" encoding="\(label)"?>
            <rss version="2.0"><channel><title>T</title><link>https://blog.example/</link>
            <item><title>A</title><link>https://blog.example/a</link></item></channel></rss>
            """
        let url = URL(string: "https://blog.example/feed.xml")!
        let feed = try FeedParser().parse(Data(xml.utf8), url: url)
        #expect(feed.warnings.contains { $0.unicodeScalars.count > 200_000 })
        let read = ReadFeed(feed: feed, finalURL: url, sanitiser: HTMLSanitiser(), excerptLength: 200)
        #expect(read.entries.count == 1)
        #expect(!read.warnings.isEmpty)
        for warning in read.warnings { #expect(warning.unicodeScalars.count <= 1_001) }
        #expect(read.warnings.contains { $0.hasSuffix("'\u{2026}") })
        #expect(ReadFeed.shortened("short") == "short")
        // One character of a million combining marks is cut by scalars.
        let mark = "e" + String(repeating: "\u{301}", count: 1_000_000)
        #expect(ReadFeed.shortened(mark).unicodeScalars.count == 1_001)
    }

    @Test("an over-size item keeps its page and link with a located warning; a 100,000-deep one is flattened")
    func hostileItemsCostOnlyThemselves() async throws {
        // 120,000 paragraphs of 21 bytes: 2.52 MB, over the sanitiser's 2 MB cap.
        let huge = String(repeating: "<p>word word word</p>", count: 120_000)
        // 100,000 levels of tables (1.7 MB): crashed gumbo's recursive free before the limiter.
        let deep = String(repeating: "<table><tr><td>x ", count: 100_000) + "bottom"
        func item(_ title: String, _ link: String, _ body: String, day: Int) -> String {
            "<item><title>\(title)</title><link>\(link)</link><guid>\(link)</guid>"
                + "<pubDate>\(day) Nov 2026 10:00:00 GMT</pubDate><description><![CDATA[\(body)]]></description></item>"
        }
        let feed =
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Hostile</title><link>http://hostile.example/</link>"
            + item("Before", "http://hostile.example/before", "<p>Kept before</p>", day: 13)
            + item("Huge", "http://hostile.example/huge", huge, day: 12)
            + item("Deep", "http://hostile.example/deep", deep, day: 11)
            + item("After", "http://hostile.example/after", "<p>Kept after</p>", day: 10)
            + "</channel></rss>"
        let server = try await FixtureServer(routes: ["/feed.xml": .feed(Data(feed.utf8))])
        let build = try TestBuild()
        defer { build.remove() }
        // A generous timeout: 4.5 MB from a local server, on a loaded machine.
        let report = try await build.run(server: server, feeds: [("/feed.xml", "Hostile")], timeoutSeconds: 600)
        try await server.shutdown()

        #expect(report.failedFeedCount == 0)
        #expect(report.itemCount == 4)
        let feedURL = server.url("/feed.xml").absoluteString
        let warnings = report.diagnostics.filter { $0.severity == .warning }.map(\.message)
        // Located: the feed, the item's position and title, and where to read it instead.
        #expect(
            warnings.contains(
                "feed 'Hostile' (\(feedURL)): item 2 'Huge' (http://hostile.example/huge): content left out: its HTML is 2.5 MB, over the 2.0 MB that is sanitised"
            ), "\(warnings)")
        #expect(warnings.count == 1, "\(warnings)")

        let site = build.site
        func page(titled title: String) throws -> String {
            let pages = site.itemPages.compactMap { site.files[$0] }.filter { $0.contains("<title>\(title)") }
            return try #require(pages.first, "no page for \(title) in \(site.itemPages)")
        }
        let hugePage = try page(titled: "Huge")
        #expect(hugePage.contains("href=\"http://hostile.example/huge\""))
        #expect(!hugePage.contains("word word"))
        let deepPage = try page(titled: "Deep")
        #expect(deepPage.contains("bottom"))
        #expect(deepPage.components(separatedBy: "<table").count - 1 <= HTMLSanitiser().limits.maxDepth)
        #expect(try page(titled: "Before").contains("Kept before"))
        #expect(try page(titled: "After").contains("Kept after"))
    }

    @Test("25 warnings of one kind are printed as three and a count, on the terminal and the status page")
    func repeatedWarningsAreGroupedInTheBuild() async throws {
        let items = (1...25).map {
            "<item><title>T\($0)</title><link>http://w.example/\($0)</link><pubDate>soon \($0)</pubDate></item>"
        }
        let feed =
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Dates</title><link>http://w.example/</link>"
            + items.joined() + "</channel></rss>"
        let server = try await FixtureServer(routes: ["/feed.xml": .feed(Data(feed.utf8))])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await build.run(server: server, feeds: [("/feed.xml", "Dates")])
        try await server.shutdown()

        let feedURL = server.url("/feed.xml").absoluteString
        let warnings = report.diagnostics.filter { $0.severity == .warning }.map(\.message)
        let summary = "… and 22 more warnings like the one above (`feedsite parse` lists every one)"
        #expect(
            warnings == (1...3).map { "feed 'Dates' (\(feedURL)): item \($0): unparseable date 'soon \($0)'" } + [
                "feed 'Dates' (\(feedURL)): \(summary)"
            ])
        #expect(report.itemCount == 25)
        let status = try #require(build.site.files["status/index.html"])
        #expect(status.contains("item 3: unparseable date"))
        #expect(status.contains("… and 22 more warnings like the one above"))
    }

    @Test("a feed's warnings are printed up to 20, then counted in one line naming where all are")
    func warningsPerFeedAreBounded() {
        let source = FeedSource(url: URL(string: "https://w.example/feed.xml")!, name: "Many")
        // 25 kinds (the words differ, not only numbers): grouping leaves them all.
        let kinds = (0..<25).map { "warning of kind " + String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
        let record = FeedRecord(
            source: source, state: FeedState(), run: FeedRun(source: source, outcome: .notModified, status: 304),
            isStale: false, newItemCount: 0, failure: nil, warnings: ReadFeed.groupingRepeats(kinds))
        let messages = BuildReport.diagnostics(for: [record], configFile: "feeds.yml").map(\.message)
        #expect(
            messages == kinds.prefix(20).map { "feed 'Many' (https://w.example/feed.xml): \($0)" } + [
                "feed 'Many' (https://w.example/feed.xml): 5 more warnings; the status page, and `feedsite parse"
                    + " https://w.example/feed.xml`, list them all"
            ])
    }
}
