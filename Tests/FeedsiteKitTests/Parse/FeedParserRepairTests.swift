import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// Each repair rule on its own, in a document where only that rule applies, so the warning (with
/// the line of the first fix) and the repaired text can be checked exactly.
@Suite struct FeedParserRepairTests {
    /// Lines 1–3 are the prolog and channel; `items` starts on line 4.
    private func feed(_ items: String) throws -> Feed {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0">
            <channel><title>T</title>
            \(items)
            </channel></rss>
            """
        return try FeedParser().parse(Data(xml.utf8), url: nil)
    }

    /// Fixes to characters and fixes to the structure are told apart (the OPML import warns of the
    /// latter only: they may have lost content).
    @Test func structuralWarningsLeaveOutCharacterFixes() throws {
        let text = "<opml><body>\n<outline text=\"A & B &eacute; a < b\" xmlUrl=\"https://a.example/\"/>\n<outline"
        let repair = try #require(FeedParser.repair(Array(text.utf8), lineOffset: 0))
        #expect(repair.warnings.count == 4)
        #expect(repair.structuralWarnings.count == 1)
        #expect(repair.structuralWarnings.first?.contains("cut off") == true)
        let characters = "<opml><body><outline text=\"A & B &eacute;\"/></body></opml>"
        #expect(try #require(FeedParser.repair(Array(characters.utf8), lineOffset: 0)).structuralWarnings.isEmpty)
    }

    @Test func bareAmpersandIsEscaped() throws {
        let parsed = try feed("<item><title>Tom & Jerry</title>\n<link>https://e.org/?a=1&b=2&c</link></item>")
        #expect(parsed.items.first?.title == "Tom & Jerry")
        #expect(parsed.items.first?.link == "https://e.org/?a=1&b=2&c")
        #expect(parsed.warnings == ["line 4: repaired unescaped '&' (3 times)"])
    }

    @Test func htmlNamedEntitiesBecomeNumericReferences() throws {
        let parsed = try feed("<item>\n<title>Gr&uuml;&szlig;e &mdash; caf&eacute; &hellip;</title></item>")
        #expect(parsed.items.first?.title == "Grüße — café …")
        #expect(
            parsed.warnings == [
                "line 5: repaired undefined entity &eacute;", "line 5: repaired undefined entity &hellip;",
                "line 5: repaired undefined entity &mdash;", "line 5: repaired undefined entity &szlig;",
                "line 5: repaired undefined entity &uuml;",
            ])
    }

    /// feedparser's `hex_entity_x_uppercase`: XML allows only `&#x`, HTML (and feed authors) `&#X` too.
    @Test func uppercaseHexReferenceIsRead() throws {
        let parsed = try feed("<item><title>&#X41;&#X1F600; and &#x42;</title></item>")
        #expect(parsed.items.first?.title == "A😀 and B")
        #expect(parsed.warnings == ["line 4: repaired character reference with an uppercase X (&#X…;) (2 times)"])
    }

    @Test func unknownEntityIsKeptAsWritten() throws {
        let parsed = try feed("<item><title>a &bogus; b</title></item>")
        #expect(parsed.items.first?.title == "a &bogus; b")
        #expect(parsed.warnings == ["line 4: repaired unknown entity &bogus;"])
    }

    @Test func illegalCharactersAreDropped() throws {
        let parsed = try feed("<item><title>ok</title></item>\n\n<item><title>a\u{1}b\u{8}c\u{1B}d</title></item>")
        #expect(parsed.items.map(\.title) == ["ok", "abcd"])
        #expect(parsed.warnings == ["line 6: repaired illegal control character (3 times)"])
    }

    @Test func referencesToIllegalCharactersAreDropped() throws {
        let parsed = try feed("<item>\n<title>a&#0;b&#x1F;c&#65535;d</title></item>")
        #expect(parsed.items.first?.title == "abcd")
        #expect(parsed.warnings.allSatisfy { $0.hasPrefix("line 5: repaired reference to an illegal character") })
        #expect(parsed.warnings.count == 3)
    }

    @Test func unescapedLessThanIsEscaped() throws {
        let parsed = try feed("<item><title>1 < 2</title></item>")
        #expect(parsed.items.first?.title == "1 < 2")
        #expect(parsed.warnings == ["line 4: repaired unescaped '<'"])
    }

    /// Only the final end tags are missing: every item was complete, so every item is kept.
    @Test func unclosedElementsAtEndAreClosed() throws {
        let xml = "<rss version=\"2.0\"><channel><title>T</title>\n<item><title>a</title></item>\n"
        let parsed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(parsed.items.map(\.title) == ["a"])
        #expect(
            parsed.warnings == ["line 3: repaired end of document inside <channel>, cut off (closed 2 open elements)"])
    }

    /// A download cut off in the middle of the third item: the two items before it survive, the
    /// incomplete one is dropped, and both facts are warnings.
    @Test(arguments: [
        "<item><title>c is cut he", "<item><title>c</title><descr", "<item><title>c</title><link>https://e.org/c</li",
        "<item><description><![CDATA[<p>cut", "<item><title>c &am", "<item><title a=\"x",
    ])
    func truncatedDocumentKeepsCompleteItems(_ tail: String) throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title>
            <item><title>a</title></item>
            <item><title>b</title></item>
            \(tail)
            """
        let parsed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(parsed.title == "T")
        #expect(parsed.items.map(\.title) == ["a", "b"])
        #expect(parsed.warnings.contains { $0.hasPrefix("line 4: repaired end of document inside") })
        #expect(parsed.warnings.contains("item 3: dropped, the document ends in the middle of it"))
    }

