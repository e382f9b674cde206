import CCmarkGFM
import Foundation

@testable import FeedsiteSanitise

extension CmarkDocument {
    /// cmark's plain-text rendering of `blocks`: the reference `PlainText` is tested against.
    ///
    /// It needs a second build of the tree with the GFM constructs spelt as ordinary nodes (cmark's
    /// plain-text renderer would write `~` around strikethrough and `|` pipes for tables): the
    /// sanitiser does not make it, `PlainText` writes the same words from the tree.
    static func referencePlainText(_ blocks: [ContentBlock]) -> String {
        guard let document = cmark_node_new(CMARK_NODE_DOCUMENT) else { return "" }
        defer { cmark_node_free(document) }
        NodeBuilder(extensions: nil, isPlainText: true).appendBlocks(blocks, to: document)
        // Width 0: no hard wrapping; the excerpt code collapses whitespace anyway.
        guard let rendered = cmark_render_plaintext(document, CMARK_OPT_DEFAULT, 0) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }
}
