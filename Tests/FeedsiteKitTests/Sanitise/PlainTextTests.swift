import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// `PlainText` replaces a second cmark build: excerpts and word counts made from it must be exactly
/// those made from cmark's plain-text renderer.
@Suite("Plain text of sanitised content (against cmark's plain-text renderer)")
struct PlainTextTests {
    /// Checks that an excerpt of any length and the word count are the same either way.
    static func check(_ blocks: [ContentBlock], sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = PlainText.of(blocks)
        let cmark = CmarkDocument.referencePlainText(blocks)
        let whole = 10_000_000
        #expect(
            HTMLSanitiser.excerpt(ours, maxLength: whole) == HTMLSanitiser.excerpt(cmark, maxLength: whole),
            "ours: \(ours.debugDescription)\ncmark: \(cmark.debugDescription)", sourceLocation: sourceLocation)
        #expect(SiteItem.wordCount(ours) == SiteItem.wordCount(cmark), sourceLocation: sourceLocation)
    }

    static func blocks(html: String) -> [ContentBlock] {
        let nodes = HTMLFragment(parsing: html, maxDepth: 200, opaqueElements: ContentBuilder.droppedElements).nodes
        let base = URL(string: "https://example.com/blog/post.html")
        return ContentNormaliser.normalise(ContentBuilder(baseURL: base).blocks(from: nodes))
    }

    @Test(
        "constructs where the two renderers could disagree",
        arguments: [
            "<p>one</p><p>two</p><h2>three</h2>four<hr>five",
            "<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>after",
            // Numbering of an outer list continues after a nested one.
            "<ol><li>a<ol start=7><li>b</li><li>c</li></ol></li><li>d</li><li>e</li></ol>",
            "<ol start=9><li>nine</li><li>ten</li><li>eleven</li></ol><ol start=0><li>zero</li></ol>",
            "<table><tr><th>h1</th><th></th><th>h3</th></tr><tr><td>1</td><td><del>2</del></td><td></td></tr></table>",
            "<p>a<img src=x.png alt=\"alt text\">b <s>struck</s> <code>code</code><br>line</p>",
            "<pre><code>let a = 1\n  let b = 2\n</code></pre><blockquote><p>quote</p><ol><li>x</li></ol></blockquote>",
            "<p>word<a href=\"/x\">link</a>word</p><p>trailing break<br></p>",
            "<li>stray item</li><dl><dt>term</dt><dd>def</dd></dl>",
        ])
    func constructs(html: String) {
        Self.check(Self.blocks(html: html))
    }

    @Test("every fixture body, every hostile vector and 2,000 generated fragments")
    func corpus() throws {
        var bodies: [String] = []
        let directory = Fixtures.url("real-feeds")
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            guard let feed = try? FeedParser().parse(Data(contentsOf: directory.appendingPathComponent(file)), url: nil)
            else { continue }
            for item in feed.items {
                for (text, kind) in [(item.content, item.contentKind), (item.description, item.descriptionKind)] {
                    guard let text else { continue }
                    if kind == .html {
                        bodies.append(text)
                    } else {
                        Self.check(PlainTextContent.blocks(from: text, baseURL: nil))
                    }
                }
            }
        }
        bodies += try HostileCorpus.load().map(\.html)
        var generator = MarkupGenerator(seed: 0x7E47)
        for _ in 0..<1_000 {
            bodies.append(generator.wellFormed())
            bodies.append(generator.soup())
        }
        #expect(bodies.count > 3_000)
        for body in bodies {
            Self.check(Self.blocks(html: body))
        }
    }
}
