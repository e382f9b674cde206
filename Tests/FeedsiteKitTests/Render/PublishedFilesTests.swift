import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise
@testable import FeedsiteShared

@Suite("Published files: the planet's feeds, OPML, sitemap, robots.txt")
struct PublishedFilesTests {
    /// Text that breaks naive XML writers: markup, entities, CDATA terminators, control characters.
    static let hostileTitle = "Tom & Jerry <script>alert(1)</script> ]]> \"quoted\" 'single' \u{1}\u{8}\u{B}\u{FFFE}end"
    static let hostileTitleAsParsed = "Tom & Jerry <script>alert(1)</script> ]]> \"quoted\" 'single' end"
    /// RSS titles are HTML by convention (the spec is silent; every reader, ours included, strips
    /// tags from them), so text that looks like a tag does not survive an RSS round trip as text.
    static let hostileTitleAsParsedFromRSS = "Tom & Jerry ]]> \"quoted\" 'single' end"

    static func hostileSite(baseURL: String? = "https://planet.example/sub", feedItems: Int = 50) -> Site {
        let sanitiser = HTMLSanitiser()
        let content = sanitiser.sanitise(
            html: "<p>Body with <b>bold</b> & ]]> and <a href=\"https://x.example/?a=1&amp;b=2\">a link</a></p>",
            baseURL: nil)
        var items: [SiteItem] = []
        for index in 0..<5 {
            items.append(
                SiteItem(
                    slug: "post-\(index)", feedSlug: "hostile", feedName: "Hostile <Feed> & Co]]>",
                    title: index == 0 ? hostileTitle : "Post \(index)",
                    link: index == 1 ? "javascript:alert(1)" : "https://hostile.example/posts/\(index)?a=1&b=2",
                    authors: index == 0 ? ["Eve <eve@example.com> & \u{7}friends"] : [],
                    date: index == 4 ? nil : Date(timeIntervalSince1970: 1_795_000_000 - Double(index) * 86_400),
                    content: content.html, excerpt: "Excerpt & <more> ]]>",
                    categories: index == 0 ? ["a&b", "<c>"] : [],
                    enclosures: index == 0
                        ? [Enclosure(url: "https://cdn.example/ep.mp3?x=1&y=2", length: 1234, type: "audio/mpeg")] : []
                ))
        }
        let source = FeedSource(url: URL(string: "https://hostile.example/feed?format=rss&x=<y>")!, name: nil)
        let configuration = SiteConfiguration(
            title: "Planet <&> ]]> \u{1}", description: "All the \"feeds\" & more",
            baseURL: baseURL.flatMap { URL(string: $0) }, feedItems: feedItems,
            feeds: [source, FeedSource(url: URL(string: "https://silent.example/atom.xml")!, name: "Silent & Co")])
        return Site(
            configuration: configuration,
            feeds: [
                SiteFeed(
                    source: source, slug: "hostile", name: "Hostile <Feed> & Co]]>", description: nil,
                    siteLink: "https://hostile.example/?a=1&b=2", items: items)
            ],
            items: items)
    }

    static func text(_ files: [String: Data], _ path: String) -> String {
        String(decoding: files[path] ?? Data(), as: UTF8.self)
    }

