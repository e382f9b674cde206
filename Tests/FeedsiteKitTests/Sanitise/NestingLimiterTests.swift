import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// Deep nesting is flattened before gumbo builds a tree, and the limit holds for gumbo's own tree:
/// every depth here is measured by parsing the limiter's output with gumbo (iteratively).
@Suite("Nesting limiter: bounded depth before any tree is built")
struct NestingLimiterTests {
    static let sanitiser = HTMLSanitiser()
    /// Some nestings are over the default 2 MB input cap at 100,000 levels (the item would be
    /// left out with a warning): this one takes them whole.
    static let roomy = HTMLSanitiser(limits: .init(maxInputBytes: 8_000_000))
    static let opaque = ContentBuilder.droppedElements

    /// A pathological body: `open` repeated `levels` times around "x" words, then `close`
    /// repeated (empty `close`: never closed).
    struct Nesting: CustomStringConvertible, Sendable {
        var name: String
        var open: String
        var close: String

        var description: String { name }

        func html(levels: Int) -> String {
            String(repeating: open + "x ", count: levels) + "bottom" + String(repeating: close, count: levels)
                + " after"
        }
    }

    /// The findings (table/tr/td and b/i/u/s crashed, lists, divs and quotes were
    /// quadratic) and the other ways to nest.
    static let nestings = [
        Nesting(name: "table/tr/td", open: "<table><tr><td>", close: "</td></tr></table>"),
        Nesting(name: "b/i/u/s", open: "<b><i><u><s>", close: "</s></u></i></b>"),
        Nesting(name: "ul/li", open: "<ul><li>", close: "</li></ul>"),
        Nesting(name: "ol/li", open: "<ol><li>", close: "</li></ol>"),
        Nesting(name: "div", open: "<div>", close: "</div>"),
        Nesting(name: "blockquote", open: "<blockquote>", close: "</blockquote>"),
        Nesting(name: "span", open: "<span>", close: "</span>"),
        Nesting(name: "a", open: "<a href=\"https://example.com/\">", close: "</a>"),
        Nesting(name: "p", open: "<p>", close: "</p>"),
        Nesting(name: "dl/dd", open: "<dl><dd>", close: "</dd></dl>"),
        Nesting(name: "em/strong/code", open: "<em><strong><code>", close: "</code></strong></em>"),
        Nesting(name: "unclosed div", open: "<div>", close: ""),
        Nesting(name: "unclosed b with attributes", open: "<b class=\"c\">", close: ""),
        Nesting(name: "mixed", open: "<div><span><b><table><tr><td><ul><li><blockquote>", close: ""),
        Nesting(name: "svg", open: "<svg><g>", close: "</g></svg>"),
        Nesting(name: "custom elements", open: "<x-a><x-b>", close: "</x-b></x-a>"),
    ]

    static let levels = 100_000

    @Test(
        "100,000 levels: sanitised without a crash, every word kept, gumbo's depth within the limit",
        arguments: nestings)
    func pathologicalNesting(_ nesting: Nesting) async throws {
        let limit = Self.sanitiser.limits.maxDepth
        // Minutes of synchronous work in a debug build: done on a thread of its own, so that the
        // other suites' tasks (servers, builds) are not kept off the cooperative pool meanwhile.
        let (limited, depth, content, again) = await offThePool {
            let html = nesting.html(levels: Self.levels)
            let limited = NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque)
            let content = Self.roomy.sanitise(html: html, baseURL: nil)
            return (
                limited, HTMLFragment.gumboDepth(parsing: limited ?? html), content,
                Self.roomy.sanitise(html: content.html.html, baseURL: nil)
            )
        }
        // `<p>` closes the open `p` and `<a>` the open `a`: those two never nest.
        let nests = nesting.name != "p" && nesting.name != "a"
        #expect((limited != nil) == nests)
        let gumboDepth = try #require(depth)
        #expect(gumboDepth <= limit + 1, "gumbo's depth \(gumboDepth)")
        if nests { #expect(gumboDepth >= limit / 2, "flattened far above the limit: \(gumboDepth)") }

        #expect(content.omission == nil)
        #expect(AllowlistOracle.violations(in: content.html.html).isEmpty)
        let words = content.plainText.split(whereSeparator: \.isWhitespace)
        if nesting.name == "svg" {
            // SVG is dropped whole, flattened or not.
            #expect(words.isEmpty || words == ["after"], "\(words.suffix(3))")
        } else {
            #expect(words.filter { $0 == "x" }.count == Self.levels)
            #expect(words.contains("bottom"))
            #expect(words.last == "after")
        }
        // The output is itself shallow: sanitising it again changes nothing.
        #expect(again.html == content.html)
    }

