import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// Tags from `feeds.yml` and the items' categories: their pages, the tags' own feeds, `opml.xml`
/// grouped by tag, and what the item pages show.
@Suite("Tags and categories")
struct TaxonomyTests {
    /// 2026-11-16T12:00:00Z.
    static let monday: TimeInterval = 1_794_830_400

    /// Feeds `rust` (tags Rust, News), `go` (go, news) and `misc` (a hostile tag); six items a day
    /// apart: m1 (21 Nov), r1 (20), g1 (19), r2 (18), g2 (17), r3 (16). `page_size: 2`,
    /// `feed_items: 2`.
    static func site(categoryPages: Bool = true) -> Site {
        func item(_ title: String, feed: String, day: Double, categories: [String] = []) -> SiteItem {
            SiteItem(
                slug: title.lowercased(), feedSlug: feed, feedName: feed, title: title,
                link: "https://\(feed).example/\(title.lowercased())", authors: [],
                date: Date(timeIntervalSince1970: monday + day * 86_400), content: .empty, excerpt: "",
                categories: categories, enclosures: [])
        }
        let long = String(repeating: "x", count: 201)
        let rust = [
            item("R1", feed: "rust", day: 4, categories: ["Swift", "Server"]),
            item("R2", feed: "rust", day: 2, categories: ["swift", "Swift"]),
            item("R3", feed: "rust", day: 0, categories: [long]),
        ]
        let go = [item("G1", feed: "go", day: 3, categories: [" swift "]), item("G2", feed: "go", day: 1)]
        let misc = [item("M1", feed: "misc", day: 5, categories: [""])]
        func feed(_ slug: String, _ tags: [String], _ items: [SiteItem]) -> SiteFeed {
            SiteFeed(
                source: FeedSource(url: URL(string: "https://\(slug).example/feed")!, tags: tags), slug: slug,
                name: slug, description: nil, siteLink: "https://\(slug).example/", items: items)
        }
        let feeds = [
            feed("rust", ["Rust", "News"], rust), feed("go", ["go", "news"], go),
            feed("misc", ["C++ & <Friends>"], misc),
        ]
        return Site(
            configuration: SiteConfiguration(
                title: "Planet", baseURL: URL(string: "https://planet.example/"), pageSize: 2, feedItems: 2,
                feeds: feeds.map(\.source), categoryPages: categoryPages),
            feeds: feeds, items: [misc[0], rust[0], go[0], rust[1], go[1], rust[2]])
    }

    static func render(_ site: Site = site()) throws -> SiteInspector {
        try FrontPageTests.render(site)
    }

    @Test("tags are one per name in any case, sorted by name, with their feeds and items newest first")
    func model() {
        let tags = Taxonomy(tagsOf: Self.site())
        #expect(tags.terms.map(\.name) == ["C++ & <Friends>", "go", "News", "Rust"])
        #expect(tags.terms.map(\.slug) == ["c-friends", "go", "news", "rust"])
        #expect(tags.terms.map(\.feedSlugs) == [["misc"], ["go"], ["rust", "go"], ["rust"]])
        #expect(tags.terms.map(\.items) == [[0], [2, 4], [1, 2, 3, 4, 5], [1, 3, 5]])
        let categories = Taxonomy(categoriesOf: Self.site())
        // Blank and over-long names get no term; "Swift", " swift " and "swift" are one.
        #expect(categories.terms.map(\.name) == ["Server", "Swift"])
        #expect(categories.terms.map(\.items) == [[1], [1, 2, 3]])
        #expect(categories.terms.map(\.feedSlugs) == [["rust"], ["rust", "go"]])
        #expect(categories.path(of: "SWIFT") == "categories/swift/index.html")
    }