    @Test("with base_url: every file is published; without it only opml.xml and robots.txt")
    func fileSet() {
        #expect(
            Set(PublishedFiles.render(Self.hostileSite()).keys) == [
                "atom.xml", "rss.xml", "feed.json", "opml.xml", "sitemap.xml", "robots.txt",
            ])
        let withoutBase = PublishedFiles.render(Self.hostileSite(baseURL: nil))
        #expect(Set(withoutBase.keys) == ["opml.xml", "robots.txt"])
        #expect(Self.text(withoutBase, "robots.txt") == "User-agent: *\nAllow: /\n")
        #expect(PublishedFiles.hasFeeds(Self.hostileSite()))
        #expect(!PublishedFiles.hasFeeds(Self.hostileSite(baseURL: nil)))
    }

    @Test("atom.xml parses back with feedsite's own parser: titles, links, dates, content")
    func atomRoundTrip() throws {
        let files = PublishedFiles.render(Self.hostileSite())
        let feed = try FeedParser().parse(
            files["atom.xml"] ?? Data(), url: URL(string: "https://planet.example/sub/atom.xml"))
        #expect(feed.format == .atom)
        #expect(feed.version == "1.0")
        #expect(feed.title == "Planet <&> ]]>")
        #expect(feed.link == "https://planet.example/sub/")
        #expect(feed.feedLink == "https://planet.example/sub/atom.xml")
        #expect(feed.warnings.isEmpty)
        #expect(feed.items.count == 5)
        let first = try #require(feed.items.first)
        #expect(first.title == Self.hostileTitleAsParsed)
        #expect(first.id == "https://planet.example/sub/items/hostile/post-0/")
        #expect(first.link == "https://planet.example/sub/items/hostile/post-0/")
        #expect(first.published == Date(timeIntervalSince1970: 1_795_000_000))
        #expect(first.authors.first?.name == "Eve <eve@example.com> & friends")
        #expect(first.categories == ["a&b", "<c>"])
        #expect(first.enclosures.first?.url == "https://cdn.example/ep.mp3?x=1&y=2")
        #expect(first.content?.contains("<strong>bold</strong>") == true)
        #expect(first.content?.contains("]]&gt;") == true)
        #expect(feed.items.map(\.title) == [Self.hostileTitleAsParsed, "Post 1", "Post 2", "Post 3", "Post 4"])
        let atom = Self.text(files, "atom.xml")
        #expect(
            atom.contains(#"<link rel="related" type="text/html" href="https://hostile.example/posts/0?a=1&amp;b=2"/>"#)
        )
        // The javascript: link of post 1 is not published.
        #expect(!atom.contains("javascript:"))
    }

    @Test("rss.xml parses back: titles, links, guids, RFC 822 dates, content:encoded")
    func rssRoundTrip() throws {
        let files = PublishedFiles.render(Self.hostileSite())
        let rss = Self.text(files, "rss.xml")
        let feed = try FeedParser().parse(files["rss.xml"] ?? Data(), url: nil)
        #expect(feed.format == .rss)
        #expect(feed.version == "2.0")
        #expect(feed.title == "Planet <&> ]]>")
        #expect(feed.link == "https://planet.example/sub/")
        #expect(feed.warnings.isEmpty)
        #expect(feed.items.map(\.title) == [Self.hostileTitleAsParsedFromRSS, "Post 1", "Post 2", "Post 3", "Post 4"])
        #expect(feed.items.map(\.link) == (0..<5).map { "https://planet.example/sub/items/hostile/post-\($0)/" })
        #expect(feed.items.map(\.id) == (0..<5).map { "https://planet.example/sub/items/hostile/post-\($0)/" })
        #expect(feed.items[0].published == Date(timeIntervalSince1970: 1_795_000_000))
        #expect(feed.items[4].published == nil)
        #expect(feed.items[0].description == "Excerpt & <more> ]]>")
        #expect(feed.items[0].content?.contains("<strong>bold</strong>") == true)
        #expect(rss.contains("<pubDate>Wed, 18 Nov 2026 11:06:40 +0000</pubDate>"))
        #expect(rss.contains(#"<source url="https://hostile.example/feed?format=rss&amp;x=%3Cy%3E">"#))
    }

    @Test("feed.json is JSON Feed 1.1 and parses back")
    func jsonFeedRoundTrip() throws {
        let files = PublishedFiles.render(Self.hostileSite())
        let data = try #require(files["feed.json"])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? String == "https://jsonfeed.org/version/1.1")
        #expect(object["feed_url"] as? String == "https://planet.example/sub/feed.json")
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.first?["external_url"] as? String == "https://hostile.example/posts/0?a=1&b=2")
        #expect(items[1]["external_url"] == nil)  // the javascript: link
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.format == .json)
        #expect(feed.items.map(\.title) == [Self.hostileTitleAsParsed, "Post 1", "Post 2", "Post 3", "Post 4"])
        #expect(feed.items.first?.link == "https://planet.example/sub/items/hostile/post-0/")
        #expect(feed.items.first?.published == Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test("feed_items limits the entries to the newest N")
    func feedItemsLimit() throws {
        let files = PublishedFiles.render(Self.hostileSite(feedItems: 2))
        for path in ["atom.xml", "rss.xml", "feed.json"] {
            let feed = try FeedParser().parse(files[path] ?? Data(), url: nil)
            let first = path == "rss.xml" ? Self.hostileTitleAsParsedFromRSS : Self.hostileTitleAsParsed
            #expect(feed.items.map(\.title) == [first, "Post 1"], "\(path)")
        }
    }

    @Test("opml.xml lists every configured feed, even one that produced nothing")
    func opml() throws {
        let files = PublishedFiles.render(Self.hostileSite(baseURL: nil))
        let opml = Self.text(files, "opml.xml")
        #expect(opml.contains(#"<opml version="2.0">"#))
        #expect(
            opml.contains(
                #"text="Hostile &lt;Feed&gt; &amp; Co]]&gt;" title="Hostile &lt;Feed&gt; &amp; Co]]&gt;" xmlUrl="https://hostile.example/feed?format=rss&amp;x=%3Cy%3E" htmlUrl="https://hostile.example/?a=1&amp;b=2"/>"#
            ))
        #expect(opml.contains(#"text="Silent &amp; Co""#))
        let document = try OPMLImport.read(files["opml.xml"] ?? Data(), fileName: "opml.xml")
        #expect(document.subscriptions.map(\.name) == ["Hostile <Feed> & Co]]>", "Silent & Co"])
        #expect(document.title == "Planet <&> ]]>")
    }

    @Test("sitemap.xml lists every page with absolute URLs; robots.txt names it")
    func sitemapAndRobots() {
        let files = PublishedFiles.render(Self.hostileSite())
        let sitemap = Self.text(files, "sitemap.xml")
        for path in ["", "feeds/hostile/", "archive/", "items/hostile/post-0/", "items/hostile/post-4/"] {
            #expect(sitemap.contains("<loc>https://planet.example/sub/\(path)</loc>"), "\(path)")
        }
        // index, feed page, archive, one archive month, five items
        #expect(sitemap.components(separatedBy: "<url>").count - 1 == 9)
        #expect(sitemap.contains("<lastmod>2026-11-18T"))
        #expect(
            Self.text(files, "robots.txt")
                == "User-agent: *\nAllow: /\n\nSitemap: https://planet.example/sub/sitemap.xml\n")
        var site = Self.hostileSite()
        site.configuration.noindex = true
        #expect(Self.text(PublishedFiles.render(site), "robots.txt") == "User-agent: *\nDisallow: /\n")
    }

    @Test("the XML escaper never lets markup or illegal characters through")
    func escaper() {
        #expect(XMLEscaping.text("a<b>&c]]>\u{0}\u{1F}\u{FFFF}\t\n") == "a&lt;b&gt;&amp;c]]&gt;\t\n")
        #expect(XMLEscaping.attribute("\"'<\t\n\r") == "&quot;&apos;&lt;&#9;&#10;&#13;")
        #expect(XMLEscaping.text("é😀") == "é😀")
    }

    @Test("dates: RFC 3339 and RFC 822 in UTC")
    func dates() {
        let date = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z, a Wednesday
        #expect(InternetDate.rfc3339(date) == "2026-11-18T11:06:40Z")
        #expect(InternetDate.rfc822(date) == "Wed, 18 Nov 2026 11:06:40 +0000")
        #expect(InternetDate.rfc822(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
    }

    @Test(
        "xmllint --noout accepts atom.xml, rss.xml, opml.xml and sitemap.xml",
        .enabled(if: ExternalTool.xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils)"))
    func xmllint() throws {
        let xmllint = try #require(ExternalTool.xmllint)
        let directory = try Self.write(PublishedFiles.render(Self.hostileSite()))
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["atom.xml", "rss.xml", "opml.xml", "sitemap.xml"] {
            let result = try ExternalTool.run(xmllint, ["--noout", directory.appendingPathComponent(name).path])
            #expect(result.status == 0, "\(name): \(result.output)")
        }
    }

    @Test(
        "Python feedparser reads atom.xml and rss.xml (and feed.json where it supports JSON Feed) with bozo == 0",
        .enabled(
            if: ExternalTool.pythonWithFeedparser != nil,
            "python3 with feedparser is not installed (pip install feedparser)"
        ))
    func feedparser() throws {
        let python = try #require(ExternalTool.pythonWithFeedparser)
        let directory = try Self.write(PublishedFiles.render(Self.hostileSite()))
        defer { try? FileManager.default.removeItem(at: directory) }
        // feedparser reads JSON Feed from 6.1 on (feedparser.parsers.json); older versions skip it.
        let script = """
            import importlib.util, json, sys, feedparser
            has_json = importlib.util.find_spec("feedparser.parsers.json") is not None
            for path in sys.argv[1:]:
                name = path.rsplit("/", 1)[-1]
                if name.endswith(".json") and not has_json:
                    print(json.dumps({"file": name, "skipped": True}))
                    continue
                d = feedparser.parse(path, response_headers={"content-type": "application/feed+json"} if name.endswith(".json") else None)
                print(json.dumps({"file": name, "bozo": int(d.bozo), "entries": len(d.entries),
                                  "title": d.entries[0].title if d.entries else "",
                                  "error": str(d.get("bozo_exception", ""))}))
            """
        let paths = ["atom.xml", "rss.xml", "feed.json"].map { directory.appendingPathComponent($0).path }
        let result = try ExternalTool.run(python, ["-c", script] + paths)
        #expect(result.status == 0, "\(result.output)")
        let reports = result.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(reports.count == 3, "\(result.output)")
        for report in reports where report["skipped"] == nil {
            #expect(report["bozo"] as? Int == 0, "\(report)")
            #expect(report["entries"] as? Int == 5, "\(report)")
            #expect((report["title"] as? String)?.hasPrefix("Tom & Jerry") == true, "\(report)")
        }
        #expect(reports.filter { $0["skipped"] == nil }.count >= 2)
    }

    static func write(_ files: [String: Data]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-published-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (path, data) in files { try data.write(to: directory.appendingPathComponent(path)) }
        return directory
    }

    @Test("every page links to the planet's feeds when there are some, relatively, and says noindex when asked")
    func autodiscovery() throws {
        let templates = try SiteTemplates.load(from: Fixtures.repositoryRoot.appendingPathComponent("Templates"))
        var site = Self.hostileSite()
        site.configuration.noindex = true
        let files = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(site)
        let index = Self.text(files, "index.html")
        #expect(
            index.contains(#"<link rel="alternate" type="application/atom+xml" title="Planet &lt;&amp;&gt; ]]&gt; "#))
        #expect(index.contains(#"href="atom.xml">"#))
        #expect(index.contains(#"<link rel="alternate" type="application/rss+xml""#))
        #expect(index.contains(#"<link rel="alternate" type="application/feed+json""#))
        #expect(index.contains(#"<meta name="robots" content="noindex">"#))
        #expect(Self.text(files, "items/hostile/post-0/index.html").contains(#"href="../../../atom.xml">"#))
        #expect(files["atom.xml"] != nil && files["robots.txt"] != nil)

        let plain = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0))
            .render(Self.hostileSite(baseURL: nil))
        let plainIndex = Self.text(plain, "index.html")
        #expect(!plainIndex.contains("application/atom+xml"))
        #expect(!plainIndex.contains("noindex"))
    }
}
