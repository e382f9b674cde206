import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// Golden files over real captures: the sanitised body of the first two items of each feed
/// (Substack and Ghost captures hold one), pinned under `Snapshots/sanitise/<fixture>-<n>.html`.
/// Record with `RECORD_SNAPSHOTS=1` (a recording run fails on purpose), then review the diff.
///
/// Review notes, from reading each recording against its source HTML:
///
/// - wordpress-rss2-content-encoded: every paragraph, link, `<strong>`/`<em>` and screenshot is
///   kept (the largest `srcset` candidate is not needed: `src` is the full image); `align`,
///   `class`, `width`/`height`, `target` are gone. Crayon `<pre class="crayon-plain-tag">` code
///   keeps its indentation and blank lines exactly. The tweet embed keeps its quote and links;
///   its `<script>` and the empty `<p>` around it are gone. Fixed after review: WordPress emoji
///   images (`class="wp-smiley"`, 72×72 PNGs sized by CSS we drop) became huge inline images;
///   they are now their `alt` text (💃🏻).
/// - medium-rss2: paragraphs, links, the ordered list and the bold lines (`<p><strong>` with
///   stray newlines) are faithful; the `width="1" height="1"` stat pixel is dropped; the plain
///   `support@…` address stays text as in the source.
/// - substack-rss2: the RSS description is a teaser: paragraph, link (with its `&amp;` query
///   kept), the `<br>` and the "Read more" link in an indented `<p>`, whitespace collapsed.
/// - ghost-rss2: `kg-card` figures become image paragraphs with their `figcaption` as the next
///   paragraph, the stray `<img>` after the first figure is kept, h2/h3 stay (no h1, so no
///   demotion), pseudo-code in `<pre><code>` keeps its alignment, the `mailto:` link survives,
///   and `amazon20\$` is the source's own text.
/// - blogger-atom: text, `<br>` runs (trailing ones trimmed) as line breaks. Fixed after review:
///   the Blogger video `<iframe src="https://www.blogger.com/video.g?…">` vanished silently; it
///   is now a "Video on blogger.com" link paragraph.
/// - github-releases-atom: paragraph and tight list exactly as in the release notes; the
///   indentation GitHub puts between tags is gone.
/// - youtube-atom: the body is `media:description`, plain text. Fixed after review: the text
///   kept the XML's 8-space indentation, so Markdown turned everything after the first line into
///   one code block, joined the credit lines into a run-on paragraph and left URLs unlinked. Plain
///   text is now shown as written (`PlainTextContent`): its lines kept and bare URLs linked.
/// - podcast-itunes-squarespace-atp: show notes as nested lists with links, `<code>#askatp</code>`,
///   bold sponsor codes, the `<br>` inside the first item, `&quot;` shown as quotes; the
///   Squarespace markup around them is gone.
@Suite("Sanitiser golden files")
struct SanitiserGoldenTests {
    static let fixtures = [
        "wordpress-rss2-content-encoded", "medium-rss2", "substack-rss2", "ghost-rss2", "blogger-atom",
        "github-releases-atom", "youtube-atom", "podcast-itunes-squarespace-atp",
    ]

    @Test("first two items match their golden files", arguments: fixtures)
    func golden(_ fixture: String) throws {
        let data = try Fixtures.data("real-feeds/\(fixture).xml")
        let feedURL = URL(string: "https://feeds.example/\(fixture).xml")
        let feed = try FeedParser().parse(data, url: feedURL)
        #expect(!feed.items.isEmpty)
        let sanitiser = HTMLSanitiser()
        for (index, item) in feed.items.prefix(2).enumerated() {
            // The same body selection and base as the build (ReadFeed).
            let body = ReadFeed.sanitisedBody(of: item, finalURL: feedURL, sanitiser: sanitiser)
            let output = body.html.html
            #expect(AllowlistOracle.violations(in: output).isEmpty, "\(fixture) item \(index + 1)")
            #expect(
                sanitiser.sanitise(html: output, baseURL: feedURL).html == body.html, "\(fixture) item \(index + 1)")
            let name = "sanitise/\(fixture)-\(index + 1).html"
            let expected = try Fixtures.snapshot(name, actual: output)
            #expect(expected == output, "\(name) differs (RECORD_SNAPSHOTS=1 re-records; review the diff)")
        }
    }
}
