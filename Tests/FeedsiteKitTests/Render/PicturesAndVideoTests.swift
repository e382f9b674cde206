import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// One picture per item in lists, chosen in a fixed order; video items shown by their poster
/// linking to where they play; Flash and torrent files never offered; audio keeps its player.
@Suite("Pictures and video")
struct PicturesAndVideoTests {
    static let base = URL(string: "https://blog.example/feed.xml")!

    /// The image `ReadFeed` keeps for the first item of an RSS document.
    static func image(rssItem: String) throws -> String? {
        let xml = """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"
              xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
              xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel><title>T</title><link>https://blog.example/</link>
            <item><title>A</title><link>https://blog.example/a</link>\(rssItem)</item>
            </channel></rss>
            """
        let feed = try FeedParser().parse(Data(xml.utf8), url: base)
        let read = ReadFeed(feed: feed, finalURL: base, sanitiser: HTMLSanitiser(), excerptLength: 200)
        return read.entries.first?.item.image
    }

    @Test(
        "the picture: media:thumbnail, then an image media:content, then itunes:image, then an image enclosure, then the content's first image"
    )
    func order() throws {
        let thumbnail = #"<media:thumbnail url="/t.jpg" width="480" height="360"/>"#
        let mediaImage = #"<media:content url="/m.jpg" medium="image"/>"#
        let itunes = #"<itunes:image href="https://cdn.example/i.png"/>"#
        let enclosure = #"<enclosure url="https://cdn.example/e.webp" type="image/webp" length="1"/>"#
        let content =
            #"<content:encoded><![CDATA[<p>x <img src="/c.png?a=1&amp;b=2"> <img src="/d.png"></p>]]></content:encoded>"#
        #expect(
            try Self.image(rssItem: content + enclosure + itunes + mediaImage + thumbnail)
                == "https://blog.example/t.jpg")
        #expect(try Self.image(rssItem: content + enclosure + itunes + mediaImage) == "https://blog.example/m.jpg")
        #expect(try Self.image(rssItem: content + enclosure + itunes) == "https://cdn.example/i.png")
        #expect(try Self.image(rssItem: content + enclosure) == "https://cdn.example/e.webp")
        #expect(try Self.image(rssItem: content) == "https://blog.example/c.png?a=1&b=2")
        // An audio enclosure and a video media:content are not pictures; nothing is invented.
        #expect(
            try Self.image(
                rssItem: #"<enclosure url="https://cdn.example/ep.mp3" type="audio/mpeg" length="1"/>"#
                    + #"<media:content url="https://cdn.example/v.mp4" type="video/mp4"/>"#) == nil)
        // An enclosure without a type counts as a picture by its file name.
        #expect(
            try Self.image(rssItem: #"<enclosure url="https://cdn.example/p.JPG" length="1"/>"#)
                == "https://cdn.example/p.JPG")
        // A javascript: image is no picture.
        #expect(try Self.image(rssItem: #"<media:thumbnail url="javascript:alert(1)"/>"#) == nil)
    }

    @Test("JSON Feed's image is the item's picture")
    func jsonFeed() throws {
        let json =
            #"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"1","url":"https://j.example/1","content_html":"<p><img src=\"https://j.example/inline.png\"></p>","image":"https://j.example/cover.png"}]}"#
        let url = URL(string: "https://j.example/feed.json")!
        let feed = try FeedParser().parse(Data(json.utf8), url: url)
        let read = ReadFeed(feed: feed, finalURL: url, sanitiser: HTMLSanitiser(), excerptLength: 200)
        #expect(read.entries.first?.item.image == "https://j.example/cover.png")
    }

