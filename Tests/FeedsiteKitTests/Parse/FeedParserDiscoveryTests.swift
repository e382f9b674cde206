import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

@Suite struct FeedParserDiscoveryTests {
    private func discover(_ html: String, base: String? = "https://blog.example/posts/page.html") -> [String] {
        FeedParser.discoverFeedLinks(inHTML: Data(html.utf8), baseURL: base.flatMap(URL.init(string:)))
            .map(\.absoluteString)
    }

    @Test func findsEveryFeedTypeInDocumentOrder() {
        let html = """
            <!DOCTYPE html><html><head>
            <link rel="stylesheet" href="/style.css">
            <link rel="alternate" type="application/atom+xml" href="/atom.xml" title="Atom">
            <link rel="alternate" type="application/rss+xml" href="https://blog.example/rss.xml">
            <link rel="alternate" type="application/feed+json" href="feed.json">
            <link rel="alternate" type="application/json" href="//cdn.example/feed.json">
            <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
            </head><body></body></html>
            """
        #expect(
            discover(html) == [
                "https://blog.example/atom.xml", "https://blog.example/rss.xml",
                "https://blog.example/posts/feed.json", "https://cdn.example/feed.json",
            ])
    }

    @Test func attributesInAnyOrderCaseAndQuoting() {
        let html = """
            <LINK HREF='/a.xml' TYPE='Application/RSS+XML' REL='Alternate'/>
            <link href=/b.xml type=application/atom+xml rel=alternate>
            <link
              type="application/rss+xml; charset=utf-8"
              rel="alternate feed"
              href="/c.xml?x=1&amp;y=2"
            >
            """
        #expect(
            discover(html) == [
                "https://blog.example/a.xml", "https://blog.example/b.xml", "https://blog.example/c.xml?x=1&y=2",
            ])
    }

    @Test func ignoresNonAlternatesCommentsDuplicatesAndEmptyHrefs() {
        let html = """
            <link rel="feed" type="application/rss+xml" href="/not-alternate.xml">
            <link rel="alternate" href="/no-type.xml">
            <!-- <link rel="alternate" type="application/rss+xml" href="/commented.xml"> -->
            <link rel="alternate" type="application/rss+xml" href="">
            <link rel="alternate" type="application/rss+xml" href="/feed.xml">
            <link rel="alternate" type="application/rss+xml" href="https://blog.example/feed.xml">
            <linked rel="alternate" type="application/rss+xml" href="/not-a-link-tag.xml">
            """
        #expect(discover(html) == ["https://blog.example/feed.xml"])
    }

    @Test func baseElementAndMissingBaseURL() {
        let html = """
            <base href="https://other.example/root/">
            <link rel="alternate" type="application/atom+xml" href="feed.atom">
            """
        #expect(discover(html) == ["https://other.example/root/feed.atom"])
        // Without any base, only absolute hrefs can be returned.
        let page = """
            <link rel="alternate" type="application/atom+xml" href="relative.atom">
            <link rel="alternate" type="application/atom+xml" href="https://x.example/a.atom">
            """
        #expect(discover(page, base: nil) == ["https://x.example/a.atom"])
    }

    @Test func toleratesBrokenMarkup() {
        #expect(discover("") == [])
        #expect(discover("<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/cut") == [])
        #expect(discover("<link rel=alternate type=application/rss+xml href=/x.xml") == ["https://blog.example/x.xml"])
        #expect(
            discover("<<link \"' rel=\"alternate\" type=\"application/rss+xml\" href=\"/y.xml\">") == [
                "https://blog.example/y.xml"
            ])
    }

    /// The HTML page error carries the flag the pipeline uses to start discovery; other errors don't.
    @Test func htmlPageErrorIsFlagged() throws {
        let page = """
            <!DOCTYPE html>
            <html><head><link rel="alternate" type="application/rss+xml" href="/feed"></head></html>
            """
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(page.utf8), url: nil) }
        #expect(error?.isHTMLPage == true)
        #expect(
            FeedParser.discoverFeedLinks(inHTML: Data(page.utf8), baseURL: URL(string: "https://s.example/"))
                == [URL(string: "https://s.example/feed")])
        // XHTML with an XML declaration is caught at the root element.
        let xhtml = "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head/></html>"
        let xhtmlError = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(xhtml.utf8), url: nil) }
        #expect(xhtmlError?.isHTMLPage == true)
        let other = #expect(throws: FeedParseError.self) {
            try FeedParser().parse(Data("<opml version=\"2.0\"/>".utf8), url: nil)
        }
        #expect(other?.isHTMLPage == false)
    }

    // not-a-feed-iis-object-moved.rss: `<head><title>Document Moved</title></head>` — flagged as HTML.
    @Test func iisObjectMovedIsFlagged() throws {
        let data = try Fixtures.data("real-feeds/not-a-feed-iis-object-moved.rss")
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(data, url: nil) }
        #expect(error?.isHTMLPage == true)
    }
}
