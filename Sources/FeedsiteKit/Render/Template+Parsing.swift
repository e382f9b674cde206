extension Template {
    /// Parses Mustache source. Errors carry the line and column of the offending tag.
    init(parsing text: String) throws(TemplateSyntaxError) {
        var parser = Parser(source: Array(text.utf8))
        nodes = try parser.parse()
    }

    /// A single pass over the bytes: find the next tag with the current delimiters, decide whether
    /// it stands alone on its line (then the line's whitespace and newline are not output), and
    /// build the node tree with a stack of open sections.
    private struct Parser {
        let source: [UInt8]
        private var open: [UInt8] = Array("{{".utf8)
        private var close: [UInt8] = Array("}}".utf8)
        /// The last tag located, for `locate`.
        private var located = (offset: 0, line: 1, column: 1)

        /// A section, block or parent being read, waiting for its closing tag.
        private struct Frame {
            enum Kind {
                case root
                case section(Name, isInverted: Bool)
                case block(String)
                case parent(String, at: Location)
            }
            var kind: Kind
            /// What the closing tag must say (`{{/name}}`).
            var closingName: String
            /// Where the opening tag starts, for "never closed".
            var offset: Int
            var nodes: [Node] = []
            /// `{{$block}}` definitions directly inside a `{{<parent}}`.
            var blocks: [String: [Node]] = [:]
        }

        init(source: [UInt8]) {
            self.source = source
        }

        mutating func parse() throws(TemplateSyntaxError) -> [Node] {
            var frames = [Frame(kind: .root, closingName: "", offset: 0)]
            var position = 0
            var textStart = 0
            while let tagStart = find(open, from: position) {
                let tag = try readTag(at: tagStart)
                var tagEnd = tag.end
                var textEnd = tagStart
                var indentation: [UInt8] = []
                if tag.canStandAlone, let standalone = standaloneLine(tagStart: tagStart, tagEnd: tag.end) {
                    textEnd = standalone.lineStart
                    indentation = Array(source[standalone.lineStart..<tagStart])
                    tagEnd = standalone.next
                }
                if textEnd > textStart {
                    frames[frames.count - 1].nodes.append(.text(Array(source[textStart..<textEnd])))
                }
                position = tagEnd
                textStart = tagEnd
                let content = tag.content
                if frames.count > Template.maximumNesting, Self.opensFrame(tag.sigil) {
                    throw error(
                        "'\(tag.text)' nests sections, blocks and parents more than \(Template.maximumNesting) deep;"
                            + " use a partial for a part that repeats", at: tagStart)
                }
                switch tag.sigil {
                case UInt8(ascii: "!"):
                    break
                case UInt8(ascii: "="):
                    try setDelimiters(content, at: tagStart)
                case UInt8(ascii: "#"), UInt8(ascii: "^"):
                    let name = try parseName(content, at: tagStart)
                    frames.append(
                        Frame(
                            kind: .section(name, isInverted: tag.sigil == UInt8(ascii: "^")),
                            closingName: name.description, offset: tagStart))
                case UInt8(ascii: "$"):
                    let name = try plainName(content, at: tagStart)
                    frames.append(Frame(kind: .block(name), closingName: name, offset: tagStart))
                case UInt8(ascii: "<"):
                    let name = try plainName(content, at: tagStart)
                    frames.append(
                        Frame(kind: .parent(name, at: locate(tagStart)), closingName: name, offset: tagStart))
                case UInt8(ascii: "/"):
                    let name = String(decoding: content, as: UTF8.self)
                    guard frames.count > 1, let frame = frames.popLast() else {
                        throw error("'\(tag.text)' closes a section that was never opened", at: tagStart)
                    }
                    guard frame.closingName == name else {
                        throw error(
                            "'\(tag.text)' does not match '\(frame.closingName)' (opened at line"
                                + " \(location(frame.offset).line)); close that first with '{{/\(frame.closingName)}}'",
                            at: tagStart)
                    }
                    close(frame, into: &frames[frames.count - 1])
                case UInt8(ascii: ">"):
                    let name = try plainName(content, at: tagStart)
                    frames[frames.count - 1].nodes.append(
                        .partial(name, indentation: indentation, at: locate(tagStart)))
                case UInt8(ascii: "&"), UInt8(ascii: "{"):
                    let name = try parseName(content, at: tagStart)
                    frames[frames.count - 1].nodes.append(.variable(name, isEscaped: false))
                case UInt8(ascii: "%"):
                    throw error("pragmas ('\(tag.text)') are not supported; remove the tag", at: tagStart)
                default:
                    let name = try parseName(content, at: tagStart)
                    frames[frames.count - 1].nodes.append(.variable(name, isEscaped: true))
                }
            }
            if source.count > textStart {
                frames[frames.count - 1].nodes.append(.text(Array(source[textStart...])))
            }
            if frames.count > 1, let unclosed = frames.last {
                let opener =
                    switch unclosed.kind {
                    case .root: ""
                    case .section(_, let isInverted): isInverted ? "^" : "#"
                    case .block: "$"
                    case .parent: "<"
                    }
                throw error(
                    "'{{\(opener)\(unclosed.closingName)}}' is never closed; add '{{/\(unclosed.closingName)}}'",
                    at: unclosed.offset)
            }
            return frames[0].nodes
        }

        /// Adds a finished section, block or parent to the frame that contains it.
        private func close(_ frame: Frame, into parent: inout Frame) {
            let node: Node
            switch frame.kind {
            case .root:
                return
            case .section(let name, let isInverted):
                node = .section(name, frame.nodes, isInverted: isInverted)
            case .block(let name):
                if case .parent = parent.kind {
                    parent.blocks[name] = frame.nodes
                    return
                }
                node = .block(name, frame.nodes)
            case .parent(let name, let location):
                // Only the block definitions inside a parent tag matter; other content is ignored.
                node = .parent(name, blocks: frame.blocks, at: location)
            }
            parent.nodes.append(node)
        }

        /// A tag: its sigil (or 0 for a plain variable), trimmed content, and where it ends.
        private struct Tag {
            var sigil: UInt8
            var content: ArraySlice<UInt8>
            var end: Int
            var text: String

            /// Tags that produce no output themselves may stand alone on a line.
            var canStandAlone: Bool {
                switch sigil {
                case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: "!"),
                    UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "$"), UInt8(ascii: "<"):
                    true
                default: false
                }
            }
        }

        private func readTag(at start: Int) throws(TemplateSyntaxError) -> Tag {
            var cursor = start + open.count
            while cursor < source.count, Self.isSpace(source[cursor]) { cursor += 1 }
            let sigils: [UInt8] = Array("#^/!>$<&={%".utf8)
            var sigil: UInt8 = 0
            if cursor < source.count, sigils.contains(source[cursor]) {
                sigil = source[cursor]
                cursor += 1
            }
            // `{{{name}}}` and `{{=<% %>=}}` end with their sigil's partner before the delimiter.
            let terminator: [UInt8] =
                switch sigil {
                case UInt8(ascii: "{"): [UInt8(ascii: "}")] + close
                case UInt8(ascii: "="): [UInt8(ascii: "=")] + close
                default: close
                }
            guard let contentEnd = find(terminator, from: cursor) else {
                let shown = String(decoding: source[start..<min(source.count, start + 30)], as: UTF8.self)
                throw error(
                    "the tag '\(shown)…' is never closed with '\(String(decoding: terminator, as: UTF8.self))'",
                    at: start)
            }
            let end = contentEnd + terminator.count
            var low = cursor
            var high = contentEnd
            while low < high, Self.isSpace(source[low]) { low += 1 }
            while high > low, Self.isSpace(source[high - 1]) { high -= 1 }
            return Tag(
                sigil: sigil, content: source[low..<high], end: end,
                text: String(decoding: source[start..<end], as: UTF8.self))
        }

        /// When only whitespace surrounds the tag on its line: where the line starts and where the
        /// next line begins (after the newline, or the end of the template).
        private func standaloneLine(tagStart: Int, tagEnd: Int) -> (lineStart: Int, next: Int)? {
            var lineStart = tagStart
            while lineStart > 0, source[lineStart - 1] != UInt8(ascii: "\n") {
                guard Self.isSpace(source[lineStart - 1]) else { return nil }
                lineStart -= 1
            }
            var next = tagEnd
            while next < source.count, source[next] == UInt8(ascii: " ") || source[next] == UInt8(ascii: "\t") {
                next += 1
            }
            if next == source.count { return (lineStart, next) }
            if source[next] == UInt8(ascii: "\n") { return (lineStart, next + 1) }
            if source[next] == UInt8(ascii: "\r"), next + 1 < source.count, source[next + 1] == UInt8(ascii: "\n") {
                return (lineStart, next + 2)
            }
            return nil
        }

        private mutating func setDelimiters(_ content: ArraySlice<UInt8>, at offset: Int) throws(TemplateSyntaxError) {
            let parts = content.split(whereSeparator: Self.isSpace)
            guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
                throw error("set delimiters as '{{=<% %>=}}': two delimiters separated by a space", at: offset)
            }
            open = Array(parts[0])
            close = Array(parts[1])
        }

        /// `name`, `a.b.c` or `.`.
        private mutating func parseName(
            _ content: ArraySlice<UInt8>, at offset: Int
        ) throws(TemplateSyntaxError) -> Name {
            let text = String(decoding: content, as: UTF8.self)
            if text == "." { return Name(parts: [], at: locate(offset)) }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !text.isEmpty, parts.allSatisfy(Self.isValidName) else {
                throw error(Self.nameProblem(text), at: offset)
            }
            return Name(parts: parts, at: locate(offset))
        }

        /// The line and column of `offset`, counted on from the previous tag's (tags come in
        /// order, so locating every tag reads the template once).
        private mutating func locate(_ offset: Int) -> Location {
            let start = min(located.offset, offset)
            let span = source[start..<offset]
            if let lastNewline = span.lastIndex(of: UInt8(ascii: "\n")) {
                located.line += span.count(where: { $0 == UInt8(ascii: "\n") })
                located.column = String(decoding: source[(lastNewline + 1)..<offset], as: UTF8.self).count + 1
            } else {
                located.column += String(decoding: span, as: UTF8.self).count
            }
            located.offset = offset
            return Location(line: located.line, column: located.column)
        }

        /// A partial, parent or block name: a template file name, no dots needed.
        private func plainName(_ content: ArraySlice<UInt8>, at offset: Int) throws(TemplateSyntaxError) -> String {
            let text = String(decoding: content, as: UTF8.self)
            guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
                throw error(Self.nameProblem(text), at: offset)
            }
            return text
        }

        private static func isValidName(_ part: String) -> Bool {
            !part.isEmpty && !part.contains { $0.isWhitespace || "(){}<>&=#^/!$%\"'".contains($0) }
        }

        private static func nameProblem(_ text: String) -> String {
            if text.isEmpty { return "a tag without a name" }
            if text.contains("(") { return "'\(text)': functions in tags are not supported; use a plain name" }
            return "'\(text)' is not a valid name (letters, digits, '-', '_', dotted like item.title)"
        }

        /// `{{#`, `{{^`, `{{$` and `{{<` open a section, block or parent that a closing tag ends.
        private static func opensFrame(_ sigil: UInt8) -> Bool {
            sigil == UInt8(ascii: "#") || sigil == UInt8(ascii: "^") || sigil == UInt8(ascii: "$")
                || sigil == UInt8(ascii: "<")
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        }

        private func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard let first = needle.first, start < source.count else { return nil }
            var index = start
            let last = source.count - needle.count
            while index <= last {
                if source[index] == first {
                    var matched = 1
                    while matched < needle.count, source[index + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return index }
                }
                index += 1
            }
            return nil
        }

        private func location(_ offset: Int) -> (line: Int, column: Int) {
            var line = 1
            var lineStart = 0
            for index in 0..<min(offset, source.count) where source[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            let column = String(decoding: source[lineStart..<min(offset, source.count)], as: UTF8.self).count + 1
            return (line, column)
        }

        private func error(_ message: String, at offset: Int) -> TemplateSyntaxError {
            let (line, column) = location(offset)
            return TemplateSyntaxError(line: line, column: column, message: message)
        }
    }
}
