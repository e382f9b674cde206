import FeedsiteShared

extension FeedParser {
    /// The most attributes (namespace declarations included) an element keeps. libxml2 2.9 checks
    /// each attribute of a start tag against every one before it, so a tag with n attributes costs
    /// n²: one `<item>` with 200,000 took 16 s. No feed's element comes near this many.
    package static let maxAttributes = 256

    /// Blanks the attributes past the `maxAttributes`th of every start tag that has more, keeping
    /// newlines (so line numbers stay true) and the tag itself, with one warning naming the first
    /// such element and its line. One linear scan: text is skipped by `ByteScan`, comments, CDATA
    /// sections and processing instructions are skipped whole, and only `name="value"` pairs are
    /// counted. A quote left open up to the next `<` (which no attribute value may hold) makes
    /// the tag malformed: it is left for the parser to report, not counted.
    static func limitAttributes(_ document: inout PreparedXML) {
        var scan = AttributeScan(limit: maxAttributes)
        document.bytes.withUnsafeBufferPointer { scan.run(over: $0) }
        guard let first = scan.excess.first else { return }
        for tag in scan.excess {
            for index in tag.range where document.bytes[index] != 0x0A { document.bytes[index] = 0x20 }
        }
        let line = document.bytes[..<first.range.lowerBound].lazy.filter { $0 == 0x0A }.count + 1 + document.lineOffset
        let others = scan.excess.count - 1
        document.warnings.append(
            "line \(line): <\(first.name)> has \(first.count) attributes; those after the \(maxAttributes)th were"
                + " left out" + (others > 0 ? " (and those of \(others) more elements like it)" : ""))
    }

    private struct AttributeScan {
        typealias Bytes = UnsafeBufferPointer<UInt8>

        let limit: Int
        /// Per over-long start tag: the attributes to blank, and what the warning says.
        var excess: [(range: Range<Int>, name: String, count: Int)] = []

        init(limit: Int) {
            self.limit = limit
        }

        mutating func run(over bytes: Bytes) {
            var position = 0
            while let open = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: position, to: bytes.count) {
                let next = open + 1
                guard next < bytes.count else { return }
                switch bytes[next] {
                case UInt8(ascii: "!"):
                    if Self.hasPrefix("!--", bytes, at: next) {
                        position = Self.end(of: "-->", bytes, from: next + 3)
                    } else if Self.hasPrefix("![CDATA[", bytes, at: next) {
                        position = Self.end(of: "]]>", bytes, from: next + 8)
                    } else {
                        position = Self.end(of: ">", bytes, from: next)
                    }
                case UInt8(ascii: "?"):
                    position = Self.end(of: "?>", bytes, from: next + 1)
                case UInt8(ascii: "/"):
                    position = Self.end(of: ">", bytes, from: next + 1)
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
            var count = 0
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
                if count == limit + 1 {
                    // This value's attribute starts after the previous value (and its whitespace).
                    var start = lastValueEnd
                    while start < index, Self.isSpace(bytes[start]) { start += 1 }
                    excessStart = start
                }
                index = close + 1
                lastValueEnd = index
            }
            if let excessStart {
                let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
                excess.append((excessStart..<lastValueEnd, name, count))
            }
            return index
        }

        private static func hasPrefix(_ prefix: StaticString, _ bytes: Bytes, at index: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return prefix.withUTF8Buffer { expected in
                for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
                return true
            }
        }

        /// Just past the first `terminator` at or after `index`, or the end of the input.
        private static func end(of terminator: StaticString, _ bytes: Bytes, from index: Int) -> Int {
            let first = terminator.withUTF8Buffer { $0[0] }
            var index = index
            while let candidate = ByteScan.firstIndex(of: first, in: bytes, from: index, to: bytes.count) {
                if hasPrefix(terminator, bytes, at: candidate) { return candidate + terminator.utf8CodeUnitCount }
                index = candidate + 1
            }
            return bytes.count
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        private static func endsName(_ byte: UInt8) -> Bool {
            isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
        }
    }
}
