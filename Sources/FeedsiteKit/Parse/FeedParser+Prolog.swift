import Foundation

extension FeedParser {
    /// An XML document made ready for `XMLParser`: noise stripped, DOCTYPE removed, and transcoded
    /// to UTF-8 when it had to be guessed.
    struct PreparedXML {
        var bytes: [UInt8]
        /// Lines removed from the top, so reported line numbers match the original document.
        var lineOffset: Int
        /// Whether the bytes are meant as UTF-8 (declared so, or no declaration), which lets the
        /// repair pass fix invalid byte sequences.
        var isUTF8: Bool
        var warnings: [String]
    }

    /// Drops a UTF-8 byte order mark and whitespace before the document: strict parsers reject
    /// `\n<?xml …` (the declaration must come first), but it is common in the wild.
    static func stripLeadingNoise(_ bytes: inout [UInt8], lineOffset: inout Int) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, isXMLSpace(bytes[start]) {
            if bytes[start] == 0x0A { lineOffset += 1 }
            start += 1
        }
        if start > 0 { bytes.removeFirst(start) }
    }

    /// Checks the prolog and root element without parsing, so that HTML pages and non-XML get a
    /// clear error even when they are far from well-formed, removes the DOCTYPE (never loaded, and
    /// its internal subset is where entity-expansion and external-entity attacks live), and
    /// transcodes undeclared non-UTF-8 text from windows-1252.
    static func prepareXML(_ input: [UInt8], lineOffset: Int) throws(FeedParseError) -> PreparedXML {
        var bytes = input
        var warnings: [String] = []
        // UTF-16/32 (with a BOM or `<\0`): leave entirely to libxml2.
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00])
            || bytes.starts(with: [0x00, 0x3C])
        {
            return PreparedXML(bytes: bytes, lineOffset: lineOffset, isUTF8: false, warnings: [])
        }

        var declaredEncoding: String?
        var i = 0
        func position(_ offset: Int) -> (line: Int, column: Int) {
            let before = bytes[..<offset]
            let line = before.lazy.filter { $0 == 0x0A }.count + 1 + lineOffset
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            return (line, offset - lineStart + 1)
        }
        while true {
            while i < bytes.count, isXMLSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else {
                throw FeedParseError(message: "the document has no root element; it is not a feed")
            }
            if matches(bytes, at: i, "<?") {
                let end = find(bytes, "?>", from: i + 2) ?? bytes.count
                if i == 0, matches(bytes, at: 0, "<?xml"), bytes.count > 5, isXMLSpace(bytes[5]) {
                    declaredEncoding = pseudoAttribute("encoding", in: bytes[0..<end])
                }
                i = end + 2
            } else if matches(bytes, at: i, "<!--") {
                i = (find(bytes, "-->", from: i + 4) ?? bytes.count) + 3
            } else if matchesCaseInsensitive(bytes, at: i, "<!DOCTYPE") {
                let start = i
                let end = doctypeEnd(bytes, from: i + 9)
                let nameStart = bytes[(i + 9)...].firstIndex { !isXMLSpace($0) } ?? end
                let nameEnd = bytes[nameStart...].firstIndex { isXMLSpace($0) || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "[") } ?? end
                if String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self).lowercased() == "html" {
                    let at = position(start)
                    throw .htmlPage(line: at.line, column: at.column)
                }
                if bytes[start..<min(end, bytes.count)].contains(UInt8(ascii: "[")) {
                    warnings.append(
                        "line \(position(start).line): ignored the DOCTYPE's internal subset (its entities are not expanded)")
                }
                // Blank it out but keep the newlines, so line numbers stay true.
                for j in start..<min(end + 1, bytes.count) where bytes[j] != 0x0A { bytes[j] = 0x20 }
                i = end + 1
            } else if bytes[i] == UInt8(ascii: "<") {
                let nameStart = i + 1
                var nameEnd = nameStart
                while nameEnd < bytes.count, !isXMLSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: ">"),
                    bytes[nameEnd] != UInt8(ascii: "/")
                {
                    nameEnd += 1
                }
                let qualified = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
                let local = qualified.split(separator: ":").last.map(String.init) ?? qualified
                if htmlElementNames.contains(local.lowercased()) {
                    let at = position(i)
                    throw .htmlPage(line: at.line, column: at.column)
                }
                break
            } else {
                let at = position(i)
                let excerpt = String(decoding: bytes[i..<min(i + 40, bytes.count)], as: UTF8.self)
                    .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                throw FeedParseError(
                    line: at.line, column: at.column,
                    message: "the document is neither XML nor JSON (it starts with \"\(excerpt)\"); it is not a feed")
            }
        }

        let encoding = declaredEncoding?.lowercased()
        let isUTF8 = encoding == nil || encoding == "utf-8" || encoding == "utf8"
        if encoding == nil, String(validating: bytes, as: UTF8.self) == nil {
            bytes = transcodeWindows1252(bytes)
            warnings.append("the document is not valid UTF-8 and declares no encoding; read it as windows-1252")
        }
        return PreparedXML(bytes: bytes, lineOffset: lineOffset, isUTF8: isUTF8, warnings: warnings)
    }

    /// The `>` ending a DOCTYPE, skipping quoted strings and the `[ … ]` internal subset.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        var bracketDepth = 0
        var quote: UInt8?
        while i < bytes.count {
            let byte = bytes[i]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth = max(0, bracketDepth - 1)
            } else if byte == UInt8(ascii: ">"), bracketDepth == 0 {
                return i
            }
            i += 1
        }
        return bytes.count
    }

    /// `encoding="…"` inside an XML declaration.
    private static func pseudoAttribute(_ name: String, in declaration: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: declaration, as: UTF8.self)
        guard let nameRange = text.range(of: name + "=") ?? text.range(of: name + " =") else { return nil }
        let rest = text[nameRange.upperBound...].drop { $0 == " " }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }

    /// Windows-1252 → UTF-8. Bytes 0x80–0x9F are the typographic characters Windows put there
    /// (curly quotes, dashes, €); the rest of the range is Latin-1.
    static func transcodeWindows1252(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                appendUTF8(windows1252Scalar(byte), to: &output)
            }
        }
        return output
    }

    /// The Unicode scalar a windows-1252 byte stands for.
    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        guard byte >= 0x80, byte <= 0x9F else { return UInt32(byte) }
        let high: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
            0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, 0x9D, 0x017E, 0x0178,
        ]
        return high[Int(byte - 0x80)]
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(scalar) else { return }
        output.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
    }

    static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func matches(_ bytes: [UInt8], at index: Int, _ literal: String) -> Bool {
        let utf8 = Array(literal.utf8)
        return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    private static func matchesCaseInsensitive(_ bytes: [UInt8], at index: Int, _ literal: String) -> Bool {
        let utf8 = Array(literal.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        return zip(bytes[index..<index + utf8.count], utf8).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
    }

    static func find(_ bytes: [UInt8], _ literal: String, from start: Int) -> Int? {
        let utf8 = Array(literal.utf8)
        guard let first = utf8.first, start < bytes.count else { return nil }
        var i = start
        while i + utf8.count <= bytes.count {
            if bytes[i] == first, bytes[i..<i + utf8.count].elementsEqual(utf8) { return i }
            i += 1
        }
        return nil
    }
}
