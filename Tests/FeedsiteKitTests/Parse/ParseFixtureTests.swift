import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// What one of the hand-written fixtures in `Fixtures/parse/` must parse to. Every expected value
/// was read from the fixture itself (its README says what each one is for; the bytes of the
/// encoding fixtures are decoded by hand from the code page tables), never from the parser.
struct ParseFixture: Sendable, CustomTestStringConvertible {
    var file: String
    /// Every item's title, in order (so also the item count).
    var titles: [String]
    /// Every item's link, when checked.
    var links: [String?]? = nil
    /// Every item's `published` as ISO 8601 UTC, when checked.
    var dates: [String?]? = nil
    /// The first item's first author (name, email), when checked.
    var author: Person? = nil
    /// Substrings that some warning must contain.
    var warnings: [String] = []
    /// True when the document must parse without any warning.
    var isClean = false

    var testDescription: String { file }
}

@Suite struct ParseFixtureTests {
    static func parse(_ file: String) throws -> Feed {
        try FeedParser().parse(Fixtures.data("parse/" + file), url: URL(string: "https://fixtures.example/feed.xml"))
    }

    static func instant(_ iso: String) -> Date? { ISO8601DateFormatter().date(from: iso) }

    static let cases: [ParseFixture] = [
        // MARK: Malformed structure (each document fails the strict parse)
        .init(
            file: "malformed-mismatched-end-tag.xml", titles: ["First post", "Second post"],
            links: ["http://example.org/1", "http://example.org/2"],
            dates: ["2026-03-10T08:00:00Z", "2026-03-11T08:00:00Z"],
            warnings: ["line 10: repaired mismatched end tag </descriptio> (read as </description>)"]),
        .init(
            file: "malformed-unclosed-link.xml", titles: ["Alpha", "Beta", "Gamma"],
            links: ["http://example.org/alpha", "http://example.org/beta", "http://example.org/gamma"],
            warnings: ["line 10: closed <link> left open"]),
        .init(
            file: "malformed-unquoted-attributes.xml", titles: ["Episode 1", "Episode 2"],
            links: ["http://example.org/ep1", "http://example.org/ep2"],
            warnings: ["line 10: repaired an unquoted attribute value (6 times)"]),
        .init(
            file: "malformed-stray-end-tags.xml", titles: ["One", "Two"],
            links: ["http://example.org/one", "http://example.org/two"],
            warnings: [
                "line 7: dropped end tag </image> that closes no open element",
                "line 11: dropped end tag </guid> that closes no open element",
                "line 13: dropped end tag </p> that closes no open element",
            ]),
        .init(
            file: "malformed-latin1-in-cdata.xml", titles: ["Café crème", "Café two"],
            warnings: [
                "line 8: repaired invalid UTF-8 (read as windows-1252) (3 times)",
                "line 10: repaired invalid UTF-8 (replaced with U+FFFD)",
            ]),
        .init(
            file: "malformed-unclosed-item.xml", titles: ["Open one", "Next one", "Last one"],
            links: ["http://example.org/open", "http://example.org/next", "http://example.org/last"],
            warnings: ["line 10: closed <item> before the next one"]),
        .init(
            file: "malformed-end-tag-case.xml", titles: ["Upper"], links: ["http://example.org/upper"],
            dates: ["2026-03-12T09:30:00Z"], warnings: ["line 9: repaired mismatched end tag </Link>"]),
        .init(
            file: "malformed-early-root-end.xml", titles: ["Before", "After"],
            links: ["http://example.org/before", "http://example.org/after"],
            warnings: ["line 11: ignored </rss>: the document goes on after it"]),
        .init(
            file: "malformed-atom-mismatched.xml", titles: ["Entry A", "Entry B"],
            links: ["http://example.org/a", "http://example.org/b"],
            dates: ["2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z"],
            warnings: [
                "line 11: repaired mismatched end tag </summry> (read as </summary>)",
                "line 18: repaired mismatched end tag </autor> (read as </author>)",
            ]),
        .init(
            file: "malformed-duplicate-attribute.xml", titles: ["Dup"],
            warnings: ["line 10: repaired an attribute given twice (kept the first)"]),
        .init(
            file: "malformed-missing-quote.xml", titles: ["Missing quote", "Fine"],
            links: ["http://example.org/q1", "http://example.org/q2"],
            dates: ["2026-03-04T10:00:00Z", "2026-03-05T10:00:00Z"],
            warnings: ["line 9: repaired an attribute value without its closing quote"]),
        .init(
            file: "malformed-truncated.xml", titles: ["Complete"], links: ["http://example.org/complete"],
            warnings: ["item 2: dropped, the document ends in the middle of it"]),
        .init(
            file: "malformed-entities-and-ampersands.xml", titles: ["Tom & Jerry — café … R&D"],
            links: ["http://example.org/?a=1&b=2"],
            warnings: ["line 8: repaired undefined entity &mdash;", "line 10: repaired unescaped '<'"]),
        .init(
            file: "malformed-comment-double-dash.xml", titles: ["After the comment"],
            warnings: ["line 7: removed a comment containing '--'"]),
        .init(
            file: "malformed-second-declaration.xml", titles: ["Before declaration", "After declaration"],
            warnings: ["line 11: removed an XML declaration in the middle of the document"]),
        .init(
            file: "malformed-naked-html-unclosed.xml", titles: ["Naked HTML", "Still here"],
            warnings: ["line 10: closed <p> left open", "line 10: closed <br> (an HTML element that has no end tag)"]),
        .init(
            file: "malformed-tag-without-gt.xml", titles: ["No gt", "Fine gt"],
            links: ["http://example.org/nogt", "http://example.org/finegt"],
            warnings: ["line 8: repaired a tag without its '>'"]),

        .init(
            file: "malformed-cdata-end-in-text.xml", titles: ["a ]]> b"], links: ["http://example.org/cdata-end"],
            warnings: ["line 8: repaired ']]>' outside a CDATA section"]),
        .init(
            file: "malformed-void-element-between-items.xml", titles: ["Before the break", "After the break"],
            links: ["http://example.org/before-break", "http://example.org/after-break"],
            warnings: ["line 11: closed <br> (an HTML element that has no end tag)"]),
        .init(
            file: "malformed-item-tag-in-description.xml", titles: ["First", "Second"],
            links: ["http://example.org/first", "http://example.org/second"],
            warnings: ["line 10: closed <item> left open"]),
        .init(
            file: "malformed-unclosed-channel-fields.xml", titles: ["Episode 2", "Episode 1"],
            links: ["http://example.org/2", "http://example.org/1"],
            warnings: [
                "line 9: closed <itunes:category> (opened on line 6) before <item>: an item is never inside it",
                "line 9: closed <image> (opened on line 8) before <item>: an item is never inside it",
            ]),
        .init(
            file: "malformed-unclosed-channel-description.xml", titles: ["Alpha", "Beta", "Gamma", "Delta"],
            links: [
                "http://example.org/alpha", "http://example.org/beta", "http://example.org/gamma",
                "http://example.org/delta",
            ],
            warnings: [
                "line 7: closed <description> (opened on line 6) before <item>: an item is never inside it",
                "line 21: closed <description> left open",
            ]),
        .init(
            file: "text-before-feed-php-warning.xml", titles: ["Episode 2", "Episode 1"],
            links: ["https://example.com/2", "https://example.com/1"],
            dates: ["2022-04-05T18:03:09Z", "2022-04-04T18:03:09Z"],
            warnings: [
                "line 1: skipped text printed before the feed (\"Warning: count(): Parameter must be an array or an"
                    + " object t…\"), up to line 3 where its XML starts"
            ]),
        .init(
            file: "text-before-feed-plain.xml", titles: ["Only post"], links: ["https://example.org/1"],
            warnings: ["line 1: skipped text printed before the feed (\"Deprecated: Function create_function()"]),
        .init(
            file: "rss-relative-guid-itunes-title.xml",
            titles: ["Declared permalink", "Opaque guid", "Declared but no path", "Hiking Treks Trailer"],
            links: ["https://fixtures.example/blog/intro-graphml", nil, nil, nil], isClean: true),
        .init(
            file: "rdf-unknown-namespace.xml", titles: ["First", "Second"],
            links: ["http://example.org/first", "http://example.org/second"],
            warnings: [
                "line 4: the RDF feed's <channel> is in the namespace http://channel.netscape.com/rdf/simple/0.9/"
            ]),
        .init(
            file: "rss-dublin-core-10.xml", titles: ["Entry Title"], links: ["http://example.org/1"],
            dates: ["2009-03-07T08:03:50Z"], author: Person(name: "Joe Bloggs"), isClean: true),
        .init(
            file: "rss-title-text-or-html.xml",
            titles: [
                "Using the <dialog> element", "Use <template> and <slot> in Web Components", "</example>", "Why a<b",
                "List<T> in Swift & Kotlin", "Bold news", "Emphasis in CDATA", "Café & bar", "Line one line two",
            ],
            isClean: true),
        .init(
            file: "malformed-unterminated-cdata.xml", titles: ["Open CDATA", "After it"],
            links: ["http://example.org/open-cdata", "http://example.org/after-cdata"],
            warnings: ["line 10: closed a CDATA section left open"]),
        .init(
            file: "malformed-unterminated-comment.xml", titles: ["Open comment", "After it"],
            links: ["http://example.org/open-comment", "http://example.org/after-comment"],
            warnings: ["line 10: removed a comment left open, up to </description>"]),
        .init(
            file: "malformed-unterminated-php.xml", titles: ["PHP left open", "After it"],
            links: ["http://example.org/open-php", "http://example.org/after-php"],
            warnings: ["line 10: removed a processing instruction left open, up to </description>"]),

        // MARK: Encodings and labels (titles decoded from the code page tables by hand)
        .init(file: "encoding-latin1-cp1252-quotes.xml", titles: ["don’t “quote” – café"], isClean: true),
        .init(file: "encoding-us-ascii-high-bytes.xml", titles: ["naïve …"], isClean: true),
        .init(file: "encoding-latin1-label.xml", titles: ["Grüße œ"], isClean: true),
        .init(file: "encoding-windows_1251.xml", titles: ["Привет"], isClean: true),
        .init(file: "encoding-cp_is.xml", titles: ["Ç Ðð"], isClean: true),
        .init(file: "encoding-csIBM861.xml", titles: ["Ç Ðð"], isClean: true),
        .init(file: "encoding-ibm437-number.xml", titles: ["café £5 Straße"], isClean: true),
        .init(file: "encoding-x-mac-roman.xml", titles: ["“café” •"], isClean: true),
        .init(file: "encoding-macroman.xml", titles: ["“café” •"], isClean: true),
        .init(file: "encoding-koi8-r.xml", titles: ["Привет"], isClean: true),
        .init(file: "encoding-gb2312-gbk-char.xml", titles: ["你好 丟"], isClean: true),
        .init(file: "encoding-euc-kr.xml", titles: ["한국"], isClean: true),
        .init(file: "encoding-maccyrillic.xml", titles: ["АБ"], isClean: true),
        .init(file: "encoding-shift_jis.xml", titles: ["日本"], isClean: true),
        .init(
            file: "encoding-unknown-label-utf8.xml", titles: ["Grüße"],
            warnings: ["ignored the unknown encoding 'x-no-such-charset' named by the XML declaration"]),
        .init(
            file: "encoding-unknown-label-cp1252.xml", titles: ["café “ok”"],
            warnings: [
                "ignored the unknown encoding 'bogus-8' named by the XML declaration",
                "the document is not valid UTF-8 and declares no encoding; read it as windows-1252",
            ]),
        .init(file: "encoding-c1-references.xml", titles: ["“quoted” – it’s"], isClean: true),
        .init(file: "encoding-utf8-c1-characters.xml", titles: ["it’s “this” \u{FFFD}"], isClean: true),
        .init(file: "encoding-iso-8859-9.xml", titles: ["€ Istanbul ılık"], isClean: true),
        .init(file: "encoding-iso-8859-2-c1.xml", titles: ["łódź – x"], isClean: true),
        .init(
            file: "encoding-utf16le-bom.xml", titles: ["Ωmega ✓"], links: ["http://example.org/item"], isClean: true),
        .init(file: "encoding-windows-1250-spaced.xml", titles: ["Příliš žluťoučký"], isClean: true),
        // `FÃ³rmula` and `donâ€™t` are UTF-8 read as Latin-1 / windows-1252 and encoded again; `Café` is not.
        .init(
            file: "encoding-double-encoded-utf8.xml", titles: ["Grupo Fórmula", "don’t stop", "Café olé à Zürich"],
            isClean: true),
        // The same with U+00A0 in the mojibake (`Ã` + no-break space is `à`), which whitespace
        // collapsing keeps after `Ã` (so `à` alone in a title, or inside a word, is found);
        // Portuguese capitals ending in `Ã` stay as written.
        .init(
            file: "encoding-double-encoded-nbsp.xml",
            titles: [
                "Piratage imputé à la Russie", "Israel cuts $6 million\u{A0}in UN funding", "Россия и Москва",
                "déjà vu",
                "AMANHÃ É DIA", "IRMÃ E MÃE", "Coming-out à la russe", "la màgia i la il·lusió",
            ], isClean: true),

        // MARK: Atom text constructs: base64, Atom 0.3 modes
        .init(file: "atom-base64-content.xml", titles: ["Binary content"], isClean: true),
        .init(file: "atom-base64-title.xml", titles: ["Encoded entry title"], isClean: true),
        .init(file: "atom-base64-subtitle-rights.xml", titles: ["Entry"], isClean: true),
        .init(file: "atom-base64-image-content.xml", titles: ["A picture"], isClean: true),
        .init(file: "atom-text-xml-types.xml", titles: ["Plain <b>not bold</b>", "HTML title"], isClean: true),
        .init(
            file: "atom03-mode-base64.xml", titles: ["Decoded 0.3 title"], links: ["http://example.org/03/1"],
            dates: ["2026-04-07T12:00:00Z"], isClean: true),
        .init(
            file: "atom03-mode-escaped.xml", titles: ["Escaped title"], dates: ["2026-04-08T17:00:00Z"],
            isClean: true),
        .init(file: "atom03-mode-xml.xml", titles: ["Inline XHTML"], isClean: true),

        // MARK: Author forms
        .init(
            file: "author-email-name.xml", titles: ["Email then name"],
            author: Person(name: "Jo Bloggs", email: "jo@example.com"), isClean: true),
        .init(
            file: "author-name-email-parens.xml", titles: ["Name then email"],
            author: Person(name: "Jo Bloggs", email: "jo@example.com"), isClean: true),
        .init(
            file: "author-name-angle-email.xml", titles: ["Angle brackets"],
            author: Person(name: "Jo Bloggs", email: "jo@example.com"), isClean: true),
        .init(
            file: "author-bare-email.xml", titles: ["Bare email"], author: Person(email: "jo@example.com"),
            isClean: true),
        .init(file: "author-bare-name.xml", titles: ["Bare name"], author: Person(name: "Jo Bloggs"), isClean: true),
        .init(
            file: "author-dc-creator-forms.xml", titles: ["Creator email", "Creator name"],
            author: Person(name: "Ann Other", email: "ann@example.com"), isClean: true),
        .init(
            file: "author-quoted-name-angle.xml", titles: ["Quoted name"],
            author: Person(name: "Bloggs, Jo", email: "jo@example.com"), isClean: true),
        .init(
            file: "author-mailto.xml", titles: ["Mailto"], author: Person(name: "Jo Bloggs", email: "jo@example.com"),
            isClean: true),
        .init(
            file: "author-channel-editor-webmaster.xml", titles: ["Channel authors"],
            dates: ["2026-03-13T10:00:00Z"], isClean: true),

        // MARK: Localised dates (offsets subtracted by hand)
        .init(
            file: "date-german.xml", titles: ["de 1", "de 2", "de 3", "de 4"],
            dates: ["2026-11-24T09:00:00Z", "2026-03-24T07:15:00Z", "2027-12-01T12:00:00Z", "2026-10-03T05:00:00Z"],
            isClean: true),
        .init(
            file: "date-french.xml", titles: ["fr 1", "fr 2", "fr 3", "fr 4"],
            dates: ["2026-11-24T09:00:00Z", "2026-02-02T08:00:00Z", "2026-08-13T16:30:00Z", "2026-12-01T00:00:00Z"],
            isClean: true),
        .init(
            file: "date-spanish.xml", titles: ["es 1", "es 2", "es 3", "es 4"],
            dates: ["2026-11-24T10:00:00Z", "2026-03-04T15:45:00Z", "2026-01-05T08:00:00Z", "2026-09-19T15:00:00Z"],
            isClean: true),
        .init(
            file: "date-italian.xml", titles: ["it 1", "it 2", "it 3", "it 4"],
            dates: ["2026-11-24T09:00:00Z", "2026-05-07T09:00:00Z", "2026-12-06T20:00:00Z", "2026-06-15T04:00:00Z"],
            isClean: true),
        .init(
            file: "date-dutch.xml", titles: ["nl 1", "nl 2", "nl 3", "nl 4"],
            dates: ["2026-11-24T09:00:00Z", "2026-03-04T13:00:00Z", "2026-10-10T07:30:00Z", "2026-05-01T12:00:00Z"],
            isClean: true),
        .init(
            file: "date-portuguese.xml", titles: ["pt 1", "pt 2", "pt 3", "pt 4"],
            dates: ["2018-09-24T14:29:00Z", "2026-11-24T13:00:00Z", "2026-03-05T08:00:00Z", "2026-11-01T02:59:00Z"],
            isClean: true),
        .init(
            file: "date-swedish.xml", titles: ["sv 1", "sv 2", "sv 3", "sv 4"],
            dates: ["2026-11-24T09:00:00Z", "2026-05-04T06:00:00Z", "2026-08-01T12:00:00Z", "2026-10-09T15:00:00Z"],
            isClean: true),
        .init(
            file: "date-russian.xml", titles: ["ru 1", "ru 2", "ru 3", "ru 4"],
            dates: ["2026-11-24T10:00:00Z", "2026-11-24T07:00:00Z", "2026-07-03T15:00:00Z", "2027-01-01T00:00:00Z"],
            isClean: true),
        .init(
            file: "date-formats-mixed.xml",
            titles: ["mixed 1", "mixed 2", "mixed 3", "mixed 4", "mixed 5", "mixed 6", "mixed 7", "mixed 8"],
            dates: [
                "2026-03-14T15:09:26Z", nil, "2026-03-14T20:09:26Z", "2026-03-14T15:09:00Z", "2026-03-14T15:09:00Z",
                "2026-03-14T15:09:26Z", "2026-03-14T15:09:26Z", "2026-03-14T15:09:26Z",
            ], isClean: true),

        // MARK: xml:base, RSS 0.90, RDF image
        .init(
            file: "xmlbase-atom-xhtml-nested.xml", titles: ["Nested bases"],
            links: ["http://example.org/blog/posts/1"], isClean: true),
        .init(
            file: "xmlbase-atom-entry-relative.xml", titles: ["Relative entry base"],
            links: ["http://example.org/2026/05/hello.html"], isClean: true),
        .init(
            file: "xmlbase-rss-item.xml", titles: ["Relative link"], links: ["http://example.org/news/2026/story.html"],
            isClean: true),
        .init(
            file: "rss090-netscape.xml", titles: ["Old news", "Older news"],
            links: ["http://example.org/old", "http://example.org/older"], isClean: true),
        .init(
            file: "rdf-channel-image.xml", titles: ["RDF item"], links: ["http://example.org/a"],
            dates: ["2026-06-01T06:00:00Z"], author: Person(name: "Rita Dee"), isClean: true),
        .init(file: "rdf-image-before-channel.xml", titles: ["Second RDF item"], isClean: true),
        .init(
            file: "atom-without-namespace.xml", titles: ["Entry without namespace"],
            links: ["http://example.org/nons/1"], dates: ["2026-09-01T08:00:00Z"], author: Person(name: "Nona Space"),
            isClean: true),
        .init(
            file: "undeclared-prefixes.xml", titles: ["Prefixes never declared"],
            links: ["http://example.org/undeclared"], dates: ["2026-08-01T09:00:00Z"],
            author: Person(name: "Dee Creator"), isClean: true),
        .init(
            file: "cdf-channel.xml", titles: ["CDF item"], links: ["http://example.org/cdf/1"],
            dates: ["2026-07-02T08:30:00Z"], isClean: true),

        // MARK: JSON Feed
        .init(
            file: "jsonfeed-items-php-object.json", titles: ["Third post", "Second post", "First post"],
            links: [
                "https://example.org/2026/05/third", "https://example.org/2026/05/second",
                "https://example.org/2026/05/first",
            ],
            dates: ["2026-05-03T07:00:00Z", "2026-05-02T07:00:00Z", "2026-05-01T07:00:00Z"],
            warnings: [#""items" is an object, not a list"#, "its 3 values are read as the items"]),
        .init(
            file: "jsonfeed-items-twice.json",
            titles: ["First list, first post", "First list, second post", "Escaped key's post", "Last list's post"],
            links: [
                "https://example.org/one", "https://example.org/two", "https://example.org/three",
                "https://example.org/four",
            ],
            warnings: [#""items" is given 3 times (lines 5, 10 and 11); JSON keeps only the last"#, "4 items in all"]),
        .init(
            file: "jsonfeed-utf16be-no-bom.json", titles: ["Café – Ωmega ✓"], links: ["https://example.org/1"],
            isClean: true),
        .init(
            file: "jsonfeed-trailing-text.json", titles: ["Second post", "First post"],
            links: ["https://example.org/2026/05/second/", "https://example.org/2026/05/first/"],
            dates: ["2026-05-02T08:00:00Z", "2026-05-01T08:00:00Z"],
            warnings: [
                #"line 23: ignored text after the end of the JSON Feed ("<!-- Dynamic page generated in 0.218 seconds."#
            ]),
        .init(
            file: "jsonfeed-raw-control-characters.json", titles: ["Tabs and spaces", "Escaped as it should be"],
            links: ["https://example.org/posts/tabs", "https://example.org/posts/plain"],
            dates: ["2026-06-10T12:00:00Z", "2026-06-09T12:00:00Z"],
            warnings: [
                "line 9: repaired a line break, tab or other control character written unescaped inside a string"
                    + " (4 times)"
            ]),
        .init(
            file: "jsonfeed-huge-numbers.json", titles: ["An extension nobody reads", "A numeric id out of range"],
            links: ["https://example.org/scores", "https://example.org/big-id"],
            warnings: ["line 11: read a number beyond a 64-bit float (2e308) as text (2 times)"]),
        .init(
            file: "jsonfeed-escaped-control-characters.json", titles: ["Bell and tab", "Writing \\u0001 in JSON"],
            author: Person(name: "Ann Other"),
            warnings: [#"line 9: removed 4 escaped control characters (such as \u0001), which no web page can hold"#]),
        .init(
            file: "jsonfeed-attachment-sizes.json", titles: ["Episode 1"], links: ["https://example.org/episodes/1"],
            warnings: [#""size_in_bytes" is not a whole number of bytes (3 times); those values are left out"#]),
        .init(
            file: "jsonfeed-tags-mistyped.json",
            titles: ["One tag as a string", "Numbers and an object among the tags"],
            warnings: [#""tags" is not a list of strings (2 times); those values are left out"#]),
        .init(
            file: "jsonfeed-missing-id.json", titles: ["No id at all", "An empty id", "With an id"],
            links: ["https://example.org/no-id", "https://example.org/empty-id", "https://example.org/with-id"],
            warnings: [#"2 items have no "id", which JSON Feed requires"#]),
    ]

    @Test(arguments: cases)
    func parsesFixture(_ expected: ParseFixture) throws {
        let feed = try Self.parse(expected.file)
        #expect(feed.items.map(\.title) == expected.titles)
        if let links = expected.links { #expect(feed.items.map(\.link) == links) }
        if let dates = expected.dates {
            for (item, date) in zip(feed.items, dates) {
                let wanted = date.flatMap(Self.instant)
                // To the second: `date-formats-mixed` 2 has a fraction and is checked on its own below.
                if let wanted {
                    #expect(item.published == wanted, "\(item.title)")
                } else if date == nil, expected.file != "date-formats-mixed.xml" {
                    #expect(item.published == nil, "\(item.title)")
                }
            }
        }
        if let author = expected.author { #expect(feed.items.first?.authors.first == author) }
        for warning in expected.warnings {
            #expect(feed.warnings.contains { $0.contains(warning) }, "\(warning) not in \(feed.warnings)")
        }
        if expected.isClean { #expect(feed.warnings.isEmpty, "\(feed.warnings)") }
    }

    /// Every file in the folder is covered above (so none is a fixture nothing checks).
    @Test func everyFixtureIsChecked() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("parse").path)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }
        #expect(names.count >= 60)
        #expect(Set(names).subtracting(Self.cases.map(\.file)).sorted() == [])
    }

    // MARK: - Fields beyond the table

    @Test func recoveredFieldsKeepTheirValues() throws {
        let mismatched = try Self.parse("malformed-mismatched-end-tag.xml")
        #expect(mismatched.items.first?.description == "One & only")
        // The first `url` of the two is kept; unquoted values are read to the space or `/>`.
        let duplicate = try Self.parse("malformed-duplicate-attribute.xml")
        #expect(
            duplicate.items.first?.enclosures == [
                Enclosure(url: "http://example.org/a.mp3", length: 10, type: "audio/mpeg")
            ])
        let unquoted = try Self.parse("malformed-unquoted-attributes.xml")
        #expect(
            unquoted.items.map(\.enclosures) == [
                [Enclosure(url: "http://example.org/ep1.mp3", length: 12345, type: "audio/mpeg")],
                [Enclosure(url: "http://example.org/ep2.mp3", length: 678, type: "audio/mpeg")],
            ])
        #expect(unquoted.items.first?.id == "ep-1")
        let latin1 = try Self.parse("malformed-latin1-in-cdata.xml")
        #expect(latin1.items.first?.description == "<p>It’s here \u{FFFD} now</p>")
        let entities = try Self.parse("malformed-entities-and-ampersands.xml")
        #expect(entities.items.first?.description == "5 < 6 \u{A0}ok")
        let naked = try Self.parse("malformed-naked-html-unclosed.xml")
        #expect(naked.items.first?.description == "<p>First<br>second <img src=\"http://example.org/i.png\"></p>")
        // Markup inside a description stays markup; an unterminated CDATA ends with its element.
        let itemTag = try Self.parse("malformed-item-tag-in-description.xml")
        #expect(itemTag.items.first?.description == "use the <item> element</item>")
        let fields = try Self.parse("malformed-unclosed-channel-description.xml")
        #expect(fields.description == "The channel's description is never closed")
        #expect(
            fields.items.map(\.description) == [
                "Alpha's text", "Beta's text with the <item> element named in it</item>", "Gamma's text, never closed",
                nil,
            ])
        let cdata = try Self.parse("malformed-unterminated-cdata.xml")
        #expect(cdata.items.first?.description == "<p>never closed</p>")
        let comment = try Self.parse("malformed-unterminated-comment.xml")
        #expect(comment.items.map(\.description) == ["kept text", "still here"])
        let php = try Self.parse("malformed-unterminated-php.xml")
        #expect(php.items.map(\.description) == ["kept text", "still here"])
        let atom = try Self.parse("malformed-atom-mismatched.xml")
        #expect(atom.items.first?.description == "Short")
        #expect(atom.items.last?.authors == [Person(name: "Bea")])
    }

    @Test func c1CharactersBecomeWindows1252() throws {
        let references = try Self.parse("encoding-c1-references.xml")
        #expect(references.items.first?.description == "€5")
        let latin1 = try Self.parse("encoding-latin1-cp1252-quotes.xml")
        #expect(latin1.items.first?.description == "5 €")
        for feed in [references, latin1] {
            let text = [feed.title] + feed.items.flatMap { [$0.title, $0.description ?? ""] }
            #expect(!text.joined().unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        }
    }

    @Test func base64TextConstructs() throws {
        let content = try Self.parse("atom-base64-content.xml")
        #expect(content.items.first?.content == "Hello, base64 world")
        #expect(content.items.first?.contentKind == .text)
        let title = try Self.parse("atom-base64-title.xml")
        #expect(title.title == "Encoded feed title")
        #expect(title.items.first?.description == "Plain summary")
        let rights = try Self.parse("atom-base64-subtitle-rights.xml")
        #expect(rights.description == "Encoded subtitle")
        #expect(rights.copyright == "(c) 2026 Example")  // split over two lines in the fixture
        #expect(rights.items.first?.description == "Encoded summary")
        // A PNG is binary: no content, and the summary stays the description.
        let image = try Self.parse("atom-base64-image-content.xml")
        #expect(image.items.first?.content == nil)
        #expect(image.items.first?.description == "See the picture")
        let types = try Self.parse("atom-text-xml-types.xml")
        #expect(types.items.last?.content == "*markdown* text")
        #expect(types.items.last?.contentKind == .text)
    }

    @Test func atom03Modes() throws {
        let base64 = try Self.parse("atom03-mode-base64.xml")
        #expect(base64.version == "0.3")
        #expect(base64.items.first?.content == "<p>Decoded <b>HTML</b></p>")
        #expect(base64.items.first?.contentKind == .html)
        #expect(base64.items.first?.updated == Self.instant("2026-04-07T13:00:00Z"))
        let escaped = try Self.parse("atom03-mode-escaped.xml")
        #expect(escaped.items.first?.content == "<p>Escaped &amp; HTML</p>")
        #expect(escaped.items.first?.description == "Plain &amp; simple")
        #expect(escaped.items.first?.descriptionKind == .text)
        let xml = try Self.parse("atom03-mode-xml.xml")
        #expect(xml.items.first?.content == "<p>Inline <b>bold</b></p>")
    }

    @Test func channelAuthorsAndPublisher() throws {
        let feed = try Self.parse("author-channel-editor-webmaster.xml")
        #expect(feed.authors == [Person(name: "Ed Itor", email: "editor@example.com")])
        #expect(feed.publisher == Person(name: "Web Master", email: "web@example.com"))
        #expect(feed.items.first?.authors == [])  // RSS items do not inherit the channel's editor
        let creators = try Self.parse("author-dc-creator-forms.xml")
        #expect(creators.items.last?.authors == [Person(name: "Ann Other")])
    }

    @Test func fractionalSecondsSurvive() throws {
        let feed = try Self.parse("date-formats-mixed.xml")
        let published = try #require(feed.items[1].published)
        let expected = try #require(Self.instant("2026-03-14T14:09:26Z"))
        #expect(abs(published.timeIntervalSince(expected) - 0.535) < 0.0005)
    }

    /// `xml:base` inside Atom xhtml content applies to its own subtree: `b.html` and `c.png` under
    /// `http://other.example/deep/`, while `a.html` and `d.html` keep the content's base.
    @Test func nestedXMLBaseInXHTML() throws {
        let nested = try Self.parse("xmlbase-atom-xhtml-nested.xml")
        #expect(
            nested.items.first?.content
                == "<p><a href=\"a.html\">a</a></p><p><a href=\"http://other.example/deep/b.html\">b</a> "
                + "<img alt=\"c\" src=\"http://other.example/deep/c.png\"></p><p><a href=\"d.html\">d</a></p>")
        #expect(nested.items.first?.contentBase == "http://example.org/content/")
        let relative = try Self.parse("xmlbase-atom-entry-relative.xml")
        #expect(relative.link == "http://example.org/home/")
        #expect(relative.items.first?.content == "<div><a href=\"http://example.org/2026/06/x.html\">x</a></div>")
        #expect(relative.items.first?.contentBase == "http://example.org/2026/05/")
        let rss = try Self.parse("xmlbase-rss-item.xml")
        #expect(rss.link == "http://example.org/news/index.html")
        #expect(rss.items.first?.id == "story-1")
    }

    /// `dc:` and `content:` used without declaring them still mean Dublin Core and content.
    @Test func undeclaredWellKnownPrefixes() throws {
        let feed = try Self.parse("undeclared-prefixes.xml")
        #expect(feed.items.first?.content == "<p>Full text</p>")
    }

    /// CDF: the channel's and items' links and dates are `HREF` and `LASTMOD` attributes.
    @Test func cdfChannel() throws {
        let feed = try Self.parse("cdf-channel.xml")
        #expect(feed.format == .rss)
        #expect(feed.version == "cdf")
        #expect(feed.title == "CDF channel")
        #expect(feed.link == "http://example.org/")
        #expect(feed.description == "A channel from 1997")
        #expect(feed.updated == Self.instant("2026-07-01T12:00:00Z"))
        #expect(feed.items.first?.description == "Item abstract")
        #expect(feed.items.first?.updated == Self.instant("2026-07-02T08:30:00Z"))
    }

    /// The JSON Feed fixtures' fields beyond titles, links and dates, and the exact warnings.
    @Test func jsonFeedFields() throws {
        let php = try Self.parse("jsonfeed-items-php-object.json")
        #expect(php.warnings.count == 1)
        let twice = try Self.parse("jsonfeed-items-twice.json")
        #expect(twice.warnings.count == 1)
        #expect(twice.items.map(\.id) == ["1", "2", "3", "4"])
        let wide = try Self.parse("jsonfeed-utf16be-no-bom.json")
        #expect(wide.format == .json)
        #expect(wide.title == "Grüße aus Köln")
        #expect(wide.items.first?.content == "Written in UTF-16, big-endian, without a byte order mark.")
        let trailing = try Self.parse("jsonfeed-trailing-text.json")
        #expect(trailing.warnings.count == 1)
        let control = try Self.parse("jsonfeed-raw-control-characters.json")
        #expect(control.warnings.count == 1)
        #expect(control.items.first?.content == "<p>First paragraph.</p>\n<p>Second paragraph.</p>")
        #expect(control.items.last?.content == "<p>Fine.</p>")
        let huge = try Self.parse("jsonfeed-huge-numbers.json")
        #expect(huge.items.map(\.id) == ["https://example.org/scores", "1e400"])
        #expect(huge.warnings.count == 1)
        let controls = try Self.parse("jsonfeed-escaped-control-characters.json")
        #expect(controls.items.first?.content == "A NUL here, a unit separator there.")
        #expect(controls.warnings.count == 1)
        let sizes = try Self.parse("jsonfeed-attachment-sizes.json")
        #expect(sizes.items.first?.enclosures.map(\.length) == [89_970_236, 45678, 1500, nil, nil, nil])
        #expect(
            sizes.items.first?.enclosures.map(\.type) == [
                "audio/mpeg", "audio/x-m4a", "audio/ogg", "audio/wav", "audio/flac", "audio/opus",
            ])
        #expect(sizes.warnings.count == 1)
        let tags = try Self.parse("jsonfeed-tags-mistyped.json")
        #expect(tags.items.map(\.categories) == [[], ["events", "2026"]])
        #expect(tags.warnings.count == 1)
        let ids = try Self.parse("jsonfeed-missing-id.json")
        #expect(ids.items.map(\.id) == ["", "", "https://example.org/with-id"])
        #expect(
            ids.warnings == [
                #"2 items have no "id", which JSON Feed requires (other readers may skip them); kept, told apart"#
                    + " by link, title and date"
            ])
    }

    @Test func rss090AndRDFImages() throws {
        let netscape = try Self.parse("rss090-netscape.xml")
        #expect(netscape.format == .rss)
        #expect(netscape.version == "0.90")
        #expect(netscape.title == "Netscape 0.90")
        #expect(
            netscape.image
                == FeedImage(url: "http://example.org/logo.gif", title: "Netscape logo", link: "http://example.org/"))
        let rdf = try Self.parse("rdf-channel-image.xml")
        #expect(rdf.version == "1.0")
        #expect(
            rdf.image
                == FeedImage(
                    url: "http://example.org/images/logo.png", title: "Example logo", link: "http://example.org/"))
        let first = try Self.parse("rdf-image-before-channel.xml")
        #expect(
            first.image
                == FeedImage(url: "http://example.org/first.png", title: "Image first", link: "http://example.org/")
        )
        #expect(first.title == "Image before channel")
    }
}
