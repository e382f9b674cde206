/// Keeps the HTML cmark renders from a content tree within the nesting limit, so the sanitiser's
/// output is never cut again when it is sanitised again (restored state, idempotence).
///
/// The rendered depth is not the input's: a loose list item adds a `<p>`, a table its
/// `<tbody>`, every paragraph its `<p>`. Past `maxDepth` elements, a block becomes a paragraph of
/// its text and formatting becomes its text; images and line breaks, which hold nothing, may sit
/// one below (as the nesting limiter lets them).
///
/// The walk recurses once per level of the tree, which is already bounded by the nesting limit
/// of the HTML it came from (about `maxDepth` × 1.5 at most).
enum ContentDepth {
    /// `blocks` when cmark's HTML for them nests at most `maxDepth` elements deep; otherwise the
    /// same content with everything deeper flattened.
    static func capped(_ blocks: [ContentBlock], maxDepth: Int) -> [ContentBlock] {
        guard renderedDepth(of: blocks, at: 1) > maxDepth else { return blocks }
        return blocks.map { capped($0, at: 1, maxDepth: maxDepth) }
    }

    /// Whether HTML `depth` elements deep can be deeper than `maxDepth` once rendered: lists
    /// render at most three elements (`ul`, `li`, `p`) for the input's two, plus the top `<p>`.
    static func mayExceed(_ maxDepth: Int, htmlDepth depth: Int) -> Bool {
        depth * 3 / 2 + 4 > maxDepth
    }

    // MARK: - Measuring

    /// The deepest non-void element cmark writes for `blocks`, the first of them at `depth`.
    private static func renderedDepth(of blocks: [ContentBlock], at depth: Int) -> Int {
        blocks.reduce(0) { max($0, renderedDepth(of: $1, at: depth)) }
    }

    private static func renderedDepth(of block: ContentBlock, at depth: Int) -> Int {
        switch block {
        case .paragraph(let inlines), .heading(_, let inlines):
            return max(depth, renderedDepth(of: inlines, at: depth + 1))
        case .blockQuote(let blocks):
            return max(depth, renderedDepth(of: blocks, at: depth + 1))
        case .list(let list):
            // `ul`/`ol` at depth, `li` below; a tight item's paragraphs lose their `<p>`.
            var deepest = depth + 1
            for item in list.items {
                for block in item {
                    if list.isTight, case .paragraph(let inlines) = block {
                        deepest = max(deepest, renderedDepth(of: inlines, at: depth + 2))
                    } else {
                        deepest = max(deepest, renderedDepth(of: block, at: depth + 2))
                    }
                }
            }
            return deepest
        case .codeBlock:
            return depth + 1
        case .thematicBreak:
            return 0
        case .table(let table):
            // `table`, `thead`/`tbody`, `tr`, `th`/`td`.
            let cells = (table.header.map { [$0] } ?? []) + table.rows
            return cells.flatMap { $0 }.reduce(depth + 3) { max($0, renderedDepth(of: $1, at: depth + 4)) }
        }
    }

    private static func renderedDepth(of inlines: [ContentInline], at depth: Int) -> Int {
        var deepest = 0
        for inline in inlines {
            switch inline {
            case .text, .image, .lineBreak:
                continue
            case .code:
                deepest = max(deepest, depth)
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                deepest = max(deepest, depth, renderedDepth(of: children, at: depth + 1))
            }
        }
        return deepest
    }

    // MARK: - Flattening

    /// `block` rendered at `depth` (at most `maxDepth`), flattened where it would go deeper.
    private static func capped(_ block: ContentBlock, at depth: Int, maxDepth: Int) -> ContentBlock {
        guard renderedDepth(of: block, at: depth) > maxDepth else { return block }
        switch block {
        case .paragraph(let inlines):
            return .paragraph(capped(inlines, at: depth + 1, maxDepth: maxDepth))
        case .heading(let level, let inlines):
            return .heading(level: level, capped(inlines, at: depth + 1, maxDepth: maxDepth))
        case .blockQuote(let blocks) where depth + 1 <= maxDepth:
            return .blockQuote(blocks.map { capped($0, at: depth + 1, maxDepth: maxDepth) })
        case .list(var list) where depth + 2 <= maxDepth:
            list.items = list.items.map { item in
                item.map { block in
                    if list.isTight, case .paragraph(let inlines) = block {
                        return .paragraph(capped(inlines, at: depth + 2, maxDepth: maxDepth))
                    }
                    return capped(block, at: depth + 2, maxDepth: maxDepth)
                }
            }
            // A paragraph flattened out of a tight item must not gain a `<p>` it had not.
            return .list(list)
        default:
            // No room for the container's own structure: its text, as one paragraph.
            return .paragraph(text(of: ContentBuilder.flattened(block)))
        }
    }

    /// Inlines rendered at `depth`: formatting that would go deeper becomes its text.
    private static func capped(_ inlines: [ContentInline], at depth: Int, maxDepth: Int) -> [ContentInline] {
        inlines.flatMap { inline -> [ContentInline] in
            switch inline {
            case .text, .image, .lineBreak:
                return [inline]
            case .code(let code):
                return depth <= maxDepth ? [inline] : [.text(code)]
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                guard depth <= maxDepth,
                    let wrapped = inline.replacingChildren({ capped($0, at: depth + 1, maxDepth: maxDepth) })
                else { return text(of: children) }
                return [wrapped]
            }
        }
    }

    /// The text of inlines, images and line breaks kept (they nest nothing), formatting dropped.
    private static func text(of inlines: [ContentInline]) -> [ContentInline] {
        inlines.flatMap { inline -> [ContentInline] in
            switch inline {
            case .text, .image, .lineBreak: [inline]
            case .code(let code): [.text(code)]
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                text(of: children)
            }
        }
    }
}
