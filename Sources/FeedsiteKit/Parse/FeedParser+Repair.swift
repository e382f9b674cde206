import Foundation

extension FeedParser {
    /// The result of a repair pass: new bytes and one warning per kind of fix.
    struct Repair {
        var bytes: [UInt8]
        var warnings: [String]
    }

    /// Fixes what feeds most often get wrong, on the raw bytes, keeping every newline so line
    /// numbers stay true:
    /// - `&` that does not start a valid reference becomes `&amp;` (`?a=1&b=2`, `AT&T`);
    /// - HTML named entities XML lacks (`&nbsp;`, `&uuml;`, `&mdash;` — the full HTML 4 set) become
    ///   numeric references; unknown names are escaped so they show as written;
    /// - characters XML 1.0 forbids (C0 controls, U+FFFE/U+FFFF, references to them) are dropped;
    /// - a `<` that cannot start markup (`a < b`) becomes `&lt;`;
    /// - bytes that are not valid UTF-8 (the document claimed UTF-8 but lied) are read as windows-1252;
    /// - a document cut off mid-way (a truncated download) has its last partial tag dropped and what
    ///   is still open closed, after a `<?feedsite-truncated here?>` marker telling the state machine to
    ///   drop the item it was in the middle of (its text is cut, so it is not published).
    ///
    /// CDATA sections, comments and processing instructions are copied untouched. This is a
    /// deliberate, visible alternative to libxml2's recover mode, which silently drops text.
    /// Returns nil when nothing needed fixing (so re-parsing could not help).
    static func repair(_ bytes: [UInt8], lineOffset: Int) -> Repair? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var fixes: [String: (line: Int, count: Int)] = [:]
        var line = 1 + lineOffset
        func note(_ fix: String) {
            if let existing = fixes[fix] {
                fixes[fix] = (existing.line, existing.count + 1)
            } else {
                fixes[fix] = (line, 1)
            }
        }

