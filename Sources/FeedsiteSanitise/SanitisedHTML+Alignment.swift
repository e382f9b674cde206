import FeedsiteShared
import Foundation

extension SanitisedHTML {
    /// The same markup with cmark-gfm's table-cell `align="…"` attributes (obsolete in HTML5: the
    /// W3C checker reports each as an error) turned into `class="align-…"`, which the theme styles.
    ///
    /// Only the exact tags cmark-gfm writes are rewritten (`<td align="center">`); text cannot
    /// contain them because the renderer escapes `"` and `<` in text. The result stays sanitised:
    /// a fixed attribute is swapped for a fixed class.
    ///
    /// Applied to the pages only (the planet's feeds keep cmark-gfm's markup), because the pages are
    /// what the checker reads.
    package var withAlignmentClasses: SanitisedHTML {
        // Hot path (every item body, on two pages): a byte search, not Foundation's `contains`
        // (which goes through NSString); see Benchmarks/RESULTS.md.
        guard Self.containsAlignAttribute(html) else { return self }
        var text = html
        for cell in ["th", "td"] {
            for alignment in ["left", "center", "right"] {
                text = text.replacingOccurrences(
                    of: "<\(cell) align=\"\(alignment)\">", with: "<\(cell) class=\"align-\(alignment)\">")
            }
        }
        return SanitisedHTML(html: text)
    }

    private static func containsAlignAttribute(_ html: String) -> Bool {
        let needle: [UInt8] = Array(" align=\"".utf8)
        let anchor = 4  // `g`, the needle's rarest byte in prose and markup
        var html = html
        return html.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count >= needle.count else { return false }
            // Skips to each `g` with `memchr`, then compares the whole needle.
            let end = bytes.count - needle.count + anchor + 1  // past the last possible anchor
            var index = anchor
            while let position = ByteScan.firstIndex(of: needle[anchor], in: bytes, from: index, to: end) {
                if memcmp(base + position - anchor, needle, needle.count) == 0 { return true }
                index = position + 1
            }
            return false
        }
    }
}
