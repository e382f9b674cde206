/// The closed world the sanitiser publishes: every construct feedsite can emit, and nothing else.
///
/// Feed HTML (via `ContentBuilder`) and Markdown (via `CmarkDocument.parse`) are both turned into
/// this tree, `ContentNormaliser` tidies it, and `CmarkDocument.render` builds brand-new cmark
/// nodes from it. Because there is no case for raw HTML, attributes or unknown elements, no tag
/// name or attribute from a feed can reach the output: the type system is the allowlist.
enum ContentBlock: Sendable, Hashable {
    case paragraph([ContentInline])
    /// `level` is 1...6; `ContentNormaliser` demotes so the page's own `<h1>` stays unique.
    case heading(level: Int, [ContentInline])
    case blockQuote([ContentBlock])
    case list(ContentList)
    /// `code` holds the literal text without a final newline; `language` is already filtered.
    case codeBlock(language: String?, code: String)
    case thematicBreak
    case table(ContentTable)
}

/// A bullet or ordered list.
struct ContentList: Sendable, Hashable {
    var isOrdered: Bool
    /// First number of an ordered list (ignored for bullets).
    var start: Int
    /// Tight lists render items without `<p>`; cmark glues adjacent paragraphs of a tight item
    /// together, so the normaliser loosens any list whose items hold more than one paragraph.
    var isTight: Bool
    var items: [[ContentBlock]]
}

/// A GFM table. Cells hold inline content only (cmark-gfm cannot nest blocks in cells).
struct ContentTable: Sendable, Hashable {
    /// Column alignment as cmark-gfm spells it.
    enum Alignment: Sendable, Hashable {
        case none, left, center, right
    }

    var alignments: [Alignment]
    /// The header row, when the source had one (`<thead>` or a first row of `<th>`).
    var header: [[ContentInline]]?
    var rows: [[[ContentInline]]]

    /// Width of the widest row: cmark-gfm needs every row padded to this.
    var columnCount: Int {
        max(header?.count ?? 0, rows.map(\.count).max() ?? 0)
    }
}

/// Inline content. Text is the displayed text itself (already entity-decoded); cmark escapes it.
enum ContentInline: Sendable, Hashable {
    case text(String)
    case code(String)
    case emphasis([ContentInline])
    case strong([ContentInline])
    case strikethrough([ContentInline])
    /// `destination` has passed `URLPolicy`; `title` may be empty.
    case link(destination: String, title: String, [ContentInline])
    /// `source` has passed `URLPolicy`.
    case image(source: String, title: String, alt: String)
    case lineBreak

    /// The same formatting or link around `transform(children)`; nil for what has no children
    /// (text, code, an image, a line break).
    func replacingChildren(_ transform: ([ContentInline]) -> [ContentInline]) -> ContentInline? {
        switch self {
        case .emphasis(let children): .emphasis(transform(children))
        case .strong(let children): .strong(transform(children))
        case .strikethrough(let children): .strikethrough(transform(children))
        case .link(let destination, let title, let children):
            .link(destination: destination, title: title, transform(children))
        case .text, .code, .image, .lineBreak: nil
        }
    }
}
