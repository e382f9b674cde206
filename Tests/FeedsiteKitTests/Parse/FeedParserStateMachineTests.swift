import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// The state machine fed events directly, as the `XMLParser` delegate would, with no XML involved.
@Suite struct FeedParserStateMachineTests {
    typealias Machine = FeedParser.StateMachine

    private static let atomNS = "http://www.w3.org/2005/Atom"
    private static let contentNS = "http://purl.org/rss/1.0/modules/content/"

    /// `<name>text</name>` as three events.
    private func leaf(
        _ machine: inout Machine, _ name: String, ns: String? = nil, _ text: String, attributes: [String: String] = [:]
    ) {
        #expect(machine.startElement(name, namespaceURI: ns, attributes: attributes) == .proceed)
        machine.characters(text)
        machine.endElement(name, namespaceURI: ns)
    }

    @Test func buildsAnRSSFeedFromEvents() throws {
        var machine = Machine(documentURL: URL(string: "https://example.org/feed"))
        #expect(machine.startElement("rss", namespaceURI: nil, attributes: ["version": "2.0"]) == .proceed)
        _ = machine.startElement("channel", namespaceURI: nil)
        leaf(&machine, "title", "Channel")
        leaf(&machine, "link", "/")

        _ = machine.startElement("item", namespaceURI: nil)
        // Text split across several events, as XMLParser delivers it around entities.
        _ = machine.startElement("title", namespaceURI: nil)
        machine.characters("Fish ")
        machine.characters("&")
        machine.characters(" chips")
        machine.endElement("title", namespaceURI: nil)
        leaf(&machine, "link", "posts/1")
        leaf(&machine, "pubDate", "Sat, 01 Feb 2020 10:00:00 GMT")
        // Naked child markup inside <description>.
        _ = machine.startElement("description", namespaceURI: nil)
        machine.characters("Hi ")
        _ = machine.startElement("em", namespaceURI: nil, attributes: ["class": "x"])
        machine.characters("there")
        machine.endElement("em", namespaceURI: nil)
        machine.characters(" & bye")
        machine.endElement("description", namespaceURI: nil)
        // CDATA in content:encoded.
        _ = machine.startElement("encoded", namespaceURI: Self.contentNS, qualifiedName: "content:encoded")
        machine.cdata("<p>Body</p>")
        machine.endElement("encoded", namespaceURI: Self.contentNS)
        machine.endElement("item", namespaceURI: nil)

        machine.endElement("channel", namespaceURI: nil)
        machine.endElement("rss", namespaceURI: nil)

        let feed = try machine.finish()
        #expect(feed.format == .rss)
        #expect(feed.version == "2.0")
        #expect(feed.title == "Channel")
        #expect(feed.link == "https://example.org/")
        let item = try #require(feed.items.first)
        #expect(item.title == "Fish & chips")
        #expect(item.link == "https://example.org/posts/1")
        #expect(item.published == Date(timeIntervalSince1970: 1_580_551_200))
        #expect(item.description == #"Hi <em class="x">there</em> &amp; bye"#)
        #expect(item.content == "<p>Body</p>")
    }

    @Test func atomXHTMLWrapperIsRemoved() throws {
        var machine = Machine(documentURL: nil)
        _ = machine.startElement("feed", namespaceURI: Self.atomNS)
        _ = machine.startElement("entry", namespaceURI: Self.atomNS)
        leaf(&machine, "title", ns: Self.atomNS, "T")
        _ = machine.startElement(
            "content", namespaceURI: Self.atomNS, attributes: ["type": "xhtml", "xml:base": "https://b.example/x/"])
        machine.characters("\n  ")
        _ = machine.startElement("div", namespaceURI: "http://www.w3.org/1999/xhtml")
        _ = machine.startElement("p", namespaceURI: "http://www.w3.org/1999/xhtml")
        machine.characters("1 < 2")
        machine.endElement("p", namespaceURI: "http://www.w3.org/1999/xhtml")
        machine.endElement("div", namespaceURI: "http://www.w3.org/1999/xhtml")
        machine.characters("\n")
        machine.endElement("content", namespaceURI: Self.atomNS)
        machine.endElement("entry", namespaceURI: Self.atomNS)
        machine.endElement("feed", namespaceURI: Self.atomNS)

        let feed = try machine.finish()
        #expect(feed.format == .atom)
        #expect(feed.items.first?.content == "<p>1 &lt; 2</p>")
        #expect(feed.items.first?.contentBase == "https://b.example/x/")
    }

    @Test func unknownRootStops() {
        var machine = Machine(documentURL: nil)
        let action = machine.startElement("urlset", namespaceURI: nil, at: .init(line: 3, column: 1))
        #expect(action == .stop)
        let error = #expect(throws: FeedParseError.self) { try machine.finish() }
        #expect(error?.line == 3)
        #expect(error?.message.contains("its root element is <urlset>") == true)
    }

    @Test func htmlRootStops() {
        var machine = Machine(documentURL: nil)
        #expect(machine.startElement("html", namespaceURI: "http://www.w3.org/1999/xhtml") == .stop)
        let error = #expect(throws: FeedParseError.self) { try machine.finish() }
        #expect(error?.message.hasPrefix("the document is an HTML page") == true)
    }

    @Test func errorEventFailsTheParse() {
        var machine = Machine(documentURL: nil)
        _ = machine.startElement("rss", namespaceURI: nil)
        machine.error("mismatched end tag", at: .init(line: 40, column: 2))
        #expect(machine.sawMalformedXML)
        let error = #expect(throws: FeedParseError.self) { try machine.finish() }
        #expect(error?.description == "line 40, column 2: malformed XML: mismatched end tag")
    }

    @Test func noEventsIsNoFeed() {
        let machine = Machine(documentURL: nil)
        #expect(throws: FeedParseError.self) { try machine.finish() }
    }
}
