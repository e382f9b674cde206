import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

@Suite("Page renderer")
struct PageRendererTests {
    static func sampleSite() -> Site {
        let sanitiser = HTMLSanitiser()
        func item(_ slug: String, feed: String, name: String, title: String, day: Int, html: String) -> SiteItem {
            let content = sanitiser.sanitise(html: html, baseURL: URL(string: "https://blog.example/posts/"))
            return SiteItem(
                slug: slug, feedSlug: feed, feedName: name, title: title, link: "https://blog.example/posts/\(slug)",
                authors: ["Ada <Lovelace>"], date: Date(timeIntervalSince1970: 1_795_000_000 + Double(day) * 86_400),
                content: content.html, excerpt: HTMLSanitiser.excerpt(content.plainText, maxLength: 40),
                categories: day == 1 ? ["swift", "a&b"] : [],
                enclosures: day == 1
                    ? [
                        Enclosure(url: "https://cdn.example/ep1.mp3", length: 12_345_678, type: "audio/mpeg"),
                        Enclosure(url: "javascript:alert(1)", length: nil, type: nil),
                    ] : [],
                image: day == 1 ? "https://blog.example/cover.jpg" : nil,
                wordCount: SiteItem.wordCount(content.plainText))
        }
        let first = [
            item(
                "hello-world", feed: "alpha", name: "Alpha & Co", title: "Hello <World>", day: 1,
                html: "<p>Hi <b>there</b> <a href=\"/about\">about</a></p><script>alert(1)</script>"),
            item("second", feed: "alpha", name: "Alpha & Co", title: "Second", day: 0, html: "<p>Two</p>"),
        ]
        let second = [
            item("beta-post", feed: "beta", name: "Beta", title: "Beta post", day: 2, html: "plain text body")
        ]
        let configuration = SiteConfiguration(
            title: "Test \"Planet\"", description: "Feeds <about> things",
            baseURL: URL(string: "https://planet.example/"),
            timeZone: TimeZone(identifier: "Europe/Berlin") ?? .current,
            feeds: [])
        return Site(
            configuration: configuration,
            feeds: [
                SiteFeed(
                    source: FeedSource(url: URL(string: "https://alpha.example/feed.xml")!, name: "Alpha & Co"),
                    slug: "alpha", name: "Alpha & Co", description: "About alpha",
                    siteLink: "javascript:alert(1)", items: first, language: "en-GB",
                    image: "https://alpha.example/icon.png"),
                SiteFeed(
                    source: FeedSource(url: URL(string: "https://beta.example/rss")!), slug: "beta", name: "Beta",
                    description: nil, siteLink: "https://beta.example/", items: second),
            ],
            items: [second[0], first[0], first[1]])
    }

    static func render() throws -> [String: Data] {
        let templates = try SiteTemplates.load(from: Fixtures.repositoryRoot.appendingPathComponent("Templates"))
        return try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(sampleSite())
    }

    @Test("the whole rendered site matches the golden file (RECORD_SNAPSHOTS=1 to re-record)")
    func golden() throws {
        let files = try Self.render()
        let text = files.keys.sorted().filter { $0.hasSuffix(".html") }.map { path in
            "=== \(path)\n" + String(decoding: files[path] ?? Data(), as: UTF8.self)
        }.joined(separator: "\n")
        let expected = try Fixtures.snapshot("render/sample-site.txt", actual: text)
        #expect(expected != nil, "snapshot recorded; run again without RECORD_SNAPSHOTS")
        #expect(text == expected)
    }

    @Test("pages are where DESIGN §5 puts them, and assets are copied")
    func layout() throws {
        let files = try Self.render()
        #expect(
            Set(files.keys) == [
                "index.html", "404.html", "assets/style.css", "assets/favicon.svg", "feeds/alpha/index.html",
                "feeds/beta/index.html",
                "items/alpha/hello-world/index.html", "items/alpha/second/index.html",
                "items/beta/beta-post/index.html", "status/index.html", "status/status.json",
                "archive/index.html", "archive/2026/11/index.html",
                // Monograms: neither feed has an avatar made from its icon (alpha names one, but
                // icons become avatars when the site is built: AvatarTests).
                "avatars/alpha.svg", "avatars/beta.svg",
                // PublishedFiles (the sample site has a base_url)
                "atom.xml", "rss.xml", "feed.json", "opml.xml", "sitemap.xml", "robots.txt",
            ])
    }

    @Test("text is escaped, unsafe links are dropped, content is the sanitiser's")
    func escaping() throws {
        let files = try Self.render()
        let item = String(decoding: files["items/alpha/hello-world/index.html"] ?? Data(), as: UTF8.self)
        #expect(item.contains("<h1 lang=\"en-GB\" dir=\"auto\">Hello &lt;World&gt;</h1>"))
        #expect(item.contains("Ada &lt;Lovelace&gt;"))
        #expect(item.contains("href=\"https://blog.example/about\""))
        #expect(item.contains("https://cdn.example/ep1.mp3"))
        #expect(item.contains("12.3 MB"))
        #expect(!item.lowercased().contains("javascript:"))
        #expect(!item.contains("alert(1)"))
        #expect(item.contains("href=\"../../../assets/style.css\""))
        let feed = String(decoding: files["feeds/alpha/index.html"] ?? Data(), as: UTF8.self)
        #expect(!feed.contains("javascript:"))
        #expect(feed.contains("About alpha"))
        let index = String(decoding: files["index.html"] ?? Data(), as: UTF8.self)
        #expect(index.contains("<title>Test &quot;Planet&quot;</title>"))
        #expect(index.contains("Feeds &lt;about&gt; things"))
        // Newest first: Beta (day 2), then Hello (day 1), then Second (day 0).
        let order = ["Beta post", "Hello &lt;World&gt;", "Second"].compactMap { index.range(of: $0)?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
    }
}

@Suite("Index scaling")
struct IndexScalingTests {
    @Test("the feed list is on the first index page only (a big planet's index stays linear)")
    func feedListOnFirstPageOnly() throws {
        var site = PageRendererTests.sampleSite()
        site.configuration.pageSize = 1
        let templates = try SiteTemplates.load(from: Fixtures.repositoryRoot.appendingPathComponent("Templates"))
        let files = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(site)
        let first = String(decoding: files["index.html"] ?? Data(), as: UTF8.self)
        let second = String(decoding: files["page/2/index.html"] ?? Data(), as: UTF8.self)
        #expect(first.contains("id=\"feeds-heading\""))
        #expect(!second.isEmpty)
        #expect(!second.contains("id=\"feeds-heading\""))
    }
}
