import Foundation
import Testing

@testable import FeedsiteKit

/// What a real-world fixture must parse to. Every expected value was read from the file itself
/// (grep/sed/iconv, noted per fixture), never copied from the parser's output.
struct FixtureExpectation: Sendable, CustomTestStringConvertible {
    var file: String
    /// The feed's final URL as the fetcher would pass it (relative links resolve against it).
    var url: String? = nil
    var format: Feed.Format
    var version: String
    var itemCount: Int
    var title: String
    var link: String?
    /// ISO 8601 UTC, or nil when the first item has no (parseable) date.
    var published: String?
    var authorName: String?
    var authorEmail: String? = nil
    var isTitleDerived = false
    /// A substring one of the warnings must contain.
    var warning: String? = nil

    var testDescription: String { file }
}

@Suite struct FeedParserFixtureTests {
    static let expectations: [FixtureExpectation] = [
        // grep '<item' -A: <title>, <link>, <pubDate>Fri, 07 Jul 2017 11:06:10 +0000, <dc:creator><![CDATA[Natasha Murashev]]>; 10 `<item>`.
        .init(
            file: "wordpress-rss2-content-encoded.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "The Easiest Way to Get a URL for your Apple Wallet Passkit Pass",
            link: "https://www.natashatherobot.com/url-apple-wallet-passkit-pass/",
            published: "2017-07-07T11:06:10Z", authorName: "Natasha Murashev"),
        // CDATA title; <pubDate>Mon, 19 Nov 2018 08:10:26 GMT; dc:creator Hodl Hodl; 10 items.
        .init(
            file: "medium-rss2.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "Hodl Hodl closes funding round",
            link: "https://medium.com/@hodlhodl/hodl-hodl-closes-funding-round-417d97952d42?source=rss-b1f3d322dadf------2",
            published: "2018-11-19T08:10:26Z", authorName: "Hodl Hodl"),
        // <pubDate>Wed, 03 Feb 2021 12:00:47 GMT; dc:creator Emily Atkin; 1 item.
        .init(
            file: "substack-rss2.xml", format: .rss, version: "2.0", itemCount: 1,
            title: "A conversation about Keystone XL", link: "https://heated.world/p/a-conversation-about-keystone-xl",
            published: "2021-02-03T12:00:47Z", authorName: "Emily Atkin"),
        // <pubDate>Thu, 14 Oct 2021 12:59:53 GMT; dc:creator Luke Valenta; 1 item.
        .init(
            file: "ghost-rss2.xml", format: .rss, version: "2.0", itemCount: 1,
            title: "Privacy-Preserving Compromised Credential Checking",
            link: "https://blog.cloudflare.com/privacy-preserving-compromised-credential-checking/",
            published: "2021-10-14T12:59:53Z", authorName: "Luke Valenta"),
        // <link href="/2025/08/26/qemu-10-1-0/"> (root-relative: resolved against the feed URL);
        // <published>2025-08-26T23:25:00+00:00; <author><name></name></author> (empty: no author); 10 entries.
        .init(
            file: "jekyll-atom.xml", url: "https://www.qemu.org/feed.xml", format: .atom, version: "1.0", itemCount: 10,
            title: "QEMU version 10.1.0 released", link: "https://www.qemu.org/2025/08/26/qemu-10-1-0/",
            published: "2025-08-26T23:25:00Z", authorName: nil),
        // No <published>, only <updated>2020-01-19T16:08:59+11:00 (= 05:08:59Z); <name>markpritchard; 4 entries.
        .init(
            file: "github-releases-atom.xml", format: .atom, version: "1.0", itemCount: 4, title: "0.2.0",
            link: "https://github.com/feed-rs/feed-rs/releases/tag/v0.2.0", published: "2020-01-19T05:08:59Z",
            authorName: "markpritchard"),
        // <link rel="alternate" href=…watch?v=q-6oU3jXAho>, <published>2019-11-18T19:45:00+00:00; 14 entries.
        .init(
            file: "youtube-atom.xml", format: .atom, version: "1.0", itemCount: 14,
            title: "Can You Observe a Typical Universe?", link: "https://www.youtube.com/watch?v=q-6oU3jXAho",
            published: "2019-11-18T19:45:00Z", authorName: "PBS Space Time"),
        // <link href=…/> with no rel (counts as alternate); <published>2016-01-26T20:31:34+00:00; 24 entries.
        .init(
            file: "reddit-atom-xhtml.xml", format: .atom, version: "1.0", itemCount: 24,
            title: "How the British as seen by Americans and Europeans",
            link: "https://www.reddit.com/r/funny/comments/42tizy/how_the_british_as_seen_by_americans_and_europeans/",
            published: "2016-01-26T20:31:34Z", authorName: "/u/AngryRedditorsBelow"),
        // <pubDate>Thu, 31 Jan 2019 16:58:12 +0000; <dc:creator>Marco Arment beats <itunes:author>ATP; 100 items.
        .init(
            file: "podcast-itunes-squarespace-atp.xml", format: .rss, version: "2.0", itemCount: 100,
            title: "311: Mutually Assured Destruction", link: "http://atp.fm/episodes/311",
            published: "2019-01-31T16:58:12Z", authorName: "Marco Arment"),
        // RDF; items are siblings of <channel>; <link>…&amp;utm_medium=feed (decoded once);
        // first item <dc:date>2024-03-02T15:34:00+00:00; <dc:creator>EditorDavid; 15 <item rdf:about>.
        .init(
            file: "rdf-rss1-slashdot-latin1.xml", format: .rss, version: "1.0", itemCount: 15,
            title: "Ransomware Attack Hampers Prescription Drug Sales at 90% of US Pharmacies",
            link: "https://yro.slashdot.org/story/24/03/02/071229/ransomware-attack-hampers-prescription-drug-sales-at-90-of-us-pharmacies?utm_source=rss1.0mainlinkanon&utm_medium=feed",
            published: "2024-03-02T15:34:00Z", authorName: "EditorDavid"),
        // <pubDate>Tue, 02 Mar 2021 23:39:15 +0100; <author>jonas@insanity.industries (Jonas Große Sundrup); 2 items.
        .init(
            file: "hugo-rss2-item-xmlbase-raw-html-description.xml", format: .rss, version: "2.0", itemCount: 2,
            title: "Pareto-optimal compression", link: "https://insanity.industries/post/pareto-optimal-compression/",
            published: "2021-03-02T22:39:15Z", authorName: "Jonas Große Sundrup",
            authorEmail: "jonas@insanity.industries"),
        // feed xml:base='https://www.tbray.org/ongoing/ongoing.atom', entry xml:base='When/201x/2013/06/27/',
        // <link href='Air-Travel'/>; <published>2013-06-27T12:00:00-07:00; author only on the feed (inherited).
        .init(
            file: "atom-nested-xmlbase-tbray.xml", format: .atom, version: "1.0", itemCount: 1,
            title: "Rent-seeking for Nomads", link: "https://www.tbray.org/ongoing/When/201x/2013/06/27/Air-Travel",
            published: "2013-06-27T19:00:00Z", authorName: "Tim Bray"),
        // rel='alternate' link is the 7th link; <published>2007-12-14T23:15:00.000-08:00; <name>Anthony; 25 entries.
        .init(
            file: "blogger-atom.xml", format: .atom, version: "1.0", itemCount: 25,
            title: "4FSOD Documentary: Bloopers and Stuff",
            link: "http://4fsodonline.blogspot.com/2007/12/4fsod-documentary-bloopers-and-stuff.html",
            published: "2007-12-15T07:15:00Z", authorName: "Anthony"),
        // `od -c | head`: starts with "\n<?xml"; <pubDate>Wed, 02 Nov 2011 17:25:27 +0000; <dc:creator>Leena Rao; 20 items.
        .init(
            file: "wordpress-com-rss2-leading-newline.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "Angie’s List Sets Price Range IPO At $11 To $13 Per Share; Valued At Over $600M",
            link: "http://feedproxy.google.com/~r/Techcrunch/~3/kTeeGj4FnwU/", published: "2011-11-02T17:25:27Z",
            authorName: "Leena Rao"),
        // First <item> (line 20) has no <title>: <description>Good morning students and teachers! 🍏;
        // <pubDate>Mon, 26 Jun 2017 12:20:05 GMT; no author anywhere; 50 items.
        .init(
            file: "scripting-news-rss2-source-namespace.xml", format: .rss, version: "2.0", itemCount: 50,
            title: "Good morning students and teachers! 🍏", link: "http://scripting.com/2017/06/26.html#a080605",
            published: "2017-06-26T12:20:05Z", authorName: nil, isTitleDerived: true),
        // Netscape DOCTYPE (must not be fetched), <rss version="0.91">, ISO-8859-1 "unterstützen"; no dates; 3 items.
        .init(
            file: "rss091-latin1-netscape-doctype.xml", format: .rss, version: "0.91", itemCount: 3,
            title: "Mainsoft und IBM wollen Portierung auf Linux unterstützen",
            link: "http://www.pro-linux.de/news/2006/9148.html", published: nil, authorName: nil),
        // `&nbsp;` is undefined in XML (xmllint fails); <dc:date>2023-01-03T15:00:00Z; 1 item.
        .init(
            file: "html-entity-nbsp-undefined.xml", format: .rss, version: "2.0", itemCount: 1,
            title: "Snowflake is the DBMS of the Year 2022, defending the title from last year",
            link: "https://db-engines.com/en/blog_post/103", published: "2023-01-03T15:00:00Z",
            authorName: "Matthias Gelbmann, Paul Andlinger", warning: "repaired undefined entity &nbsp;"),
        // Bare `&` in <guid>…?utm_source=bolddk&utm_medium…; <pubDate>Thu, 14 Mar 2019 17:10:02 +0200;
        // <author>Sara Margren; 20 items.
        .init(
            file: "latin1-bare-ampersands.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "OB er uskarpe - Esbjerg er effektive",
            link: "https://www.bold.dk/fodbold/nyheder/ob-er-uskarpe--esbjerg-er-effektive/",
            published: "2019-03-14T15:10:02Z", authorName: "Sara Margren", warning: "repaired unescaped '&'"),
        // `head -c3 | od`: EF BB BF; <pubDate>Fri, 24 May 2019 00:00:00 -0700; 10 items.
        .init(
            file: "utf8-bom.xml", format: .rss, version: "2.0", itemCount: 10, title: "Skipping Around",
            link: "https://donthitsave.com/comic/2019/05/24/skipping-around", published: "2019-05-24T07:00:00Z",
            authorName: nil),
        // `iconv -f latin1`: title "…simulações de 2º turno"; <pubDate>Seg, 24 Set 2018 (Portuguese: not parsed,
        // warned); <rss> with no version attribute (2.0 assumed); 15 items.
        .init(
            file: "undeclared-latin1-no-prolog.xml", format: .rss, version: "2.0", itemCount: 15,
            title: "Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno",
            link: "https://noticias.uol.com.br/politica/eleicoes/2018/noticias/2018/09/24/ibope-bolsonaro-perde-de-haddad-ciro-e-alckmin-em-simulacoes-de-2-turno.htm",
            published: nil, authorName: nil, warning: "read it as windows-1252"),
        // <rss xmlns="http://backend.userland.com/rss2">; `iconv -f windows-1251`: the title below;
        // <pubDate>Wed, 22 Jan 2014 20:31:31 +0600; 10 items.
        .init(
            file: "windows-1251-userland-default-namespace.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "В Бузулуке главные стройплощадки – детсад и Ледовый дворец", link: "http://www.oren.ru/news/2743422/",
            published: "2014-01-22T14:31:31Z", authorName: nil),
        // python json.load: version …/1.1, 20 items; first: date_published 2020-02-21T18:08:06+01:00,
        // authors[0].name "Frank Boës".
        .init(
            file: "jsonfeed-1.1-authors-language.json", format: .json, version: "1.1", itemCount: 20,
            title: "Lecker, lecker", link: "https://journal.3960.org/posts/2020-02-21-lecker-lecker/",
            published: "2020-02-21T17:08:06Z", authorName: "Frank Boës"),
    ]

