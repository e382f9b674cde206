/// Tidies a `ContentBlock` tree the way a browser would display it, so the output is minimal and
/// sanitising is idempotent: whitespace is collapsed (outside code), trimmed at block edges and
/// around line breaks, empty paragraphs, links and formatting vanish, headings are demoted, nested
/// links are unwrapped and lists that cmark would glue together are loosened.
///
/// Both the HTML and the Markdown paths end here, so the same rules apply to every item body.
struct ContentNormaliser {
    /// Added to every heading level. One when the content has an `<h1>` (which would compete with
    /// the page's own title), otherwise zero: demoting relative to the content's top level rather
    /// than by a fixed step keeps a second pass from demoting again.
    private var headingShift = 0

    /// Normalises a whole document.
    static func normalise(_ blocks: [ContentBlock]) -> [ContentBlock] {
        var normaliser = ContentNormaliser()
        normaliser.headingShift = minimumHeadingLevel(in: blocks).map { $0 < 2 ? 2 - $0 : 0 } ?? 0
        return normaliser.blocks(blocks)
    }

    private static func minimumHeadingLevel(in blocks: [ContentBlock]) -> Int? {
        var minimum: Int?
        for block in blocks {
            var level: Int?
            switch block {
            case .heading(let headingLevel, _):
                level = headingLevel
            case .blockQuote(let inner):
                level = minimumHeadingLevel(in: inner)
            case .list(let list):
                level = list.items.compactMap { minimumHeadingLevel(in: $0) }.min()
            default:
                break
            }
            if let level { minimum = min(minimum ?? level, level) }
        }
        return minimum
    }

    // MARK: - Blocks

    private func blocks(_ blocks: [ContentBlock]) -> [ContentBlock] {
        blocks.compactMap(block)
    }

    private func block(_ block: ContentBlock) -> ContentBlock? {
        switch block {
        case .paragraph(let inlines):
            let content = Self.inlines(inlines)
            return content.isEmpty ? nil : .paragraph(content)
        case .heading(let level, let inlines):
            let content = Self.inlines(inlines)
            return content.isEmpty ? nil : .heading(level: min(max(level + headingShift, 1), 6), content)
        case .blockQuote(let inner):
            let content = blocks(inner)
            return content.isEmpty ? nil : .blockQuote(content)
        case .list(var list):
            list.items = list.items.map(blocks)
            guard list.items.contains(where: { !$0.isEmpty }) else { return nil }
            let gluesParagraphs = list.items.contains { item in
                item.filter { if case .paragraph = $0 { true } else { false } }.count > 1
            }
            if gluesParagraphs { list.isTight = false }
            return .list(list)
        case .codeBlock(let language, let code):
            let text = Self.trimTrailingNewlines(code)
            guard text.unicodeScalars.contains(where: { !Self.isWhitespace($0) }) else { return nil }
            return .codeBlock(language: language, code: text)
        case .thematicBreak:
            return .thematicBreak
        case .table(var table):
            // Line breaks cannot live in GFM table cells.
            let cell = { (inlines: [ContentInline]) in Self.inlines(Self.replacingLineBreaks(inlines)) }
            table.header = table.header.map { $0.map(cell) }
            table.rows = table.rows.map { $0.map(cell) }
            let hasContent = ((table.header.map { [$0] } ?? []) + table.rows).contains { $0.contains { !$0.isEmpty } }
            return hasContent ? .table(table) : nil
        }
    }

