import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// One test per fidelity rule of the sanitiser (issue 4, "Fidelity"): what it keeps matters as
/// much as what it drops. Every output is also held to the allowlist oracle and idempotence.
@Suite("Sanitiser fidelity")
struct FidelityTests {
    let sanitiser = HTMLSanitiser()

    private func html(_ input: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let output = sanitiser.sanitise(html: input, baseURL: SanitiserCase.base).html
        #expect(AllowlistOracle.violations(in: output.html).isEmpty, sourceLocation: sourceLocation)
        let again = sanitiser.sanitise(html: output.html, baseURL: SanitiserCase.base).html
        #expect(again == output, "not idempotent", sourceLocation: sourceLocation)
        return output.html
    }

    private func a(_ href: String) -> String { SanitiserCase.a(href) }
    private func img(_ src: String, alt: String = "", title: String? = nil) -> String {
        SanitiserCase.img(src, alt: alt, title: title)
    }

    // MARK: - Paragraphs and whitespace

    @Test func paragraphsAndLineBreaksAsWritten() {
        #expect(
            html("<p>First line<br>second line</p>\n<p>Second paragraph</p>text after<br><br>more")
                == "<p>First line<br />\nsecond line</p>\n<p>Second paragraph</p>\n<p>text after<br />\n<br />\nmore</p>\n"
        )
    }

    @Test func whitespaceCollapsedOutsidePreAndNBSPKept() {
        #expect(
            html("<p>\n  Hello,\t  <em> dear </em>  reader&nbsp;&nbsp;!\n</p><pre>  two  spaces\n\ttab</pre>")
                == "<p>Hello, <em>dear </em>reader\u{A0}\u{A0}!</p>\n<pre><code>  two  spaces\n\ttab\n</code></pre>\n")
    }

    @Test func emptyParagraphsDropped() {
        #expect(html("<p></p><p> <br> </p><div><span> </span></div><p>kept</p>") == "<p>kept</p>\n")
    }

    // MARK: - Lists

    @Test func tightAndLooseLists() {
        #expect(
            html("<ul><li>one</li><li>two</li></ul><ul><li><p>one</p></li><li>two</li></ul>")
                == "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ul>\n<li>\n<p>one</p>\n</li>\n<li>\n<p>two</p>\n</li>\n</ul>\n"
        )
    }

    @Test func nestedLists() {
        #expect(
            html("<ol><li>a<ol><li>a.1</li><li>a.2<ul><li>deep</li></ul></li></ol></li><li>b</li></ol>")
                == "<ol>\n<li>a\n<ol>\n<li>a.1</li>\n<li>a.2\n<ul>\n<li>deep</li>\n</ul>\n</li>\n</ol>\n</li>\n<li>b</li>\n</ol>\n"
        )
    }

    @Test func orderedListStart() {
        #expect(
            html("<ol start=\"7\"><li>seven</li><li>eight</li></ol><ol start=\"0\"><li>zero</li></ol>")
                == "<ol start=\"7\">\n<li>seven</li>\n<li>eight</li>\n</ol>\n<ol start=\"0\">\n<li>zero</li>\n</ol>\n")
    }

    @Test func listItemsHoldBlocks() {
        #expect(
            html(
                "<ul><li><h2>Title</h2><p>Text</p><blockquote>Quote</blockquote><pre><code>code</code></pre></li></ul>")
                == "<ul>\n<li>\n<h2>Title</h2>\n<p>Text</p>\n<blockquote>\n<p>Quote</p>\n</blockquote>\n<pre><code>code\n</code></pre>\n</li>\n</ul>\n"
        )
    }

    // MARK: - Blocks inside inlines

    @Test func linkAroundBlocksIsPushedIntoEachBlock() {
        let link = a("https://example.com/post")
        #expect(
            html(
                "<a href=\"/post\"><div>Card title</div><div><img src=\"/thumb.jpg\" alt=\"thumb\"></div><p>Summary</p></a>"
            )
                == "<p>\(link)Card title</a></p>\n<p>\(link)\(img("https://example.com/thumb.jpg", alt: "thumb"))</a></p>\n<p>\(link)Summary</a></p>\n"
        )
        #expect(
            html("<a href=\"/x\"><ul><li>item</li></ul><h3>head</h3></a>")
                == "<ul>\n<li>\(a("https://example.com/x"))item</a></li>\n</ul>\n<h3>\(a("https://example.com/x"))head</a></h3>\n"
        )
    }

    @Test func emphasisAroundBlocksIsPushedIntoEachBlock() {
        #expect(
            html("<b><p>One</p><p>Two</p></b><i><ul><li>item</li></ul></i><em><blockquote>quoted</blockquote></em>")
                == "<p><strong>One</strong></p>\n<p><strong>Two</strong></p>\n<ul>\n<li><em>item</em></li>\n</ul>\n<blockquote>\n<p><em>quoted</em></p>\n</blockquote>\n"
        )
    }

    // MARK: - Code

    @Test func codeBlockKeepsItsLanguage() {
        #expect(
            html("<pre><code class=\"hljs language-python\">def f():\n    return 1</code></pre>")
                == "<pre><code class=\"language-python\">def f():\n    return 1\n</code></pre>\n")
        #expect(
            html("<pre class=\"lang-c++\">x++;</pre>") == "<pre><code class=\"language-c++\">x++;\n</code></pre>\n")
    }

    @Test func highlightedPreKeepsTextAndLineBreaks() {
        // Pygments/Rouge markup: spans per token, lines as text newlines or `<br>`.
        #expect(
            html(
                "<div class=\"highlight\"><pre><span></span><span class=\"n\">a</span> <span class=\"o\">=</span> <span class=\"mi\">1</span>\n<span class=\"n\">b</span>\n</pre></div>"
            ) == "<pre><code>a = 1\nb\n</code></pre>\n")
        #expect(
            html("<pre><span class=\"line\"><b>if</b>  x</span><br><span class=\"line\">    y</span></pre>")
                == "<pre><code>if  x\n    y\n</code></pre>\n")
    }

    // MARK: - Images

    @Test func imageKeepsSourceAltAndTitleAndGainsLazyAttributes() {
        let output = html(
            "<img src=\"a.jpg\" srcset=\"b.jpg 2x\" alt=\"A cat\" title=\"Cat\" width=\"800\" class=\"x\">")
        #expect(output == "<p>\(img("https://example.com/blog/a.jpg", alt: "A cat", title: "Cat"))</p>\n")
        #expect(output.contains("loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\""))
    }

    @Test func placeholderImagesUseTheRealSource() {
        #expect(
            html("<img src=\"data:image/gif;base64,R0lGOD\" data-src=\"/real.jpg\">")
                == "<p>\(img("https://example.com/real.jpg"))</p>\n")
        #expect(
            html("<img src=\"/spacer.gif\" data-lazy-src=\"/lazy.jpg\" alt=\"l\">")
                == "<p>\(img("https://example.com/lazy.jpg", alt: "l"))</p>\n")
        #expect(
            html("<img srcset=\"s.jpg 400w, l.jpg 1600w, m.jpg 800w\">")
                == "<p>\(img("https://example.com/blog/l.jpg"))</p>\n")
        #expect(
            html("<img src=\"\" data-srcset=\"x.jpg 1x, https://cdn.example/y.jpg?w=100,h=100 3x\">")
                == "<p>\(img("https://cdn.example/y.jpg?w=100,h=100"))</p>\n")
    }

    @Test func trackingPixelsDropped() {
        #expect(html("<p>x<img src=\"https://t.example/p.gif\" width=\"1\" height=\"1\"></p>") == "<p>x</p>\n")
        #expect(html("<p>x<img src=\"https://t.example/p.gif\" style=\"width: 1px; height: 1px\"></p>") == "<p>x</p>\n")
        #expect(html("<p>x<img src=\"https://t.example/p.gif\" height=\"0\"></p>") == "<p>x</p>\n")
    }

    @Test func emojiImagesBecomeTheirText() {
        #expect(
            html(
                "<p>Yay <img src=\"https://s.w.org/images/core/emoji/2.2.1/72x72/1f483.png\" alt=\"💃\" class=\"wp-smiley\" style=\"height: 1em; max-height: 1em;\" /></p>"
            ) == "<p>Yay 💃</p>\n")
        #expect(html("<p>Ok <img src=\"/e.png\" alt=\"👍\" style=\"height:1.2em\"></p>") == "<p>Ok 👍</p>\n")
    }

    @Test func figureKeepsItsCaptionAsAParagraph() {
        #expect(
            html(
                "<figure><img src=\"photo.jpg\" alt=\"Photo\"><figcaption>A <a href=\"/credit\">credit</a></figcaption></figure>"
            )
                == "<p>\(img("https://example.com/blog/photo.jpg", alt: "Photo"))</p>\n<p>A \(a("https://example.com/credit"))credit</a></p>\n"
        )
    }

    // MARK: - Tables

    @Test func tableHeaderFromTheadOrFirstRowOfTh() {
        let expected =
            "<table>\n<thead>\n<tr>\n<th>A</th>\n<th>B</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n"
        #expect(
            html("<table><thead><tr><td>A</td><td>B</td></tr></thead><tr><td>1</td><td>2</td></tr></table>") == expected
        )
        #expect(html("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>") == expected)
        #expect(
            html("<table><tr><td>A</td><td>B</td></tr><tr><td>1</td><td>2</td></tr></table>")
                == "<table>\n<tbody>\n<tr>\n<td>A</td>\n<td>B</td>\n</tr>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n"
        )
    }

    @Test func tableAlignmentsFromAlignOrStyle() {
        #expect(
            html(
                "<table><tr><th align=\"right\">R</th><th style=\"text-align: center\">C</th><th>N</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>"
            )
                == "<table>\n<thead>\n<tr>\n<th align=\"right\">R</th>\n<th align=\"center\">C</th>\n<th>N</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"right\">1</td>\n<td align=\"center\">2</td>\n<td>3</td>\n</tr>\n</tbody>\n</table>\n"
        )
    }

    @Test func raggedRowsArePadded() {
        #expect(
            html("<table><tr><th>A</th></tr><tr><td>1</td><td>2</td><td>3</td></tr><tr><td>4</td></tr></table>")
                == "<table>\n<thead>\n<tr>\n<th>A</th>\n<th></th>\n<th></th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n<td>3</td>\n</tr>\n<tr>\n<td>4</td>\n<td></td>\n<td></td>\n</tr>\n</tbody>\n</table>\n"
        )
    }

    @Test func blockContentInCellsIsFlattened() {
        #expect(
            html(
                "<table><tr><td><p>a</p><p>b<br>c</p></td><td><ul><li>x</li><li>y</li></ul></td><td><pre>code</pre></td></tr></table>"
            )
                == "<table>\n<tbody>\n<tr>\n<td>a b c</td>\n<td>x y</td>\n<td><code>code</code></td>\n</tr>\n</tbody>\n</table>\n"
        )
    }

    @Test func layoutTablesBecomeParagraphs() {
        // A newsletter: one column of rows, nested tables, an explicit presentation role.
        #expect(
            html(
                "<table width=\"600\"><tr><td><h1>Issue 12</h1></td></tr><tr><td><p>Hello <b>readers</b></p><p>Second</p></td></tr><tr><td><img src=\"/hero.jpg\" alt=\"hero\"></td></tr></table>"
            )
                == "<h2>Issue 12</h2>\n<p>Hello <strong>readers</strong></p>\n<p>Second</p>\n<p>\(img("https://example.com/hero.jpg", alt: "hero"))</p>\n"
        )
        #expect(
            html("<table role=\"presentation\"><tr><td>left</td><td>right</td></tr></table>")
                == "<p>left</p>\n<p>right</p>\n")
        #expect(
            html(
                "<table><tr><td><table><tr><td>inner a</td><td>inner b</td></tr></table></td><td>side</td></tr></table>"
            )
                == "<table>\n<tbody>\n<tr>\n<td>inner a</td>\n<td>inner b</td>\n</tr>\n</tbody>\n</table>\n<p>side</p>\n"
        )
    }

    // MARK: - Links and embeds

    @Test func linksGetRel() {
        #expect(
            html("<a href=\"https://e.example/\" rel=\"opener\" target=\"_blank\">e</a>")
                == "<p><a rel=\"nofollow ugc noopener\" href=\"https://e.example/\">e</a></p>\n")
    }

    @Test func youtubeAndVimeoEmbedsBecomeLinks() {
        #expect(
            html("<iframe width=\"560\" src=\"https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0\"></iframe>")
                == "<p>\(a("https://www.youtube.com/watch?v=dQw4w9WgXcQ"))Video on youtube.com</a></p>\n")
        #expect(
            html(
                "<figure><div><iframe src=\"https://player.vimeo.com/video/76979871?h=8272103f6e&amp;badge=0\"></iframe></div></figure>"
            ) == "<p>\(a("https://vimeo.com/76979871/8272103f6e"))Video on vimeo.com</a></p>\n")
        #expect(
            html("<object data=\"https://www.youtube.com/v/abc\"></object>")
                == "<p>\(a("https://www.youtube.com/v/abc"))Video on youtube.com</a></p>\n")
    }

    @Test func videoAndAudioWithAnAllowedSourceBecomeLinks() {
        #expect(
            html("<video src=\"https://www.example.com/v.mp4\" controls>Your browser cannot play this</video>")
                == "<p>\(a("https://www.example.com/v.mp4"))Video on example.com</a></p>\n")
        #expect(
            html(
                "<audio controls><source src=\"javascript:alert(1)\"><source src=\"/a.mp3\" type=\"audio/mpeg\"></audio>"
            )
                == "<p>\(a("https://example.com/a.mp3"))Audio on example.com</a></p>\n")
        #expect(html("<video><source src=\"data:video/mp4;base64,AAAA\"></video>") == "")
    }

    @Test func framesOfOtherMediaHostsBecomeLinksAndUnknownFramesGo() {
        #expect(
            html("<iframe src=\"https://www.blogger.com/video.g?token=AD6v5\"></iframe>")
                == "<p>\(a("https://www.blogger.com/video.g?token=AD6v5"))Video on blogger.com</a></p>\n")
        #expect(
            html("<iframe src=\"https://w.soundcloud.com/player/?url=x\"></iframe>")
                == "<p>\(a("https://w.soundcloud.com/player/?url=x"))Audio on soundcloud.com</a></p>\n")
        #expect(html("<iframe src=\"https://ads.example/frame\"></iframe>") == "")
    }

    // MARK: - Plain text

    @Test func plainTextKeepsLinesAndLinksURLs() {
        // YouTube's media:description, indented by the XML around it.
        let text = "Sign up!\n        https://example.org/join\n\n        Hosted by A\n        Written by B\n    "
        #expect(
            sanitiser.sanitise(plainText: text, baseURL: nil).html.html
                == "<p>Sign up!<br />\n\(a("https://example.org/join"))https://example.org/join</a></p>\n<p>Hosted by A<br />\nWritten by B</p>\n"
        )
        // Plain text, not Markdown: an indented line is a line, not a code block.
        #expect(
            sanitiser.sanitise(plainText: "Code:\n\n    let x = 1\n\nDone", baseURL: nil).html.html
                == "<p>Code:</p>\n<p>let x = 1</p>\n<p>Done</p>\n")
    }

    // MARK: - Headings and excerpts

    @Test func headingsDemotedBelowThePageTitle() {
        #expect(
            html("<h1>A</h1><p>x</p><h3>B</h3><h6>C</h6>") == "<h2>A</h2>\n<p>x</p>\n<h4>B</h4>\n<h6>C</h6>\n")
        #expect(html("<h2>Already below</h2>") == "<h2>Already below</h2>\n")
    }

    @Test func excerptLengthIsConfigurableAndCutsAtWords() {
        let content = sanitiser.sanitise(
            html: "<h1>Title</h1><p>The quick <b>brown</b> fox jumps over the lazy dog.</p>", baseURL: nil)
        #expect(
            HTMLSanitiser.excerpt(content.plainText, maxLength: 200)
                == "Title The quick brown fox jumps over the lazy dog.")
        #expect(HTMLSanitiser.excerpt(content.plainText, maxLength: 24) == "Title The quick brown…")
        #expect(HTMLSanitiser.excerpt(content.plainText, maxLength: 30) == "Title The quick brown fox…")
    }
}