    @Test(arguments: expectations)
    func parsesRealFeed(_ expected: FixtureExpectation) throws {
        let data = try Fixtures.data("real-feeds/" + expected.file)
        let feed = try FeedParser().parse(data, url: expected.url.flatMap(URL.init(string:)))
        #expect(feed.format == expected.format)
        #expect(feed.version == expected.version)
        #expect(feed.items.count == expected.itemCount)
        let first = try #require(feed.items.first)
        #expect(first.title == expected.title)
        #expect(first.isTitleDerived == expected.isTitleDerived)
        #expect(first.link == expected.link)
        #expect(first.published == expected.published.flatMap(Self.instant))
        #expect(first.authors.first?.name == expected.authorName)
        if let email = expected.authorEmail { #expect(first.authors.first?.email == email) }
        if let warning = expected.warning {
            #expect(feed.warnings.contains { $0.contains(warning) }, "warnings: \(feed.warnings)")
        }
    }

    /// An ISO 8601 UTC string → instant, through Foundation (independent of `FeedDate`).
    static func instant(_ iso: String) -> Date? {
        ISO8601DateFormatter().date(from: iso)
    }

    // The IIS "Object Moved" page (`cat`: `<head><title>Document Moved</title></head>` on line 1).
    @Test func rejectsHTMLPage() throws {
        let data = try Fixtures.data("real-feeds/not-a-feed-iis-object-moved.rss")
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(data, url: nil) }
        #expect(error?.line == 1)
        #expect(error?.description.hasPrefix("line 1, column 1: the server returned an HTML page, not a feed") == true)
    }