    private static func trimTrailingNewlines(_ code: String) -> String {
        // Most code ends in a visible character: nothing to trim, nothing to copy.
        if let last = code.utf8.last, !isWhitespace(last) { return code }
        var scalars = Array(code.unicodeScalars)
        // Trailing blank lines and the final newline go; cmark adds exactly one newline back.
        while let last = scalars.last, last == "\n" || last == "\r" || last == " " || last == "\t" {
            if last == "\n" || last == "\r" {
                scalars.removeLast()
                continue
            }
            // Trailing spaces on a line that is otherwise blank.
            guard let newline = scalars.lastIndex(where: { $0 == "\n" }),
                scalars[(newline + 1)...].allSatisfy({ $0 == " " || $0 == "\t" })
            else { break }
            scalars.removeSubrange((newline + 1)...)
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }

    // MARK: - Inlines

    /// HTML's "ASCII whitespace"; NBSP and other Unicode spaces are content and are kept.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    /// `isWhitespace` for one UTF-8 byte.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// Where a pass over a block's inlines stands; shared across nesting levels because
    /// `a <em> b</em>` collapses across the `<em>` boundary.
    private struct Scan {
        /// The last emitted character was whitespace, a line break, or the block's edge.
        var atSpace = true
        /// Something visible has been emitted (forward) or follows (backward).
        var hasContent = false
    }

    /// Collapse, trim, then drop what became empty. Most paragraphs need neither of the last two
    /// (they end in visible text and hold no empty formatting): read-only checks spare them the
    /// passes, which rebuild every array of the tree.
    static func inlines(_ inlines: [ContentInline]) -> [ContentInline] {
        var forward = Scan()
        var result = collapse(inlines, &forward)
        var check = Scan()
        if needsTrimming(result, &check) {
            var backward = Scan()
            result = trimTrailing(result, &backward)
        }
        return isTidy(result) ? result : removeEmpty(result)
    }

    /// Whether `trimTrailing` would change anything (it is read-only, and follows the same steps).
    private static func needsTrimming(_ inlines: [ContentInline], _ scan: inout Scan) -> Bool {
        for inline in inlines.reversed() {
            switch inline {
            case .text(let text):
                if text.isEmpty || (scan.atSpace && text.utf8.last == UInt8(ascii: " ")) { return true }
                scan.atSpace = false
                scan.hasContent = true
            case .lineBreak:
                guard scan.hasContent else { return true }
                scan.atSpace = true
            case .code, .image:
                scan.atSpace = false
                scan.hasContent = true
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                if needsTrimming(children, &scan) { return true }
            }
        }
        return false
    }

    /// Whether `removeEmpty` would return `inlines` as they are: no empty text, no two texts side
    /// by side, and no formatting or link without content, at any depth.
    private static func isTidy(_ inlines: [ContentInline]) -> Bool {
        var previousIsText = false
        for inline in inlines {
            switch inline {
            case .text(let text):
                if text.isEmpty || previousIsText { return false }
                previousIsText = true
                continue
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                if children.isEmpty || !isTidy(children) { return false }
            case .code, .image, .lineBreak:
                break
            }
            previousIsText = false
        }
        return true
    }

    /// Forward pass: runs of whitespace become one space, a space is dropped after a space or
    /// line break (or at the start), and line breaks before any content go.
    private static func collapse(_ inlines: [ContentInline], _ scan: inout Scan) -> [ContentInline] {
        var result: [ContentInline] = []
        for inline in inlines {
            switch inline {
            case .text(let text):
                // Most text needs no change (no runs, no newlines, no space after a space): kept
                // as it is, without a copy and the UTF-8 validation a new string costs.
                if let unchanged = unchangedText(text, &scan) {
                    if !unchanged.isEmpty { result.append(.text(unchanged)) }
                    continue
                }
                // HTML whitespace is ASCII, so the pass works on UTF-8 bytes: any byte of a
                // multi-byte character is >= 0x80 and counts as content.
                var output: [UInt8] = []
                output.reserveCapacity(text.utf8.count)
                for byte in text.utf8 {
                    if isWhitespace(byte) {
                        if !scan.atSpace { output.append(UInt8(ascii: " ")) }
                        scan.atSpace = true
                    } else {
                        output.append(byte)
                        scan.atSpace = false
                        scan.hasContent = true
                    }
                }
                if !output.isEmpty { result.append(.text(String(decoding: output, as: UTF8.self))) }
            case .code(let code):
                let output = collapsedWhitespace(code, trimming: false)
                guard !output.isEmpty else { continue }
                result.append(.code(output))
                scan.atSpace = false
                scan.hasContent = true
            case .emphasis, .strong, .strikethrough:
                if let wrapped = inline.replacingChildren({ collapse($0, &scan) }) { result.append(wrapped) }
            case .link(let destination, let title, let children):
                let title = collapsedWhitespace(title, trimming: true)
                result.append(.link(destination: destination, title: title, collapse(children, &scan)))
            case .image(let source, let title, let alt):
                let title = collapsedWhitespace(title, trimming: true)
                result.append(.image(source: source, title: title, alt: collapsedWhitespace(alt, trimming: true)))
                scan.atSpace = false
                scan.hasContent = true
            case .lineBreak:
                // A break before any content would only add an empty line at the block's top.
                guard scan.hasContent else { continue }
                result.append(.lineBreak)
                scan.atSpace = true
            }
        }
        return result
    }

    /// `text` when `collapse` would leave it as it is (every whitespace byte a single space that
    /// does not follow a space), with `scan` advanced as `collapse` would; nil (and `scan`
    /// untouched) otherwise.
    private static func unchangedText(_ text: String, _ scan: inout Scan) -> String? {
        var copy = text
        var atSpace = scan.atSpace
        var hasContent = scan.hasContent
        let isUnchanged = copy.withUTF8 { bytes in
            for byte in bytes {
                if isWhitespace(byte) {
                    guard byte == UInt8(ascii: " "), !atSpace else { return false }
                    atSpace = true
                } else {
                    atSpace = false
                    hasContent = true
                }
            }
            return true
        }
        guard isUnchanged else { return nil }
        scan.atSpace = atSpace
        scan.hasContent = hasContent
        return text
    }

    /// Backward pass: spaces before a line break or the block's end go, and so do line breaks
    /// with nothing after them (they display nothing).
    private static func trimTrailing(_ inlines: [ContentInline], _ scan: inout Scan) -> [ContentInline] {
        var result: [ContentInline] = []
        for inline in inlines.reversed() {
            switch inline {
            case .text(var text):
                if scan.atSpace {
                    while text.unicodeScalars.last == " " { text.unicodeScalars.removeLast() }
                }
                if text.isEmpty { continue }
                scan.atSpace = false
                scan.hasContent = true
                result.append(.text(text))
            case .lineBreak:
                guard scan.hasContent else { continue }
                scan.atSpace = true
                result.append(.lineBreak)
            case .code, .image:
                scan.atSpace = false
                scan.hasContent = true
                result.append(inline)
            case .emphasis, .strong, .strikethrough, .link:
                if let wrapped = inline.replacingChildren({ trimTrailing($0, &scan) }) { result.append(wrapped) }
            }
        }
        return result.reversed()
    }

    /// Formatting and links with no visible content render as nothing (or as an empty `<a>`).
    /// Adjacent texts are joined: gathered in one run and stored once, so the cost stays linear
    /// (joining pair by pair copies the text so far at every step).
    private static func removeEmpty(_ inlines: [ContentInline]) -> [ContentInline] {
        var result: [ContentInline] = []
        var run = ""
        func append(_ inline: ContentInline) {
            if !run.isEmpty {
                result.append(.text(run))
                run = ""
            }
            result.append(inline)
        }
        for inline in inlines {
            switch inline {
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                let content = removeEmpty(children)
                if !content.isEmpty, let wrapped = inline.replacingChildren({ _ in content }) { append(wrapped) }
            case .text(let text):
                run += text
            default:
                append(inline)
            }
        }
        if !run.isEmpty { result.append(.text(run)) }
        return result
    }

    /// Whitespace runs as one space (attributes, inline code), optionally trimmed.
    private static func collapsedWhitespace(_ value: String, trimming: Bool) -> String {
        var afterSpace = trimming
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isWhitespace(byte) {
                if !afterSpace { output.append(UInt8(ascii: " ")) }
                afterSpace = true
            } else {
                output.append(byte)
                afterSpace = false
            }
        }
        if trimming {
            while output.last == UInt8(ascii: " ") { output.removeLast() }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func replacingLineBreaks(_ inlines: [ContentInline]) -> [ContentInline] {
        inlines.map { inline in
            switch inline {
            case .lineBreak: .text(" ")
            case .emphasis(let c): .emphasis(replacingLineBreaks(c))
            case .strong(let c): .strong(replacingLineBreaks(c))
            case .strikethrough(let c): .strikethrough(replacingLineBreaks(c))
            case .link(let d, let t, let c): .link(destination: d, title: t, replacingLineBreaks(c))
            default: inline
            }
        }
    }
}
