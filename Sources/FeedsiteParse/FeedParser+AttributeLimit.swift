import FeedsiteShared

extension FeedParser {
    /// The most attributes (namespace declarations included) an element keeps. libxml2 2.9 checks
    /// each attribute of a start tag against every one before it, so a tag with n attributes costs
    /// n²: one `<item>` with 200,000 took 16 s. No feed's element comes near this many.
    package static let maxAttributes = 256

    /// The most namespace declarations in scope at once. libxml2 2.9 looks a prefix up through
    /// every declaration in scope, so 200 declarations on each of 1,000 nested elements made each
    /// prefixed name below them cost 200,000 steps: 100,000 of them took 11 s. Feeds declare a
    /// few dozen at most.
    package static let maxNamespacesInScope = 256

    /// Blanks, before libxml2 reads the document, the attributes past the `maxAttributes`th of any
    /// start tag and the namespace declarations past `maxNamespacesInScope` in scope, keeping
    /// newlines (so line numbers stay true) and the tags themselves, with one warning for each
    /// kind naming the first element and its line. One linear scan: text is skipped by
    /// `ByteScan`, comments, CDATA sections and processing instructions are skipped whole, and only
    /// `name="value"` pairs are counted. A quote left open up to the next `<` (which no attribute
    /// value may hold) makes the tag malformed: it is left for the parser to report, not counted.
    static func limitAttributes(_ document: inout PreparedXML) {
        var scan = AttributeScan()
        document.bytes.withUnsafeBufferPointer { scan.run(over: $0) }
        guard !scan.blanks.isEmpty else { return }
        for range in scan.blanks {
            for index in range where document.bytes[index] != 0x0A { document.bytes[index] = 0x20 }
        }
        func line(_ offset: Int) -> Int {
            document.bytes[..<offset].lazy.filter { $0 == 0x0A }.count + 1 + document.lineOffset
        }
        if let first = scan.firstLongTag {
            let others = scan.longTags - 1
            document.warnings.append(
                "line \(line(first.offset)): <\(first.name)> has \(first.count) attributes; those after the"
                    + " \(maxAttributes)th were left out"
                    + (others > 0 ? " (and those of \(others) more elements like it)" : ""))
        }
        if let first = scan.firstDroppedDeclaration {
            document.warnings.append(
                "line \(line(first.offset)): more than \(maxNamespacesInScope) namespace declarations in scope at"
                    + " <\(first.name)>; \(scan.droppedDeclarations) declaration"
                    + (scan.droppedDeclarations == 1 ? " was" : "s were") + " left out")
        }
    }

    private struct AttributeScan {
        typealias Bytes = UnsafeBufferPointer<UInt8>

        /// What to blank, in order.
        var blanks: [Range<Int>] = []
        var firstLongTag: (offset: Int, name: String, count: Int)?
        var longTags = 0
        var firstDroppedDeclaration: (offset: Int, name: String)?
        var droppedDeclarations = 0
        /// Declarations kept on each open element, and their sum.
        private var declarations: [Int] = []
        private var inScope = 0

        mutating func run(over bytes: Bytes) {
            var position = 0
            while let open = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: position, to: bytes.count) {
                let next = open + 1
                guard next < bytes.count else { return }
                switch bytes[next] {
                case UInt8(ascii: "!"):
                    if Self.hasPrefix("!--", bytes, at: next) {
                        position = Self.end(of: Self.commentEnd, bytes, from: next + 3)
                    } else if Self.hasPrefix("![CDATA[", bytes, at: next) {
                        position = Self.end(of: Self.cdataEnd, bytes, from: next + 8)
                    } else {
                        position = Self.end(of: Self.tagEnd, bytes, from: next)
                    }
                case UInt8(ascii: "?"):
                    position = Self.end(of: Self.instructionEnd, bytes, from: next + 1)
                case UInt8(ascii: "/"):
                    position = Self.end(of: Self.tagEnd, bytes, from: next + 1)
                    if let kept = declarations.popLast() { inScope -= kept }
                default:
                    position = startTag(bytes, from: next)
                }
            }
        }

        /// Reads a start tag from its name; returns where scanning goes on.
        private mutating func startTag(_ bytes: Bytes, from nameStart: Int) -> Int {
            var index = nameStart
            while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
            let nameEnd = index
            var name: String { String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self) }
            var count = 0
            var kept = 0
            var excessStart: Int?
            var lastValueEnd = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<") { break }
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else {
                    index += 1
                    continue
                }
                guard
                    let close = ByteScan.firstIndex(of: byte, in: bytes, from: index + 1, to: bytes.count),
                    ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index + 1, to: close) == nil
                else {
                    return index + 1  // malformed: the parser reports it
                }
                count += 1
                // This value's attribute starts after the previous value (and its whitespace).
                var start = lastValueEnd
                while start < index, FeedParser.isXMLSpace(bytes[start]) { start += 1 }
                if count == FeedParser.maxAttributes + 1 { excessStart = start }
                if count <= FeedParser.maxAttributes, Self.isNamespaceDeclaration(bytes, from: start) {
                    if inScope + kept < FeedParser.maxNamespacesInScope {
                        kept += 1
                    } else {
                        blanks.append(start..<close + 1)
                        droppedDeclarations += 1
                        if firstDroppedDeclaration == nil { firstDroppedDeclaration = (start, name) }
                    }
                }
                index = close + 1
                lastValueEnd = index
            }
            if let excessStart {
                blanks.append(excessStart..<lastValueEnd)
                longTags += 1
                if firstLongTag == nil { firstLongTag = (excessStart, name, count) }
            }
            // `<x/>` closes itself: nothing stays in scope.
            let isSelfClosing =
                index < bytes.count && bytes[index] == UInt8(ascii: ">") && bytes[index - 1] == UInt8(ascii: "/")
            if !isSelfClosing {
                declarations.append(kept)
                inScope += kept
            }
            return index
        }

        /// Whether the attribute at `start` is `xmlns="…"` or `xmlns:prefix="…"`.
        private static func isNamespaceDeclaration(_ bytes: Bytes, from start: Int) -> Bool {
            guard hasPrefix("xmlns", bytes, at: start), start + 5 < bytes.count else { return false }
            let after = bytes[start + 5]
            return after == UInt8(ascii: ":") || after == UInt8(ascii: "=") || FeedParser.isXMLSpace(after)
        }

        private static func hasPrefix(_ prefix: String, _ bytes: Bytes, at index: Int) -> Bool {
            let utf8 = prefix.utf8
            return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
        }

        /// Just past the first `terminator` at or after `index`, or the end of the input.
        private static func end(of terminator: [UInt8], _ bytes: Bytes, from index: Int) -> Int {
            ByteScan.firstIndex(of: terminator, in: bytes, from: index).map { $0 + terminator.count } ?? bytes.count
        }

        private static let commentEnd = Array("-->".utf8)
        private static let cdataEnd = Array("]]>".utf8)
        private static let instructionEnd = Array("?>".utf8)
        private static let tagEnd = Array(">".utf8)

        private static func endsName(_ byte: UInt8) -> Bool {
            FeedParser.isXMLSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "<")
        }
    }
}