    @Test(
        "video pages: YouTube, Vimeo, PeerTube; not a channel, a wiki or a blog",
        arguments: [
            ("https://www.youtube.com/watch?v=q-6oU3jXAho", "YouTube"), ("https://youtu.be/q-6oU3jXAho", "YouTube"),
            ("https://m.youtube.com/shorts/abcdef", "YouTube"), ("https://vimeo.com/123456789", "Vimeo"),
            ("https://framatube.org/videos/watch/ed5c048d-01f3-4ceb-97db-6e278de512b0", "framatube.org"),
            ("https://peertube.example/w/9c9de5e8-0a1e-484a-b099", "peertube.example"),
            ("https://www.youtube.com/channel/UC7_gcs09iThXybpVgjHZ_7g", nil), ("https://vimeo.com/about", nil),
            ("https://en.wikipedia.org/w/index.php", nil), ("https://blog.example/videos/watch/short", nil),
            ("javascript:alert(1)//youtube.com/watch?v=1", nil),
            // Hosts in any case, paths with doubled slashes or percent-escapes are read as URLs read them.
            ("https://WWW.YouTube.COM/watch?v=q-6oU3jXAho", "YouTube"), ("HTTPS://Vimeo.com/123456789", "Vimeo"),
            ("https://tube.example/videos//watch/ed5c048d-01f3-4ceb-97db-6e278de512b0", "tube.example"),
            ("https://tube.example/w/%39c9de5e8-0a1e-484a-b099", "tube.example"),
            ("https://blog.example/2026/11/video-post", nil),
        ] as [(String, String?)])
    func videoSites(link: String, expected: String?) {
        #expect(VideoSite.name(of: link) == expected)
    }

    static func build(_ fixtures: [String], language: String = "en") async throws -> (TestBuild, SiteInspector) {
        let build = try TestBuild()
        var yaml = "title: Pictures\nsearch: false\nlanguage: \(language)\npage_size: 200\nfeeds:\n"
        for fixture in fixtures { yaml += "  - url: \(Fixtures.url("real-feeds/\(fixture)").path)\n" }
        _ = try await build.run(yaml: yaml)
        return (build, build.site)
    }

    @Test("YouTube: thumbnails in lists, the poster links to the video, no Flash download")
    func youtube() async throws {
        let (build, site) = try await Self.build(["youtube-atom.xml"])
        defer { build.remove() }
        let index = site.files["index.html"] ?? ""
        #expect(
            index.contains(
                #"<span class="thumb video"><img src="https://i2.ytimg.com/vi/q-6oU3jXAho/hqdefault.jpg" alt="" width="160" height="90" loading="lazy" decoding="async" referrerpolicy="no-referrer"></span>"#
            ))
        let thumbnails = index.components(separatedBy: #"<span class="thumb video"><img"#).count - 1
        let summaries = index.components(separatedBy: #"<article class="summary"#).count - 1
        #expect(summaries > 10 && thumbnails == summaries)
        let items = site.files.filter { $0.key.hasPrefix("items/") }
        #expect(!items.isEmpty)
        for (path, html) in items {
            #expect(html.contains(#"<p class="video-poster"><a href="https://www.youtube.com/watch?v="#), "\(path)")
            #expect(html.contains("▶ Watch on YouTube</span></a></p>"), "\(path)")
            #expect(!html.contains("shockwave") && !html.contains("Download"), "\(path)")
        }
    }

    @Test("PeerTube: the poster links to the instance, no .torrent is offered")
    func peertube() async throws {
        let (build, site) = try await Self.build(["peertube-rss2-media.xml"], language: "de")
        defer { build.remove() }
        let items = site.files.filter { $0.key.hasPrefix("items/") }
        #expect(!items.isEmpty)
        for (path, html) in items {
            #expect(html.contains("▶ Auf framatube.org ansehen</span>"), "\(path)")
            #expect(!html.contains(".torrent") && !html.contains("bittorrent"), "\(path)")
        }
    }

    @Test("a podcast keeps its audio player, and a blog without pictures gets no thumbnail and no poster")
    func audioAndNone() async throws {
        let (build, site) = try await Self.build(["podcast-itunes-squarespace-atp.xml", "hackernews-hnapp-atom.xml"])
        defer { build.remove() }
        // Every episode, the ten whose enclosure gives no type (`atp309.mp3`) included.
        let episodes = site.files.filter { $0.key.hasPrefix("items/accidental-tech-podcast/") }
        #expect(episodes.count == 100)
        for (path, episode) in episodes {
            #expect(
                episode.contains(#"<audio controls preload="none" src="http://traffic.libsyn.com/atpfm/"#), "\(path)")
            #expect(!episode.contains("video-poster"), "\(path)")
        }
        let blog = site.files.filter { $0.key.hasPrefix("feeds/") && !$0.key.contains("accidental") }.values.joined()
        #expect(!blog.isEmpty && !blog.contains(#"class="thumb"#) && !blog.contains("has-thumb"))
    }
}
