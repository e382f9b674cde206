import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise
@testable import FeedsiteShared

@Suite("HTMLSanitiser")
struct HTMLSanitiserTests {
    let sanitiser = HTMLSanitiser()

    private func sanitise(_ testCase: SanitiserCase) -> SanitisedContent {
        testCase.isPlainText
            ? sanitiser.sanitise(plainText: testCase.input, baseURL: SanitiserCase.base)
            : sanitiser.sanitise(html: testCase.input, baseURL: SanitiserCase.base)
    }

    @Test func hasEnoughCases() {
        #expect(SanitiserCase.all.count >= 60)
        #expect(Set(SanitiserCase.all.map(\.name)).count == SanitiserCase.all.count, "case names must be unique")
    }

    @Test("exact output", arguments: SanitiserCase.all)
    func exactOutput(_ testCase: SanitiserCase) {
        #expect(sanitise(testCase).html.html == testCase.expected)
    }

    /// Independent of the expected strings: whatever the sanitiser emits, a real HTML parser must
    /// find only allowlisted elements, attributes and URL schemes in it.
    @Test("output passes the allowlist oracle", arguments: SanitiserCase.all)
    func oracle(_ testCase: SanitiserCase) {
        let violations = AllowlistOracle.violations(in: sanitise(testCase).html.html)
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("sanitising is idempotent", arguments: SanitiserCase.all)
    func idempotent(_ testCase: SanitiserCase) {
        let once = sanitise(testCase)
        let twice = sanitiser.sanitise(html: once.html.html, baseURL: SanitiserCase.base)
        #expect(twice.html == once.html)
        #expect(twice.plainText == once.plainText)
    }

    @Test func plainTextMirrorsTheTree() {
        let content = sanitiser.sanitise(
            html:
                "<h1>Title</h1><p>Hello <b>world</b> &amp; <a href=\"/x\">link</a><script>x</script></p><p><del>old</del> <img src=\"a.png\" alt=\"pic\"></p><table><tr><td>a</td><td>b</td></tr></table>",
            baseURL: SanitiserCase.base)
        #expect(content.plainText == "Title\n\nHello world & link\n\nold pic\n\na b")
    }

    @Test func withoutBaseRelativeURLsAreDropped() {
        let content = sanitiser.sanitise(
            html: "<a href=\"/x\">rel</a> <img src=\"i.png\"> <a href=\"https://e.example/\">abs</a>", baseURL: nil)
        #expect(content.html.html == "<p>rel \(SanitiserCase.a("https://e.example/"))abs</a></p>\n")
    }

    @Test func deepNestingDoesNotCrash() {
        let depth = 10_000
        for tag in ["div", "b", "blockquote", "ul><li", "span", "table><tr><td"] {
            let closing = tag.split(separator: "<").map { "</" + $0.replacingOccurrences(of: ">", with: "") + ">" }
                .reversed().joined()
            let html = String(repeating: "<\(tag)>", count: depth) + "deep" + String(repeating: closing, count: depth)
            let content = sanitiser.sanitise(html: html, baseURL: nil)
            #expect(content.plainText.contains("deep"), "\(tag)")
            #expect(AllowlistOracle.violations(in: content.html.html).isEmpty)
        }
        let markdown = String(repeating: ">", count: depth) + " deep"
        #expect(sanitiser.sanitise(plainText: markdown, baseURL: nil).plainText.contains("deep"))
    }

    @Test func deepContentBeyondTheCapIsFlattenedWithoutScripts() {
        let small = HTMLSanitiser(limits: .init(maxDepth: 3))
        let html =
            "<div><div><div><div><div><b>deep</b><script>alert(1)</script><style>x</style> text</div></div></div></div></div>"
        let content = small.sanitise(html: html, baseURL: nil)
        #expect(content.html.html == "<p>deep text</p>\n")
    }

    @Test func bigInputIsLeftOutWithAReason() {
        let limits = HTMLSanitiser.Limits(maxInputBytes: 1_000)
        let html = String(repeating: "<p>ééé word</p>", count: 100)  // 1,700 bytes
        let content = HTMLSanitiser(limits: limits).sanitise(html: html, baseURL: nil)
        #expect(content.html.html.isEmpty)
        #expect(content.plainText.isEmpty)
        #expect(content.omission == "its HTML is 2 KB, over the 1 KB that is sanitised")
        let text = HTMLSanitiser(limits: limits).sanitise(plainText: html, baseURL: nil)
        #expect(text.omission == "its text is 2 KB, over the 1 KB that is sanitised")
        // At the limit it is sanitised in full.
        let fits = String(repeating: "<p>word</p>", count: 90)  // 990 bytes
        let whole = HTMLSanitiser(limits: limits).sanitise(html: fits, baseURL: nil)
        #expect(whole.omission == nil)
        #expect(whole.html.html.components(separatedBy: "<p>").count - 1 == 90)

        let huge = String(repeating: "<p>x</p>", count: 500_000)  // 4 MB, over the 2 MB default
        let left = sanitiser.sanitise(html: huge, baseURL: nil)
        #expect(left.html.html.isEmpty)
        #expect(left.omission == "its HTML is 4.0 MB, over the 2.0 MB that is sanitised")
        #expect(sanitiser.sanitise(html: "<p>x</p>", baseURL: nil).omission == nil)
    }

    @Test("an item left out is kept, with a warning naming the feed's item and its link")
    func leftOutItemIsWarnedAbout() throws {
        let sanitiser = HTMLSanitiser(limits: .init(maxInputBytes: 1_000))
        let feed = Feed(
            format: .rss, version: "2.0", title: "Feed",
            items: [
                FeedItem(id: "1", title: "Small", link: "https://example.com/small", description: "<p>fine</p>"),
                FeedItem(
                    id: "2", title: "Big", link: "/big", description: String(repeating: "<p>word</p>", count: 200)),
            ])
        let read = ReadFeed(
            feed: feed, finalURL: try #require(URL(string: "https://example.com/feed")), sanitiser: sanitiser,
            excerptLength: 100)
        #expect(read.entries.count == 2)
        #expect(read.entries[1].item.title == "Big")
        #expect(read.entries[1].item.link == "https://example.com/big")
        #expect(read.entries[1].item.content.html.isEmpty)
        #expect(
            read.warnings == [
                "item 2 'Big' (https://example.com/big): content left out: its HTML is 2 KB, over the 1 KB that is sanitised"
            ])
    }

