import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// Feeds over libxml2's default 10 MB limits (lookup and text node sizes) parse whole: long-running
/// podcasts with full show notes reach 10–30 MB. The documents are generated here, not committed.
@Suite struct LargeFeedTests {
    /// 1,500 items of about 8 KB each: 12 MB, every item read.
    @Test func twelveMegabyteFeed() throws {
        // 8,174 bytes of notes.
        let notes = String(repeating: "Show notes with <b>markup</b> &amp; links. ", count: 190) + "End."
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Big</title>\n"
        xml.reserveCapacity(12_500_000)
        for index in 1...1_500 {
            xml += "<item><title>Episode \(index)</title><link>https://example.org/\(index)</link>"
            xml += "<description><![CDATA[\(notes)]]></description>"
            xml += "<enclosure url=\"https://example.org/\(index).mp3\" length=\"1\" type=\"audio/mpeg\"/></item>\n"
        }
        xml += "</channel></rss>\n"
        let data = Data(xml.utf8)
        #expect(data.count > 12_000_000)
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.count == 1_500)
        #expect(feed.items.last?.title == "Episode 1500")
        #expect(feed.items.last?.description?.utf8.count == notes.utf8.count)
        #expect(feed.warnings.isEmpty)
    }

    /// One text node over 10,000,000 bytes (libxml2's `XML_MAX_TEXT_LENGTH` without huge mode).
    @Test func textNodeOverTenMegabytes() throws {
        let body = String(repeating: "0123456789", count: 1_050_000)  // 10.5 MB
        let xml =
            "<rss version=\"2.0\"><channel><title>Huge</title><item><title>One</title><description>"
            + body + "</description></item></channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.count == 1)
        #expect(feed.items.first?.description?.utf8.count == 10_500_000)
    }

    /// Huge mode lifts size limits only: an entity defined in a DOCTYPE is still never expanded.
    @Test func entitiesStayOffInHugeDocuments() throws {
        let padding = String(repeating: "x", count: 10_100_000)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY e "EXPANDED">]>
            <rss version="2.0"><channel><title>T &e;</title><item><title>i</title>\
            <description>\(padding)</description></item></channel></rss>
            """
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(!feed.title.contains("EXPANDED"))
        #expect(feed.items.count == 1)
    }
}
