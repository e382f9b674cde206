/// The plain text of a content tree, for excerpts and word counts.
///
/// It writes the words cmark's plain-text renderer writes for the same tree (list markers,
/// image alt text, table cells joined by spaces, strikethrough as its text), separated wherever
/// cmark separates them: a blank line after each block, one line per item of a tight list, no
/// indentation. Excerpts collapse whitespace and word counts ignore it, so both come out identical
/// (`PlainTextTests` checks this against cmark's plain-text renderer over the fixtures, the hostile
/// corpus and generated trees).
/// Writing it from the tree directly spares a second cmark build of every item.
struct PlainText {
    private var text = ""
    /// Blocks directly inside an item of a tight list end with a newline rather than a blank line.
    private var isInTightItem = false

    static func of(_ blocks: [ContentBlock]) -> String {
        var writer = PlainText()
        writer.write(blocks)
        return writer.text
    }

    private mutating func write(_ blocks: [ContentBlock]) {
        for block in blocks {
            write(block)
        }
    }

    private mutating func write(_ block: ContentBlock) {
        switch block {
        case .paragraph(let inlines), .heading(_, let inlines):
            startBlock()
            write(inlines)
            endBlock()
        case .blockQuote(let blocks):
            let wasInTightItem = isInTightItem
            isInTightItem = false
            write(blocks)
            isInTightItem = wasInTightItem
        case .list(let list):
            let wasInTightItem = isInTightItem
            for (index, item) in list.items.enumerated() {
                startBlock()
                text += list.isOrdered ? "\(list.start + index). " : "- "
                isInTightItem = list.isTight
                write(item)
                isInTightItem = wasInTightItem
                startBlock()
            }
            endBlock()
        case .codeBlock(_, let code):
            startBlock()
            text += code
            endBlock()
        case .thematicBreak:
            endBlock()
        case .table(let table):
            // Each row as a paragraph of its non-empty cells, as `CmarkDocument` builds it for cmark.
            for row in (table.header.map { [$0] } ?? []) + table.rows {
                startBlock()
                var isFirst = true
                for cell in row where !cell.isEmpty {
                    if !isFirst { text += " " }
                    isFirst = false
                    write(cell)
                }
                endBlock()
            }
        }
    }

    private mutating func write(_ inlines: [ContentInline]) {
        for inline in inlines {
            switch inline {
            case .text(let literal), .code(let literal):
                text += literal
            case .emphasis(let children), .strong(let children), .strikethrough(let children):
                write(children)
            case .link(_, _, let children):
                write(children)
            case .image(_, _, let alt):
                text += alt
            case .lineBreak:
                text += "\n"
            }
        }
    }

    /// A block starts on a new line.
    private mutating func startBlock() {
        if let last = text.utf8.last, last != UInt8(ascii: "\n") {
            text += "\n"
        }
    }

    /// A blank line follows a block (a newline only inside a tight list item).
    private mutating func endBlock() {
        startBlock()
        if !isInTightItem, !text.isEmpty, !endsWithBlankLine {
            text += "\n"
        }
    }

    /// Whether the text ends with two newlines (hot path: after every block; the last two bytes
    /// are read directly, not through generic collection code).
    private var endsWithBlankLine: Bool {
        let utf8 = text.utf8
        guard utf8.count >= 2, utf8.last == UInt8(ascii: "\n") else { return false }
        return utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: "\n")
    }
}