        var openElements: [ArraySlice<UInt8>] = []
        var isCutOff = false
        var i = 0
        scan: while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x0A:
                line += 1
                output.append(byte)
                i += 1
            case UInt8(ascii: "<"):
                // Copy sections whose content is not markup verbatim.
                let verbatimEnd: String? =
                    matches(bytes, at: i, "<![CDATA[")
                    ? "]]>" : matches(bytes, at: i, "<!--") ? "-->" : matches(bytes, at: i, "<?") ? "?>" : nil
                if let verbatimEnd {
                    let terminator = find(bytes, verbatimEnd, from: i + 2)
                    let end = terminator.map { $0 + verbatimEnd.utf8.count } ?? bytes.count
                    for b in bytes[i..<end] where b == 0x0A { line += 1 }
                    output.append(contentsOf: bytes[i..<end])
                    i = end
                    if terminator == nil {
                        output.append(contentsOf: Array(verbatimEnd.utf8))
                        isCutOff = true
                    }
                } else if i + 1 < bytes.count, startsMarkup(bytes[i + 1]) {
                    guard let end = tagEnd(bytes, from: i + 1) else {
                        // The document stops inside this tag: drop the fragment, close the rest below.
                        isCutOff = true
                        break scan
                    }
                    trackElement(bytes[(i + 1)..<end], in: &openElements)
                    // The tag's bytes go through this loop too, so `&` in attribute values is repaired.
                    output.append(byte)
                    i += 1
                } else {
                    output.append(contentsOf: Array("&lt;".utf8))
                    note("unescaped '<'")
                    i += 1
                }
            case UInt8(ascii: "&"):
                i += 1
                repairReference(bytes, &i, into: &output, note: note)
            case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F:
                note("illegal control character")
                i += 1
            case 0x80...0xFF:
                let length = validUTF8SequenceLength(bytes, at: i)
                if length == 0 {
                    appendUTF8(windows1252Scalar(byte), to: &output)
                    note("invalid UTF-8 (read as windows-1252)")
                    i += 1
                } else if length == 3, byte == 0xEF, bytes[i + 1] == 0xBF, bytes[i + 2] >= 0xBE {
                    note("illegal character U+FFFE/U+FFFF")
                    i += 3
                } else {
                    output.append(contentsOf: bytes[i..<i + length])
                    i += length
                }
            default:
                output.append(byte)
                i += 1
            }
        }
        if isCutOff || !openElements.isEmpty {
            let inside = openElements.last.map { "<\(String(decoding: $0, as: UTF8.self))>" } ?? "a tag"
            note("end of document inside \(inside), cut off (closed \(openElements.count) open elements)")
            // With data: data-less PIs are blanked (see `blankEmptyProcessingInstructions`).
            output.append(contentsOf: Array("<?\(truncationMarker) here?>".utf8))
            for name in openElements.reversed() {
                output.append(contentsOf: Array("</".utf8))
                output.append(contentsOf: name)
                output.append(UInt8(ascii: ">"))
            }
        }
        guard !fixes.isEmpty else { return nil }
        let warnings = fixes.sorted { ($0.value.line, $0.key) < ($1.value.line, $1.key) }.map { fix, where_ in
            "line \(where_.line): repaired \(fix)" + (where_.count > 1 ? " (\(where_.count) times)" : "")
        }
        return Repair(bytes: output, warnings: warnings)
    }

    /// The processing-instruction target the repair pass inserts where a cut-off document ends.
    static let truncationMarker = "feedsite-truncated"

    /// The index of the `>` closing the tag whose name starts at `start`, skipping quoted attribute
    /// values; nil when the document ends first.
    private static func tagEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        var i = start
        while i < bytes.count {
            let byte = bytes[i]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Updates the stack of open element names for one tag (`tag` is between `<` and `>`): a start
    /// tag pushes, an end tag pops back to its match (an unmatched end tag changes nothing), and
    /// empty-element tags, `<!…>` and `<?…?>` leave it alone.
    private static func trackElement(_ tag: ArraySlice<UInt8>, in open: inout [ArraySlice<UInt8>]) {
        guard let first = tag.first, first != UInt8(ascii: "!"), first != UInt8(ascii: "?") else { return }
        let isEndTag = first == UInt8(ascii: "/")
        let nameStart = isEndTag ? tag.startIndex + 1 : tag.startIndex
        let nameEnd =
            tag[nameStart...].firstIndex { isXMLSpace($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ">") }
            ?? tag.endIndex
        let name = tag[nameStart..<nameEnd]
        if isEndTag {
            if let index = open.lastIndex(where: { $0.elementsEqual(name) }) { open.removeSubrange(index...) }
        } else if tag.last != UInt8(ascii: "/") {
            open.append(name)
        }
    }

    /// After a `&` (at `i`): copies a valid reference, or writes its repaired form.
    private static func repairReference(
        _ bytes: [UInt8], _ i: inout Int, into output: inout [UInt8], note: (String) -> Void
    ) {
        // Look ahead for `name;` / `#123;` / `#x1F;` within a sane length.
        var j = i
        while j < bytes.count, j - i < 40, isReferenceByte(bytes[j]) { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ";"), j > i else {
            output.append(contentsOf: Array("&amp;".utf8))
            note("unescaped '&'")
            return
        }
        let name = String(decoding: bytes[i..<j], as: UTF8.self)
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            if let value, isLegalXMLCharacter(value) {
                output.append(UInt8(ascii: "&"))
                output.append(contentsOf: bytes[i...j])
            } else if value != nil {
                note("reference to an illegal character &\(name);")
            } else {
                output.append(contentsOf: Array("&amp;".utf8))
                note("unescaped '&'")
                return
            }
        } else if ["amp", "lt", "gt", "quot", "apos"].contains(name) {
            output.append(UInt8(ascii: "&"))
            output.append(contentsOf: bytes[i...j])
        } else if let codePoint = HTMLEntities.codePoints[name] {
            output.append(contentsOf: Array("&#\(codePoint);".utf8))
            note("undefined entity &\(name);")
        } else {
            output.append(contentsOf: Array("&amp;".utf8))
            note("unknown entity &\(name);")
            return
        }
        i = j + 1
    }

    private static func isReferenceByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "#")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Whether the byte after `<` can begin a tag, end tag, comment, CDATA or PI.
    private static func startsMarkup(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":")
            || byte >= 0x80
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isLegalXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    /// Length of the well-formed UTF-8 sequence starting at `i`, or 0 when it is not one.
    private static func validUTF8SequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        guard bytes[i + 1] >= low, bytes[i + 1] <= high else { return 0 }
        for k in 2..<length where bytes[i + k] < 0x80 || bytes[i + k] > 0xBF { return 0 }
        return length
    }
}
