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
        /// The sections, blocks and parents open at the current tag, outermost (the template) first.
        private var frames: [Frame] = []

        /// A section, block or parent being read, waiting for its closing tag.
        private struct Frame {
            enum Kind {
                case root
                case section(Name, isInverted: Bool)
                /// `isArgument`: directly inside a parent, so its content overrides the parent's
                /// block of that name; otherwise the content is the block's default.
                case block(String, isArgument: Bool)
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
            /// A parent's or block's opening tag is the first thing on its line: the whitespace
            /// before it (what it indents its lines by), else nil.
            var indentation: [UInt8]?
            /// A block whose opening tag ends its line: the whitespace that starts the next line,
            /// as written. It is removed from the start of every line of the block's content, and
            /// a default is indented by it again where the block is rendered.
            var intrinsicIndentation: [UInt8]?

            var isParent: Bool {
                if case .parent = kind { return true }
                return false
            }
        }

        init(source: [UInt8]) {
            self.source = source
        }

        mutating func parse() throws(TemplateSyntaxError) -> [Node] {
            frames = [Frame(kind: .root, closingName: "", offset: 0)]
            var position = 0
            var textStart = 0
            while let tagStart = find(open, from: position) {
                let tag = try readTag(at: tagStart)
                let lineStart = lineStart(clearedBefore: tagStart)
                let nextLine = nextLine(clearedAfter: tag.end)
                let claimed = claimedWhitespace(
                    tag, frame: frames[frames.count - 1], clearsLeft: lineStart != nil, clearsRight: nextLine != nil)
                var textEnd = tagStart
                var tagEnd = tag.end
                var indentation: [UInt8] = []
                if claimed.leading, let lineStart {
                    textEnd = lineStart
                    indentation = removingDedent(from: source[lineStart..<tagStart])
                }
                if claimed.trailing, let nextLine { tagEnd = nextLine }
                if textEnd > textStart { appendText(textStart..<textEnd) }
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
                    let name = try plainName(tag, at: tagStart)
                    var frame = Frame(
                        kind: .block(name, isArgument: frames[frames.count - 1].isParent), closingName: name,
                        offset: tagStart)
                    if let lineStart { frame.indentation = removingDedent(from: source[lineStart..<tagStart]) }
                    if claimed.trailing, let nextLine {
                        frame.intrinsicIndentation = Array(source[nextLine...].prefix(while: Self.isIndentation))
                    }
                    frames.append(frame)
                case UInt8(ascii: "<"):
                    let name = try plainName(tag, at: tagStart)
                    var frame = Frame(kind: .parent(name, at: locate(tagStart)), closingName: name, offset: tagStart)
                    frame.indentation = claimed.leading ? indentation : nil
                    frames.append(frame)
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
                    close(frame, endsLine: nextLine != nil)
                case UInt8(ascii: ">"):
                    let name = try plainName(tag, at: tagStart)
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
            if source.count > textStart { appendText(textStart..<source.count) }
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

        /// Adds a finished section, block or parent to the frame that now contains it. `endsLine`:
        /// only whitespace follows the closing tag on its line.
        private mutating func close(_ frame: Frame, endsLine: Bool) {
            let node: Node
            switch frame.kind {
            case .root:
                return
            case .section(let name, let isInverted):
                node = .section(name, frame.nodes, isInverted: isInverted)
            case .block(let name, isArgument: true):
                frames[frames.count - 1].blocks[name] = frame.nodes
                return
            case .block(let name, isArgument: false):
                // The spec's rule for where a block's content is put: indented as its default is
                // when the opening tag stands alone; else as the opening tag when the pair starts
                // and ends its line(s) (`  {{$main}}{{/main}}`); else not at all.
                let indentation =
                    frame.intrinsicIndentation.map { removingDedent(from: $0[...]) }
                    ?? (endsLine ? frame.indentation : nil) ?? []
                node = .block(name, frame.nodes, indentation: indentation)
            case .parent(let name, let location):
                // Only the block definitions inside a parent tag matter; other content is ignored.
                // The pair stands alone when it starts and ends its line(s); else the whitespace
                // its opening tag set aside is text again.
                let standsAlone = endsLine && frame.indentation != nil
                if !standsAlone, let whitespace = frame.indentation, !whitespace.isEmpty {
                    frames[frames.count - 1].nodes.append(.text(whitespace))
                }
                let indentation = standsAlone ? frame.indentation ?? [] : []
                node = .parent(name, blocks: frame.blocks, indentation: indentation, at: location)
            }
            frames[frames.count - 1].nodes.append(node)
        }

        /// Which whitespace around `tag` belongs to the tag rather than to the output: the
        /// indentation before it (`leading`) and the rest of its line with the newline
        /// (`trailing`). A tag that prints nothing claims both when it stands alone on its line.
        /// The spec's inheritance rules treat what a parent tag ignores (everything in it but its
        /// `{{$block}}`s) as if it were not there: a parent's tags stand alone as a pair, the
        /// opening one with a clear left (its whitespace set aside until the closing tag decides),
        /// the closing one with a clear right; a block inside a parent needs a clear right to open
        /// and a clear left to close.
        private func claimedWhitespace(
            _ tag: Tag, frame: Frame, clearsLeft: Bool, clearsRight: Bool
        ) -> (leading: Bool, trailing: Bool) {
            switch tag.sigil {
            case UInt8(ascii: "<"):
                return (clearsLeft, false)
            case UInt8(ascii: "$") where frame.isParent:
                return (clearsLeft && clearsRight, clearsRight)
            case UInt8(ascii: "/"):
                switch frame.kind {
                case .parent: return (false, clearsRight && frame.indentation != nil)
                case .block(_, isArgument: true): return (clearsLeft, false)
                default: break
                }
            default:
                break
            }
            let standsAlone = tag.canStandAlone && clearsLeft && clearsRight
            return (standsAlone, standsAlone)
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

        /// Where the tag's line starts, when only whitespace precedes the tag on it.
        private func lineStart(clearedBefore tagStart: Int) -> Int? {
            var lineStart = tagStart
            while lineStart > 0, source[lineStart - 1] != UInt8(ascii: "\n") {
                guard Self.isSpace(source[lineStart - 1]) else { return nil }
                lineStart -= 1
            }
            return lineStart
        }

        /// Where the next line begins (after the newline, or the end of the template), when only
        /// spaces and tabs follow the tag on its line.
        private func nextLine(clearedAfter tagEnd: Int) -> Int? {
            var next = tagEnd
            while next < source.count, Self.isIndentation(source[next]) { next += 1 }
            if next == source.count { return next }
            if source[next] == UInt8(ascii: "\n") { return next + 1 }
            if source[next] == UInt8(ascii: "\r"), next + 1 < source.count, source[next + 1] == UInt8(ascii: "\n") {
                return next + 2
            }
            return nil
        }

        /// What every line in the innermost open frame loses at its start: the intrinsic
        /// indentation of the innermost block that has one.
        private var dedent: [UInt8] {
            frames.last { $0.intrinsicIndentation != nil }?.intrinsicIndentation ?? []
        }

        /// `whitespace` (the start of a line) without as much of `dedent` as it begins with.
        private func removingDedent(from whitespace: ArraySlice<UInt8>) -> [UInt8] {
            var start = whitespace.startIndex
            for byte in dedent {
                guard start < whitespace.endIndex, whitespace[start] == byte else { break }
                start += 1
            }
            return Array(whitespace[start...])
        }

        /// Literal text for the innermost open frame, each line that starts in it without the dedent.
        private mutating func appendText(_ range: Range<Int>) {
            let dedent = self.dedent
            guard !dedent.isEmpty else {
                frames[frames.count - 1].nodes.append(.text(Array(source[range])))
                return
            }
            var text: [UInt8] = []
            text.reserveCapacity(range.count)
            var index = range.lowerBound
            var isLineStart = index == 0 || source[index - 1] == UInt8(ascii: "\n")
            while index < range.upperBound {
                if isLineStart {
                    var matched = 0
                    while matched < dedent.count, index < range.upperBound, source[index] == dedent[matched] {
                        matched += 1
                        index += 1
                    }
                    isLineStart = false
                    continue
                }
                text.append(source[index])
                isLineStart = source[index] == UInt8(ascii: "\n")
                index += 1
            }
            if !text.isEmpty { frames[frames.count - 1].nodes.append(.text(text)) }
        }

        private mutating func setDelimiters(_ content: ArraySlice<UInt8>, at offset: Int) throws(TemplateSyntaxError) {
            let parts = content.split(whereSeparator: Self.isSpace)
            guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
                throw error("set delimiters as '{{=<% %>=}}': two delimiters separated by a space", at: offset)
            }
            // Every tag is searched for with them: a long one would make reading the file slow.
            guard parts.allSatisfy({ $0.count <= Template.maximumDelimiterBytes }) else {
                throw error(
                    "delimiters of more than \(Template.maximumDelimiterBytes) bytes are not supported; use short ones "
                        + "such as '{{=<% %>=}}'", at: offset)
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
        private func plainName(_ tag: Tag, at offset: Int) throws(TemplateSyntaxError) -> String {
            let text = String(decoding: tag.content, as: UTF8.self)
            if tag.sigil != UInt8(ascii: "$"), text.first == "*" {
                throw error(
                    "'\(tag.text)': dynamic names (the spec's optional ~dynamic-names) are not supported;"
                        + " name the template itself", at: offset)
            }
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

        /// Spaces and tabs: what indents a line.
        private static func isIndentation(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
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