    @Test(
        "past 2,000 categories, the ones on the most items (ties: the first met) have pages, the rest none; the build is warned"
    )
    func categoryPagesAreBounded() {
        // Item i (0...2_099) has its own category "own i"; items 0...9 also share "shared", and
        // items 2_090...2_099 "late": 2_102 categories, 2 on ten items each.
        let items = (0..<2_100).map { index in
            var categories = ["own \(index)"]
            if index < 10 { categories.append("shared") }
            if index >= 2_090 { categories.append("late") }
            return SiteItem(
                slug: "i\(index)", feedSlug: "f", feedName: "f", title: "I\(index)", link: nil, authors: [],
                date: Date(timeIntervalSince1970: Self.monday - Double(index)), content: .empty, excerpt: "",
                categories: categories, enclosures: [])
        }
        let source = FeedSource(url: URL(string: "https://f.example/feed")!)
        let feed = SiteFeed(
            source: source, slug: "f", name: "f", description: nil, siteLink: nil, items: items)
        let site = Site(
            configuration: SiteConfiguration(title: "P", feeds: [source], categoryPages: true), feeds: [feed],
            items: items)
        let categories = Taxonomy(categoriesOf: site)
        #expect(categories.terms.count == 2_000)
        #expect(categories.path(of: "shared") != nil)
        #expect(categories.path(of: "late") != nil)
        // Of the 2_100 categories on one item each, the first 1_998 met keep their pages.
        #expect(categories.path(of: "own 1997") != nil)
        #expect(categories.path(of: "own 1998") == nil)
        #expect(categories.path(of: "own 2099") == nil)
        #expect(
            Taxonomy.categoryPagesWarning(site)
                == "category_pages: the items have 2102 categories; the 2000 on the most items have pages,"
                + " the other 102 are shown without a link")
        #expect(Taxonomy.categoryPagesWarning(Self.site()) == nil)
    }

    @Test("tags/index.html lists every tag with its counts; each tag's pages are paginated under day headings")
    func tagPages() throws {
        let site = try Self.render()
        let index = site.files["tags/index.html"] ?? ""
        #expect(
            index.contains(
                #"<li><a href="../tags/c-friends/index.html">C++ &amp; &lt;Friends&gt;</a> <span class="count">(1 feed, 1 item)</span></li>"#
            ))
        #expect(
            index.contains(
                #"<li><a href="../tags/news/index.html">News</a> <span class="count">(2 feeds, 5 items)</span></li>"#))
        #expect(FrontPageTests.days(site.files["tags/news/index.html"] ?? "") == ["2026-11-20 R1", "2026-11-19 G1"])
        #expect(
            FrontPageTests.days(site.files["tags/news/page/2/index.html"] ?? "") == ["2026-11-18 R2", "2026-11-17 G2"])
        #expect(FrontPageTests.days(site.files["tags/news/page/3/index.html"] ?? "") == ["2026-11-16 R3"])
        #expect(site.files["tags/news/page/4/index.html"] == nil)
        #expect(site.chain(from: "tags/news/index.html").count == 3)
        let first = site.files["tags/news/index.html"] ?? ""
        #expect(first.contains("<h1><span class=\"kind\">Tag:</span> News</h1>"))
        #expect(
            first.contains(
                #"<link rel="alternate" type="application/atom+xml" title="Planet: News (Atom)" href="../../tags/news/atom.xml">"#
            ))
        #expect(first.contains(#"<li><a href="../../feeds/rust/index.html"><bdi>rust</bdi></a>"#))
        #expect(first.contains(#"<li><a href="../../feeds/go/index.html"><bdi>go</bdi></a>"#))
        #expect(
            (site.files["tags/news/page/2/index.html"] ?? "").contains(
                #"<link rel="alternate" type="application/rss+xml" title="Planet: News (RSS)" href="../../../../tags/news/rss.xml">"#
            ))
        // Every page links to the tags from its header; the index lists them on its first page.
        #expect((site.files["items/go/g1/index.html"] ?? "").contains(#"<a href="../../../tags/index.html">Tags</a>"#))
        #expect((site.files["index.html"] ?? "").contains(#"<li><a href="tags/rust/index.html">Rust</a>"#))
        // Item and feed pages name the feed's tags, linked.
        #expect(
            (site.files["items/rust/r1/index.html"] ?? "").contains(
                #"Tags: <a class="tag" href="../../../tags/rust/index.html">Rust</a> <a class="tag" href="../../../tags/news/index.html">News</a>"#
            ))
        #expect(
            (site.files["feeds/go/index.html"] ?? "").contains(
                #"Tags: <a class="tag" href="../../tags/go/index.html">go</a> <a class="tag" href="../../tags/news/index.html">news</a>"#
            ))
        let broken = site.brokenRelativeLinks().filter { !$0.hasSuffix("state.json") }
        #expect(broken.isEmpty, "\(broken)")
        let sitemap = site.files["sitemap.xml"] ?? ""
        #expect(sitemap.contains("<loc>https://planet.example/tags/</loc>"))
        #expect(sitemap.contains("<loc>https://planet.example/tags/news/page/3/</loc>"))
    }

    @Test("each tag's atom.xml, rss.xml and feed.json parse back with feedsite's parser: its newest feed_items")
    func tagFeeds() throws {
        let site = try Self.render()
        let parser = FeedParser()
        for (file, format) in [("atom.xml", "atom"), ("rss.xml", "rss"), ("feed.json", "json")] {
            let data = Data((site.files["tags/news/\(file)"] ?? "").utf8)
            let feed = try parser.parse(data, url: URL(string: "https://planet.example/tags/news/\(file)"))
            #expect(feed.format.rawValue == format, "\(file)")
            #expect(feed.title == "Planet: News", "\(file)")
            #expect(feed.items.map(\.title) == ["R1", "G1"], "\(file)")
            #expect(
                feed.items.map(\.link) == [
                    "https://planet.example/items/rust/r1/", "https://planet.example/items/go/g1/",
                ])
            #expect(feed.link == "https://planet.example/tags/news/", "\(file)")
        }
        #expect(feedLink(site.files["tags/news/atom.xml"]) == "https://planet.example/tags/news/atom.xml")
        // The planet's own feeds are unchanged: the whole site.
        let planet = try parser.parse(Data((site.files["atom.xml"] ?? "").utf8), url: nil)
        #expect(planet.title == "Planet")
        #expect(planet.items.map(\.title) == ["M1", "R1"])
        // Without a base_url there is nowhere to point them: no tag feeds (the pages stay).
        var local = Self.site()
        local.configuration.baseURL = nil
        let files = try Self.render(local).files
        #expect(files["tags/news/index.html"] != nil)
        #expect(files.keys.filter { $0.hasPrefix("tags/") && !$0.hasSuffix(".html") }.isEmpty)
    }

    /// The `rel="self"` link of an Atom document.
    func feedLink(_ atom: String?) -> String? {
        guard let atom, let range = atom.range(of: #"<link rel="self" type="application/atom+xml" href=""#) else {
            return nil
        }
        return atom[range.upperBound...].split(separator: "\"").first.map(String.init)
    }

    @Test(
        "xmllint accepts the tag feeds and the grouped opml.xml",
        .enabled(if: ExternalTool.xmllint != nil, "xmllint is not installed (apt-get install libxml2-utils)"))
    func xmllint() throws {
        let xmllint = try #require(ExternalTool.xmllint)
        let site = try Self.render()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-tags-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [
            "tags/c-friends/atom.xml", "tags/c-friends/rss.xml", "tags/news/atom.xml", "tags/news/rss.xml", "opml.xml",
            "sitemap.xml",
        ] {
            let file = directory.appendingPathComponent(path.replacingOccurrences(of: "/", with: "_"))
            try Data((site.files[path] ?? "").utf8).write(to: file)
            let result = try ExternalTool.run(xmllint, ["--noout", file.path])
            #expect(result.status == 0, "\(path): \(result.output)")
        }
    }

    @Test("opml.xml groups feeds in one folder per tag, and import opml reads the folders back as tags")
    func opml() throws {
        let site = try Self.render()
        let opml = site.files["opml.xml"] ?? ""
        #expect(opml.contains(#"<outline text="C++ &amp; &lt;Friends&gt;" title="C++ &amp; &lt;Friends&gt;">"#))
        let document = try OPMLImport.read(Data(opml.utf8), fileName: "opml.xml")
        #expect(document.diagnostics.isEmpty)
        #expect(
            document.subscriptions.map { "\($0.url.absoluteString) \($0.tags)" } == [
                #"https://misc.example/feed ["C++ & <Friends>"]"#, #"https://go.example/feed ["go", "News"]"#,
                #"https://rust.example/feed ["News", "Rust"]"#,
            ])
    }

    @Test("category_pages: true gives the items' categories pages, linked from the items")
    func categoryPages() throws {
        let site = try Self.render()
        let index = site.files["categories/index.html"] ?? ""
        #expect(
            index.contains(
                #"<li><a href="../categories/swift/index.html">Swift</a> <span class="count">(2 feeds, 3 items)</span></li>"#
            ))
        #expect(
            index.contains(
                #"<li><a href="../categories/server/index.html">Server</a> <span class="count">(1 feed, 1 item)</span></li>"#
            ))
        #expect(
            FrontPageTests.days(site.files["categories/swift/index.html"] ?? "") == ["2026-11-20 R1", "2026-11-19 G1"])
        #expect(FrontPageTests.days(site.files["categories/swift/page/2/index.html"] ?? "") == ["2026-11-18 R2"])
        // Categories have no feeds of their own.
        #expect(site.files.keys.filter { $0.hasPrefix("categories/") && !$0.hasSuffix(".html") }.isEmpty)
        #expect(
            (site.files["items/rust/r1/index.html"] ?? "").contains(
                #"Filed under: <a class="category" href="../../../categories/swift/index.html">Swift</a> <a class="category" href="../../../categories/server/index.html">Server</a>"#
            ))
        // Summaries show categories too; one without a page is shown unlinked.
        let home = site.files["index.html"] ?? ""
        #expect(
            (site.files["page/2/index.html"] ?? "").contains(
                #"<p class="categories"><a class="category" href="../../categories/swift/index.html"><bdi>swift</bdi></a> </p>"#
            ))
        #expect(home.contains(#"<li><a href="categories/index.html">Categories</a></li>"#))
        let third = site.files["page/3/index.html"] ?? ""
        #expect(third.contains(#"<span class="category"><bdi>\#(String(repeating: "x", count: 201))</bdi></span>"#))
        let broken = site.brokenRelativeLinks().filter { !$0.hasSuffix("state.json") }
        #expect(broken.isEmpty, "\(broken)")
    }

    @Test("without category_pages the categories are shown, unlinked, and have no pages")
    func noCategoryPages() throws {
        let site = try Self.render(Self.site(categoryPages: false))
        #expect(site.files.keys.filter { $0.hasPrefix("categories/") }.isEmpty)
        let page = site.files["items/rust/r1/index.html"] ?? ""
        #expect(
            page.contains(#"Filed under: <span class="category">Swift</span> <span class="category">Server</span>"#))
        #expect(!page.contains("categories/index.html"))
    }

    @Test("in a build: tags from feeds.yml give pages and feeds; import opml of the site's opml.xml keeps them")
    func build() async throws {
        let server = try await FixtureServer(routes: [
            "/a": .feed(
                AccountingTests.rss("A", [("a1", "A one", "https://a.example/1", "Mon, 16 Nov 2026 10:00:00 GMT")])),
            "/b": .feed(
                AccountingTests.rss("B", [("b1", "B one", "https://b.example/1", "Tue, 17 Nov 2026 10:00:00 GMT")])),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        _ = try await build.run(
            yaml: """
                title: Tagged
                base_url: https://planet.example/
                retries: 0
                feeds:
                  - url: \(server.url("/a"))
                    tags: [Swift, Web]
                  - url: \(server.url("/b"))
                    tags: swift

                """)
        try await server.shutdown()
        let files = build.site.files
        #expect(FrontPageTests.days(files["tags/swift/index.html"] ?? "") == ["2026-11-17 B one", "2026-11-16 A one"])
        #expect(FrontPageTests.days(files["tags/web/index.html"] ?? "") == ["2026-11-16 A one"])
        let feed = try FeedParser().parse(Data((files["tags/swift/rss.xml"] ?? "").utf8), url: nil)
        #expect(feed.items.map(\.title) == ["B one", "A one"])
        // The subscription list, imported into an empty project, gives the same feeds and tags.
        let document = try OPMLImport.read(Data((files["opml.xml"] ?? "").utf8), fileName: "opml.xml")
        let outcome = try OPMLImport.merge(document, into: nil)
        let (configuration, _) = try SiteConfiguration.parse(yaml: outcome.yaml)
        #expect(configuration.feeds.map(\.url) == [server.url("/a"), server.url("/b")])
        #expect(configuration.feeds.map(\.tags) == [["Swift", "Web"], ["Swift"]])
    }

    @Test("tags in feeds.yml: a list or one name, spaces collapsed, repeats in any case kept once")
    func configuration() throws {
        let yaml = """
            category_pages: true
            feeds:
              - url: https://a.example/feed
                tags: [Rust, ' web   dev ', rust, News]
              - url: https://b.example/feed
                tags: news
              - https://c.example/feed
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(warnings.isEmpty)
        #expect(configuration.categoryPages)
        #expect(configuration.feeds.map(\.tags) == [["Rust", "web dev", "News"], ["news"], []])
        #expect(try SiteConfiguration.parse(yaml: "feeds: [https://a.example/f]").0.categoryPages == false)
        do {
            _ = try SiteConfiguration.parse(
                yaml: "feeds:\n  - url: https://a.example/feed\n    tags: [a, '', {b: c}]\n")
            Issue.record("no error")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "feeds.yml:3:15: error: a tag is empty: write a name such as 'rust'",
                    "feeds.yml:3:19: error: 'tags' must be a list of names, like 'tags: [rust, news]'; got a mapping",
                ])
        }
    }
}
