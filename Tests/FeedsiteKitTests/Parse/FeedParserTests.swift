import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// Behaviour on small hand-made documents: one rule per test.
@Suite struct FeedParserTests {
    private func parse(_ xml: String, url: String? = "https://example.org/feed.xml") throws -> Feed {
        try FeedParser().parse(Data(xml.utf8), url: url.flatMap(URL.init(string:)))
    }

    private func rss(_ items: String, channel: String = "", rootAttributes: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" \(rootAttributes)
          xmlns:content="http://purl.org/rss/1.0/modules/content/"
          xmlns:dc="http://purl.org/dc/elements/1.1/"
          xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
          xmlns:media="http://search.yahoo.com/mrss/"
          xmlns:a10="http://www.w3.org/2005/Atom">
        <channel><title>T</title><link>https://example.org/</link>\(channel)
        \(items)
        </channel></rss>
        """
    }

    private func atom(_ entries: String, feedAttributes: String = "") -> String {
        """
        <feed xmlns="http://www.w3.org/2005/Atom" \(feedAttributes)><title>A</title>
        <author><name>Feed Author</name></author>
        \(entries)
        </feed>
        """
    }

    // MARK: - Text constructs

    @Test func nakedMarkupEscapedMarkupAndCDATAAreTheSameHTML() throws {
        let naked = try parse(
            rss("<item><title>x</title><description>Hello <em>big</em> world<br/>!</description></item>"))
        let escaped = try parse(
            rss(
                "<item><title>x</title><description>Hello &lt;em&gt;big&lt;/em&gt; world&lt;br&gt;!</description></item>"
            ))
        let cdata = try parse(
            rss("<item><title>x</title><description><![CDATA[Hello <em>big</em> world<br>!]]></description></item>"))
        #expect(naked.items.first?.description == "Hello <em>big</em> world<br>!")
        #expect(escaped.items.first?.description == naked.items.first?.description)
        #expect(cdata.items.first?.description == naked.items.first?.description)
    }

    @Test func nakedMarkupKeepsTextEscapedAndAttributes() throws {
        let feed = try parse(
            rss(#"<item><description>1 &lt; 2 &amp; <a href="/x?a=1&amp;b=2">link</a></description></item>"#))
        #expect(feed.items.first?.description == #"1 &lt; 2 &amp; <a href="/x?a=1&amp;b=2">link</a>"#)
    }

    @Test func atomTextKinds() throws {
        let feed = try parse(
            atom(
                """
                <entry><id>1</id><title>t</title>
                  <summary type="text">1 &lt; 2</summary>
                  <content type="html">&lt;p&gt;Hi&lt;/p&gt;</content></entry>
                <entry><id>2</id><title>t</title>
                  <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>A <b>bold</b> &amp; <img src="i.png"/></p></div></content></entry>
                """))
        #expect(feed.items[0].description == "1 < 2")
        #expect(feed.items[0].descriptionKind == .text)
        #expect(feed.items[0].content == "<p>Hi</p>")
        #expect(feed.items[0].contentKind == .html)
        #expect(feed.items[1].content == #"<p>A <b>bold</b> &amp; <img src="i.png"></p>"#)
        #expect(feed.items[1].contentKind == .html)
    }

    @Test func xhtmlWithPrefixesAndNoWrapperIsKeptWhole() throws {
        let feed = try parse(
            atom(
                """
                <entry xmlns:x="http://www.w3.org/1999/xhtml"><id>1</id><title>t</title>
                  <content type="xhtml"><x:div><x:p>one</x:p></x:div><x:p>two</x:p></content></entry>
                """))
        #expect(feed.items.first?.content == "<div><p>one</p></div><p>two</p>")
    }

    /// XHTML is XML: a CDATA section in it is text (feedparser agrees), not markup as in an RSS
    /// description; it used to become live markup (`<b>bold</b>` shown bold, `<br>` vanishing).
    @Test func cdataInXHTMLIsText() throws {
        let feed = try parse(
            atom(
                """
                <entry><id>1</id>
                  <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Why <![CDATA[<br>]]> is void</div></title>
                  <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Type <![CDATA[<script>x</script>]]> to test.</p><pre><![CDATA[x = "<b>bold</b>";]]></pre></div></content></entry>
                """))
        #expect(feed.items.first?.title == "Why <br> is void")
        #expect(
            feed.items.first?.content
                == #"<p>Type &lt;script&gt;x&lt;/script&gt; to test.</p><pre>x = "&lt;b&gt;bold&lt;/b&gt;";</pre>"#)
        let rssFeed = try parse(rss("<item><description><p>Intro</p><![CDATA[<b>bold</b>]]></description></item>"))
        #expect(rssFeed.items.first?.description == "<p>Intro</p><b>bold</b>")
    }

    @Test func htmlTitlesBecomePlainText() throws {
        let feed = try parse(
            atom(
                """
                <entry><id>1</id><title type="html">A &lt;em&gt;b&lt;/em&gt; &amp;amp;#8211;  c</title></entry>
                <entry><id>2</id><title type="text">Use &lt;div&gt;</title></entry>
                <entry><id>3</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">X <b>Y</b></div></title></entry>
                """))
        #expect(feed.items.map(\.title) == ["A b &#8211; c", "Use <div>", "X Y"])
        let rssFeed = try parse(rss("<item><title>Caf&amp;eacute; &lt;b&gt;news&lt;/b&gt;\n  today</title></item>"))
        #expect(rssFeed.items.first?.title == "Café news today")
    }

    @Test func titlelessItemGetsDerivedTitle() throws {
        let feed = try parse(
            rss(
                """
                <item><description>&lt;p&gt;One two three four five six seven eight nine ten eleven twelve&lt;/p&gt;</description></item>
                <item><description>Short &lt;b&gt;note&lt;/b&gt;</description></item>
                """))
        #expect(feed.items[0].title == "One two three four five six seven eight nine ten…")
        #expect(feed.items[0].isTitleDerived)
        #expect(feed.items[1].title == "Short note")
    }

    // MARK: - Precedence (DESIGN §2)

    @Test func contentAndDescriptionPrecedence() throws {
        let feed = try parse(
            rss(
                """
                <item><title>t</title>
                  <a10:summary>atom summary</a10:summary><itunes:summary>itunes</itunes:summary>
                  <dc:description>dc</dc:description><description>rss</description>
                  <a10:content type="html">atom content</a10:content><content:encoded>encoded</content:encoded></item>
                <item><title>t</title><a10:summary>atom summary</a10:summary><itunes:summary>itunes</itunes:summary></item>
                """))
        #expect(feed.items[0].description == "rss")
        #expect(feed.items[0].content == "encoded")
        #expect(feed.items[1].description == "itunes")
        #expect(feed.items[1].content == nil)
    }

    @Test func datePrecedence() throws {
        let feed = try parse(
            rss(
                """
                <item><a10:published>2001-01-01T00:00:00Z</a10:published><dc:date>2002-01-01T00:00:00Z</dc:date>
                  <pubDate>Tue, 01 Jan 2003 00:00:00 GMT</pubDate></item>
                <item><a10:updated>2004-01-01T00:00:00Z</a10:updated><a10:published>2001-01-01T00:00:00Z</a10:published>
                  <dc:date>2002-01-01T00:00:00Z</dc:date></item>
                <item><a10:updated>2004-01-01T00:00:00Z</a10:updated></item>
                """))
        let years = feed.items.map { $0.published.map { Calendar(identifier: .gregorian).component(.year, from: $0) } }
        #expect(years == [2003, 2002, 2004])
        #expect(feed.items[1].updated == FeedDate.parse("2004-01-01T00:00:00Z"))
    }

    @Test func authorPrecedenceAndSplitting() throws {
        let feed = try parse(
            rss(
                """
                <item><author>jo@example.com (Jo Bloggs)</author><dc:creator>Dee</dc:creator><itunes:author>It</itunes:author></item>
                <item><dc:creator>Dee</dc:creator><itunes:author>It</itunes:author></item>
                <item><itunes:author>It</itunes:author><a10:author><a10:name>At</a10:name></a10:author></item>
                <item><a10:author><a10:name>At</a10:name><a10:email>at@example.com</a10:email></a10:author></item>
                <item><author>Jo Bloggs &lt;jo@example.com&gt;</author></item>
                <item><author>jo@example.com</author></item>
                """))
        #expect(feed.items[0].authors == [Person(name: "Jo Bloggs", email: "jo@example.com")])
        #expect(feed.items[1].authors == [Person(name: "Dee")])
        #expect(feed.items[2].authors == [Person(name: "It")])
        #expect(feed.items[3].authors == [Person(name: "At", email: "at@example.com")])
        #expect(feed.items[4].authors == [Person(name: "Jo Bloggs", email: "jo@example.com")])
        #expect(feed.items[5].authors == [Person(email: "jo@example.com")])
    }

    @Test func atomEntriesInheritFeedAuthor() throws {
        let feed = try parse(atom("<entry><id>1</id><title>t</title></entry>"))
        #expect(feed.items.first?.authors == [Person(name: "Feed Author")])
    }

    @Test func linkPrecedenceAndGuidPermaLink() throws {
        let feed = try parse(
            rss(
                """
                <item><link>https://example.org/rss</link><a10:link href="https://example.org/atom"/><guid>https://example.org/g</guid></item>
                <item><guid>https://example.org/guid-default</guid></item>
                <item><guid isPermaLink="true">https://example.org/guid-true</guid></item>
                <item><guid isPermaLink="false">https://example.org/guid-false</guid></item>
                <item><guid>12345</guid></item>
                """))
        #expect(
            feed.items.map(\.link) == [
                "https://example.org/atom", "https://example.org/guid-default", "https://example.org/guid-true", nil,
                nil,
            ])
        #expect(
            feed.items.map(\.id) == [
                "https://example.org/g", "https://example.org/guid-default", "https://example.org/guid-true",
                "https://example.org/guid-false", "12345",
            ])
    }

    @Test func atomLinksByRelation() throws {
        let feed = try parse(
            atom(
                """
                <link rel="self" href="/feed.atom"/><link href="/"/>
                <entry><id>1</id><title>t</title>
                  <link rel="replies" href="/c"/><link rel="alternate" type="text/html" href="/first"/>
                  <link rel="alternate" href="/second"/>
                  <link rel="enclosure" href="/a.mp3" length="1234" type="audio/mpeg"/>
                  <link rel="enclosure" href="" length="0"/></entry>
                """))
        #expect(feed.feedLink == "https://example.org/feed.atom")
        #expect(feed.link == "https://example.org/")
        #expect(feed.items.first?.link == "https://example.org/first")
        #expect(
            feed.items.first?.enclosures == [
                Enclosure(url: "https://example.org/a.mp3", length: 1234, type: "audio/mpeg")
            ])
    }

    @Test func enclosuresMediaAndImages() throws {
        let feed = try parse(
            rss(
                """
                <item><enclosure url="/ep.mp3" length="99" type="audio/mpeg"/>
                  <media:content url="https://example.org/ep.mp3" type="audio/mpeg"/>
                  <media:content url="/pic.jpg" medium="image"/>
                  <itunes:image href="/itunes.jpg"/></item>
                <item><media:group><media:thumbnail url="/thumb.jpg"/><media:content url="/v.mp4" type="video/mp4" fileSize="7"/></media:group>
                  <itunes:image href="/itunes.jpg"/></item>
                """,
                channel:
                    "<image><url>/logo.png</url><title>Logo</title></image><a10:link rel=\"self\" href=\"https://example.org/feed.xml\"/>"
            ))
        #expect(
            feed.items[0].enclosures == [
                Enclosure(url: "https://example.org/ep.mp3", length: 99, type: "audio/mpeg"),
                Enclosure(url: "https://example.org/pic.jpg"),
            ])
        #expect(feed.items[0].image?.url == "https://example.org/pic.jpg")
        #expect(feed.items[1].image?.url == "https://example.org/thumb.jpg")
        #expect(feed.items[1].enclosures == [Enclosure(url: "https://example.org/v.mp4", length: 7, type: "video/mp4")])
        #expect(feed.image == FeedImage(url: "https://example.org/logo.png", title: "Logo"))
        #expect(feed.feedLink == "https://example.org/feed.xml")
    }

    @Test func categoriesFromAllSources() throws {
        let feed = try parse(
            rss(
                """
                <item><category>Swift</category><dc:subject>Linux</dc:subject><a10:category term="x" label="Ex"/>
                  <a10:category term="y"/><category>Swift</category></item>
                """))
        #expect(feed.items.first?.categories == ["Swift", "Linux", "Ex", "y"])
    }

    // MARK: - Namespaces

    @Test func namespacesMatchByURINotPrefix() throws {
        let feed = try parse(
            """
            <rss version="2.0" xmlns:c="http://purl.org/rss/1.0/modules/content/" xmlns:dublin="http://purl.org/dc/elements/1.1/"
                 xmlns:m="http://search.yahoo.com/mrss" xmlns:it="https://www.itunes.com/DTDs/PodCast-1.0.dtd"
                 xmlns:content="http://example.org/not-content">
            <channel><title>T</title>
            <item><c:encoded>real</c:encoded><content:encoded>fake</content:encoded><dublin:creator>D</dublin:creator>
              <m:thumbnail url="https://example.org/t.jpg"/><it:image href="https://example.org/i.jpg"/></item>
            <item><it:author>I</it:author><undeclared:author>U</undeclared:author></item>
            </channel></rss>
            """)
        #expect(feed.items[0].content == "real")
        #expect(feed.items[0].authors == [Person(name: "D")])
        #expect(feed.items[0].image?.url == "https://example.org/t.jpg")
        #expect(feed.items[1].authors == [Person(name: "I")])
    }

    @Test func rssWithDefaultNamespaceAndUnknownElements() throws {
        let feed = try parse(
            """
            <rss version="2.0" xmlns="http://backend.userland.com/rss2" xmlns:y="http://news.yandex.ru">
            <channel><title>Default NS</title><y:full-text>ignored</y:full-text><textInput><title>Search</title></textInput>
            <item><title>One</title><y:genre>x</y:genre><source url="https://x/">Source title</source></item></channel></rss>
            """)
        #expect(feed.title == "Default NS")
        #expect(feed.items.first?.title == "One")
    }

    @Test func atomSourceDoesNotOverrideEntry() throws {
        let feed = try parse(
            atom(
                """
                <entry><id>1</id><title>Entry</title><source><title>Source</title><author><name>S</name></author></source></entry>
                """))
        #expect(feed.items.first?.title == "Entry")
        #expect(feed.items.first?.authors == [Person(name: "Feed Author")])
    }

    @Test func rss10AndAtom03() throws {
        let rdf = try parse(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="https://example.org/"><title>R</title><link>https://example.org/</link></channel>
              <item rdf:about="https://example.org/1"><title>First</title><link>https://example.org/1</link>
                <dc:date>2004-01-01T00:00:00Z</dc:date></item>
            </rdf:RDF>
            """)
        #expect(rdf.format == .rss)
        #expect(rdf.version == "1.0")
        #expect(rdf.items.first?.id == "https://example.org/1")
        #expect(rdf.items.first?.published == FeedDate.parse("2004-01-01T00:00:00Z"))

