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
        guard html.contains(" align=\"") else { return self }
        var text = html
        for cell in ["th", "td"] {
            for alignment in ["left", "center", "right"] {
                text = text.replacingOccurrences(
                    of: "<\(cell) align=\"\(alignment)\">", with: "<\(cell) class=\"align-\(alignment)\">")
            }
        }
        return SanitisedHTML(html: text)
    }
}