    @Test("gumbo over its memory budget leaves the content out instead of taking the process down")
    func gumboBudget() throws {
        // A tiny budget stands in for a huge document.
        let html = String(repeating: "<table><tr><td>x", count: 500)
        switch HTMLFragment.parseWithGumbo(html, maxDepth: 256, opaqueElements: [], budgetBytes: 100_000) {
        case .failure(.overMemory(let bytes)): #expect(bytes == 100_000)
        default: Issue.record("expected the memory budget to stop gumbo")
        }
        // The same input within the default budget parses.
        #expect(HTMLFragment.gumboDepth(parsing: html) == 4 * 500)
    }

    @Test(
        "wide and deep: nested containers around 100,000 siblings keep every sibling, within the depth limit",
        arguments: [100, 300])
    func wideAndDeepInputKeepsItsContent(pairs: Int) throws {
        // Timing lives in Benchmarks/nesting.sh; here: nothing lost, nothing deeper than the limit.
        // 200 levels are under the limit (256): the siblings stay bold; 600 are over it, so they
        // are flattened to their text.
        let html = String(repeating: "<div><span>", count: pairs) + String(repeating: "<b>x</b> ", count: 100_000)
        let content = sanitiser.sanitise(html: html, baseURL: nil)
        #expect(content.omission == nil)
        let bold = content.html.html.components(separatedBy: "<strong>x</strong>").count - 1
        #expect(bold == (2 * pairs < sanitiser.limits.maxDepth ? 100_000 : 0))
        #expect(content.plainText.split(whereSeparator: \.isWhitespace).count == 100_000)
        let depth = try #require(HTMLFragment.gumboDepth(parsing: content.html.html))
        #expect(depth <= sanitiser.limits.maxDepth + 1, "output depth \(depth)")
    }