    @Test("the pre-pass without a limiter: gumbo's tree 100,000 levels deep is freed without recursion")
    func gumboFreesDeepTreesIteratively() throws {
        // `gumbo_destroy_output` recursed once per level and ran out of stack here (SIGSEGV).
        let html = String(repeating: "<table><tr><td>", count: Self.levels) + "x"
        let depth = try #require(HTMLFragment.gumboDepth(parsing: html))
        #expect(depth == 4 * Self.levels)
        let nodes = HTMLFragment.gumboNodes(parsing: html, maxDepth: 10, opaqueElements: [])
        #expect(nodes.count == 1)
    }

    @Test("plain text: block quotes and lists nested 100,000 levels on a line are cut at the limit")
    func plainTextNesting() throws {
        for marker in [">", "> - ", "1. > ", "* "] {
            let text = String(repeating: marker, count: Self.levels) + "deep\n\nafter"
            let content = Self.sanitiser.sanitise(plainText: text, baseURL: nil)
            #expect(content.omission == nil)
            #expect(content.plainText.hasSuffix("after"), "\(marker)")
            #expect(content.plainText.contains("deep"), "\(marker)")
            let depth = try #require(HTMLFragment.gumboDepth(parsing: content.html.html))
            #expect(depth <= Self.sanitiser.limits.maxDepth + 1, "\(marker): \(depth)")
            #expect(AllowlistOracle.violations(in: content.html.html).isEmpty)
        }
    }