    /// A cut inside the channel, before any item, still gives the channel.
    @Test func truncatedBeforeItems() throws {
        let parsed = try FeedParser().parse(
            Data("<rss version=\"2.0\"><channel><title>T</title><link>h".utf8), url: nil)
        #expect(parsed.title == "T")
        #expect(parsed.items.isEmpty)
    }

    /// Atom too: the repair is format-agnostic.
    @Test func truncatedAtom() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <entry><title>one</title><id>1</id></entry>
            <entry><title>two</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>cut
            """
        let parsed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(parsed.items.map(\.title) == ["one"])
        #expect(parsed.warnings.contains { $0.hasPrefix("line 3: repaired end of document inside <p>") })
    }

    /// The repair pass does not run on well-formed documents (a document ending with a literal
    /// marker-like PI is not truncated).
    @Test func wellFormedDocumentsAreNotRepaired() throws {
        let parsed = try feed("<item><title>a</title></item>")
        #expect(parsed.warnings.isEmpty)
    }

    /// Repairs are reported on the line of the original document, even after leading blank lines
    /// were stripped.
    @Test func lineNumbersCountStrippedLeadingLines() throws {
        let xml =
            "\n\n<rss version=\"2.0\"><channel><title>T</title>\n<item><title>a & b</title></item></channel></rss>"
        let parsed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(parsed.warnings == ["line 4: repaired unescaped '&'"])
    }
}

/// Processing instructions without data crash swift-corelibs-foundation's `XMLParser` (a NULL
/// `strlen`); the parser removes them first.
@Suite struct ProcessingInstructionTests {
    @Test(arguments: ["<?php?>", "<?foo ?>", "<?x\n?>"])
    func dataLessProcessingInstructionsAreRemoved(_ instruction: String) throws {
        let xml =
            "\(instruction)\n<rss version=\"2.0\"><channel><title>T</title>\(instruction)\n"
            + "<item><title>a\(instruction)b</title><description><![CDATA[<?keep?>]]></description></item>"
            + "</channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.first?.description == "<?keep?>")
        #expect(feed.items.first?.title.hasPrefix("a") == true)
    }

    @Test("the memchr scan blanks exactly what the byte-by-byte scan it replaced did")
    func sameAsByteLoop() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<", "!", "?", "<?", "?>", "<!--", "-->", "<![CDATA[", "]]>", "]", "-", "x", " ", "\n", "a b"]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...14, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            var fast = Array(text.utf8)
            var reference = fast
            FeedParser.blankEmptyProcessingInstructions(&fast)
            Self.referenceBlank(&reference)
            #expect(fast == reference, "\(text)")
        }
    }

    /// The scan as it was: a loop over every byte, and a `firstIndex(of:)` search.
    static func referenceBlank(_ bytes: inout [UInt8]) {
        func next(_ start: Int) -> Int? {
            var i = start
            while i + 1 < bytes.count {
                if bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "!") || bytes[i + 1] == UInt8(ascii: "?")
                {
                    return i
                }
                i += 1
            }
            return nil
        }
        func find(_ literal: String, _ start: Int) -> Int? {
            let utf8 = Array(literal.utf8)
            guard start < bytes.count else { return nil }
            var i = start
            while i + utf8.count <= bytes.count {
                if Array(bytes[i..<i + utf8.count]) == utf8 { return i }
                i += 1
            }
            return nil
        }
        func matches(_ at: Int, _ literal: String) -> Bool {
            let utf8 = Array(literal.utf8)
            return at + utf8.count <= bytes.count && Array(bytes[at..<at + utf8.count]) == utf8
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var i = 0
        while let open = next(i) {
            if matches(open, "<![CDATA[") {
                i = (find("]]>", open + 9) ?? bytes.count) + 3
            } else if matches(open, "<!--") {
                i = (find("-->", open + 4) ?? bytes.count) + 3
            } else if matches(open, "<?") {
                guard let close = find("?>", open + 2) else { return }
                var j = open + 2
                while j < close, !isSpace(bytes[j]) { j += 1 }
                if bytes[j..<close].allSatisfy(isSpace) {
                    for k in open..<(close + 2) where bytes[k] != 0x0A { bytes[k] = 0x20 }
                }
                i = close + 2
            } else {
                i = open + 1
            }
            guard i < bytes.count else { return }
        }
    }
}

/// The recovering path (repair pass, then libxml2's recovery mode) against the strict one.
@Suite struct RecoveryTests {
    /// On every real capture, forcing the recovering path reads the same items as the normal parse:
    /// recovery never loses an item the strict parse keeps, and never invents one.
    @Test func recoveryReadsWhatTheStrictParseReads() throws {
        let directory = Fixtures.url("real-feeds")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".md") && !$0.hasSuffix(".json")
                && $0 != "not-a-feed-iis-object-moved.rss"
        }
        #expect(names.count >= 50)
        for name in names.sorted() {
            let data = try Fixtures.data("real-feeds/" + name)
            let url = URL(string: "https://example.org/feed")
            let normal = try FeedParser().parse(data, url: url)
            let recovered = try FeedParser(forcingRecovery: true).parse(data, url: url)
            #expect(recovered.items.count == normal.items.count, "\(name)")
            #expect(recovered.items.map(\.title) == normal.items.map(\.title), "\(name)")
            #expect(recovered.items.map(\.link) == normal.items.map(\.link), "\(name)")
            #expect(recovered.items.map(\.published) == normal.items.map(\.published), "\(name)")
            #expect(recovered.items.map(\.content) == normal.items.map(\.content), "\(name)")
            #expect(recovered.title == normal.title, "\(name)")
        }
    }

    /// libxml2's depth limit is off in huge mode; feedsite's own (1024) stops the strict read, and
    /// the repair removes the tags nested deeper than 1000, keeping their text: the item they are
    /// in and the items after it are read.
    @Test func deepNestingIsFlattenedWithAWarning() throws {
        let depth = 5_000
        let xml =
            "<rss version=\"2.0\"><channel><title>T</title><item><title>a</title></item>\n<item><title>b</title>"
            + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
            + "</item>\n<item><title>c</title></item></channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.map(\.title) == ["a", "b", "c"])
        #expect(
            feed.warnings.contains {
                $0
                    == "line 2: removed tags nested deeper than 1000 levels (their text is kept) (\(depth - 1000 + 3) times)"
            },
            "\(feed.warnings)")
    }

    /// A CDATA section or comment never closed ends where the element it is in ends; when that
    /// element's end tag is missing too, where the item's is (h19g's `unterminated_cdata.xml`
    /// lost its only post). 20,000 of them read in one pass (each search to the end of the
    /// document for a `-->` that never comes made 1.3 MB take 6 minutes in a debug build).
    @Test func sectionsLeftOpenEndWithTheirItem() throws {
        let cdata = try FeedParser().parse(
            Data(
                ("<rss version=\"2.0\"><channel><title>T</title><item><title>Post 1</title>"
                    + "<link>http://ex.com/1</link><description><![CDATA[ open </item>"
                    + "<item><title>Post 2</title><link>http://ex.com/2</link></item></channel></rss>").utf8),
            url: nil)
        #expect(cdata.items.map(\.title) == ["Post 1", "Post 2"])
        #expect(cdata.items.map(\.link) == ["http://ex.com/1", "http://ex.com/2"])
        #expect(cdata.items.first?.description?.contains("open") == true)
        #expect(cdata.warnings.contains("line 1: closed a CDATA section left open"), "\(cdata.warnings)")

        let items = (1...20_000).map { "<item><title>t\($0)</title><description><!-- x </description></item>" }
        let start = ContinuousClock.now
        let comments = try FeedParser().parse(
            Data(("<rss version=\"2.0\"><channel><title>T</title>" + items.joined() + "</channel></rss>").utf8),
            url: nil)
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(comments.items.count == 10_000)  // the item limit
        #expect(comments.items.first?.title == "t1")
    }

    /// A section left open in a field whose end tag never comes (a title, a link, an Atom id)
    /// ends where its item does, not at the next item's end tag of that field, which took the next
    /// item with it (its title and link went to the broken one). Where the item's `</item>` is
    /// missing too, the next `<item>` ends it.
    @Test(arguments: [
        ("<title><![CDATA[Two</item>", "line 1: closed a CDATA section left open"),
        ("<title>Two <!-- never closed</item>", "line 1: removed a comment left open, up to </item>"),
        ("<title>Two <?php echo $x</item>", "line 1: removed a processing instruction left open, up to </item>"),
        ("<title>Two</title><link><![CDATA[http://ex.com/2</item>", "line 1: closed a CDATA section left open"),
        ("<title>Two <!-- never closed", "line 1: removed a comment left open, up to <item>"),
    ])
    func sectionLeftOpenInAFieldEndsWithItsItem(broken: String, warning: String) throws {
        let feed = try FeedParser().parse(
            Data(
                ("<rss version=\"2.0\"><channel><title>T</title>"
                    + "<item><title>One</title><link>http://ex.com/1</link></item>"
                    + "<item>\(broken)"
                    + "<item><title>Three</title><link>http://ex.com/3</link></item>"
                    + "<item><title>Four</title><link>http://ex.com/4</link></item></channel></rss>").utf8),
            url: nil)
        #expect(feed.items.count == 4, "\(feed.items.map(\.title))")
        #expect(feed.items.map(\.title).suffix(2) == ["Three", "Four"])
        #expect(feed.items.map(\.link).suffix(2) == ["http://ex.com/3", "http://ex.com/4"])
        #expect(feed.items[1].title.hasPrefix("Two"), "\(feed.items[1].title)")
        #expect(feed.items[1].link != "http://ex.com/3")
        #expect(feed.warnings.contains(warning), "\(feed.warnings)")
    }

    @Test func sectionLeftOpenInAnAtomIDEndsWithItsEntry() throws {
        let feed = try FeedParser().parse(
            Data(
                ("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title>"
                    + "<entry><id><![CDATA[urn:x:1</entry>"
                    + "<entry><title>Two</title><id>urn:x:2</id><link href=\"http://ex.com/2\"/></entry></feed>").utf8),
            url: nil)
        #expect(feed.items.count == 2)
        #expect(feed.items.last?.title == "Two")
        #expect(feed.items.last?.id == "urn:x:2")
    }

    /// Elements left open in the channel, thousands deep, before the items: the items start deeper
    /// than the repair keeps tags, so each closes them down to its channel instead of being removed
    /// (990 `<x>` read both posts, 1,000 read none).
    @Test func itemsBelowThousandsOfUnclosedElementsAreRead() throws {
        for depth in [990, 1_000, 5_000] {
            let xml =
                "<rss version=\"2.0\"><channel><title>T</title>\n" + String(repeating: "<x>", count: depth)
                + "\n<item><title>a</title><link>https://e.example/a</link></item>"
                + "\n<item><title>b</title><link>https://e.example/b</link></item></channel></rss>"
            let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
            #expect(feed.items.map(\.title) == ["a", "b"], "\(depth)")
            #expect(feed.items.map(\.link) == ["https://e.example/a", "https://e.example/b"], "\(depth)")
            #expect(feed.title == "T", "\(depth)")
        }
        let deep = String(repeating: "<x>", count: 5_000)
        let feed = try FeedParser().parse(
            Data(
                "<rss version=\"2.0\"><channel><title>T</title>\(deep)\n<item><title>a</title></item></channel></rss>"
                    .utf8),
            url: nil)
        #expect(
            feed.warnings.contains(
                "line 2: closed 998 elements left open before <item>, which was nested deeper than 1000 levels"),
            "\(feed.warnings)")
    }

    /// Stray end tags under deep open nesting: each looks a bounded way down the open elements, so
    /// the repair stays about linear (looking all the way down took minutes).
    @Test func strayEndTagsUnderDeepNestingStayLinear() throws {
        let count = 40_000
        let xml =
            "<rss version=\"2.0\"><channel><title>T</title><item><title>a</title></item><item><title>b</title>"
            + "<description>" + String(repeating: "<a>", count: count) + String(repeating: "</zz>", count: count)
            + "</description></item></channel></rss>"
        let start = ContinuousClock.now
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        // Looking all the way down is 800 million name comparisons; the bounded search is 2.5 million.
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(feed.items.first?.title == "a")
        #expect(feed.warnings.contains { $0.contains("dropped end tag </zz> that closes no open element") })
    }

    /// HTML written into a feed unescaped leaves end tags out where HTML allows it (`</p>`, `</li>`,
    /// `</td>`, `</tr>`): however many are open, the field's end tag finds its element and closes
    /// them, so the post and the posts after it are read (past 64 the end tag was not found, and
    /// every later post was lost inside the field).
    @Test func manyUnclosedElementsCloseAtTheFieldsEnd() throws {
        for (markup, count) in [("<p>para ", 100), ("<li>point ", 70), ("<tr><td>a<td>b", 40)] {
            let xml =
                "<rss version=\"2.0\"><channel><title>T</title><item><title>a</title></item>\n"
                + "<item><title>b</title><description>" + String(repeating: markup, count: count)
                + "</description></item>\n<item><title>c</title><link>https://e.example/c</link></item></channel></rss>"
            let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
            #expect(feed.items.map(\.title) == ["a", "b", "c"], "\(markup)")
            #expect(feed.items.last?.link == "https://e.example/c", "\(markup)")
            #expect(
                feed.items[1].description?.components(separatedBy: markup.prefix(4)).count == count + 1, "\(markup)")
            #expect(!feed.warnings.contains { $0.contains("dropped end tag </description>") }, "\(feed.warnings)")
        }
    }

    /// A text field left open (`<title>First post` with no `</title>`) ends where the next field
    /// of its item or channel starts, so it does not swallow the link, date and body after it; a
    /// field whose end tag does come later keeps the markup written inside it as text.
    @Test func fieldLeftOpenEndsAtTheNextField() throws {
        let rss = """
            <rss version="2.0"><channel>
            <title>Blog
            <link>https://e.example/</link>
            <item>
            <title>First post
            <link>https://e.example/1
            <guid isPermaLink="false">first-1
            <pubDate>Mon, 02 Nov 2026 10:00:00 GMT
            <description>Body one</description>
            </item>
            <item><title>Use <link> here</title><link>https://e.example/2</link></item>
            </channel></rss>
            """
        let feed = try FeedParser().parse(Data(rss.utf8), url: nil)
        #expect(feed.title == "Blog")
        #expect(feed.link == "https://e.example/")
        #expect(feed.items.count == 2)
        let first = try #require(feed.items.first)
        #expect(first.title == "First post")
        #expect(first.link == "https://e.example/1")
        #expect(first.id == "first-1")
        #expect(first.published == Date(timeIntervalSince1970: 1_793_613_600))
        #expect(first.description == "Body one")
        #expect(feed.items[1].link == "https://e.example/2")
        #expect(feed.items[1].title.hasPrefix("Use "))
        #expect(
            feed.warnings.contains("line 3: closed <title> (opened on line 2) before <link>: its end tag is missing"))
        #expect(
            feed.warnings.contains("line 8: closed <guid> (opened on line 7) before <pubDate>: its end tag is missing"))

        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>urn:a</id>
            <entry><title>Entry one
            <link href="https://e.example/a1"/><id>urn:a1</id><updated>2026-11-02T00:00:00Z</updated></entry>
            <entry><title>Entry two</title><link href="https://e.example/a2"/><id>urn:a2</id></entry>
            </feed>
            """
        let entries = try FeedParser().parse(Data(atom.utf8), url: nil).items
        #expect(entries.map(\.title) == ["Entry one", "Entry two"])
        #expect(entries.map(\.link) == ["https://e.example/a1", "https://e.example/a2"])
        #expect(entries.first?.id == "urn:a1")
    }

    /// A body left open (`<description>` or `<content:encoded>` with no end tag, HTML inside it
    /// left open too) ends at the next field HTML does not have (`<pubDate>`, `<guid>`,
    /// `<dc:creator>`), so the date and id after it are read; `<link>` or `<title>` inside a body
    /// whose end tag comes is HTML, as before.
    @Test func bodyLeftOpenEndsAtTheNextField() throws {
        let rss = """
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
             xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
            <item><title>A</title><description>Body A with <b>bold</b>
            <pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate><guid>a-1</guid><dc:creator>Ann</dc:creator>
            </item>
            <item><title>B</title><content:encoded><p>Body B <em>with a <a href="x">link</a>
            <guid>b-1</guid></item>
            <item><title>C</title><description>Body C <title>x</title></description><guid>c-1</guid></item>
            </channel></rss>
            """
        let feed = try FeedParser().parse(Data(rss.utf8), url: nil)
        #expect(feed.items.map(\.title) == ["A", "B", "C"])
        #expect(feed.items.map(\.id) == ["a-1", "b-1", "c-1"])
        #expect(feed.items[0].description == "Body A with <b>bold</b>")
        #expect(feed.items[0].published == Date(timeIntervalSince1970: 1_793_613_600))
        #expect(feed.items[0].authors.map(\.name) == ["Ann"])
        #expect(feed.items[1].content?.hasPrefix("<p>Body B <em>with a <a href=\"x\">link</a>") == true)
        #expect(feed.items[2].description?.contains("<title>x</title>") == true)
        #expect(
            feed.warnings.contains(
                "line 4: closed <description> (opened on line 3) before <pubDate>: its end tag is missing"))
        #expect(
            feed.warnings.contains(
                "line 7: closed <content:encoded> (opened on line 6) before <guid>: its end tag is missing"))
    }

    /// `<` written unescaped in a title or link (`std::vector<int>`, `List<String>`, `a<b then`) is
    /// text when no end tag of its name comes before the field's: read as written, not as an
    /// element closed at the field's end (`vector<int> in C++</int>`). HTML in a title stays HTML:
    /// `<b>bold</b>`, and `<em>` left open (a whole tag of HTML's).
    @Test func lessThanWrittenInATextFieldIsText() throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title>
            <item><title>Using std::vector<int> in C++</title><link>https://e.example/1</link></item>
            <item><title>List<String> and if a<b then</title><link>https://e.example/2?q=a<b</link></item>
            <item><title>A <b>bold</b> <em>move</title><link>https://e.example/3</link></item>
            </channel></rss>
            """
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(
            feed.items.map(\.title) == ["Using std::vector<int> in C++", "List<String> and if a<b then", "A bold move"])
        #expect(feed.items.map(\.link) == ["https://e.example/1", "https://e.example/2?q=a<b", "https://e.example/3"])
        #expect(feed.warnings.contains("line 2: repaired unescaped '<' in <title> (read as text) (3 times)"))
        #expect(feed.warnings.contains("line 3: repaired unescaped '<' in <link> (read as text)"))
        #expect(!feed.warnings.contains { $0.contains("attribute") })
    }

    /// A document naming a new element in every stray end tag gets a bounded list of warnings.
    @Test func warningsStayBounded() throws {
        let strays = (0..<500).map { "</stray\($0)>" }.joined()
        let xml = "<rss version=\"2.0\"><channel><title>T</title>\(strays)<item><title>a</title></item></channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.map(\.title) == ["a"])
        #expect(feed.warnings.count <= 52)
        #expect(feed.warnings.contains { $0.contains("repaired more problems of other kinds (450 times)") })
    }

    /// A quoted value holding `<` on one line is read as HTML reads it (the `<` escaped), and an
    /// attribute whose name XML refuses is dropped rather than breaking its tag.
    @Test func attributeValuesAndNames() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><title>e</title><id>urn:e</id><link href="http://example.org/?q=a<b" 1bad="x"/></entry>
            </feed>
            """
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.first?.link == "http://example.org/?q=a<b")
        #expect(feed.warnings.contains("line 2: dropped an attribute whose name is not an XML name"))
        #expect(feed.warnings.contains("line 2: repaired '<' in an attribute value"))
    }

    /// `<?` without a target name starts no processing instruction: it is text.
    @Test func lessThanQuestionMarkWithoutTargetIsText() throws {
        let xml = "<rss version=\"2.0\"><channel><title>T</title><item><title>a <? b</title></item></channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.first?.title == "a <? b")
        #expect(feed.warnings == ["line 1: repaired unescaped '<'"])
    }

    /// Without tag balancing (the OPML import's choice), broken structure stays broken.
    @Test func balancingIsOptional() {
        let bytes = Array("<opml><body><outline xmlUrl=\"https://a.example/\"></body></opml>".utf8)
        #expect(FeedParser.repair(bytes, lineOffset: 0) == nil)
        let balanced = FeedParser.repair(bytes, lineOffset: 0, balancingTags: true)
        #expect(
            balanced.map { String(decoding: $0.bytes, as: UTF8.self) }
                == "<opml><body><outline xmlUrl=\"https://a.example/\"></outline></body></opml>")
    }

    /// What the repair leaves broken, libxml2's recovery mode reads past, with a located warning.
    @Test func recoveryModeReadsPastWhatRepairLeaves() throws {
        // Text after the root element is not well-formed XML, and the repair pass leaves it.
        let xml =
            "<rss version=\"2.0\"><channel><title>T</title>\n<item><title>a</title></item>\n"
            + "<item><title>c</title></item></channel></rss>\njunk after the end"
        let feed = try FeedParser().parse(Data(xml.utf8), url: nil)
        #expect(feed.items.map(\.title) == ["a", "c"])
        #expect(
            feed.warnings.contains {
                $0.contains("read past malformed XML: the document does not end where its root element does")
            },
            "\(feed.warnings)")
    }
}