    /// Shapes whose cost grew with the square of their size, each sanitised within a bound far
    /// above a linear run's time (a fraction of a second) and far below the quadratic one's
    /// (minutes in a release build: `<ul>` and 200,000 `<li>` took 4 minutes, a `<p>` with 100,000
    /// attributes 9 s, and a tag with 100,000 attributes on gumbo's path lost its content to
    /// gumbo's time budget).
    @Test("list items, definitions and many attributes are sanitised in linear time, on both parsers' paths")
    func quadraticShapesAreLinear() throws {
        let count = 100_000
        let attributes = (1...count).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        let cases: [(name: String, html: String, words: Int)] = [
            ("<li>", "<ul>" + String(repeating: "<li>x", count: count), count),
            ("<dt>", "<dl>" + String(repeating: "<dt>x", count: count), count),
            ("<li><p>", "<ul>" + String(repeating: "<li><p>x", count: count), count),
            ("attributes", "<p \(attributes)>x</p>", 1),
            // Foreign content sends the body to gumbo: its attributes are capped before it.
            ("gumbo's attributes", "<math></math><p \(attributes)>x</p>", 1),
            ("gumbo's end tag", "<math></math><p>x</p \(attributes)>", 1),
        ]
        for shape in cases {
            let start = ContinuousClock.now
            let content = sanitiser.sanitise(html: shape.html, baseURL: SanitiserCase.base)
            let elapsed = ContinuousClock.now - start
            // Every `x` is kept (list items' text comes with a bullet).
            let words = content.plainText.split(whereSeparator: \.isWhitespace).filter { $0 != "-" }
            let allX = words.allSatisfy { $0 == "x" }
            #expect(content.omission == nil, "\(shape.name): \(content.omission ?? "")")
            #expect(words.count == shape.words && allX, "\(shape.name): \(content.plainText.prefix(100))")
            #expect(elapsed < .seconds(30), "\(shape.name) took \(elapsed)")
        }
    }

    /// 316,000 indented lines (1.9 MB) took 14 s when plain text was dedented for cmark, searching
    /// the list of indented lines once per line.
    @Test("indented plain text of 300,000 lines is sanitised in linear time, every line kept")
    func longIndentedTextIsLinear() {
        let text = String(repeating: "    a\n    b\n  \n", count: 100_000)
        let start = ContinuousClock.now
        let content = sanitiser.sanitise(plainText: text, baseURL: nil)
        let elapsed = ContinuousClock.now - start
        let words = content.plainText.split(whereSeparator: \.isWhitespace)
        #expect(words.filter { $0 == "a" }.count == 100_000 && words.filter { $0 == "b" }.count == 100_000)
        #expect(elapsed < .seconds(30), "took \(elapsed)")
        // Paragraphs, not a code block of indented lines.
        #expect(!content.html.html.contains("<pre"))
    }

    /// cmark-gfm pads every row to the widest and renders a cell in time proportional to its
    /// row's width: one row of 20,000 cells over 2,000 rows of one ran out of 7.6 GB.
    @Test("a table wider than 64 columns, or over 100,000 cells once padded, keeps its text as blocks")
    func oversizedTablesBecomeBlocks() {
        let padded =
            "<table><tr>" + String(repeating: "<td>x", count: 20_000) + "</tr>"
            + String(repeating: "<tr><td>y</tr>", count: 2_000) + "</table>"
        let content = sanitiser.sanitise(html: padded, baseURL: nil)
        let words = content.plainText.split(whereSeparator: \.isWhitespace)
        #expect(words.filter { $0 == "x" }.count == 20_000)
        #expect(words.filter { $0 == "y" }.count == 2_000)
        #expect(!content.html.html.contains("<table"))

        let row = { (count: Int) in "<tr>" + (1...count).map { "<td>c\($0)</td>" }.joined() + "</tr>" }
        let wide = sanitiser.sanitise(html: "<table>\(row(65))\(row(65))</table>", baseURL: nil)
        #expect(!wide.html.html.contains("<table"))
        #expect(wide.plainText.contains("c65"))
        let kept = sanitiser.sanitise(html: "<table>\(row(64))\(row(64))</table>", baseURL: nil)
        #expect(kept.html.html.contains("<table"))
        #expect(kept.html.html.components(separatedBy: "<td").count == 2 * 64 + 1)
    }