    // `tail -c 200`: the file stops mid-string inside an item.
    @Test func rejectsTruncatedJSONFeed() throws {
        let data = try Fixtures.data("real-feeds/jsonfeed-truncated-invalid.json")
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(data, url: nil) }
        #expect(error?.message.hasPrefix("malformed JSON Feed") == true)
        #expect(error?.message.contains("cut off") == true)
    }

    /// Every fixture except the two deliberately broken ones parses, with at least one item.
    @Test func parsesEveryOtherFixture() throws {
        let directory = Fixtures.url("real-feeds")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".md") && $0 != "not-a-feed-iis-object-moved.rss"
                && $0 != "jsonfeed-truncated-invalid.json"
        }
        #expect(names.count >= 50)
        for name in names.sorted() {
            let data = try Fixtures.data("real-feeds/" + name)
            do {
                let feed = try FeedParser().parse(data, url: URL(string: "https://example.org/feed"))
                #expect(!feed.items.isEmpty, "\(name): no items")
                #expect(!feed.title.isEmpty, "\(name): no title")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }

    /// `FeedParser` is a `Sendable` value with no shared state: parsing in parallel tasks gives the
    /// same results as parsing one at a time.
    @Test func parsesConcurrently() async throws {
        let files = Self.expectations.map(\.file)
        let inputs = try files.map { try Fixtures.data("real-feeds/" + $0) }
        let sequential = inputs.map { try? FeedParser().parse($0, url: nil) }
        let concurrent = await withTaskGroup(of: (Int, Feed?).self) { group in
            for (index, data) in inputs.enumerated() {
                group.addTask { (index, try? FeedParser().parse(data, url: nil)) }
            }
            var results = [Feed?](repeating: nil, count: inputs.count)
            for await (index, feed) in group { results[index] = feed }
            return results
        }
        #expect(concurrent == sequential)
        #expect(!sequential.contains(nil))
    }

    // Items in illegally-nested-items.xml each contain an empty `<item />` (grep: 20 tags, 10 real items).
    @Test func ignoresNestedItems() throws {
        let feed = try FeedParser().parse(Fixtures.data("real-feeds/illegally-nested-items.xml"), url: nil)
        #expect(feed.items.count == 10)
    }

    // jekyll-atom.xml: `<content type="html" xml:base="/2025/08/26/qemu-10-1-0/">` — a relative xml:base
    // resolved against the feed URL becomes the item's content base.
    @Test func relativeXMLBaseOnContentBecomesContentBase() throws {
        let feed = try FeedParser().parse(
            Fixtures.data("real-feeds/jekyll-atom.xml"), url: URL(string: "https://www.qemu.org/feed.xml"))
        #expect(feed.items.first?.contentBase == "https://www.qemu.org/2025/08/26/qemu-10-1-0/")
    }

    // hugo-rss2-item-xmlbase: `<description>Everyone wants … <em>is</em> good compression? …</description>`
    // (naked child markup) arrives as HTML text.
    @Test func nakedMarkupInRealDescription() throws {
        let feed = try FeedParser().parse(
            Fixtures.data("real-feeds/hugo-rss2-item-xmlbase-raw-html-description.xml"), url: nil)
        #expect(
            feed.items.first?.description
                == "Everyone wants good compression. But what exactly <em>is</em> good compression? Time for a closer look.")
        #expect(feed.items.first?.contentBase == "https://insanity.industries/post/pareto-optimal-compression/")
    }

    // reddit: `<content type="xhtml" xml:base="/.rss?limit=50"><div xmlns=…><table>…` — wrapper div removed.
    @Test func atomXHTMLContentFromReddit() throws {
        let feed = try FeedParser().parse(
            Fixtures.data("real-feeds/reddit-atom-xhtml.xml"), url: URL(string: "https://www.reddit.com/.rss"))
        let item = try #require(feed.items.first)
        #expect(item.content?.hasPrefix("<table><tr><td><a href=") == true)
        #expect(item.contentKind == .html)
        #expect(item.contentBase == "https://www.reddit.com/.rss?limit=50")
        #expect(item.categories == ["/r/funny"])
    }

    // podcast-itunes-squarespace-atp.xml: `<enclosure url="http://traffic.libsyn.com/atpfm/atp311.mp3"
    // length="54919661" type="audio/mpeg"/>` in the first item.
    @Test func podcastEnclosure() throws {
        let feed = try FeedParser().parse(Fixtures.data("real-feeds/podcast-itunes-squarespace-atp.xml"), url: nil)
        #expect(
            feed.items.first?.enclosures.first
                == Enclosure(url: "http://traffic.libsyn.com/atpfm/atp311.mp3", length: 54_919_661, type: "audio/mpeg"))
    }
}