    @Test("ordinary markup is left as it is, tags unclosed or not")
    func ordinaryMarkupUnchanged() throws {
        let limit = Self.sanitiser.limits.maxDepth
        for html in [
            String(repeating: "<p>paragraph", count: 2_000),
            "<ul>" + String(repeating: "<li>item", count: 2_000) + "</ul>",
            "<dl>" + String(repeating: "<dt>term<dd>definition", count: 1_000) + "</dl>",
            "<table>" + String(repeating: "<tr><td>a<td>b", count: 1_000) + "</table>",
            String(repeating: "<p><b>bold <i>sloppy</p>", count: 1_000),
            String(repeating: "<p><font face=\"x\"><font size=\"2\">Word soup</p>", count: 1_000),
            String(repeating: "<div><span>a</div>", count: 1_000),
            String(repeating: "<svg><path d=\"M0\"/><circle r=\"1\"/></svg><p>icon", count: 500),
            String(repeating: "<script>var a = '<div><div><div>';</script><p>x</p>", count: 500),
            String(repeating: "<!-- <div><div> --><br>", count: 1_000),
            String(repeating: "<a href=x>one</a> <a href=y>two", count: 1_000),
        ] {
            #expect(
                NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque) == nil, "\(html.prefix(60))")
        }
    }

    @Test("every real-feed body is left as it is")
    func realFeedBodiesUnchanged() throws {
        let directory = Fixtures.url("real-feeds")
        var bodies = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            guard let feed = try? FeedParser().parse(Data(contentsOf: directory.appendingPathComponent(file)), url: nil)
            else { continue }
            for item in feed.items {
                for body in [item.content, item.description].compactMap({ $0 }) {
                    bodies += 1
                    #expect(NestingLimiter.limited(body, maxDepth: 256, opaqueElements: Self.opaque) == nil, "\(file)")
                    // And with the limit at 32, nothing real is cut either.
                    #expect(NestingLimiter.limited(body, maxDepth: 32, opaqueElements: Self.opaque) == nil, "\(file)")
                }
            }
        }
        #expect(bodies > 300)
    }

    @Test("flattening never reveals what the sanitiser drops")
    func flatteningKeepsOpaqueContentOut() {
        let deep = String(repeating: "<div>", count: 300)
        let html =
            deep
            + "<script>alert('script')</script><style>.style{}</style><svg><text>svg-text</text></svg>"
            + "<select><option>option-text</option></select><template>template-text</template>"
            + "<textarea>textarea-text</textarea><math><mi>math-text</mi></math><plaintext>rest <b>"
        let content = Self.sanitiser.sanitise(html: "visible " + html, baseURL: nil)
        #expect(content.plainText == "visible")
        let inverse = deep + "<object><p>object-text</p></object><b>kept</b>"
        #expect(Self.sanitiser.sanitise(html: inverse, baseURL: nil).plainText == "kept")
    }

    @Test(
        "a literal < before a left-out tag stays text: it never joins what follows into new markup",
        arguments: ["s>", "/t>", "!--", "?x>", "b>x"])
    func lessThanBeforeALeftOutTag(after: String) throws {
        // At the limit every `<t>` is left out; the `<` before it is text (a `<` cannot start a tag
        // when another `<` follows). Removing only `<t>` would make `<` + "s>" a new `<s>`, nest
        // one level deeper per repetition, and (fuzzing found it) escape the limit entirely.
        let limit = 8
        let html = String(repeating: "<t>", count: limit) + String(repeating: "<<t>" + after, count: 1_000) + " end"
        let limited = try #require(NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque))
        let depth = try #require(HTMLFragment.gumboDepth(parsing: limited))
        #expect(depth <= limit + 1, "gumbo's depth \(depth)")
        let content = HTMLSanitiser(limits: .init(maxDepth: limit)).sanitise(html: html, baseURL: nil)
        #expect(
            content.plainText.components(separatedBy: "<" + after).count - 1 == 1_000, "\(content.plainText.prefix(80))"
        )
        #expect(content.plainText.hasSuffix("end"))
    }

    @Test(
        "an end tag with anything after its name closes no SVG or MathML element, as in gumbo 0.10",
        arguments: ["</tr/>", "</tr >", "</tr x=\"1\">", "</tr\t>", "</mrow/>"])
    func foreignEndTagWithTrailingText(end: String) throws {
        // Gumbo 0.10 matches an end tag in foreign content by its whole original text, so `</tr/>`
        // leaves the SVG `tr` open and every repetition nests three levels deeper; a model that
        // closed it let the nesting past the limit (fuzzing found it).
        let limit = 8
        let open = end.hasPrefix("</mrow") ? "<math><mrow><msub><mrow>" : "<svg><tr><h><v>"
        let html = String(repeating: open + end + "x ", count: 1_000) + "end"
        let limited = NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque) ?? html
        let depth = try #require(HTMLFragment.gumboDepth(parsing: limited))
        #expect(depth <= limit + 1, "gumbo's depth \(depth)")
        // It does nest: without the limiter gumbo goes far deeper.
        #expect(HTMLFragment.gumboDepth(parsing: html).map { $0 > 100 } == true)
    }

    @Test(
        "</> is left out, so gumbo cannot count it into the next tag and leave foreign elements open",
        arguments: ["<math><f></></math><t><a>", "<svg></><g></g>"])
    func emptyEndTagIsLeftOut(piece: String) throws {
        // `</>` is no token, but gumbo 0.10 starts the next tag's original text at it, and matches
        // foreign end tags by that text: `</></math>` then closes no `math`, and everything after
        // nests inside it (fuzzing found it).
        let limit = 8
        let html = String(repeating: piece, count: 1_000)
        #expect(HTMLFragment.gumboDepth(parsing: html).map { $0 > 100 } == true)
        let limited = try #require(NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque))
        #expect(!limited.contains("</>"))
        let depth = try #require(HTMLFragment.gumboDepth(parsing: limited))
        #expect(depth <= limit + 1, "gumbo's depth \(depth)")
    }

    @Test("leaving </> out keeps a < before it as text")
    func emptyEndTagAfterLessThan() throws {
        let html = String(repeating: "<div>", count: 200) + "a <</>b> c"
        let content = Self.sanitiser.sanitise(html: html, baseURL: nil)
        #expect(content.plainText == "a <b> c")
    }

    @Test("an element over the limit keeps its text, images and line breaks; its end tag goes with it")
    func flattenedContent() throws {
        let small = HTMLSanitiser(limits: .init(maxDepth: 3))
        let html =
            "<section><div><div><div><div><b>deep</b> <img src=\"https://example.com/a.png\" alt=a><br>line</div>"
            + "</div></div><p>after</p></div></section>"
        let content = small.sanitise(html: html, baseURL: nil)
        #expect(
            content.html.html
                == "<p>deep <img loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\" "
                + "src=\"https://example.com/a.png\" alt=\"a\" /><br />\nline</p>\n<p>after</p>\n")
        // Within the limit, the same markup keeps its formatting.
        #expect(Self.sanitiser.sanitise(html: html, baseURL: nil).html.html.hasPrefix("<p><strong>deep</strong>"))
    }

    @Test("the output stays within the limit, so sanitising it again changes nothing")
    func idempotentAtTheLimit() throws {
        for limit in [3, 8, 40] {
            let sanitiser = HTMLSanitiser(limits: .init(maxDepth: limit))
            for nesting in Self.nestings {
                let content = sanitiser.sanitise(html: nesting.html(levels: 60), baseURL: nil)
                let depth = try #require(HTMLFragment.gumboDepth(parsing: content.html.html))
                #expect(depth <= limit + 1, "\(nesting) at \(limit): \(depth)")
                #expect(sanitiser.sanitise(html: content.html.html, baseURL: nil) == content, "\(nesting) at \(limit)")
            }
            let loose = String(repeating: "<ul><li><p>a</p><p>b</p>", count: 60)
            let content = sanitiser.sanitise(html: loose, baseURL: nil)
            #expect(sanitiser.sanitise(html: content.html.html, baseURL: nil) == content, "loose lists at \(limit)")
            let markdown = String(repeating: "> - *a* ", count: 60) + "end"
            let text = sanitiser.sanitise(plainText: markdown, baseURL: nil)
            #expect(sanitiser.sanitise(html: text.html.html, baseURL: nil).html == text.html, "markdown at \(limit)")
        }
    }

    @Test("formatting closed by containers cannot multiply into millions of elements")
    func reconstructionIsBounded() throws {
        // Each `<div><b id=n></div>` leaves one more formatting element gumbo would reopen before
        // every later text: 2,000 of them times 100,000 texts.
        let html =
            (0..<2_000).map { "<div><b id=\"b\($0)\"></div>" }.joined()
            + String(repeating: "<div>x</div>", count: 100_000)
        let limited = try #require(NestingLimiter.limited(html, maxDepth: 256, opaqueElements: Self.opaque))
        #expect(try #require(HTMLFragment.gumboDepth(parsing: limited)) <= 257)
        let nodes = HTMLFragment.gumboNodes(parsing: limited, maxDepth: 10_000, opaqueElements: [])
        var count = 0
        var stack = nodes
        while let node = stack.popLast() {
            count += 1
            if case .element(let element) = node { stack += element.children }
        }
        // Without the budget this is 200 million elements; the budget allows some 20,000
        // reconstructions beside the 300,000 nodes the input writes itself.
        #expect(count < 400_000, "\(count) nodes")
        // Every "x" is kept (the divs past the limit are flattened, so the words may run together).
        let content = Self.sanitiser.sanitise(html: html, baseURL: nil)
        #expect(content.plainText.filter { $0 == "x" }.count == 100_000)
    }

    @Test("randomised tag soup: gumbo never nests deeper than the limit", arguments: [2, 5, 16, 64])
    func randomisedSoupWithinLimit(_ limit: Int) throws {
        var generator = DeepMarkupGenerator(seed: 0xDEE9 &+ UInt64(limit))
        let rounds = ProcessInfo.processInfo.environment["NESTING_ROUNDS"].flatMap { Int($0) } ?? 1_500
        for _ in 0..<rounds {
            let html = generator.soup(tags: limit * 6)
            let output = NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque) ?? html
            guard let depth = HTMLFragment.gumboDepth(parsing: output) else { continue }
            // A void element or a self-closing foreign one may sit one below the deepest element.
            #expect(
                depth <= limit + 1, "depth \(depth) for \(html.debugDescription)\nlimited: \(output.debugDescription)")
        }
    }

    /// Places where the tokenizer decides what is a tag: a limiter that read them differently from
    /// gumbo would let tags it does not see nest without limit.
    static let tokenizerCorners = [
        "<div><script><!--<script></script></div></script>", "<div><script><!--</script></div>",
        "<div><script><!--<script>--></script></div>", "<div><!-- </div> -->", "<div><!--></div>",
        "<div><!---></div>", "<div><!-- --!></div>", "<div title=\"</div>\">", "<div title='</div>'>",
        "<div x=</div>>", "<div><textarea></div></textarea>", "<div><style></div></style>",
        "<div><title></div></title>", "<div><xmp></div></xmp>", "<div><iframe></div></iframe>",
        "<div><noembed></div></noembed>", "<div><noframes></div></noframes>", "<div><?x </div> ?>",
        "<div></ div>", "<div><!x </div>>", "<div><svg><![CDATA[</svg>]]><div>", "<div><svg><!{CDATA{</div>",
        "<div><svg><style></div></style></svg>", "<div><math><mi><style></div></style></math>",
        "<div><select><style></div></style></select>", "<div><table><style></div></style></table>",
        "<div><noscript></div></noscript>", "<div/><div>", "<div\n></div\n>", "<DIV></Div>",
        "<div><b></div><p>x", "<div><form></div>", "<div><a><div></a>", "<div><plaintext></div>",
    ]

    @Test("tokenizer corners, repeated: gumbo never nests deeper than the limit", arguments: tokenizerCorners)
    func tokenizerCorner(_ piece: String) throws {
        let limit = 8
        let html = String(repeating: piece, count: 200) + "x"
        let output = NestingLimiter.limited(html, maxDepth: limit, opaqueElements: Self.opaque) ?? html
        let depth = try #require(HTMLFragment.gumboDepth(parsing: output))
        #expect(depth <= limit + 1, "depth \(depth)")
    }

    @Test("randomised ordinary markup is never cut at the real limit")
    func randomisedMarkupUnchanged() {
        var generator = MarkupGenerator(seed: 0x11E7)
        for _ in 0..<3_000 {
            for html in [generator.wellFormed(), generator.soup()] {
                #expect(NestingLimiter.limited(html, maxDepth: 64, opaqueElements: Self.opaque) == nil, "\(html)")
            }
        }
    }
}

/// Tag soup drawn from every tag gumbo knows, for checking the limiter against gumbo's own depth.
struct DeepMarkupGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    static let names = NestingLimiter.Tag.names + ["x-custom", "path", "g", "foreignObject", "Svg", "TD"]
    static let frequent = ["div", "table", "tr", "td", "b", "i", "p", "li", "ul", "a", "span", "font", "nobr", "svg"]

    mutating func soup(tags: Int) -> String {
        var output = ""
        for _ in 0..<tags {
            let name = below(3) == 0 ? pick(Self.names) : pick(Self.frequent)
            switch below(12) {
            case 0...5:
                let attributes = pick(["", " id=a", " id=b", " color=red", " encoding=\"text/html\"", " type=hidden"])
                output += "<\(name)\(attributes)\(below(10) == 0 ? "/" : "")>"
            case 6...8: output += "</\(name)>"
            case 9: output += pick(["x", " ", "a<b", "&amp;", "<!-- c -->", "<![CDATA[d]]>"])
            case 10: output += "<\(name)>x</\(name)>"
            default: output += pick(["<script>s</script>", "<style>t", "<textarea>u</textarea>", "<plaintext>"])
            }
        }
        return output
    }
}