    @Test("a tag keeps its first 256 attributes: a link named after them is left out, before them it is kept")
    func attributesPastTheLimitAreLeftOut() {
        let filler = (1...300).map { "data-x\($0)=\"\($0)\"" }.joined(separator: " ")
        for prefix in ["", "<math></math>"] {  // the subset parser's path, and gumbo's
            let before = sanitiser.sanitise(
                html: prefix + "<a href=\"https://e.example/kept\" \(filler)>x</a>", baseURL: SanitiserCase.base)
            #expect(before.html.html.contains("https://e.example/kept"), "\(prefix): \(before.html.html)")
            let after = sanitiser.sanitise(
                html: prefix + "<a \(filler) href=\"https://e.example/lost\">x</a>", baseURL: SanitiserCase.base)
            #expect(!after.html.html.contains("https://e.example/lost"), "\(prefix): \(after.html.html)")
            #expect(after.plainText.contains("x"))
        }
    }

    @Test func codableRoundTripsAndResanitises() throws {
        let content = sanitiser.sanitise(html: "<p>Hi <b>there</b></p>", baseURL: nil)
        let data = try JSONEncoder().encode(content.html)
        #expect(try JSONDecoder().decode(SanitisedHTML.self, from: data) == content.html)

        let forged = Data(#"{"html":"<script>alert(1)</script><p onclick=x>hi</p>"}"#.utf8)
        #expect(try JSONDecoder().decode(SanitisedHTML.self, from: forged).html == "<p>hi</p>\n")
    }

    @Test func realFeedBodiesPassTheOracle() throws {
        for name in [
            "medium-rss2.xml", "ghost-rss2.xml", "hugo-rss2-item-xmlbase-raw-html-description.xml", "blogger-atom.xml",
        ] {
            let data = try Fixtures.data("real-feeds/\(name)")
            // The whole document is hostile enough: markup, entities, CDATA and scripts.
            let content = sanitiser.sanitise(html: String(decoding: data, as: UTF8.self), baseURL: SanitiserCase.base)
            #expect(AllowlistOracle.violations(in: content.html.html).isEmpty, "\(name)")
            let again = sanitiser.sanitise(html: content.html.html, baseURL: SanitiserCase.base)
            #expect(again.html == content.html, "\(name)")
        }
    }
}

@Suite("HTMLSanitiser.excerpt")
struct ExcerptTests {
    /// The straightforward Character-by-Character version the single-pass one replaced.
    static func reference(_ plainText: String, maxLength: Int) -> String {
        guard maxLength > 0 else { return "" }
        var collapsed = ""
        var count = 0
        var pendingSpace = false
        var isCut = false
        for character in plainText {
            if character.unicodeScalars.allSatisfy(String.isWhitespace) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                guard count < maxLength else {
                    isCut = true
                    break
                }
                collapsed.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxLength else {
                isCut = true
                break
            }
            collapsed.append(character)
            count += 1
        }
        guard isCut else { return collapsed }
        let budget = maxLength - 1
        var cut = String(collapsed.prefix(budget))
        if let next = collapsed.last, !next.isWhitespace, let lastSpace = cut.lastIndex(of: " "),
            cut.distance(from: cut.startIndex, to: lastSpace) >= budget / 2
        {
            cut = String(cut[..<lastSpace])
        }
        while let last = cut.last, last.isWhitespace || ",;:.-–—".contains(last) {
            cut.removeLast()
        }
        return cut + "…"
    }

