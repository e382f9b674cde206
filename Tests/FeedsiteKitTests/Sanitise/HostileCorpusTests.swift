import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// The hostile corpus (`Fixtures/hostile/vectors.txt`) run through every way a body reaches the
/// sanitiser.
///
/// Each of the 425 vectors is sanitised
/// - as decoded HTML (`sanitise(html:)`) and as plain text/Markdown (`sanitise(plainText:)`);
/// - inside RSS 2.0 and Atom 1.0 (`type="html"`), escaped and as CDATA, parsed by `FeedParser`
///   and sanitised according to the kind the parser reports (documents holding characters XML
///   forbids may be rejected by the parser, which publishes nothing);
/// - inside Atom `type="xhtml"` where the vector holds no character XML forbids and no `&` that
///   starts no XML reference (`fitsXHTML`): ill-formed markup there is repaired or rejected by
///   the parser; 397 vectors yield an item this way.
///
/// That is 2,947 outputs. Every output gets four checks: the allowlist oracle; no script-capable
/// scheme, beacon URL or handler in any attribute but `alt`/`title`; idempotence of the HTML and
/// of the plain text. Outputs of `drop` vectors read as HTML get a fifth (no `pwned`,
/// `javascript:`, `vbscript:` or ` on…=` anywhere in the markup), and each feed embedding is
/// checked to deliver the vector unchanged: 15,700 checks in all, printed by
/// `corpusHoldsOverEveryPath` ("Hostile corpus: … checks") as it runs.
@Suite("Hostile corpus")
struct HostileCorpusTests {
    let sanitiser = HTMLSanitiser()
    static let base = URL(string: HostileCorpus.itemLink)

