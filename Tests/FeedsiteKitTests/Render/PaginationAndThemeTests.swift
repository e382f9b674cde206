import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// Pagination, archives, dates in a time zone, sharing metadata and the item page's extras, on a
/// rendered site held in memory.
@Suite("Pagination, archives and the theme")
struct PaginationAndThemeTests {
    /// 2026-11-01T00:00:00Z: midnight UTC, 01:00 in Berlin.
    static let novemberFirst: TimeInterval = 1_793_491_200

    /// Feed `alpha` (German, with an icon): 7 items, one an hour apart from `novemberFirst - 30 min`
    /// backwards in days; feed `beta`: 2 items. `page_size: 3`.
    static func site(timeZone: String = "Europe/Berlin", pageSize: Int = 3, language: String = "en") -> Site {
        func item(_ slug: String, feed: String, day: Double, words: Int = 0, link: String? = nil) -> SiteItem {
            SiteItem(
                slug: slug, feedSlug: feed, feedName: feed == "alpha" ? "Alpha" : "Beta", title: "Title \(slug)",
                link: link, authors: [], date: Date(timeIntervalSince1970: novemberFirst - 1800 - day * 86_400),
                content: HTMLSanitiser().sanitise(html: "<p>Body</p>", baseURL: nil).html, excerpt: "Excerpt \(slug)",
                categories: [], enclosures: [], wordCount: words)
        }
        var alpha = (0..<7).map { item("a\($0)", feed: "alpha", day: Double($0) * 2, words: $0 * 150) }
        alpha[0].link = "https://alpha.example/posts/a0"
        alpha[0].image = "https://alpha.example/a0.png"
        alpha[0].enclosures = [
            Enclosure(url: "https://cdn.example/ep.mp3", length: 2_000_000, type: "audio/mpeg"),
            Enclosure(url: "https://cdn.example/clip.mp4", length: nil, type: "video/mp4"),
            Enclosure(url: "https://cdn.example/notes.pdf", length: 5000, type: "application/pdf"),
        ]
        let beta = [item("b0", feed: "beta", day: 1), item("b1", feed: "beta", day: 40)]
        let all = (alpha + beta).sorted { ($0.date ?? .distantPast) > ($1.date ?? .distantPast) }
        return Site(
            configuration: SiteConfiguration(
                title: "Planet", baseURL: URL(string: "https://planet.example/sub/"), pageSize: pageSize,
                timeZone: TimeZone(identifier: timeZone) ?? .current, language: language, feeds: []),
            feeds: [
                SiteFeed(
                    source: FeedSource(url: URL(string: "https://alpha.example/feed")!), slug: "alpha", name: "Alpha",
                    description: nil, siteLink: "https://alpha.example/", items: alpha, language: "de",
                    image: "https://alpha.example/icon.png"),
                SiteFeed(
                    source: FeedSource(url: URL(string: "https://beta.example/feed")!), slug: "beta", name: "Beta",
                    description: nil, siteLink: nil, items: beta),
            ],
            items: all)
    }

    static func render(_ site: Site = site()) throws -> SiteInspector {
        let templates = try SiteTemplates.load(from: Fixtures.repositoryRoot.appendingPathComponent("Templates"))
        return SiteInspector(
            files: try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(site))
    }

