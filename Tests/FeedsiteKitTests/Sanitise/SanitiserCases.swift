import Foundation

/// One input → exact-output pair for the sanitiser.
struct SanitiserCase: Sendable, CustomStringConvertible {
    var name: String
    var input: String
    var expected: String
    /// Markdown/plain text instead of HTML.
    var isPlainText = false

    var description: String { name }

    static let base = URL(string: "https://example.com/blog/post.html")

    /// What cmark writes for a published link (plus our `rel`).
    static func a(_ href: String, title: String? = nil) -> String {
        "<a rel=\"nofollow ugc noopener\" href=\"\(href)\"" + (title.map { " title=\"\($0)\"" } ?? "") + ">"
    }

    /// What cmark writes for a published image (plus our loading attributes).
    static func img(_ src: String, alt: String = "", title: String? = nil) -> String {
        "<img loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\" src=\"\(src)\" alt=\"\(alt)\""
            + (title.map { " title=\"\($0)\"" } ?? "") + " />"
    }

    /// Hostile and ordinary inputs, base URL `https://example.com/blog/post.html`.
    static let all: [SanitiserCase] = [
        // Ordinary markup
        .init(
            name: "paragraph with bold", input: "<p>Hello <b>world</b></p>",
            expected: "<p>Hello <strong>world</strong></p>\n"),
        .init(name: "bare text becomes a paragraph", input: "just text", expected: "<p>just text</p>\n"),
        .init(name: "em and i", input: "<em>a</em> <i>b</i>", expected: "<p><em>a</em> <em>b</em></p>\n"),
        .init(
            name: "adjacent formatting", input: "<b>bold</b><i>ital</i>",
            expected: "<p><strong>bold</strong><em>ital</em></p>\n"),
        .init(
            name: "strikethrough variants", input: "<del>gone</del> <s>s</s> <strike>k</strike>",
            expected: "<p><del>gone</del> <del>s</del> <del>k</del></p>\n"),
        .init(name: "line break", input: "text <em>em</em><br>next", expected: "<p>text <em>em</em><br />\nnext</p>\n"),
        .init(name: "double line break kept", input: "<p>a<br><br>b</p>", expected: "<p>a<br />\n<br />\nb</p>\n"),
        .init(name: "leading and trailing breaks dropped", input: "<p><br>lead<br></p>", expected: "<p>lead</p>\n"),
        .init(name: "lone break is nothing", input: "<br>", expected: ""),
        .init(
            name: "blockquote", input: "<blockquote><p>q</p></blockquote>",
            expected: "<blockquote>\n<p>q</p>\n</blockquote>\n"),
        .init(
            name: "blockquote with direct text", input: "<blockquote>direct text<p>para</p></blockquote>",
            expected: "<blockquote>\n<p>direct text</p>\n<p>para</p>\n</blockquote>\n"),
        .init(name: "thematic break", input: "<hr>", expected: "<hr />\n"),
        .init(
            name: "divs are transparent but end paragraphs", input: "<div>one<div>two</div>three</div>",
            expected: "<p>one</p>\n<p>two</p>\n<p>three</p>\n"),
        .init(
            name: "whitespace collapsed and trimmed", input: "<p>   lots   of\n\nspace  </p>",
            expected: "<p>lots of space</p>\n"),
        .init(
            name: "newline inside paragraph is a space", input: "<p>line one\nline two</p>",
            expected: "<p>line one line two</p>\n"),
        .init(
            name: "space collapses across formatting", input: "<p>a <b> b </b> c</p>",
            expected: "<p>a <strong>b </strong>c</p>\n"),
        .init(name: "empty paragraphs dropped", input: "<p></p><p> </p><div>\n</div>", expected: ""),
        .init(name: "empty input", input: "", expected: ""),
        .init(name: "whitespace-only input", input: "   \n  ", expected: ""),
        .init(name: "non-ASCII text", input: "<p>café ü 日本</p>", expected: "<p>café ü 日本</p>\n"),
        .init(name: "NBSP kept", input: "<p>a&nbsp;b&nbsp;</p>", expected: "<p>a\u{A0}b\u{A0}</p>\n"),
        .init(
            name: "unknown and presentational inline tags unwrapped",
            input:
                "<p>x<sub>2</sub> <mark>m</mark> <u>u</u> <abbr title=\"t\">ab</abbr> <font color=red>f</font> <x-custom>c</x-custom></p>",
            expected: "<p>x2 m u ab f c</p>\n"),
        .init(name: "dl becomes paragraphs", input: "<dl><dt>term<dd>def</dl>", expected: "<p>term</p>\n<p>def</p>\n"),
        .init(
            name: "figure with caption", input: "<figure><img src=\"f.jpg\"><figcaption>cap</figcaption></figure>",
            expected: "<p>\(img("https://example.com/blog/f.jpg"))</p>\n<p>cap</p>\n"),

        // Headings
        .init(
            name: "headings demoted below the page h1", input: "<h1>T</h1><h2>S</h2><h6>six</h6>",
            expected: "<h2>T</h2>\n<h3>S</h3>\n<h6>six</h6>\n"),
        .init(name: "h3 without h1 stays", input: "<h3>only h3</h3>", expected: "<h3>only h3</h3>\n"),
        .init(
            name: "link inside heading", input: "<h2><a href=\"/x\">link heading</a></h2>",
            expected: "<h2>\(a("https://example.com/x"))link heading</a></h2>\n"),

        // Lists
        .init(
            name: "tight list", input: "<ul><li>a</li><li>b</li></ul>",
            expected: "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"),
        .init(
            name: "loose list", input: "<ul><li><p>a</p></li><li>b</li></ul>",
            expected: "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n"),
        .init(
            name: "ordered list start", input: "<ol start=\"3\"><li>c</li><li>d</li></ol>",
            expected: "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n"),
        .init(
            name: "bad list starts", input: "<ol start=\"-5\"><li>x</li></ol><ol start=\"abc\"><li>y</li></ol>",
            expected: "<ol start=\"0\">\n<li>x</li>\n</ol>\n<ol>\n<li>y</li>\n</ol>\n"),
        .init(
            name: "nested list", input: "<ul><li>a<ul><li>b</li></ul></li></ul>",
            expected: "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n"),
        .init(
            name: "item with two paragraphs loosens the list", input: "<ul><li>a<div>b</div></li></ul>",
            expected: "<ul>\n<li>\n<p>a</p>\n<p>b</p>\n</li>\n</ul>\n"),
        .init(name: "orphan li", input: "<li>orphan</li>", expected: "<p>orphan</p>\n"),

        // Code
        .init(
            name: "code block with language",
            input: "<pre><code class=\"language-swift\">let x = 1\nprint(x)\n</code></pre>",
            expected: "<pre><code class=\"language-swift\">let x = 1\nprint(x)\n</code></pre>\n"),
        .init(
            name: "highlighted pre keeps text and lines",
            input: "<pre class=\"highlight\"><code><span class=\"k\">let</span> x\n<span>y</span><br>z</code></pre>",
            expected: "<pre><code>let x\ny\nz\n</code></pre>\n"),
        .init(
            name: "language filtered", input: "<pre><code class='language-c\"onerror=alert(1)'>x</code></pre>",
            expected: "<pre><code class=\"language-conerroralert1\">x\n</code></pre>\n"),
        .init(
            name: "pre leading newline and trailing blank lines", input: "<pre>\nfirst\n\n</pre>",
            expected: "<pre><code>first\n</code></pre>\n"),
        .init(
            name: "inline code flattened and escaped", input: "<code>a  <b>b</b> &lt;c&gt;</code>",
            expected: "<p><code>a b &lt;c&gt;</code></p>\n"),

        // Tables
        .init(
            name: "ragged table without thead",
            input: "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>",
            expected:
                "<table>\n<tbody>\n<tr>\n<td>a</td>\n<td>b</td>\n</tr>\n<tr>\n<td>c</td>\n<td></td>\n</tr>\n</tbody>\n</table>\n"
        ),
        .init(
            name: "table with thead, alignment and a wider body row",
            input:
                "<table><thead><tr><th>h1</th><th align=right>h2</th></tr></thead><tbody><tr><td>1</td><td>2</td><td>3</td></tr></tbody></table>",
            expected:
                "<table>\n<thead>\n<tr>\n<th>h1</th>\n<th align=\"right\">h2</th>\n<th></th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td align=\"right\">2</td>\n<td>3</td>\n</tr>\n</tbody>\n</table>\n"
        ),
        .init(
            name: "table caption and th header row",
            input: "<table><caption>Cap</caption><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>",
            expected:
                "<p>Cap</p>\n<table>\n<thead>\n<tr>\n<th>A</th>\n<th>B</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n"
        ),
        .init(
            name: "blocks in cells flattened",
            input: "<table><tr><td><p>a</p><p>b<br>c</p></td><td><ul><li>x</li></ul></td></tr></table>",
            expected: "<table>\n<tbody>\n<tr>\n<td>a b c</td>\n<td>x</td>\n</tr>\n</tbody>\n</table>\n"),
        .init(
            name: "text foster-parented out of a table", input: "<table>loose<tr><td>c</td><td>d</td></tr></table>",
            expected: "<p>loose</p>\n<table>\n<tbody>\n<tr>\n<td>c</td>\n<td>d</td>\n</tr>\n</tbody>\n</table>\n"),

        // Links and URLs
        .init(
            name: "relative URLs resolved",
            input: "<a href=\"../up/x.html\">rel</a> <a href=\"#frag\">f</a> <a href=\"/root\">r</a>",
            expected:
                "<p>\(a("https://example.com/up/x.html"))rel</a> \(a("https://example.com/blog/post.html#frag"))f</a> \(a("https://example.com/root"))r</a></p>\n"
        ),
        .init(
            name: "protocol-relative URL", input: "<a href=\"//cdn.example/x\">p</a>",
            expected: "<p>\(a("https://cdn.example/x"))p</a></p>\n"),
        .init(
            name: "mailto link", input: "<a href=\"mailto:a@b.c\">mail</a>",
            expected: "<p>\(a("mailto:a@b.c"))mail</a></p>\n"),
        .init(
            name: "uppercase tag and scheme", input: "<A HREF=\"HTTPS://EXAMPLE.ORG/Path\">up</A>",
            expected: "<p>\(a("https://EXAMPLE.ORG/Path"))up</a></p>\n"),
        .init(
            name: "surrounding spaces trimmed", input: "<a href=\"  https://ok.example/x  \">t</a>",
            expected: "<p>\(a("https://ok.example/x"))t</a></p>\n"),
        .init(
            name: "space in URL encoded", input: "<a href=\"https://example.org/a b\">sp</a>",
            expected: "<p>\(a("https://example.org/a%20b"))sp</a></p>\n"),
        .init(
            name: "ampersand in query", input: "<a href=\"https://example.org/a?b=1&amp;c=2\">amp</a>",
            expected: "<p>\(a("https://example.org/a?b=1&amp;c=2"))amp</a></p>\n"),
        .init(
            name: "only href and title survive on links",
            input:
                "<a href=\"https://example.org/\" title=\"T &amp; t\" target=\"_blank\" onclick=\"x()\" style=\"color:red\">t</a>",
            expected: "<p>\(a("https://example.org/", title: "T &amp; t"))t</a></p>\n"),
        .init(
            name: "anchor without href unwrapped", input: "<a name=\"anchor\">no href</a>", expected: "<p>no href</p>\n"
        ),
        .init(
            name: "nested links split as browsers do", input: "<a href=\"/a\">outer <a href=\"/b\">inner</a></a>",
            expected: "<p>\(a("https://example.com/a"))outer </a>\(a("https://example.com/b"))inner</a></p>\n"),
        .init(
            name: "block inside link", input: "<a href=\"/x\"><div>block in link</div></a>",
            expected: "<p>\(a("https://example.com/x"))block in link</a></p>\n"),
        .init(
            name: "paragraph inside bold", input: "<b><p>bold para</p></b>",
            expected: "<p><strong>bold para</strong></p>\n"),
        .init(
            name: "image inside link", input: "<a href=\"https://x.example/\"><img src=\"i.png\" alt=\"logo\"></a>",
            expected: "<p>\(a("https://x.example/"))\(img("https://example.com/blog/i.png", alt: "logo"))</a></p>\n"),
        .init(
            name: "scheme without slashes", input: "<a href=\"https:evil.example\">bad</a>", expected: "<p>bad</p>\n"),

        // Images
        .init(
            name: "image with alt and title",
            input: "<img src=\"p.jpg\" alt=\"A &quot;pic&quot;\" title=\"T\" width=\"600\">",
            expected: "<p>\(img("https://example.com/blog/p.jpg", alt: "A &quot;pic&quot;", title: "T"))</p>\n"),
        .init(
            name: "tracking pixel dropped", input: "<img src=\"https://t.example/pixel.gif\" width=\"1\" height=\"1\">",
            expected: ""),
        .init(
            name: "lazy data-src behind a data: placeholder",
            input: "<img src=\"data:image/gif;base64,R0lGOD\" data-src=\"/real.jpg\">",
            expected: "<p>\(img("https://example.com/real.jpg"))</p>\n"),
        .init(
            name: "lazy data-lazy-src behind blank.gif",
            input: "<img src=\"/blank.gif\" data-lazy-src=\"/lazy.jpg\" alt=\"l\">",
            expected: "<p>\(img("https://example.com/lazy.jpg", alt: "l"))</p>\n"),
        .init(
            name: "largest srcset candidate", input: "<img srcset=\"a.jpg 300w, b.jpg 1200w, c.jpg 600w\">",
            expected: "<p>\(img("https://example.com/blog/b.jpg"))</p>\n"),
        .init(
            name: "picture keeps its img",
            input: "<picture><source srcset=\"a.webp\"><img src=\"a.jpg\" alt=\"p\"></picture>",
            expected: "<p>\(img("https://example.com/blog/a.jpg", alt: "p"))</p>\n"),
        // An image that cannot be shown keeps what a browser shows in its place: its alt text.
        .init(name: "image without src dropped", input: "<img alt=\"nosrc\">", expected: ""),
        .init(
            name: "data: image rejected, its alt text stays",
            input: "<p>See <img src=\"data:image/png;base64,AAAA\" alt=\"the chart\">.</p>",
            expected: "<p>See the chart.</p>\n"),
        .init(
            name: "data: image without alt dropped", input: "<img src=\"data:image/png;base64,AAAA\" alt=\"  \">",
            expected: ""),
        .init(
            name: "a refused image's alt text is text, never markup",
            input: "<img src=\"javascript:x\" alt=\"a <b> &amp; c\">", expected: "<p>a &lt;b&gt; &amp; c</p>\n"),

        // Hostile
        .init(
            name: "script vanishes with content", input: "<script>alert(1)</script><p>ok</p>", expected: "<p>ok</p>\n"),
        .init(name: "SCRIPT uppercase", input: "<SCRIPT>alert(1)</SCRIPT>x", expected: "<p>x</p>\n"),
        .init(name: "Script mixed case", input: "<ScRiPt>alert(1)</sCrIpT>x", expected: "<p>x</p>\n"),
        .init(
            name: "script with attributes", input: "<script type=\"text/javascript\" src=\"//evil/x.js\"></script>y",
            expected: "<p>y</p>\n"),
        .init(
            name: "style vanishes", input: "<style>p{color:red}</style><template><b>t</b></template>visible",
            expected: "<p>visible</p>\n"),
        .init(
            name: "onerror image keeps only its src", input: "<img src=x onerror=alert(1)>",
            expected: "<p>\(img("https://example.com/blog/x"))</p>\n"),
        .init(name: "javascript: href", input: "<a href=\"javascript:alert(1)\">click</a>", expected: "<p>click</p>\n"),
        .init(
            name: "entity-obfuscated javascript:", input: "<a href=\"jav&#x61;script:alert(1)\">click</a>",
            expected: "<p>click</p>\n"),
        .init(
            name: "decimal entities and case", input: "<a href=\"&#74;ava&#83;cript:alert(1)\">x</a>",
            expected: "<p>x</p>\n"),
        .init(name: "tab inside scheme", input: "<a href=\"jav\tascript:alert(1)\">x</a>", expected: "<p>x</p>\n"),
        .init(name: "newline inside scheme", input: "<a href=\"java\nscript:alert(1)\">x</a>", expected: "<p>x</p>\n"),
        .init(
            name: "entity newline inside scheme", input: "<a href=\"java&#10;script:alert(1)\">x</a>",
            expected: "<p>x</p>\n"),
        .init(
            name: "leading space before scheme", input: "<a href=\" javascript:alert(1)\">x</a>", expected: "<p>x</p>\n"
        ),
        .init(
            name: "leading control char", input: "<a href=\"\u{01}javascript:alert(1)\">x</a>", expected: "<p>x</p>\n"),
        .init(
            name: "control char inside scheme", input: "<a href=\"java\u{01}script:alert(1)\">x</a>",
            expected: "<p>x</p>\n"),
        .init(name: "vbscript: href", input: "<a href=\"VBScript:msgbox\">x</a>", expected: "<p>x</p>\n"),
        .init(
            name: "data: href", input: "<a href=\"data:text/html,<script>alert(1)</script>\">x</a>",
            expected: "<p>x</p>\n"),
        .init(
            name: "javascript: image src: the image goes, its alt text is text",
            input: "<img src=\"javascript:alert(1)\" alt=\"js\">", expected: "<p>js</p>\n"),
        .init(
            name: "svg with script", input: "<svg><script>alert(1)</script><text>t</text></svg>after",
            expected: "<p>after</p>\n"),
        .init(
            name: "svg foreignObject", input: "<svg><foreignObject><p>f</p></foreignObject></svg>s",
            expected: "<p>s</p>\n"),
        .init(name: "math", input: "<math><mi>x</mi></math>y", expected: "<p>y</p>\n"),
        .init(
            name: "math mtext with img", input: "<math><mtext><img src=x onerror=alert(1)></mtext></math>m",
            expected: "<p>m</p>\n"),
        .init(
            name: "comment trick parses as a real img", input: "<!--><img src=x onerror=alert(1)>-->",
            expected: "<p>\(img("https://example.com/blog/x"))--&gt;</p>\n"),
        .init(name: "ordinary comment dropped", input: "a<!-- <script>alert(1)</script> -->b", expected: "<p>ab</p>\n"),
        .init(
            name: "noscript content salvaged", input: "<noscript><img src=real.jpg></noscript>",
            expected: "<p>\(img("https://example.com/blog/real.jpg"))</p>\n"),
        .init(
            name: "youtube iframe becomes a link",
            input: "<iframe src=\"https://www.youtube.com/embed/abc123\"></iframe>",
            expected: "<p>\(a("https://www.youtube.com/watch?v=abc123"))Video on youtube.com</a></p>\n"),
        .init(
            name: "vimeo iframe becomes a link", input: "<iframe src=\"https://player.vimeo.com/video/123\"></iframe>",
            expected: "<p>\(a("https://vimeo.com/123"))Video on vimeo.com</a></p>\n"),
        .init(
            name: "other iframe dropped", input: "<iframe src=\"https://evil.example/frame\">fallback</iframe>gone",
            expected: "<p>gone</p>\n"),
        .init(
            name: "srcdoc iframe dropped", input: "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>x",
            expected: "<p>x</p>\n"),
        .init(
            name: "object, embed and form dropped",
            input:
                "<object data=x>obj</object><embed src=y><form action=/f><input name=a><button>b</button><select><option>o</select></form>text",
            expected: "<p>text</p>\n"),
        .init(
            name: "textarea content dropped", input: "<textarea><img src=x></textarea>after", expected: "<p>after</p>\n"
        ),
        .init(
            name: "video and audio become links, fallbacks dropped",
            input: "<video src=\"x.mp4\">fallback</video><audio src=a.mp3>no audio</audio>ok",
            expected:
                "<p>\(a("https://example.com/blog/x.mp4"))Video on example.com</a></p>\n<p>\(a("https://example.com/blog/a.mp3"))Audio on example.com</a></p>\n<p>ok</p>\n"
        ),
        .init(
            name: "meta refresh and base href ignored",
            input:
                "<meta http-equiv=refresh content=\"0;url=https://evil\"><base href=\"https://evil/\"><a href=\"/x\">x</a>",
            expected: "<p>\(a("https://example.com/x"))x</a></p>\n"),
        .init(
            name: "style, class, id and handlers stripped",
            input: "<p style=\"color:red\" onclick=\"x\" class=\"c\" id=\"i\">styled</p>", expected: "<p>styled</p>\n"),
        .init(
            name: "unclosed tags", input: "<p>unclosed <b>bold <i>both",
            expected: "<p>unclosed <strong>bold <em>both</em></strong></p>\n"),
        .init(
            name: "NUL bytes", input: "a\u{0}b<img src=\"x\u{0}.png\">",
            expected: "<p>a\u{FFFD}b\(img("https://example.com/blog/x%EF%BF%BD.png"))</p>\n"),
        .init(name: "plaintext element swallows the rest", input: "<plaintext><b>x</b>", expected: ""),
        .init(name: "xmp dropped", input: "<xmp><b>x</b></xmp>y", expected: "<p>y</p>\n"),
        .init(
            name: "escaped markup displays as text", input: "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
            expected: "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"),
        .init(
            name: "double-escaped entity stays literal", input: "&amp;lt;b&amp;gt;",
            expected: "<p>&amp;lt;b&amp;gt;</p>\n"),
        .init(
            name: "markdown syntax in HTML stays literal",
            input: "<p>*not emphasis* and _x_ and [l](javascript:x) `c` # h</p>",
            expected: "<p>*not emphasis* and _x_ and [l](javascript:x) `c` # h</p>\n"),
        .init(
            name: "attribute-breaking quotes in alt", input: "<img src=\"a.png\" alt='\"><script>alert(1)</script>'>",
            expected:
                "<p>\(img("https://example.com/blog/a.png", alt: "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))</p>\n"
        ),
        .init(
            name: "quote in href is escaped", input: "<a href='https://e.example/\"onmouseover=\"x'>q</a>",
            expected: "<p>\(a("https://e.example/%22onmouseover=%22x"))q</a></p>\n"),

        // Plain text: shown as written (Atom `type="text"`, JSON Feed `content_text`)
        .init(
            name: "plain text: Markdown, a script and a javascript link stay text",
            input: "Hello *world* <script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](/rel)",
            expected:
                "<p>Hello *world* &lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p>[x](javascript:alert(1)) [y](/rel)</p>\n",
            isPlainText: true),
        .init(
            name: "plain text: a # line and - lines are no heading or list", input: "# Title\n\n- a\n- b",
            expected: "<p># Title</p>\n<p>- a<br />\n- b</p>\n", isPlainText: true),
        .init(
            name: "plain text: fences, quotes, image syntax and rules stay text",
            input: "```js\nconsole.log(1)\n```\n\n> quote\n\n![img](/i.png \"t\") <b>raw</b>\n\n***",
            expected:
                "<p>```js<br />\nconsole.log(1)<br />\n```</p>\n<p>&gt; quote</p>\n<p>![img](/i.png &quot;t&quot;) &lt;b&gt;raw&lt;/b&gt;</p>\n<p>***</p>\n",
            isPlainText: true),
        .init(
            name: "plain text: footnote lines, asterisks, underscores, numbers and underlines as written",
            input:
                "Sources below.\n\n[1]: https://example.org/one\n2*3*4, C:\\Users\\_temp, __init__\n1986. A year.\nPrice list\n---",
            expected:
                "<p>Sources below.</p>\n<p>[1]: \(a("https://example.org/one"))https://example.org/one</a><br />\n2*3*4, C:\\Users\\_temp, __init__<br />\n1986. A year.<br />\nPrice list<br />\n---</p>\n",
            isPlainText: true),
        .init(
            name: "plain text: typed URLs linked without the punctuation after them",
            input:
                "See https://e.example/a_(b). Or (http://e.example/c), HTTPS://E.example/d! ftp://e.example/ xhttp://no",
            expected:
                "<p>See \(a("https://e.example/a_(b)"))https://e.example/a_(b)</a>. Or (\(a("http://e.example/c"))http://e.example/c</a>), \(a("https://E.example/d"))HTTPS://E.example/d</a>! ftp://e.example/ xhttp://no</p>\n",
            isPlainText: true),
        .init(
            name: "plain text with ampersand", input: "plain text with <b>tags</b> & ampersand",
            expected: "<p>plain text with &lt;b&gt;tags&lt;/b&gt; &amp; ampersand</p>\n", isPlainText: true),
        .init(
            name: "plain-text line breaks kept", input: "line\nbreak  \nhard",
            expected: "<p>line<br />\nbreak<br />\nhard</p>\n",
            isPlainText: true),
        .init(
            name: "plain text: an HTML block stays text", input: "<div onclick=x>\nhi\n</div>",
            expected: "<p>&lt;div onclick=x&gt;<br />\nhi<br />\n&lt;/div&gt;</p>\n", isPlainText: true),
    ]
}