    @Test func corpusIsLargeDistinctAndBeaconed() throws {
        let vectors = try HostileCorpus.load()
        #expect(vectors.count >= 150)
        #expect(Set(vectors.map(\.html)).count == vectors.count, "vectors must be distinct")
        for vector in vectors {
            #expect(
                vector.html.contains("http://127.0.0.1:PORTPLACEHOLDER/pwned?id=\(vector.id)'")
                    || vector.html.contains("http://127.0.0.1:PORTPLACEHOLDER/pwned?id=\(vector.id)\"")
                    || vector.html.contains("http://127.0.0.1:PORTPLACEHOLDER/pwned?id=\(vector.id))")
                    || vector.html.contains("http://127.0.0.1:PORTPLACEHOLDER/pwned?id=\(vector.id)>")
                    || vector.html.contains("http://127.0.0.1:PORTPLACEHOLDER/pwned?id=\(vector.id)#")
                    || vector.html.contains("http://127.0.0.1:PORTPLACEHOLDER/pwned?id=\(vector.id);"),
                "\(vector) must beacon with its own id")
        }
    }

    @Test func corpusHoldsOverEveryPath() throws {
        let vectors = try HostileCorpus.load()
        var outputs = 0
        var checks = 0
        var xhtml = 0
        for vector in vectors {
            let html = HostileCorpus.withBeaconPort(vector.html)
            checks += check(sanitiser.sanitise(html: html, baseURL: Self.base), vector, path: "HTML")
            checks += check(
                sanitiser.sanitise(plainText: html, baseURL: Self.base), vector, path: "plain text",
                isMarkup: false)
            outputs += 2
            for embedding in HostileCorpus.Embedding.allCases {
                if embedding == .atomXHTML, !HostileCorpus.fitsXHTML(html) { continue }
                let data = HostileCorpus.feed(html, as: embedding)
                let item: FeedItem
                do {
                    guard let first = try FeedParser().parse(data, url: Self.base).items.first else {
                        // Ill-formed xhtml that the parser repairs may swallow the rest of the
                        // document, entry and all (with a warning): like a rejection, that
                        // publishes nothing.
                        if embedding != .atomXHTML { Issue.record("\(vector) \(embedding.rawValue): no item") }
                        continue
                    }
                    item = first
                } catch {
                    // Rejecting a malformed document publishes nothing, which is safe; only
                    // well-formed documents must parse.
                    let isMalformed = embedding == .atomXHTML || HostileCorpus.hasCharactersXMLForbids(html)
                    if !isMalformed { Issue.record("\(vector) \(embedding.rawValue): \(error)") }
                    continue
                }
                if embedding == .atomXHTML { xhtml += 1 }
                let body = item.content ?? item.description ?? ""
                let kind = item.content != nil ? item.contentKind : item.descriptionKind
                if embedding != .atomXHTML, !HostileCorpus.hasCharactersXMLForbids(html) {
                    // The embedding must deliver the vector itself (up to line-end normalisation
                    // and the parser trimming the value).
                    let raw = html.trimmingCharacters(in: .whitespacesAndNewlines)
                    let normalised = raw.replacingOccurrences(of: "\r\n", with: "\n")
                        .replacingOccurrences(of: "\r", with: "\n")
                    #expect(
                        (body == raw || body == normalised) && kind == .html,
                        "\(vector) \(embedding.rawValue) delivered \(body.debugDescription)")
                    checks += 1
                }
                let content =
                    kind == .html
                    ? sanitiser.sanitise(html: body, baseURL: Self.base)
                    : sanitiser.sanitise(plainText: body, baseURL: Self.base)
                checks += check(content, vector, path: embedding.rawValue, isMarkup: kind == .html)
                outputs += 1
            }
        }
        print("Hostile corpus: \(vectors.count) vectors (\(xhtml) as xhtml), \(outputs) outputs, \(checks) checks")
        #expect(outputs >= vectors.count * 6)
    }

    /// Runs the checks on one output and returns how many it ran.
    private func check(
        _ content: SanitisedContent, _ vector: HostileVector, path: String, isMarkup: Bool = true
    ) -> Int {
        let html = content.html.html
        let context = "\(vector) via \(path) → \(html.debugDescription)"
        var count = 0

        let violations = AllowlistOracle.violations(in: html)
        #expect(violations.isEmpty, "\(context): \(violations)")
        count += 1

        // Plain text is linked where the author typed a URL; such a link may point anywhere a
        // link may (even at the beacon), but never use a script-capable scheme.
        let dangerous = Self.dangerousAttributes(in: html, allowingTypedURLs: !isMarkup)
        #expect(dangerous.isEmpty, "\(context): \(dangerous)")
        count += 1

        let again = sanitiser.sanitise(html: html, baseURL: Self.base)
        #expect(again.html == content.html, "\(context): not idempotent: \(again.html.html.debugDescription)")
        #expect(again.plainText == content.plainText, "\(context): plain text not idempotent")
        count += 2

        if vector.mode == .drop, isMarkup {
            // In XHTML a CDATA section is text (XML's rule): its payload is shown as the text it
            // is, escaped, so only the tags must not carry it.
            let isText = path == HostileCorpus.Embedding.atomXHTML.rawValue && vector.html.contains("<![CDATA[")
            let lower = (isText ? Self.tags(of: html) : html).lowercased()
            let leaks = ["pwned", "javascript:", "vbscript:"].filter(lower.contains)
            let handler = lower.range(of: #"\son[a-z]+\s*="#, options: .regularExpression)
            #expect(leaks.isEmpty && handler == nil, "\(context): payload survived")
            count += 1
        }
        return count
    }

    /// Attribute values (other than the displayed `alt`/`title`) that mention the payload or a
    /// script-capable scheme, found by re-parsing the output.
    /// The tags of `html` (`<…>` runs), without the text between them.
    static func tags(of html: String) -> String {
        html.matches(of: /<[^>]*>/).map { String($0.output) }.joined()
    }

    static func dangerousAttributes(in html: String, allowingTypedURLs: Bool = false) -> [String] {
        let needles = (allowingTypedURLs ? [] : ["pwned"]) + ["javascript:", "vbscript:", "data:"]
        var found: [String] = []
        var stack = HTMLFragment.gumboNodes(parsing: html, maxDepth: 100_000, opaqueElements: [])
        while let node = stack.popLast() {
            guard case .element(let element) = node else { continue }
            stack += element.children
            for (name, value) in element.attributes where name != "alt" && name != "title" {
                let lower = value.lowercased()
                if needles.contains(where: lower.contains) || name.hasPrefix("on") {
                    found.append("\(name)=\"\(value)\" on <\(element.name)>")
                }
            }
        }
        return found
    }

    /// `&amp;lt;script&amp;gt;` in an RSS description is escaped markup after the XML decode:
    /// readers must see the tag as text, neither run it nor lose it.
    @Test func doubleEncodedMarkupInRSSDisplaysAsText() throws {
        let rss = Data(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>i</title>\
            <link>https://example.com/p</link><description>&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; \
            &amp;amp;lt;b&amp;amp;gt;</description></item></channel></rss>
            """.utf8)
        let item = try #require(try FeedParser().parse(rss, url: nil).items.first)
        let content = sanitiser.sanitise(html: try #require(item.description), baseURL: nil)
        #expect(content.html.html == "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt;</p>\n")
        #expect(content.plainText == "<script>alert(1)</script> &lt;b&gt;")
    }

    /// Escaped-markup vectors display their tags as text, on every path that decodes once.
    @Test func escapedVectorsDisplayTheirTags() throws {
        for vector in try HostileCorpus.load() where vector.html.hasPrefix("&lt;") {
            let content = sanitiser.sanitise(html: vector.html, baseURL: Self.base)
            #expect(content.plainText.hasPrefix("<"), "\(vector)")
            #expect(content.plainText.contains("pwned?id=\(vector.id)"), "\(vector)")
        }
    }
}