    @Test("the index and each feed are split into page_size pages; the first page stays index.html")
    func pageCounts() throws {
        let site = try Self.render()
        // 9 items at 3 a page.
        #expect(
            site.pages.filter { $0 == "index.html" || $0.hasPrefix("page/") } == [
                "index.html", "page/2/index.html", "page/3/index.html",
            ])
        #expect(
            site.pages.filter { $0.hasPrefix("feeds/alpha/") } == [
                "feeds/alpha/index.html", "feeds/alpha/page/2/index.html", "feeds/alpha/page/3/index.html",
            ])
        #expect(site.pages.filter { $0.hasPrefix("feeds/beta/") } == ["feeds/beta/index.html"])
        #expect(try Self.render(Self.site(pageSize: 25)).pages.filter { $0.hasPrefix("page/") }.isEmpty)
    }

    @Test("rel=prev/next links resolve to the neighbouring pages, relatively, to index.html files")
    func prevNext() throws {
        let site = try Self.render()
        #expect(site.chain(from: "index.html") == ["index.html", "page/2/index.html", "page/3/index.html"])
        #expect(SiteInspector.headLink("prev", in: site.files["index.html"] ?? "") == nil)
        #expect(SiteInspector.headLink("next", in: site.files["index.html"] ?? "") == "page/2/index.html")
        let second = site.files["page/2/index.html"] ?? ""
        #expect(SiteInspector.headLink("prev", in: second) == "../../index.html")
        #expect(SiteInspector.headLink("next", in: second) == "../../page/3/index.html")
        #expect(second.contains(#"<a class="prev" href="../../index.html" rel="prev">"#))
        #expect(second.contains("Page 2 of 3"))
        #expect(second.contains(#"href="../../assets/style.css""#))
        #expect(SiteInspector.headLink("next", in: site.files["page/3/index.html"] ?? "") == nil)
        #expect(
            site.chain(from: "feeds/alpha/index.html") == [
                "feeds/alpha/index.html", "feeds/alpha/page/2/index.html", "feeds/alpha/page/3/index.html",
            ])
        // status/state.json is written by SiteGenerator, not by the renderer.
        let broken = site.brokenRelativeLinks().filter { !$0.hasSuffix("state.json") }
        #expect(broken.isEmpty, "\(broken)")
    }

    @Test("every item is reachable from the index through its pages alone, each listed once")
    func everyItemReachable() throws {
        let site = try Self.render()
        var listed: [String] = []
        for page in site.chain(from: "index.html") {
            listed += SiteInspector.links(in: site.files[page] ?? "").compactMap {
                SiteInspector.resolve($0, from: page)
            }
            .filter { $0.hasPrefix("items/") }
        }
        #expect(listed.count == 9)
        #expect(Set(listed) == Set(site.itemPages))
        // 404.html is linked from nowhere: hosts serve it for missing URLs.
        #expect(Set(site.pages).subtracting(site.reachablePages()) == ["404.html"])
    }

    @Test("archives: months counted in the configured time zone, with counts, paginated, linked from the footer")
    func archives() throws {
        // a0 is 2026-10-31T23:30Z: November in Berlin, October in UTC.
        let berlin = try Self.render()
        let months = berlin.pages.filter { $0.hasPrefix("archive/") }
        #expect(
            months == [
                "archive/2026/09/index.html", "archive/2026/10/index.html", "archive/2026/10/page/2/index.html",
                "archive/2026/10/page/3/index.html", "archive/2026/11/index.html", "archive/index.html",
            ])
        let november = berlin.files["archive/2026/11/index.html"] ?? ""
        #expect(november.contains("<h1>November 2026</h1>"))
        #expect(november.contains("../../../items/alpha/a0/index.html"))
        #expect(november.contains(#"<a class="next" href="../../../archive/2026/10/index.html">October 2026 →</a>"#))
        #expect(november.contains(#"<link rel="next" href="../../../archive/2026/10/index.html">"#))
        #expect(!november.contains(#"aria-label="Pages""#))
        // October has 7 items at page_size 3: three pages, each with the month navigation.
        let october2 = berlin.files["archive/2026/10/page/2/index.html"] ?? ""
        #expect(october2.contains("<title>October 2026, page 2 of 3 · "))
        #expect(october2.components(separatedBy: #"<article class="summary">"#).count - 1 == 3)
        #expect(october2.contains(#"<a class="prev" href="../../../../../archive/2026/10/index.html" rel="prev">"#))
        #expect(
            october2.contains(#"<a class="next" href="../../../../../archive/2026/10/page/3/index.html" rel="next">"#))
        #expect(
            october2.contains(#"<a class="prev" href="../../../../../archive/2026/11/index.html">← November 2026</a>"#))
        #expect(
            october2.contains(#"<a class="next" href="../../../../../archive/2026/09/index.html">September 2026 →</a>"#)
        )
        let octoberItems = (1...3).flatMap { page -> [String] in
            let html = berlin.files[
                page == 1 ? "archive/2026/10/index.html" : "archive/2026/10/page/\(page)/index.html"]
            return (html ?? "").components(separatedBy: #"<article class="summary">"#).dropFirst().map { $0 }
        }
        #expect(octoberItems.count == 7)
        let index = berlin.files["archive/index.html"] ?? ""
        #expect(
            index.contains(#"<a href="../archive/2026/11/index.html">November 2026</a> <span class="count">(1)</span>"#)
        )
        #expect(
            index.contains(#"<a href="../archive/2026/10/index.html">October 2026</a> <span class="count">(7)</span>"#))
        #expect(berlin.files["index.html"]?.contains(#"<a href="archive/index.html">Archive</a>"#) == true)

        let utc = try Self.render(Self.site(timeZone: "UTC"))
        #expect(utc.files["archive/2026/11/index.html"] == nil)
        #expect(utc.files["archive/2026/10/index.html"]?.contains("items/alpha/a0/index.html") == true)
    }

    @Test("dates: datetime in UTC, display in the configured time zone")
    func timeZoneDisplay() throws {
        let item = try Self.render().files["items/alpha/a0/index.html"] ?? ""
        #expect(item.contains(#"<time datetime="2026-10-31T23:30:00Z">1 Nov 2026, 00:30 UTC+1</time>"#))
        #expect(item.contains("Times are Europe/Berlin."))
        let utc = try Self.render(Self.site(timeZone: "UTC")).files["items/alpha/a0/index.html"] ?? ""
        #expect(utc.contains(#"<time datetime="2026-10-31T23:30:00Z">31 Oct 2026, 23:30 UTC</time>"#))
        let summary = try Self.render().files["index.html"] ?? ""
        #expect(summary.contains(#"<time datetime="2026-10-31T23:30:00Z">1 Nov 2026</time>"#))
    }

    @Test("item pages: canonical link to the original and Open Graph/Twitter metadata")
    func sharingMetadata() throws {
        let site = try Self.render()
        let page = site.files["items/alpha/a0/index.html"] ?? ""
        #expect(SiteInspector.headLink("canonical", in: page) == "https://alpha.example/posts/a0")
        #expect(page.contains(#"<meta property="og:type" content="article">"#))
        #expect(page.contains(#"<meta property="og:title" content="Title a0 · Alpha">"#))
        #expect(page.contains(#"<meta property="og:url" content="https://planet.example/sub/items/alpha/a0/">"#))
        #expect(page.contains(#"<meta property="og:site_name" content="Planet">"#))
        #expect(page.contains(#"<meta property="og:description" content="Excerpt a0">"#))
        #expect(page.contains(#"<meta property="og:image" content="https://alpha.example/a0.png">"#))
        #expect(page.contains(#"<meta name="twitter:card" content="summary">"#))
        // No link of its own: no canonical; no picture either, as the feed has no avatar (its
        // image URL is never named: AvatarTests shows its avatar standing in).
        let other = site.files["items/alpha/a1/index.html"] ?? ""
        #expect(SiteInspector.headLink("canonical", in: other) == nil)
        #expect(!other.contains("og:image"))
        #expect(!(site.files["items/beta/b0/index.html"] ?? "").contains("og:image"))
    }

    @Test("enclosures: players for http(s) audio and video, a download link, size and type for all")
    func enclosurePlayers() throws {
        let page = try Self.render().files["items/alpha/a0/index.html"] ?? ""
        #expect(page.contains(#"<audio controls preload="none" src="https://cdn.example/ep.mp3"></audio>"#))
        #expect(page.contains(#"<video controls preload="none" src="https://cdn.example/clip.mp4"></video>"#))
        #expect(page.contains("Download ep.mp3</a> · audio/mpeg · 2.0 MB"))
        #expect(page.contains("Download notes.pdf</a> · application/pdf · 5 kB"))
        #expect(page.components(separatedBy: "<audio").count == 2)
        #expect(page.components(separatedBy: "<video").count == 2)
        #expect(!(try Self.render().files["items/alpha/a1/index.html"] ?? "").contains("Attachments"))
    }

    @Test("reading time at 200 words a minute, rounded up; none when the word count is unknown")
    func readingTime() throws {
        let site = try Self.render()
        #expect(!(site.files["items/alpha/a0/index.html"] ?? "").contains("min read"))  // 0 words
        #expect(site.files["items/alpha/a1/index.html"]?.contains("1 min read") == true)  // 150
        #expect(site.files["items/alpha/a3/index.html"]?.contains("3 min read") == true)  // 450
        #expect(PageRenderer.readingTime(words: 200) == "1 min read")
        #expect(PageRenderer.readingTime(words: 201) == "2 min read")
        #expect(SiteItem.wordCount("Hello, world! It's 2026 — naïve café.") == 7)
        #expect(SiteItem.wordCount("") == 0)
        // The byte loop counts as the plain loop over scalars.
        var random = SplitMix64(seed: 0x3D)
        let pieces = [
            "a", "Z", "9", " ", "-", "'", "é", "ß", "日本", "😀", "\u{301}", "Ω", "ـ", "\u{0}", "\u{7F}", "\u{85}", "ǅ",
            "ⅷ",
            "١", "@", "[", "`", "{", "word ", "AZaz09", "x.y,z", "\n", "/", ":", "^", "~", "Hello, world",
        ]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0..<40, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            #expect(SiteItem.wordCount(text) == Self.referenceWordCount(text), "\(text.debugDescription)")
        }
        // Every scalar of the Basic Multilingual Plane (answered from a table) between and beside letters.
        for value in UInt32(0x80)..<0x1_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a\(scalar)b \(scalar) x\(scalar)"
            #expect(SiteItem.wordCount(text) == Self.referenceWordCount(text), "U+\(String(value, radix: 16))")
        }
    }

    @Test("item pages link to the newer and older item of the same feed")
    func itemNeighbours() throws {
        let site = try Self.render()
        let middle = site.files["items/alpha/a3/index.html"] ?? ""
        #expect(SiteInspector.headLink("prev", in: middle) == "../../../items/alpha/a2/index.html")
        #expect(SiteInspector.headLink("next", in: middle) == "../../../items/alpha/a4/index.html")
        #expect(middle.contains(#"rel="prev"><span class="label">← Newer</span> <bdi>Title a2</bdi></a>"#))
        #expect(middle.contains(#"rel="next"><span class="label">Older →</span> <bdi>Title a4</bdi></a>"#))
        let newest = site.files["items/alpha/a0/index.html"] ?? ""
        #expect(SiteInspector.headLink("prev", in: newest) == nil)
        #expect(site.chain(from: "items/alpha/a0/index.html").count == 7)
    }

    @Test("lang: the site's language on <html>, the feed's on its items' titles and content")
    func languages() throws {
        let site = try Self.render()
        let item = site.files["items/alpha/a0/index.html"] ?? ""
        #expect(item.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(item.contains(#"<h1 lang="de" dir="auto">Title a0</h1>"#))
        #expect(item.contains(#"<div class="content" lang="de" dir="auto">"#))
        #expect(
            site.files["index.html"]?.contains(#"<h3 lang="de" dir="auto"><a href="items/alpha/a0/index.html">"#)
                == true)
        let beta = site.files["items/beta/b0/index.html"] ?? ""
        #expect(beta.contains(#"<h1 dir="auto">Title b0</h1>"#))
        let french = try Self.render(Self.site(language: "fr")).files["index.html"] ?? ""
        #expect(french.contains("<html lang=\"fr\">"))
    }

    @Test("every page has exactly one h1, the landmarks and the skip link")
    func landmarks() throws {
        let site = try Self.render()
        for page in site.pages {
            let html = site.files[page] ?? ""
            #expect(html.components(separatedBy: "<h1").count == 2, "\(page) must have one h1")
            for landmark in [
                "<header class=\"site-header\">", "<nav class=\"site-nav\"", "<main id=\"main\"",
                "<footer class=\"site-footer\">", "<a class=\"skip\" href=\"#main\">",
            ] {
                #expect(html.contains(landmark), "\(page) lacks \(landmark)")
            }
            #expect(html.contains(#"<link rel="icon" href=""#), "\(page) lacks the favicon")
        }
    }

    @Test("the sitemap lists every page: index and feed pages, archive months, items")
    func sitemap() throws {
        let sitemap = try Self.render().files["sitemap.xml"] ?? ""
        for path in [
            "", "page/2/", "page/3/", "feeds/alpha/", "feeds/alpha/page/3/", "archive/", "archive/2026/11/",
            "items/beta/b1/",
        ] {
            #expect(sitemap.contains("<loc>https://planet.example/sub/\(path)</loc>"), "\(path)")
        }
        #expect(sitemap.contains("<loc>https://planet.example/sub/archive/2026/10/page/3/</loc>"))
        // index pages, feed pages (alpha, beta), archive index, archive month pages (1 + 3 + 1), items
        #expect(sitemap.components(separatedBy: "<url>").count - 1 == 3 + 3 + 1 + 1 + 5 + 9)
    }

    @Test("table-cell alignment is a class, not the obsolete align attribute")
    func tableAlignment() {
        let html = HTMLSanitiser().sanitise(
            html:
                #"<table><tr><th align="center">a</th><th>b</th></tr><tr><td align="right">1</td><td>2</td></tr></table>"#,
            baseURL: nil
        ).html
        let rewritten = html.withAlignmentClasses.html
        #expect(!rewritten.contains("align=\""))
        #expect(rewritten.contains(#"<th class="align-center">a</th>"#))
        // Columns take the header row's alignment (as cmark-gfm tables do).
        #expect(rewritten.contains(#"<td class="align-center">1</td>"#))
        // The byte search finds the attribute at either end of the markup, and nothing else.
        for markup in [
            #"<td align="left">"#, #"x<th align="right">"#, "<p> align</p>", "", " align=", "g", "gggggggg",
            #"<p>big egg</p><td align="left">1</td>"#, #"<p>g</p><td align="left">"#, #" align"<td align="left">"#,
        ] {
            let expected = markup.replacingOccurrences(of: #"<td align="left">"#, with: #"<td class="align-left">"#)
                .replacingOccurrences(of: #"<th align="right">"#, with: #"<th class="align-right">"#)
            #expect(SanitisedHTML(html: markup).withAlignmentClasses.html == expected, "\(markup)")
        }
    }

    /// `SiteItem.wordCount` over Unicode scalars, plainly: the reference its test compares with.
    static func referenceWordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let isWordScalar =
                switch scalar.value {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
                case 0..<0x80: false
                default: scalar.properties.isAlphabetic
                }
            if isWordScalar && !inWord { count += 1 }
            inWord = isWordScalar
        }
        return count
    }
}