        let atom03 = try parse(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old</title><tagline>Tag</tagline>
              <entry><title>E</title><link rel="alternate" type="text/html" href="https://example.org/e"/>
                <issued>2004-01-02T00:00:00Z</issued><modified>2004-01-03T00:00:00Z</modified>
                <content type="text/html" mode="escaped">&lt;p&gt;x&lt;/p&gt;</content>
                <summary type="text/plain" mode="base64">aGVsbG8=</summary></entry></feed>
            """)
        #expect(atom03.version == "0.3")
        #expect(atom03.description == "Tag")
        let entry = try #require(atom03.items.first)
        #expect(entry.link == "https://example.org/e")
        #expect(entry.published == FeedDate.parse("2004-01-02T00:00:00Z"))
        #expect(entry.updated == FeedDate.parse("2004-01-03T00:00:00Z"))
        #expect(entry.content == "<p>x</p>")
        #expect(entry.description == "hello")
        #expect(entry.descriptionKind == .text)
    }

    /// Atom's drafts of 2003 called their namespace Echo, Pie and other names (feedparser's
    /// `atom_namespace_*` cases): such a feed's entries are read, with a warning naming the namespace.
    @Test("a <feed> root in an unknown namespace is read as Atom 0.3, with a warning")
    func atomDraftNamespaces() throws {
        for namespace in ["http://purl.org/echo/", "http://purl.org/pie/", "http://example.com/newformat#"] {
            let feed = try parse(
                """
                <feed version="0.3" xmlns="\(namespace)"><title>Echo</title>
                  <entry><title>First</title><link rel="alternate" type="text/html" href="https://example.org/1"/>
                    <issued>2003-07-01T00:00:00Z</issued><content type="text/html" mode="escaped">&lt;p&gt;x&lt;/p&gt;</content>
                  </entry></feed>
                """)
            #expect(feed.format == .atom)
            #expect(feed.version == "0.3")
            #expect(feed.title == "Echo")
            let entry = try #require(feed.items.first)
            #expect(entry.title == "First")
            #expect(entry.link == "https://example.org/1")
            #expect(entry.published == FeedDate.parse("2003-07-01T00:00:00Z"))
            #expect(entry.content == "<p>x</p>")
            #expect(feed.warnings.contains { $0.hasPrefix("line 1: the root <feed> is in the namespace \(namespace)") })
        }
        // Elements of other namespaces inside it are still not Atom's.
        let mixed = try parse(
            """
            <feed xmlns="http://purl.org/echo/" xmlns:x="http://example.org/x"><title>Echo</title>
              <entry><x:title>not this</x:title><title>This</title></entry></feed>
            """)
        #expect(mixed.items.first?.title == "This")
    }

    /// feedparser's `entry_title_type_empty-no-crash`: an empty `type` was read as a MIME type
    /// that is not text, so the value was taken for base64 and the title lost.
    @Test("an Atom text construct with an empty or unknown type token is text, not base64")
    func atomEmptyType() throws {
        let feed = try parse(
            atom(
                """
                <entry><title type="">evil</title><summary type="plain">The &lt;b&gt; summary</summary>
                <content type=" ">Body</content></entry>
                """))
        let entry = try #require(feed.items.first)
        #expect(entry.title == "evil")
        #expect(entry.description == "The <b> summary")
        #expect(entry.descriptionKind == .text)
        #expect(entry.content == "Body")
        #expect(entry.contentKind == .text)
    }

    /// gofeed's `atom03_feed_entry_updated`: an Atom 0.3 entry dated only by 1.0's `<updated>` lost
    /// its date (each version's names were read only in that version's namespace).
    @Test("Atom 1.0's and 0.3's date names date an entry in either version")
    func atomDateNamesAcrossVersions() throws {
        let old = try parse(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old</title>
              <entry><title>Only updated</title><updated>Sun, 06 Jul 2014 12:56:00 GMT</updated></entry>
              <entry><title>Published</title><published>2014-07-01T08:00:00Z</published></entry>
              <modified>2014-07-07T00:00:00Z</modified></feed>
            """)
        #expect(old.items.map(\.updated) == [FeedDate.parse("2014-07-06T12:56:00Z"), nil])
        // An entry's only date is its publication date too.
        #expect(
            old.items.map(\.published) == [
                FeedDate.parse("2014-07-06T12:56:00Z"), FeedDate.parse("2014-07-01T08:00:00Z"),
            ])
        #expect(old.updated == FeedDate.parse("2014-07-07T00:00:00Z"))
        let new = try parse(
            atom(
                """
                <entry><title>Issued</title><issued>2014-07-02T00:00:00Z</issued>
                <modified>2014-07-03T00:00:00Z</modified><created>2014-07-01T00:00:00Z</created></entry>
                """))
        let entry = try #require(new.items.first)
        #expect(entry.published == FeedDate.parse("2014-07-02T00:00:00Z"))
        #expect(entry.updated == FeedDate.parse("2014-07-03T00:00:00Z"))
    }

    /// gofeed's `atom10_feed_entry_title_custom_type`: `<title type="application/x-custom">test</title>`
    /// was taken for base64 (the rule for `atom:content`), failed to decode and lost the title.
    @Test("an Atom title or summary of another media type is base64 only when it decodes to text; content stays strict")
    func atomTextConstructOfOtherMediaType() throws {
        let feed = try parse(
            atom(
                """
                <entry><title type="application/x-custom">test</title>
                <summary type="application/x-custom">Plain words, not base64</summary>
                <content type="application/x-custom">not base64 either</content></entry>
                <entry><title type="application/x-custom">RW5jb2RlZCB0aXRsZQ==</title></entry>
                """))
        #expect(feed.items.map(\.title) == ["test", "Encoded title"])
        #expect(feed.items.first?.description == "Plain words, not base64")
        #expect(feed.items.first?.descriptionKind == .text)
        // Content of a media type that is not text must be base64 (RFC 4287 4.1.3.3): not shown.
        #expect(feed.items.first?.content == nil)
    }

    @Test("dc:author, which feeds write for dc:creator, names the item's author")
    func dcAuthor() throws {
        let feed = try parse(rss("<item><title>T</title><dc:author>Example editor</dc:author></item>"))
        #expect(feed.items.first?.authors.map(\.name) == ["Example editor"])
    }

    @Test("an RSS item's <published> and <updated> written without Atom's namespace still date it; pubDate comes first")
    func rssItemAtomDatesWithoutNamespace() throws {
        let feed = try parse(
            rss(
                """
                <item><title>A</title><updated>2026-03-14T15:09:26Z</updated></item>
                <item><title>B</title><published>2025-01-02T03:04:05+01:00</published></item>
                <item><title>C</title><pubDate>Sat, 14 Mar 2026 15:09:26 GMT</pubDate><published>2020-01-01T00:00:00Z</published></item>
                """))
        let iso = ISO8601DateFormatter()
        // Without a publication date the item is dated by its update (as an Atom entry would be).
        #expect(feed.items[0].updated == iso.date(from: "2026-03-14T15:09:26Z"))
        #expect(feed.items[0].published == iso.date(from: "2026-03-14T15:09:26Z"))
        #expect(feed.items[1].published == iso.date(from: "2025-01-02T02:04:05Z"))
        #expect(feed.items[2].published == iso.date(from: "2026-03-14T15:09:26Z"))
    }

    @Test(
        "an RSS <item> inside an Atom feed is read as RSS's (title, text link, description, pubDate), beside the entries, with a warning"
    )
    func rssItemInAtomFeed() throws {
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link href="https://e.example/"/>
            <item><title>Post one</title><link>https://e.example/1</link><description>Hello &lt;b&gt;there&lt;/b&gt;</description>
            <pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate><guid>urn:one</guid></item>
            <entry><title>Entry two</title><link href="https://e.example/2"/><id>urn:2</id>
            <updated>2026-11-25T10:00:00Z</updated><summary>Sum</summary></entry>
            <item><title>Post three</title><link>https://e.example/3</link></item>
            </feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.items.map(\.title) == ["Post one", "Entry two", "Post three"])
        #expect(feed.items.map(\.link) == ["https://e.example/1", "https://e.example/2", "https://e.example/3"])
        #expect(feed.items[0].id == "urn:one")
        #expect(feed.items[0].published == ISO8601DateFormatter().date(from: "2026-11-24T10:00:00Z"))
        #expect(feed.items[0].description == "Hello <b>there</b>")
        #expect(feed.items[1].id == "urn:2")
        // Said once, at the first, however many such items there are.
        #expect(
            feed.warnings == [
                "line 3: an RSS <item> in an Atom feed (Atom's are <entry>); read as an RSS item, as are any others"
            ])
    }

    @Test(
        "an Atom <entry> in no namespace inside an RSS channel is read as Atom's (href link, id, updated, html content, author name), with a warning"
    )
    func atomEntryInRSSFeed() throws {
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title><link>https://e.example/</link>
            <item><title>Post one</title><link>https://e.example/1</link></item>
            <entry><title>Entry two</title><link href="https://e.example/2"/><id>urn:2</id>
            <updated>2026-11-25T10:00:00Z</updated><content type="html">&lt;p&gt;Two&lt;/p&gt;</content>
            <author><name>Ann</name><email>ann@e.example</email></author></entry>
            <entry><title type="text">Entry three</title><link rel="alternate" href="https://e.example/3"/></entry>
            <description>About</description></channel></rss>
            """)
        #expect(feed.format == .rss)
        #expect(feed.items.map(\.title) == ["Post one", "Entry two", "Entry three"])
        #expect(feed.items.map(\.link) == ["https://e.example/1", "https://e.example/2", "https://e.example/3"])
        #expect(feed.items[1].id == "urn:2")
        #expect(feed.items[1].updated == ISO8601DateFormatter().date(from: "2026-11-25T10:00:00Z"))
        #expect(feed.items[1].content == "<p>Two</p>")
        #expect(feed.items[1].authors.map(\.name) == ["Ann"])
        // A channel field after the entries is still RSS's.
        #expect(feed.title == "T")
        #expect(feed.description == "About")
        #expect(
            feed.warnings == [
                "line 4: an Atom <entry> in an RSS feed (RSS's are <item>); read as an Atom entry, as are any others"
            ])
    }

    @Test(
        "elements of the feed's own vocabulary that look like posts but are not items are named in a warning with their count and first line; a textInput or a title alone is not"
    )
    func unreadPostLikeElementsAreNamed() throws {
        let rssFeed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title><link>https://e.example/</link>
            <textInput><title>Search</title><link>https://e.example/s</link><name>q</name></textInput>
            <item><title>Read</title><link>https://e.example/1</link></item>
            <post><title>One</title><link>https://e.example/2</link></post>
            <story><title>Only a title</title></story>
            <post><title>Two</title><guid>urn:3</guid></post>
            </channel></rss>
            """)
        #expect(rssFeed.items.map(\.title) == ["Read"])
        #expect(
            rssFeed.warnings == [
                "line 5: 2 <post> elements in the channel look like posts (a title and a link each) but feedsite reads only RSS <item>s and Atom <entry>s as posts: they were not read"
            ])
        let atomFeed = try parse(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <article><title>Lost</title><id>urn:1</id></article></feed>
            """)
        #expect(atomFeed.items.isEmpty)
        #expect(
            atomFeed.warnings == [
                "line 3: one <article> element in the feed looks like a post (a title and a link) but feedsite reads only RSS <item>s and Atom <entry>s as posts: it was not read"
            ])
        // Five names get a warning each; elements of any further names are counted in one more.
        let names = (1...7).map { "<x\($0)><title>t</title><link>https://e.example/\($0)</link></x\($0)>" }
        let manyNames = try parse(rss("", channel: names.joined() + "<x7><title>t</title><id>u</id></x7>"))
        #expect(manyNames.warnings.count == 6)
        #expect(
            manyNames.warnings.last == "3 more elements of other names in the channel look like posts and were not read"
        )
    }

    /// A whole post written inside another (well-formed: each closed in turn) is a post of its
    /// own, never a field of the one around it: the outer keeps its own fields, written before and
    /// after, and the inner ones follow it in the order they began, at any depth.
    @Test func itemsInsideItemsAreRead() throws {
        let rssFeed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title>
            <item><title>Outer</title><guid>urn:1</guid>
            <item><title>Inner</title><guid>urn:2</guid>
            <item><title>Innermost</title><guid>urn:3</guid></item>
            <link>https://e.example/2</link></item>
            <link>https://e.example/1</link></item>
            <item><title>Next</title><guid>urn:4</guid></item>
            </channel></rss>
            """)
        #expect(rssFeed.items.map(\.title) == ["Outer", "Inner", "Innermost", "Next"])
        #expect(rssFeed.items.map(\.link) == ["https://e.example/1", "https://e.example/2", nil, nil])
        #expect(
            rssFeed.warnings == [
                "line 4: 2 <item>s inside others (whole posts within posts); each read as a post of its own"
            ])
        let atomFeed = try parse(
            atom(
                """
                <entry><id>urn:a</id><title>A</title>
                <entry><id>urn:b</id><title>B</title></entry>
                <updated>2026-01-02T00:00:00Z</updated></entry>
                """))
        #expect(atomFeed.items.map(\.id) == ["urn:a", "urn:b"])
        #expect(atomFeed.items.first?.updated != nil)
        #expect(atomFeed.items.last?.updated == nil)
        #expect(
            atomFeed.warnings == [
                "line 4: an <entry> inside another (a whole post within a post); read as a post of its own"
            ])
        // FeedBurner's empty `<item />` in each item (real-feeds/illegally-nested-items.xml) is no
        // post, and the items after it keep their numbers.
        let empty = try parse(
            rss(
                "<item><title>One</title><item /><pubDate>never</pubDate></item>"
                    + "<item><title>Two</title><item></item><pubDate>nor this</pubDate></item>"))
        #expect(empty.items.map(\.title) == ["One", "Two"])
        #expect(
            empty.warnings == ["item 1: unparseable date 'never'", "item 2: unparseable date 'nor this'"])
    }

    @Test(
        "items wrapped in an element of their own inside the channel (<items><item>, <entries><entry>) are read, with a warning"
    )
    func wrappedItemsAreRead() throws {
        let rssFeed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title><link>https://e.example/</link>
            <items>
            <item><title>One</title><link>https://e.example/1</link></item>
            <item><title>Two</title><link>https://e.example/2</link></item>
            </items>
            <item><title>Three</title><link>https://e.example/3</link></item>
            </channel></rss>
            """)
        #expect(rssFeed.items.map(\.title) == ["One", "Two", "Three"])
        #expect(rssFeed.items.map(\.link) == ["https://e.example/1", "https://e.example/2", "https://e.example/3"])
        #expect(
            rssFeed.warnings == [
                "line 4: <item> elements inside <items>, not directly in the channel; read as its posts"
            ])
        let atomFeed = try parse(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entries><entry><title>One</title><link href="https://e.example/1"/><id>urn:1</id></entry></entries>
            </feed>
            """)
        #expect(atomFeed.items.map(\.id) == ["urn:1"])
        #expect(
            atomFeed.warnings == [
                "line 3: <entry> elements inside <entries>, not directly in the feed; read as its posts"
            ])
    }

    /// libxml2 2.9 compares each attribute of a tag with every one before it: an `<item>` with
    /// 200,000 attributes took 16 s. Past 256 they are blanked before it reads the document.
    @Test("an element keeps its first 256 attributes, with a located warning; 400,000 on one tag read in linear time")
    func attributesPastTheLimitAreLeftOut() throws {
        let filler = (1...300).map { " a\($0)=\"\($0)\"" }.joined()
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><title>One</title><id>urn:1</id>
            <link\(filler)
              href="https://e.example/lost"/></entry>
            <entry\(filler)><title>Two</title><id>urn:2</id><link href="https://e.example/kept"\(filler)/></entry>
            </feed>
            """)
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(feed.items.map(\.link) == [nil, "https://e.example/kept"])
        #expect(
            feed.warnings == [
                "line 4: <link> has 301 attributes; those after the 256th were left out (and those of 2 more elements like it)"
            ])

        // Values may hold `>`, and comments, CDATA and text may hold quotes: none of it is counted.
        let quoted = String(repeating: "\"q\" ", count: 400)
        let unaffected = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title><link>https://e.example/</link><!-- \(quoted) -->
            <item><title a="x>y">One</title><description>\(quoted)<![CDATA[<p \(quoted)>]]></description></item>
            </channel></rss>
            """)
        #expect(unaffected.warnings.isEmpty)
        #expect(unaffected.items.map(\.title) == ["One"])

        let many = (1...400_000).map { " a\($0)=\"\($0)\"" }.joined()
        let start = ContinuousClock.now
        let large = try parse(
            "<rss version=\"2.0\"><channel><title>T</title><item\(many)><title>Big</title></item></channel></rss>")
        #expect(ContinuousClock.now - start < .seconds(20))  // about 64 s when libxml2 saw them all
        #expect(large.items.map(\.title) == ["Big"])
        #expect(large.warnings.first?.hasPrefix("line 1: <item> has 400000 attributes") == true)
    }

    /// libxml2 2.9 looks a prefix up through every declaration in scope: 200 on each of 1,000
    /// nested elements made 100,000 prefixed names below them take 11 s.
    @Test(
        "at most 256 namespace declarations are in scope; those past it are left out with a warning, closed ones free"
    )
    func namespaceDeclarationsInScopeAreCapped() throws {
        let declarations = { (tag: Int) in (1...100).map { " xmlns:t\(tag)p\($0)=\"urn:\(tag):\($0)\"" }.joined() }
        // Three wrappers of 100 declarations each: the third keeps 56 (256 in all with the first two).
        let nested = (1...3).map { "<w\(declarations($0))>" }.joined()
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
            <link>https://e.example/</link>
            <item><title>One</title><dc:creator>Ann</dc:creator>\(nested)</w></w></w></item>
            \((1...20).map { "<item\(declarations($0))><title>\($0)</title></item>" }.joined(separator: "\n"))
            </channel></rss>
            """)
        #expect(feed.items.count == 21)
        #expect(feed.items.first?.authors.map(\.name) == ["Ann"])
        #expect(
            feed.warnings == [
                "line 4: more than 256 namespace declarations in scope at <w>; 45 declarations were left out"
            ])
        let start = ContinuousClock.now
        let deep = (1...1_000).map { "<w\(declarations($0))>" }.joined()
        let many = try parse(
            "<rss version=\"2.0\" xmlns:a=\"urn:a\"><channel><title>T</title><item><title>Deep</title>"
                + deep + String(repeating: "<a:x/>", count: 100_000) + String(repeating: "</w>", count: 1_000)
                + "</item></channel></rss>")
        #expect(ContinuousClock.now - start < .seconds(20))  // 11 s in a release build before
        #expect(many.items.map(\.title) == ["Deep"])
    }

    @Test("items wrapped two or more levels deep are read; post-like elements there are named, not lost")
    func deeplyWrappedItemsAreRead() throws {
        let rssFeed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title><link>https://e.example/</link>
            <posts><list>
            <item><title>One</title><link>https://e.example/1</link></item>
            <group><item><title>Two</title><link>https://e.example/2</link></item></group>
            </list></posts>
            <item><title>Three</title><link>https://e.example/3</link></item>
            </channel></rss>
            """)
        #expect(rssFeed.items.map(\.title) == ["One", "Two", "Three"])
        #expect(
            rssFeed.warnings == [
                "line 4: <item> elements inside <list>, not directly in the channel; read as its posts"
            ])
        let atomFeed = try parse(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <group><section>
            <entry><title>One</title><link href="https://e.example/1"/><id>urn:1</id></entry>
            </section></group>
            </feed>
            """)
        #expect(atomFeed.items.map(\.id) == ["urn:1"])
        #expect(
            atomFeed.warnings == [
                "line 4: <entry> elements inside <section>, not directly in the feed; read as its posts"
            ])
        // Not items, but post-like, two levels down: counted and named like those in the channel.
        let stories = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>T</title><link>https://e.example/</link>
            <stories>
            <story><title>A</title><link>https://e.example/a</link></story>
            <story><title>B</title><link>https://e.example/b</link></story>
            </stories>
            </channel></rss>
            """)
        #expect(stories.items.isEmpty)
        #expect(stories.warnings.contains { $0.hasPrefix("line 4: 2 <story> elements") })
        // Another vocabulary's subtree is still skipped whole: its <item> is not the feed's.
        let foreign = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:x="urn:x"><channel><title>T</title><link>https://e.example/</link>
            <x:box><item><title>Inner</title><link>https://e.example/x</link></item></x:box>
            <item><title>Outer</title><link>https://e.example/o</link></item>
            </channel></rss>
            """)
        #expect(foreign.items.map(\.title) == ["Outer"])
    }

    @Test("an item keeps its first 1,000 authors and 1,000 enclosures, a repeated enclosure once, with a warning each")
    func authorsAndEnclosuresAreCapped() throws {
        let authors = (1...1_500).map { "<dc:creator>Author \($0)</dc:creator>" }.joined()
        // 1,200 distinct files, each listed twice, and one item with 3 copies of one file.
        let enclosures = (1...1_200).map { "<enclosure url=\"https://e.example/\($0).mp3\" type=\"audio/mpeg\"/>" }
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
            <link>https://e.example/</link>
            <item><title>Many</title>\(authors)\((enclosures + enclosures).joined())</item>
            <item><title>Repeated</title>\(String(repeating: enclosures[0], count: 3))</item>
            </channel></rss>
            """)
        let many = try #require(feed.items.first)
        #expect(many.authors.map(\.name) == (1...1_000).map { "Author \($0)" })
        #expect(many.enclosures.map(\.url) == (1...1_000).map { "https://e.example/\($0).mp3" })
        #expect(feed.items.last?.enclosures.map(\.url) == ["https://e.example/1.mp3"])
        #expect(
            feed.warnings == [
                "item 1 has 1500 authors; its first 1000 are kept",
                "item 1 has 1200 enclosures; its first 1000 are kept",
            ])
    }

    @Test("an item keeps the first authors whose names fit in 10,000 characters, with one warning for the feed")
    func authorNamesAreBoundedInAll() throws {
        // 300 names of 1,000 characters each (what one name may have): 10 fit.
        let name = String(repeating: "'", count: 996)
        let authors = (100...399).map { "<dc:creator>\($0) \(name)</dc:creator>" }.joined()
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
            <link>https://e.example/</link>
            <item><title>Few</title><dc:creator>A</dc:creator><dc:creator>B</dc:creator></item>
            <item><title>Many</title>\(authors)</item>
            <item><title>Many again</title>\(authors)</item>
            </channel></rss>
            """)
        #expect(feed.items.map(\.authors.count) == [2, 10, 10])
        #expect(feed.items[1].authors.map(\.name) == (100...109).map { "\($0) \(name)" })
        #expect(
            feed.warnings == [
                "2 items (the first: item 2) list authors whose names pass 10000 characters in all; the first authors that fit are kept"
            ])
    }

    @Test(
        "a feed of more than 10,000 items is read up to its 10,000th (RSS, Atom, JSON Feed), with a warning giving the count"
    )
    func itemsPastTheLimitAreCountedNotRead() throws {
        let total = 10_003
        let rssItems = (1...total).map { "<item><title>Post \($0)</title></item>" }.joined()
        let rssFeed = try parse(rss(rssItems))
        let warning =
            "the feed has 10003 items; feedsite reads the first 10000 of a feed (feeds list their newest first):"
            + " the other 3 were left out"
        #expect(rssFeed.items.count == 10_000)
        #expect(rssFeed.items.first?.title == "Post 1")
        #expect(rssFeed.items.last?.title == "Post 10000")
        #expect(rssFeed.warnings == [warning])

        let entries = (1...total).map { "<entry><title>Entry \($0)</title><id>urn:\($0)</id></entry>" }.joined()
        let atomFeed = try parse("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title>\(entries)</feed>")
        #expect(atomFeed.items.count == 10_000)
        #expect(atomFeed.items.last?.id == "urn:10000")
        #expect(atomFeed.warnings == [warning])

        let jsonItems = (1...total).map { "{\"id\": \"j\($0)\", \"title\": \"J \($0)\"}" }.joined(separator: ",")
        let jsonFeed = try parse(
            "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\", \"items\": [\(jsonItems)]}")
        #expect(jsonFeed.items.count == 10_000)
        #expect(jsonFeed.items.last?.id == "j10000")
        #expect(jsonFeed.warnings == [warning])

        // At the limit exactly: everything read, nothing said.
        let exact = try parse(rss((1...10_000).map { "<item><title>P\($0)</title></item>" }.joined()))
        #expect(exact.items.count == 10_000)
        #expect(exact.warnings.isEmpty)
    }

    @Test("an item keeps its first 30 categories (RSS, JSON Feed tags), with one warning for the feed")
    func categoriesPerItemAreBounded() throws {
        let many = (1...40).map { "<category>c\($0)</category>" }.joined()
        let few = (1...5).map { "<category>d\($0)</category>" }.joined()
        let rssFeed = try parse(rss("<item><title>A</title>\(few)</item><item><title>B</title>\(many)</item>"))
        #expect(rssFeed.items[0].categories == (1...5).map { "d\($0)" })
        #expect(rssFeed.items[1].categories == (1...30).map { "c\($0)" })
        #expect(rssFeed.warnings == ["item 2 has 40 categories; its first 30 are kept"])

        let rssTwo = try parse(rss("<item>\(many)</item><item>\(many)<category>c41</category></item>"))
        #expect(rssTwo.items.map(\.categories.count) == [30, 30])
        #expect(rssTwo.warnings == ["2 items have more than 30 categories (item 2: 41); the first 30 of each are kept"])

        let tags = (1...31).map { "\"t\($0)\"" }.joined(separator: ",")
        let jsonFeed = try parse(
            "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\", \"items\": [{\"id\": \"1\", \"tags\": [\(tags)]}]}"
        )
        #expect(jsonFeed.items[0].categories.last == "t30")
        #expect(jsonFeed.warnings == ["item 1 has 31 categories; its first 30 are kept"])
    }

    @Test(
        "over-long titles, names and descriptions are cut (at a word, with …) and over-long links left out, with one warning per kind"
    )
    func overLongValuesAreBounded() throws {
        // 100 words of five characters: 599 characters with their spaces.
        let longTitle = Array(repeating: "word5", count: 100).joined(separator: " ")
        let longName = String(repeating: "n", count: 1_001)
        let longLink = "https://e.example/" + String(repeating: "p", count: 8_200)
        let longDescription = String(repeating: "d", count: 2_001)
        let feed = try parse(
            rss(
                """
                <item><title>\(longTitle)</title><link>\(longLink)</link><dc:creator>\(longName)</dc:creator>
                <enclosure url="\(longLink)" type="audio/mpeg" length="1"/><enclosure url="https://e.example/a.mp3" type="audio/mpeg" length="2"/></item>
                <item><title>Short</title><link>https://e.example/2</link></item>
                """, channel: "<description>\(longDescription)</description>"))
        // Cut to at most 500 characters: the last whole word within 499, then "…".
        let expectedTitle = Array(repeating: "word5", count: 83).joined(separator: " ") + "…"
        #expect(feed.items[0].title == expectedTitle)
        #expect(feed.items[0].title.count <= 500)
        #expect(feed.items[0].link == nil)
        #expect(feed.items[0].authors.map(\.name) == [String(repeating: "n", count: 999) + "…"])
        #expect(feed.items[0].enclosures.map(\.url) == ["https://e.example/a.mp3"])
        #expect(feed.items[1].title == "Short")
        #expect(feed.items[1].link == "https://e.example/2")
        #expect(feed.description == String(repeating: "d", count: 1_999) + "…")
        #expect(
            feed.warnings == [
                "1 description longer than 2000 characters cut to that length",
                "1 title longer than 500 characters cut to that length",
                "1 author name longer than 1000 characters cut to that length",
                "2 links longer than 8192 characters left out",
            ])
    }

    @Test(
        "an <rss> root that declares Atom's namespace as its default is read as RSS; its prefixed atom:link stays Atom's"
    )
    func rssWithAtomDefaultNamespace() throws {
        let feed = try parse(
            """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns="http://www.w3.org/2005/Atom" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel><title>NS</title><atom:link href="https://n.example/feed.xml" rel="self"/><link>https://n.example/</link>
            <item><title>One</title><link>https://n.example/1</link><guid>g1</guid>
            <pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item>
            </channel></rss>
            """)
        #expect(feed.format == .rss)
        #expect(feed.title == "NS")
        #expect(feed.link == "https://n.example/")
        #expect(feed.feedLink == "https://n.example/feed.xml")
        #expect(feed.items.map(\.title) == ["One"])
        #expect(feed.items.map(\.link) == ["https://n.example/1"])
        #expect(feed.items.map(\.id) == ["g1"])
        #expect(feed.items[0].published == ISO8601DateFormatter().date(from: "2026-11-02T10:00:00Z"))
        // Elements only Atom has, unprefixed in that default namespace (feedparser's georss tests), are Atom's.
        let atomOnly = try parse(
            """
            <rss version="2.0" xmlns="http://www.w3.org/2005/Atom"><channel><title>NS</title>
            <item><title>One</title><link>https://n.example/1</link><id>urn:uuid:1111</id>
            <updated>2005-08-17T07:02:32Z</updated></item></channel></rss>
            """)
        #expect(atomOnly.items.map(\.id) == ["urn:uuid:1111"])
        #expect(atomOnly.items.first?.updated == ISO8601DateFormatter().date(from: "2005-08-17T07:02:32Z"))
        #expect(atomOnly.items.map(\.title) == ["One"])
        // RSS in a namespace of its own through a prefix (UserLand's): the root's prefix is RSS's.
        let prefixed = try parse(
            """
            <?xml version="1.0"?>
            <r:rss version="2.0" xmlns:r="http://backend.userland.com/rss2"><r:channel><r:title>P</r:title>
            <r:item><r:title>Two</r:title><r:link>https://n.example/2</r:link></r:item></r:channel></r:rss>
            """)
        #expect(prefixed.title == "P")
        #expect(prefixed.items.map(\.link) == ["https://n.example/2"])
    }

    @Test("media:title is the title of an item without one, in the item or its media:group; never over a title")
    func mediaTitleFallback() throws {
        let feed = try parse(
            rss(
                """
                <item><media:title>bar</media:title><description>Body text</description></item>
                <item><media:group><media:title type="html">A &amp;lt;b&amp;gt; &amp;amp; B</media:title></media:group></item>
                <item><title>Own</title><media:title>Other</media:title></item>
                """))
        #expect(feed.items.map(\.title) == ["bar", "A <b> & B", "Own"])
        #expect(feed.items.map(\.isTitleDerived) == [false, false, false])
    }

    @Test("Atom XHTML text without its div is read as its text")
    func xhtmlWithoutDiv() throws {
        let feed = try parse(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
            <entry><title type="application/xhtml+xml" mode="xml">&#x41; &amp; &lt;b&gt;</title></entry></feed>
            """)
        #expect(feed.items.first?.title == "A & <b>")
    }

    @Test("an RSS <link href=…/> without text (Atom's form, in no namespace) gives its href")
    func rssLinkHref() throws {
        let feed = try parse(
            """
            <rss version="2.0"><channel><title>T</title><link href="https://example.org/"/>
            <item><title>A</title><link href="/posts/1"/></item>
            <item><title>B</title><link href="https://example.org/ignored">https://example.org/2</link></item>
            </channel></rss>
            """)
        #expect(feed.link == "https://example.org/")
        #expect(feed.items.map(\.link) == ["https://example.org/posts/1", "https://example.org/2"])
    }

    /// A feed generator's template slip (feedparser's `always_strip_doctype`): the root element, not
    /// the DOCTYPE, says what the document is.
    @Test("a <!DOCTYPE html> before a feed's root is ignored with a warning; before anything else it is an HTML page")
    func htmlDoctypeBeforeFeed() throws {
        let feed = try parse(
            """
            <?xml version="1.0" encoding="utf-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">
            <rss version="2.0"><channel><title>Found</title>
            <item><title>Kept</title><link>https://example.org/kept</link></item></channel></rss>
            """)
        #expect(feed.title == "Found")
        #expect(feed.items.map(\.title) == ["Kept"])
        #expect(feed.warnings.contains("line 1: ignored a <!DOCTYPE html> before the feed's root element <rss>"))
        for page in [
            "<!DOCTYPE html>\n<html><body>x</body></html>", "<!DOCTYPE html>\n<opml version='2.0'/>",
            "<!DOCTYPE html>\nplain text", "<!DOCTYPE html>\n", "<!DOCTYPE html>\n<section>x</section>",
        ] {
            let error = #expect(throws: FeedParseError.self) { try parse(page) }
            #expect(error?.isHTMLPage == true, "\(page)")
            #expect(error?.line == 1, "\(page)")
        }
    }

    /// feedjira's `DuplicateContentAtomFeed.xml`: an XHTML page whose body holds the whole feed.
    @Test("a feed written whole inside an HTML page is read, with a warning; a page that links its feed is not")
    func feedInsideAnHTMLPage() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Inside</title>
            <entry><id>urn:1</id><title>One</title></entry>
            <entry><id>urn:2</id><title>Two</title></entry>
            </feed>
            """
        let page = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">
            <html xmlns="http://www.w3.org/1999/xhtml">
            <body>
            \(atom)
            </body></html>
            """
        let feed = try parse(page)
        #expect(feed.title == "Inside")
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(
            feed.warnings == [
                "line 2: the document is an HTML page with a feed inside it; read its <feed> (lines 5–8) and ignored"
                    + " the page around it; the address should serve the feed alone"
            ])
        // No DOCTYPE, an HTML root, RSS inside: the same.
        let rss = try parse(
            "<html><body>\n<rss version=\"2.0\"><channel><title>R</title><item><title>A</title></item></channel></rss></body></html>"
        )
        #expect(rss.items.map(\.title) == ["A"])
        // A page that links its feed is the page (discovery follows the link); a <feed> that is not
        // Atom's, or a start tag without its end, is no feed.
        for html in [
            "<html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/f\"></head><body>\(atom)</body></html>",
            "<html><body><feed><entry><title>x</title></entry></feed></body></html>",
            "<html><body><rss version=\"2.0\"><channel><title>R</title></channel></body></html>",
        ] {
            let error = #expect(throws: FeedParseError.self) { try parse(html) }
            #expect(error?.isHTMLPage == true, "\(html)")
        }
        // 200,000 candidates, none a feed, one quote never closed: one pass over the page (looking
        // from each candidate to the end took 86 s).
        let candidates = "<html><body>" + String(repeating: "<feed \"", count: 200_000) + "</body></html>"
        let start = ContinuousClock.now
        let error = #expect(throws: FeedParseError.self) { try parse(candidates) }
        #expect(error?.isHTMLPage == true)
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    // MARK: - URLs and xml:base

    @Test func xmlBaseIsInheritedAndResolvedRelatively() throws {
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="/blog/"><title>B</title><link href="./"/>
              <entry xml:base="2024/post/"><id>1</id><title>t</title><link href="page.html"/>
                <content type="html" xml:base="media/">&lt;img src="a.png"&gt;</content>
                <link rel="enclosure" href="//cdn.example.net/a.mp3"/></entry>
              <entry><id>2</id><title>u</title><link href="../other"/><summary>s</summary></entry>
            </feed>
            """, url: "http://example.org/feeds/atom.xml")
        #expect(feed.link == "http://example.org/blog/")
        #expect(feed.items[0].link == "http://example.org/blog/2024/post/page.html")
        #expect(feed.items[0].contentBase == "http://example.org/blog/2024/post/media/")
        #expect(feed.items[0].enclosures.first?.url == "http://cdn.example.net/a.mp3")
        #expect(feed.items[1].link == "http://example.org/other")
        #expect(feed.items[1].contentBase == "http://example.org/blog/")
    }

    /// podnews' coding-blocks capture: `<link>www.codingblocks.net/episode8</link>` resolved
    /// against the feed read `https://codingblocks.libsyn.com/www.codingblocks.net/episode8`.
    @Test("a link that starts with www. is a host without its scheme; www without a dot, or a path, is relative")
    func linkWithoutScheme() throws {
        let feed = try parse(
            rss(
                "<item><link>www.example.net/episode8</link></item><item><link>WWW.Example.net</link></item>"
                    + "<item><link>www.local/x</link></item><item><link>www/x</link></item>"),
            url: "http://feeds.example.org/feed.xml")
        #expect(
            feed.items.map(\.link) == [
                "http://www.example.net/episode8", "http://WWW.Example.net", "http://feeds.example.org/www.local/x",
                "http://feeds.example.org/www/x",
            ])
    }

    @Test func noContentBaseWithoutXMLBase() throws {
        let feed = try parse(rss("<item><link>/a</link><description>d</description></item>"))
        #expect(feed.items.first?.link == "https://example.org/a")
        #expect(feed.items.first?.contentBase == nil)
    }

    // MARK: - Robustness

    @Test func leadingWhitespaceAndBOM() throws {
        let body = rss("<item><title>x</title></item>")
        #expect(try parse("\n\n  " + body).items.count == 1)
        var bom = Data([0xEF, 0xBB, 0xBF])
        bom.append(Data(("\r\n" + body).utf8))
        #expect(try FeedParser().parse(bom, url: nil).items.count == 1)
    }

    @Test func unparseableDateWarnsButKeepsItem() throws {
        let feed = try parse(
            rss("<item><title>a</title></item><item><title>b</title><pubDate>sometime soon</pubDate></item>"))
        #expect(feed.items.count == 2)
        #expect(feed.items[1].published == nil)
        #expect(feed.warnings == ["item 2: unparseable date 'sometime soon'"])
    }

    @Test func emptyAndWhitespaceDocuments() {
        for body in ["", " \n\t "] {
            let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(body.utf8), url: nil) }
            #expect(error?.description == "the document is empty: there is no feed in it")
        }
    }

    /// A server that compresses twice (or serves `feed.xml.gz` as the feed): the body is still gzip
    /// after the client's decompression. It used to read "neither XML nor JSON (it starts with "‹…")".
    @Test func undeclaredGzipIsNamed() throws {
        let gzipped = try FeedFetcherTests.gzip(Data("<rss version=\"2.0\"><channel/></rss>".utf8))
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(gzipped, url: nil) }
        let prefix = "the document is gzip-compressed data that the server did not declare"
        #expect(error?.description.hasPrefix(prefix) == true)
    }

    @Test func htmlPageIsRejected() {
        let page = "\n<!DOCTYPE html>\n<html><head><title>Login</title></head><body><p>Please log in</body></html>"
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(page.utf8), url: nil) }
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("the document is an HTML page, not a feed") == true)
    }

    @Test func unknownRootIsNamed() {
        let error = #expect(throws: FeedParseError.self) {
            try FeedParser().parse(Data("<?xml version='1.0'?>\n<opml version='2.0'><body/></opml>".utf8), url: nil)
        }
        #expect(
            error?.message
                == "the document is an OPML subscription list, not a feed; add its feeds to feeds.yml with 'feedsite import opml FILE'"
        )
        #expect(error?.line == 2)
        // Named as written, not as the reader folds it (`<rdf>` without RDF's namespace, `<x:doc>`).
        for (root, named) in [("<rdf><channel/></rdf>", "<rdf>"), ("<x:doc xmlns:x='urn:x'/>", "<x:doc>")] {
            let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(root.utf8), url: nil) }
            #expect(error?.message.contains("its root element is \(named) (expected") == true, "\(root)")
        }
    }

    /// An Atom entry document (one post published on its own) is read as a feed of that post, with
    /// a warning that names it; its links resolve against its `xml:base`, as an entry's in a feed.
    @Test func atomEntryDocumentIsReadAsOnePost() throws {
        let entry = """
            <?xml version='1.0'?>
            <entry xmlns='http://www.w3.org/2005/Atom' xml:base='https://example.org/blog/'>
              <title>One post</title><id>tag:example.org,2026:1</id><link href='one'/>
              <updated>2026-11-20T10:00:00Z</updated><author><name>Ada</name></author>
              <content type='html'>&lt;p&gt;Body&lt;/p&gt;</content>
            </entry>
            """
        let feed = try FeedParser().parse(Data(entry.utf8), url: nil)
        #expect(feed.format == .atom)
        #expect(feed.version == "1.0")
        #expect(feed.title == "")
        #expect(feed.items.count == 1)
        let post = try #require(feed.items.first)
        #expect(post.title == "One post")
        #expect(post.id == "tag:example.org,2026:1")
        #expect(post.link == "https://example.org/blog/one")
        #expect(post.content == "<p>Body</p>")
        #expect(post.authors.map(\.name) == ["Ada"])
        #expect(post.updated == ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z"))
        #expect(
            feed.warnings == [
                "line 2: the document is an Atom entry document (one post, RFC 4287 §2), not a feed; read as a feed"
                    + " of that one post: use the address of the feed it belongs to"
            ])
        // Atom 0.3's namespace: the same.
        let old = "<entry xmlns='http://purl.org/atom/ns#'><title>Old</title></entry>"
        let oldFeed = try FeedParser().parse(Data(old.utf8), url: nil)
        #expect(oldFeed.version == "0.3")
        #expect(oldFeed.items.map(\.title) == ["Old"])
    }

    @Test func textIsNotAFeed() {
        let error = #expect(throws: FeedParseError.self) {
            try FeedParser().parse(Data("Service Unavailable".utf8), url: nil)
        }
        #expect(error?.message.contains("neither XML nor JSON") == true)
    }

    /// An image or archive served where the feed should be is named by its signature (a PNG's
    /// first byte is not read as windows-1252 first); other bytes that are not text are shown as
    /// hexadecimal, never written raw to the terminal.
    @Test func binaryIsNamed() {
        func message(_ bytes: [UInt8]) -> String? {
            let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(bytes), url: nil) }
            return error?.message
        }
        #expect(
            message([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
                == "the document is a PNG image, not a feed; check the feed's address")
        #expect(
            message([0, 0, 1, 0, 1, 0, 0x10, 0x10])
                == "the document is an icon (.ico), not a feed; check the feed's address")
        #expect(
            message(Array("GIF89a".utf8) + [1, 0, 1, 0])
                == "the document is a GIF image, not a feed; check the feed's address")
        #expect(
            message(Array("OK\u{1}\u{2}rest".utf8))
                == "the document is binary data (its first bytes are 4F 4B 01 02 72 65 73 74), not text, so not a feed; check the feed's address"
        )
        // Not UTF-8, so read as windows-1252 (0xF8 is ø, C3 B8 in UTF-8): the bytes shown are
        // the document's own, after its leading white space.
        #expect(
            message([0x0A, 0x20, 0x1B, 0x03, 0x00, 0xF8, 0xA5, 0x10, 0x20, 0x30, 0xFF, 0xFE])
                == "the document is binary data (its first bytes are 1B 03 00 F8 A5 10 20 30), not text, so not a feed; check the feed's address"
        )
    }

    @Test func truncatedXMLKeepsTheChannel() throws {
        let feed = try FeedParser().parse(
            Data("<rss version=\"2.0\"><channel><title>x</title>\n<item><title>y".utf8), url: nil)
        #expect(feed.title == "x")
        #expect(feed.items.isEmpty)
        #expect(feed.warnings.contains { $0.hasPrefix("line 2: repaired end of document inside <title>") })
    }

    @Test func repairsUndefinedEntitiesAndBareAmpersands() throws {
        let feed = try parse(
            rss(
                """
                <item><title>Caf&eacute; &amp; Bar &mdash; Tom & Jerry&nbsp;&copy; &bogus; &#0;</title>
                <link>https://example.org/?a=1&b=2</link></item>
                """))
        #expect(feed.items.first?.title == "Café & Bar — Tom & Jerry © &bogus;")  // no-break space collapses too
        #expect(feed.items.first?.link == "https://example.org/?a=1&b=2")
        #expect(feed.warnings.contains("line 9: repaired undefined entity &eacute;"))
        #expect(feed.warnings.contains("line 9: repaired unescaped '&' (2 times)"))
        #expect(feed.warnings.contains("line 9: repaired unknown entity &bogus;"))
    }

    @Test func repairsControlCharactersAndInvalidUTF8() throws {
        var data = Data(rss("<item><title>a\u{1}b</title><description>caf</description></item>").utf8)
        // Insert a lone windows-1252 "é" (0xE9) after "caf" in a document declared UTF-8.
        let marker = Data("caf<".utf8)
        let range = try #require(data.range(of: marker))
        data.insert(0xE9, at: range.lowerBound + 3)
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.first?.title == "ab")
        #expect(feed.items.first?.description == "café")
        #expect(feed.warnings.contains { $0.contains("repaired illegal control character") })
        #expect(feed.warnings.contains { $0.contains("invalid UTF-8") })
    }

    @Test func undeclaredWindows1252IsTranscoded() throws {
        var data = Data("<rss version=\"2.0\"><channel><title>".utf8)
        data.append(contentsOf: [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x80])  // “Café” €
        data.append(Data("</title></channel></rss>".utf8))
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.title == "“Café” €")
        #expect(feed.warnings.first?.contains("windows-1252") == true)
    }

    @Test func externalEntitiesAreNeverRead() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY e SYSTEM "file:///etc/passwd"><!ENTITY f SYSTEM "http://127.0.0.1:1/x">]>
            <rss version="2.0"><channel><title>T&e;&f;</title><item><title>i</title></item></channel></rss>
            """
        let feed = try parse(xxe)
        #expect(!feed.title.contains("root:"))
        #expect(feed.title == "T&e;&f;")
        #expect(feed.warnings.contains { $0.contains("DOCTYPE") })
    }

    @Test func billionLaughsIsNeutralisedQuickly() throws {
        var entities = #"<!ENTITY lol "lol">"#
        var previous = "lol"
        for level in 1...9 {
            entities += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
            previous = "lol\(level)"
        }
        let bomb =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [\(entities)]>\n<rss version=\"2.0\"><channel><title>&lol9;</title></channel></rss>"
        let start = ContinuousClock.now
        let result = Result { try FeedParser().parse(Data(bomb.utf8), url: nil) }
        #expect(ContinuousClock.now - start < .seconds(1))
        if case .success(let feed) = result { #expect(feed.title.count < 100) }
    }

    @Test func netscapeDoctypeIsNotFetchedAndItsEntitiesWork() throws {
        let feed = try parse(
            """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"
            "http://my.netscape.com/publish/formats/rss-0.91.dtd">
            <rss version="0.91"><channel><title>Gr&uuml;&szlig;e</title></channel></rss>
            """)
        #expect(feed.version == "0.91")
        #expect(feed.title == "Grüße")
    }

    /// When neither repair nor recovery finds a feed, the strict parse's diagnosis is reported.
    @Test func unfixableXMLReportsLine() {
        let error = #expect(throws: FeedParseError.self) {
            try FeedParser().parse(Data("\n<1rss><channel><title>x</title></channel></1rss>".utf8), url: nil)
        }
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("malformed XML: ") == true)
    }

    // MARK: - JSON Feed

    /// lemon24/reader's `invalid.json`: a value of the wrong type is left out on its own, with a
    /// warning; the rest of the item (and the good elements of a list) stay.
    @Test func jsonFeedMistypedValuesAreLeftOutOneByOne() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Mistyped", "items": [
              {"id": 1, "title": "Bad first author", "url": "https://example.org/1",
               "authors": ["not a dict", {"name": "Jane"}]},
              {"id": "2", "title": "Boolean content", "content_html": true, "content_text": "Real text"},
              {"id": "3", "title": "Number url", "url": 1.2, "attachments": [7, {"url": "https://example.org/a.mp3"}]}
            ]}
            """
        let feed = try FeedParser().parse(Data(json.utf8), url: URL(string: "https://example.org/feed.json"))
        #expect(feed.items.map(\.id) == ["1", "2", "3"])
        #expect(feed.items[0].authors == [Person(name: "Jane")])
        #expect(feed.items[1].content == "Real text")
        #expect(feed.items[1].contentKind == .text)
        #expect(feed.items[2].link == nil)
        #expect(feed.items[2].enclosures.map(\.url) == ["https://example.org/a.mp3"])
        #expect(
            feed.warnings == [
                #""attachments" is not a list of objects (1 time); that value is left out"#,
                #""authors" is not a list of objects (1 time); that value is left out"#,
                #""content_html" is not a string (1 time); that value is left out"#,
                #""url" is not a string (1 time); that value is left out"#,
            ])
    }

    @Test func jsonFeedFields() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1", "title": "J", "home_page_url": "https://j.example/",
             "feed_url": "https://j.example/feed.json", "description": "d", "favicon": "/fav.ico",
             "author": {"name": "Old Style", "url": "https://j.example/me"},
             "items": [
               {"id": 7, "url": "/p/1", "title": "One &amp; only", "content_text": "plain", "summary": "s",
                "date_published": "2020-01-02T03:04:05Z", "tags": ["a", "b"], "image": "/i.png",
                "attachments": [{"url": "/a.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 10}]},
               {"id": "2", "external_url": "https://else.example/x", "content_html": "<p>No title here at all</p>",
                "date_modified": "2020-02-02T00:00:00Z", "authors": [{"name": "New Style"}]}
             ]}
            """
        let feed = try FeedParser().parse(Data(json.utf8), url: URL(string: "https://j.example/feed.json"))
        #expect(feed.format == .json)
        #expect(feed.version == "1.0")
        #expect(feed.image?.url == "https://j.example/fav.ico")
        #expect(feed.authors == [Person(name: "Old Style", uri: "https://j.example/me")])
        let first = feed.items[0]
        #expect(first.id == "7")
        #expect(first.link == "https://j.example/p/1")
        #expect(first.title == "One &amp; only")  // JSON titles are plain text: nothing to decode
        #expect(first.content == "plain")
        #expect(first.contentKind == .text)
        #expect(first.description == "s")
        #expect(first.categories == ["a", "b"])
        #expect(first.image?.url == "https://j.example/i.png")
        #expect(first.enclosures == [Enclosure(url: "https://j.example/a.mp3", length: 10, type: "audio/mpeg")])
        #expect(first.authors == feed.authors)
        let second = feed.items[1]
        #expect(second.link == "https://else.example/x")
        #expect(second.contentKind == .html)
        #expect(second.title == "No title here at all")
        #expect(second.isTitleDerived)
        #expect(second.published == FeedDate.parse("2020-02-02T00:00:00Z"))
        #expect(second.authors == [Person(name: "New Style")])
    }

    /// `items` that is not a list: one item object is that item, an object of items (PHP's
    /// `json_encode` of a list with gaps) its values by key; anything else is no item, with a
    /// warning that says why instead of a feed that is silently empty.
    @Test func jsonFeedItemsThatAreNotAList() throws {
        func read(_ items: String) throws -> Feed {
            try FeedParser().parse(
                Data(#"{"version": "https://jsonfeed.org/version/1.1", "title": "T"\#(items)}"#.utf8), url: nil)
        }
        let one = try read(#", "items": {"id": "1", "title": "Only"}"#)
        #expect(one.items.map(\.title) == ["Only"])
        #expect(one.warnings == [#""items" is one item object, not a list of them; read as the feed's only item"#])
        let keyed = try read(
            #", "items": {"b": {"id": "b", "title": "B"}, "10": {"id": "10", "title": "Ten"}, "9": {"id": "9", "title": "Nine"}}"#
        )
        #expect(keyed.items.map(\.title) == ["Nine", "Ten", "B"])
        for (items, kind) in [
            (#", "items": "none""#, "a string"), (#", "items": 3"#, "a number"), (#", "items": false"#, "false"),
        ] {
            let feed = try read(items)
            #expect(feed.items.isEmpty)
            #expect(feed.warnings == [#""items" is \#(kind), not a list of items; no item was read"#])
        }
        for items in ["", #", "items": null"#] {
            let feed = try read(items)
            #expect(feed.items.isEmpty)
            #expect(feed.warnings == [#"the feed has no "items" list (JSON Feed requires one); no item was read"#])
        }
        #expect(try read(#", "items": []"#).warnings == [])
    }

    /// Found in session 23: a key given twice in one item (`content_html` from two templates)
    /// kept the last value without a word. Keys inside an item's own objects, in strings, and an
    /// escaped spelling of a key (`\u0069d` is `id`) are told apart; items are counted across a
    /// repeated `items`.
    @Test func jsonFeedKeyRepeatedInAnItem() throws {
        let body = #"""
            {"version": "1.1", "title": "T", "items": [
              {"id": "1", "content_html": "<p>first</p>", "content_html": "<p>second</p>", "note": "\"id\": 2"},
              {"id": "2", "author": {"name": "a", "name": "b"}, "\u0069d": "2b", "id": "2c"},
              {"id": "3", "title": "fine"}, 7
            ], "items": [{"id": "4", "title": "x", "title": "y"}]}
            """#
        let feed = try FeedParser().parse(Data(body.utf8), url: nil)
        #expect(feed.items.map(\.id) == ["1", "2c", "3", "4"])
        #expect(feed.items.first?.content == "<p>second</p>")
        #expect(
            feed.warnings.filter { $0.hasPrefix("item ") } == [
                #"item 1: "content_html" is given more than once; JSON keeps the last value"#,
                #"item 2: "id" is given more than once; JSON keeps the last value"#,
                #"item 4: not a JSON object; skipped"#,
                #"item 5: "title" is given more than once; JSON keeps the last value"#,
            ])
    }

    /// `items` given more than once: JSON keeps the last value of a repeated key, so every list is
    /// found in the text and read, in order. Only the top level's `items` count, not one inside a
    /// string (an escaped quote before it included) or inside an item; a document that repeats
    /// no key is read as JSON reads it.
    @Test func jsonFeedItemsGivenTwice() throws {
        func read(_ body: String) throws -> Feed {
            try FeedParser().parse(Data(#"{"version": "1.1", "title": "T"\#(body)}"#.utf8), url: nil)
        }
        let twice = try read(
            #", "items": [{"id": "1"}, {"id": "2"}], "note": "a \\\" \"items\": [{\"id\": \"x\"}]",\#n"#
                + #""items": [{"id": "3", "items": [{"id": "y"}]}]"#)
        #expect(twice.items.map(\.id) == ["1", "2", "3"])
        #expect(
            twice.warnings == [
                #""items" is given 2 times (lines 1 and 2); JSON keeps only the last, so each was read: 3 items in all"#
            ])
        let once = try read(#", "items": [{"id": "1", "items": [{"id": "2"}]}], "other": {"items": []}"#)
        #expect(once.items.map(\.id) == ["1"])
        #expect(once.warnings.isEmpty)
        let emptyFirst = try read(#", "items": [], "items": [{"id": "only"}], "items": null"#)
        #expect(emptyFirst.items.map(\.id) == ["only"])
        #expect(emptyFirst.warnings.count == 1)
    }

    /// A JSON Feed cut off in the middle (a download that stopped) keeps its complete items, as an
    /// XML feed does: the item cut in half is dropped with a located warning; a document cut after
    /// its items keeps them all. Braces and brackets inside strings do not count.
    @Test func jsonFeedCutOffKeepsItsCompleteItems() throws {
        let head = "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\",\n\"items\": [\n"
        let items = [
            #"{"id": "1", "title": "One } ] {", "tags": ["a", "b"], "author": {"name": "A"}},"#,
            #"{"id": "2", "content_html": "<p>two</p>"},"#,
            #"{"id": "3", "content_html": "<p>thr"#,
        ].joined(separator: "\n")
        let inside = try FeedParser().parse(Data((head + items).utf8), url: nil)
        #expect(inside.title == "T")
        #expect(inside.items.map(\.id) == ["1", "2"])
        #expect(inside.items.first?.title == "One } ] {")
        #expect(
            inside.warnings == [
                "line 5: the document ends in the middle of item 3 (cut off): the 2 items before it are read; the one cut in half is dropped"
            ])
        let after = try FeedParser().parse(
            Data((head + #"{"id": "1"}, {"id": "2"}],"# + "\n" + #""home_page_url": "https://e.exam"#).utf8), url: nil)
        #expect(after.items.map(\.id) == ["1", "2"])
        #expect(after.warnings == ["line 4: the document ends after its items (cut off): all 2 are read"])
        let first = try FeedParser().parse(Data((head + #"{"id": "1", "title": "#).utf8), url: nil)
        #expect(first.items.isEmpty)
        #expect(first.warnings.first?.contains("the middle of item 1 (cut off): no item before it is whole") == true)
        // `items` given twice, cut off in the second list: both lists' whole items are read.
        let twice = try FeedParser().parse(
            Data((head + #"{"id": "1"}], "items": [{"id": "2"}, {"id": "3", "title": "cu"#).utf8), url: nil)
        #expect(twice.items.map(\.id) == ["1", "2"])
        #expect(
            twice.warnings.first?.contains("the middle of item 3 (cut off): the 2 items before it are read") == true)
    }

    /// One item's extension nested beyond what `JSONSerialization` reads (512 levels) loses no post:
    /// values more than 100 deep become `null` with a located warning, brackets inside strings do
    /// not count, and an extension cut off while that deep keeps the whole items before it.
    @Test func jsonFeedNestedTooDeepKeepsItsItems() throws {
        let head = "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\",\n\"items\": [\n"
        func item(_ id: String, _ value: String) -> String {
            #"{"id": "\#(id)", "content_html": "<p>\#(id)</p>", "_x": \#(value)}"#
        }
        let arrays = String(repeating: "[", count: 5000) + "\"] } [\"" + String(repeating: "]", count: 5000)
        let objects = String(repeating: #"{"a":"#, count: 800) + "1" + String(repeating: "}", count: 800)
        let document = head + item("1", "[1]") + ",\n" + item("2", arrays) + ",\n" + item("3", objects) + "]}"
        let feed = try FeedParser().parse(Data(document.utf8), url: nil)
        #expect(feed.items.map(\.id) == ["1", "2", "3"])
        #expect(feed.items.map(\.content) == ["<p>1</p>", "<p>2</p>", "<p>3</p>"])
        #expect(feed.warnings == ["line 4: ignored a value nested more than 100 deep (2 times)"])
        // Nested just below Foundation's limit: read as it is, no warning.
        let fine = head + item("1", String(repeating: "[", count: 400) + String(repeating: "]", count: 400)) + "]}"
        #expect(try FeedParser().parse(Data(fine.utf8), url: nil).warnings.isEmpty)
        // Cut off inside the deep value: the item before it is read.
        let cut = head + item("1", "2") + ",\n" + item("2", String(repeating: "[", count: 100_000))
        let cutFeed = try FeedParser().parse(Data(cut.utf8), url: nil)
        #expect(cutFeed.items.map(\.id) == ["1"])
        #expect(cutFeed.warnings.contains { $0.contains("the middle of item 2 (cut off)") })
    }

    /// `JSONSerialization` builds every value first: 48 MB of `{},` took 3 GB, one extension of 24
    /// million numbers 1.5 GB. Past a million values, what is oversized is left out and the rest read:
    /// a value of more than 10,000 (the item kept), an item of more (numbers kept for the items after
    /// it), the items past the budget or past 10,000; a feed object of a million keys is refused.
    @Test func jsonFeedOverValueBudgetKeepsItsPosts() throws {
        let head = "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\",\n"
        func item(_ id: Int, _ extra: String = "") -> String {
            #"{"id": "\#(id)", "content_html": "<p>\#(id)</p>"\#(extra)}"#
        }
        let numbers = "[" + String(repeating: "0,", count: 1_100_000) + "0]"
        // Line 3 holds the feed's own oversized value, line 6 item 2's, line 7 an item of a million keys.
        let keys = (0..<1_000_001).map { #""k\#($0)": 0"# }.joined(separator: ",")
        let document =
            head + "\"_feed\": [1],\n\"_x\": \(numbers),\n\"items\": [\n" + item(1) + ",\n"
            + item(2, ", \"_big\": \(numbers)")
            + ",\n{\"id\": \"3\", \(keys)},\n" + item(4) + "]}"
        let feed = try FeedParser().parse(Data(document.utf8), url: nil)
        #expect(feed.items.map(\.id) == ["1", "2", "4"])
        #expect(feed.items.map(\.content) == ["<p>1</p>", "<p>2</p>", "<p>4</p>"])
        #expect(
            feed.warnings == [
                "line 7: item 3 holds more than 10000 JSON values (no post needs that many): it was left out",
                "line 3: the feed's \"_x\" holds more than 10000 JSON values (no feed needs that many): it was left out (and 1 more like it)",
            ])

        // Items of 9,004 values each: with the feed's own 7, 111 of them hold 999,451 values, 112 more than a million.
        let heavy = "[" + String(repeating: "1,", count: 8_996) + "1]"
        let many =
            head + "\"items\": [" + (1...200).map { item($0, ", \"_y\": \(heavy)") }.joined(separator: ",") + "]}"
        let cut = try FeedParser().parse(Data(many.utf8), url: nil)
        #expect(cut.items.map(\.id) == (1...111).map(String.init))
        #expect(
            cut.warnings == [
                "the feed's items hold more than 1000000 JSON values in all: feedsite read the first 111 (feeds list their newest first); the other 89 were left out"
            ])

        // A million items: the first 10,000 read, as in an XML feed.
        let tiny = head + "\"items\": [" + String(repeating: "{},", count: 1_000_000) + "{}]}"
        let tinyFeed = try FeedParser().parse(Data(tiny.utf8), url: nil)
        #expect(tinyFeed.items.count == FeedParser.maxItems)
        #expect(tinyFeed.warnings.first == FeedParser.tooManyItemsWarning(total: 1_000_001))

        let wide = "{" + keys + ", \"items\": [" + item(1) + "]}"
        #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(wide.utf8), url: nil) }
    }

    /// Foundation's "around character 243" becomes a line and column of the document (blank lines
    /// before it count); "cut off?" only for a document that ends inside its top-level object.
    @Test func malformedJSONFeedIsLocated() {
        func error(_ json: String) -> FeedParseError? {
            #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(json.utf8), url: nil) }
        }
        let nan = error("\n\n{\"version\": \"https://jsonfeed.org/version/1.1\",\n \"items\": [{\"id\": NaN}]}")
        #expect(nan?.line == 4)
        #expect(nan?.column == 19)
        #expect(nan?.message == "malformed JSON Feed: invalid value")
        let cut = error(#"{"version": "https://jsonfeed.org/version/1.1", "title": "Cut before the items"#)
        #expect(cut?.message.hasSuffix("; the document ends before its last '}' (cut off?)") == true)
        let complete = error(#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": tru}]}"#)
        #expect(complete?.message.contains("cut off") == false)
        // Text after the object is ignored (`jsonfeed-trailing-text.json`), unless the object itself is broken.
        let both = error(#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": tru}]}<!-- x -->"#)
        #expect(both?.column == 69)  // Foundation's offset: the `}` where `tru` stops being `true`
    }

    /// `version` names 1.0 or 1.1 in any spelling real feeds use; anything else reads as 1.0.
    @Test(arguments: [
        ("https://jsonfeed.org/version/1", "1.0"), ("http://jsonfeed.org/version/1.1/", "1.1"),
        ("HTTPS://JSONFEED.ORG/VERSION/1.1", "1.1"), ("https://jsonfeed.org/version/1.0", "1.0"),
        ("1.1", "1.1"), ("1", "1.0"), ("https://example.org/whatever", "1.0"), ("", "1.0"),
    ])
    func jsonFeedVersion(_ declared: String, _ expected: String) {
        #expect(FeedParser.jsonFeedVersion(declared) == expected)
    }

    @Test func jsonThatIsNotAFeed() {
        let error = #expect(throws: FeedParseError.self) {
            try FeedParser().parse(Data(#"{"hello": "world"}"#.utf8), url: nil)
        }
        #expect(error?.message.contains("not a JSON Feed") == true)
    }
}