    @Test("the single pass gives the reference's excerpt for every length of varied text")
    func matchesReference() {
        let words = [
            "word", "café", "naïve", "e\u{301}", "😀", "👩‍💻", "🇫🇷", "\r\n", "\u{A0}", "\u{2003}", "—", ",", ".", "  ",
            "\n\n", "\t", "Ελληνικά", "漢字", "a-b", "x;", "end:",
            // Two-byte scalars (the fast path) next to ASCII, combining marks and other scalars.
            "\u{85}", "ß", "עברית", "é\u{301}", "Жx", "©\u{FE0F}", "\u{5FF}", "\u{600}1", "ü\r\n",
            // (No word starts with a mark or ZWJ: after collapsed white space the reference, which
            // appends Characters to a String, would join it to the space it adds; the excerpt
            // keeps the source's characters.)
            // Two-byte scalars before two-byte letters, marks and Armenian; three-byte scalars
            // before ASCII, marks, ZWJ; three-byte Prepend scalars and Hangul jamo.
            "Привет", "œuvre", "ж\u{483}", "Ω\u{300}", "ԱԲ", "“quoted”", "—dash", "\u{D4E}x", "\u{890}a",
            "\u{8E2}b", "ทx", "ท\u{E33}", "y\u{200D}x", "a\u{308}", "\u{1100}a", "\u{1100}\u{1161}", "漢\u{FE0F}",
            "\u{2764}\u{FE0F}", "\u{3000}", "\u{FFFD}.", "😀x", "🇫🇷x", "\u{110BD}a", "\u{11A84}b", "👍🏽x",
            "word,", "end—", "dash–", "x;:", "a.-", "x \u{301}y", "\u{A0}\u{308}", "dé", "x😀", "x🏽", "a“b", "中文",
            "a\u{FE0F}", "→\u{20D7}", "漢\u{3099}", "ԱԲ\u{301}", "\u{1F1E6}\u{1F1E8}\u{1F1E6}", "\u{1160}",
        ]
        var state: UInt64 = 42
        for _ in 0..<1_000 {
            var text = ""
            for _ in 0..<40 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += words[Int(state >> 33) % words.count]
                if state & 1 == 0 { text += " " }
            }
            for length in [1, 2, 3, 5, 8, 13, 21, 34, 55, 200] {
                #expect(
                    HTMLSanitiser.excerpt(text, maxLength: length) == Self.reference(text, maxLength: length),
                    "\(text.debugDescription) at \(length)")
            }
        }
    }

    @Test func shortTextUnchangedButCollapsed() {
        #expect(HTMLSanitiser.excerpt("  Hello\n\n  world  ", maxLength: 50) == "Hello world")
    }

    @Test func cutAtWordBoundary() {
        #expect(HTMLSanitiser.excerpt("The quick brown fox jumps", maxLength: 12) == "The quick…")
        #expect(HTMLSanitiser.excerpt("The quick brown fox jumps", maxLength: 16) == "The quick brown…")
    }

    @Test func longWordIsCutInside() {
        #expect(HTMLSanitiser.excerpt("Supercalifragilistic", maxLength: 8) == "Superca…")
    }

    @Test func trailingPunctuationBeforeEllipsisDropped() {
        #expect(HTMLSanitiser.excerpt("First, second, third", maxLength: 8) == "First…")
    }

    @Test func lengthIsRespected() {
        let text = String(repeating: "lorem ipsum dolor ", count: 100)
        for length in [1, 2, 10, 37, 100] {
            #expect(HTMLSanitiser.excerpt(text, maxLength: length).count <= length)
        }
        #expect(HTMLSanitiser.excerpt(text, maxLength: 0) == "")
    }

    @Test func graphemeClustersAreNotSplit() {
        #expect(HTMLSanitiser.excerpt("👨‍👩‍👧 family 👨‍👩‍👧", maxLength: 3) == "👨‍👩‍👧…")
    }
}
