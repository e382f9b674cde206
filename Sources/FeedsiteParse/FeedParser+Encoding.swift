import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FeedParser {
    /// A document transcoded to UTF-8, with notes on how its encoding was chosen.
    package struct DecodedDocument {
        /// UTF-8, except that a document that *claims* UTF-8 may still hold invalid sequences:
        /// the repair pass reads those bytes as windows-1252 one by one, keeping the rest.
        package var bytes: [UInt8]
        package var warnings: [String]
        /// The document was UTF-8, by its label or by its bytes against a single-byte label (so text in
        /// it that reads as UTF-8 decoded twice was double-encoded).
        package var isUTF8 = false
    }

    /// A character encoding feedsite can decode.
    enum TextEncoding: Equatable {
        case utf8
        /// Decoded in-house: it is also the last-resort guess, so it must never depend on iconv.
        case windows1252
        /// Any other encoding, by its iconv name (`UTF-16LE`, `GB18030`, `KOI8-R`…).
        case iconv(String)
        // `init?(label:)`, which maps charset labels to these, is in `FeedParser+EncodingLabels.swift`.

        /// UTF-16/32 in any byte order: these can only be recognised from the bytes themselves.
        var isWideUnicode: Bool {
            guard case .iconv(let name) = self else { return false }
            return name.hasPrefix("UTF-16") || name.hasPrefix("UTF-32") || name.hasPrefix("UCS-")
        }

        /// One byte is one character (ISO-8859-*, windows-125x, KOI8-R, the IBM and Mac code pages):
        /// text in it with a byte from 0x80 up is practically never valid UTF-8 too.
        var isSingleByte: Bool {
            switch self {
            case .utf8: false
            case .windows1252: true
            case .iconv(let name): FeedParser.iconvIsSingleByte(name)
            }
        }
    }

    /// Decides the document's encoding and transcodes it to UTF-8, so that libxml2 only ever
    /// sees UTF-8 and nothing depends on which encodings libxml2 was built with.
    ///
    /// The order is the one the XML media-type rules (RFC 7303) and feed readers agree on:
    /// a byte order mark; the HTTP `charset` of an `application/…xml` response; the XML
    /// declaration's `encoding`; the HTTP `charset` of a `text/…` response (servers label every
    /// file with their default charset, so the document knows better); UTF-8 when the bytes are
    /// valid UTF-8; and windows-1252, with a warning, as the last resort. A name that is unknown,
    /// or that claims UTF-16/32 for bytes that plainly are not, is skipped with a warning.
    ///
    /// One exception, as in miniflux and Python's feedparser: when the name chosen is a single-byte
    /// encoding (`isSingleByte`) and the bytes are entirely valid UTF-8 with at least one non-ASCII
    /// character, the document is UTF-8, with a warning. Single-byte text is valid UTF-8 only when
    /// every byte from 0x80 up comes in a lead-and-continuation pattern (`Ã©`), which real text in
    /// those encodings practically never does; multi-byte encodings, whose pairs can, keep their name.
    package static func decodeToUTF8(_ data: Data, contentType: String?) -> DecodedDocument {
        var bytes = [UInt8](data)
        var warnings: [String] = []

        if let (encoding, markLength) = byteOrderMark(bytes) {
            bytes.removeFirst(markLength)
            return DecodedDocument(
                bytes: rewriteDeclaredEncoding(transcode(bytes, from: encoding, warnings: &warnings)),
                warnings: warnings, isUTF8: encoding == .utf8)
        }
        if let encoding = unmarkedWideUnicode(bytes) {
            return DecodedDocument(
                bytes: rewriteDeclaredEncoding(transcode(bytes, from: encoding, warnings: &warnings)),
                warnings: warnings)
        }
        if let encoding = ebcdicDeclaredEncoding(bytes, warnings: &warnings) {
            return DecodedDocument(
                bytes: rewriteDeclaredEncoding(transcode(bytes, from: encoding, warnings: &warnings)),
                warnings: warnings)
        }

        let http = contentType.map(MediaType.init)
        // `correction`: what the publisher should write instead when the bytes turn out to be UTF-8.
        var candidates: [(label: String, source: String, correction: String)] = []
        let header = (source: "the HTTP Content-Type", correction: "the header should say charset=utf-8")
        if let http, let charset = http.charset, http.isXML {
            candidates.append((charset, header.source, header.correction))
        }
        if let declared = declaredEncoding(bytes) {
            candidates.append((declared, "the XML declaration", #"the declaration should say encoding="UTF-8""#))
        }
        if let http, let charset = http.charset, http.isText {
            candidates.append((charset, header.source, header.correction))
        }

        for candidate in candidates {
            guard let encoding = TextEncoding(label: candidate.label) else {
                warnings.append("ignored the unknown encoding '\(candidate.label)' named by \(candidate.source)")
                continue
            }
            if encoding.isWideUnicode {
                // Without a BOM or `<\0` pattern the bytes are not UTF-16/32, whatever the label says.
                warnings.append(
                    "ignored the encoding '\(candidate.label)' named by \(candidate.source): the document is not in it")
                continue
            }
            if encoding != .utf8, let mixture = UTF8Mixture(bytes), encoding.isSingleByte {
                let (utf8, other) = (mixture.utf8Count, mixture.otherCount)
                warnings.append(
                    other == 0
                        ? "\(candidate.source) names '\(candidate.label)' but the document's bytes are UTF-8 (\(utf8)"
                            + " non-ASCII character\(utf8 == 1 ? "" : "s"), all valid UTF-8); read it as UTF-8"
                            + " (\(candidate.correction))"
                        : "\(candidate.source) names '\(candidate.label)' but the document is UTF-8 (\(utf8)"
                            + " non-ASCII characters) except for \(other) byte\(other == 1 ? "" : "s")"
                            + "; read it as UTF-8, and \(other == 1 ? "that byte" : "those bytes") as"
                            + " '\(candidate.label)' (\(candidate.correction), and the text with"
                            + " \(other == 1 ? "that byte" : "those bytes") be saved as UTF-8)")
                return DecodedDocument(
                    bytes: rewriteDeclaredEncoding(mixture.utf8(bytes, otherwise: encoding)), warnings: warnings,
                    isUTF8: true)
            }
            return DecodedDocument(
                bytes: rewriteDeclaredEncoding(transcode(bytes, from: encoding, warnings: &warnings)),
                warnings: warnings, isUTF8: encoding == .utf8)
        }

        if String(validating: bytes, as: UTF8.self) != nil {
            return DecodedDocument(bytes: rewriteDeclaredEncoding(bytes), warnings: warnings, isUTF8: true)
        }
        warnings.append("the document is not valid UTF-8 and declares no encoding; read it as windows-1252")
        return DecodedDocument(bytes: rewriteDeclaredEncoding(transcodeWindows1252(bytes)), warnings: warnings)
    }

    /// A document labelled with a single-byte encoding that is UTF-8 (a mislabelled UTF-8 page), or
    /// UTF-8 but for a few bytes (text pasted in from a single-byte source): its valid UTF-8
    /// sequences of two bytes or more number at least one when no other byte is 0x80 or above, else
    /// at least four and four times the others. Real single-byte text is practically never valid
    /// multi-byte UTF-8, so its sequences are few. Nil for any other document.
    struct UTF8Mixture {
        /// Non-ASCII characters that are valid UTF-8.
        let utf8Count: Int
        /// Bytes from 0x80 up that are not part of one.
        let otherCount: Int

        init?(_ bytes: [UInt8]) {
            var utf8Count = 0
            var otherCount = 0
            var index = bytes.firstIndex { $0 >= 0x80 } ?? bytes.count
            while index < bytes.count {
                guard bytes[index] >= 0x80 else {
                    index += 1
                    continue
                }
                let length = FeedParser.validUTF8SequenceLength(bytes, at: index)
                if length == 0 { otherCount += 1 } else { utf8Count += 1 }
                index += max(length, 1)
            }
            guard utf8Count > 0, otherCount == 0 || (utf8Count >= 4 && utf8Count >= 4 * otherCount) else {
                return nil
            }
            (self.utf8Count, self.otherCount) = (utf8Count, otherCount)
        }

        /// `bytes` as UTF-8: its valid sequences kept, each other byte read in `encoding`.
        func utf8(_ bytes: [UInt8], otherwise encoding: TextEncoding) -> [UInt8] {
            guard otherCount > 0 else { return bytes }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + otherCount * 2)
            var decoded: [UInt8: [UInt8]] = [:]
            var ignored: [String] = []
            var index = 0
            while index < bytes.count {
                let length = bytes[index] < 0x80 ? 1 : FeedParser.validUTF8SequenceLength(bytes, at: index)
                if length > 0 {
                    output.append(contentsOf: bytes[index..<(index + length)])
                    index += length
                    continue
                }
                let byte = bytes[index]
                if decoded[byte] == nil { decoded[byte] = transcode([byte], from: encoding, warnings: &ignored) }
                output.append(contentsOf: decoded[byte] ?? [])
                index += 1
            }
            return output
        }
    }

    /// `type/subtype; charset=…` from an HTTP Content-Type header.
    struct MediaType {
        var type: String
        var charset: String?

        init(_ header: String) {
            let parts = header.split(separator: ";")
            type = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            charset =
                parts.dropFirst().lazy.compactMap { parameter -> String? in
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
                    else { return nil }
                    let value = pair[1].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\"'")))
                    return value.isEmpty ? nil : value
                }.first
        }

        /// `application/xml`, `application/rss+xml`, `application/atom+xml`, `application/rdf+xml`…
        var isXML: Bool { type.hasPrefix("application/") && type.hasSuffix("xml") }
        var isText: Bool { type.hasPrefix("text/") }
    }

    /// A UTF-8/16/32 byte order mark: the encoding it announces and its length.
    static func byteOrderMark(_ bytes: [UInt8]) -> (TextEncoding, Int)? {
        // UTF-32LE's mark begins with UTF-16LE's, so it is tested first.
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.iconv("UTF-32LE"), 4) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.iconv("UTF-32BE"), 4) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.iconv("UTF-16BE"), 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.iconv("UTF-16LE"), 2) }
        return nil
    }

    /// UTF-16/32 without a mark, recognised by the zero bytes around the first `<` (XML 1.0
    /// Appendix F) or a JSON document's `{` or `[`. Leading whitespace is allowed, since the rest
    /// of the parser tolerates it too.
    static func unmarkedWideUnicode(_ bytes: [UInt8]) -> TextEncoding? {
        let patterns: [([UInt8], String)] = [
            ([0x3C, 0, 0, 0], "UTF-32LE"), ([0, 0, 0, 0x3C], "UTF-32BE"), ([0x3C, 0], "UTF-16LE"),
            ([0, 0x3C], "UTF-16BE"),
            ([0x20, 0, 0, 0], "UTF-32LE"), ([0, 0, 0, 0x20], "UTF-32BE"), ([0x0A, 0, 0, 0], "UTF-32LE"),
            ([0, 0, 0, 0x0A], "UTF-32BE"), ([0x20, 0], "UTF-16LE"), ([0, 0x20], "UTF-16BE"), ([0x0A, 0], "UTF-16LE"),
            ([0, 0x0A], "UTF-16BE"),
            // A JSON Feed's `{` (or a top-level `[`): JSON allows any Unicode encoding (RFC 8259
            // §8.1, told apart by the zero bytes, RFC 4627 §3).
            ([0x7B, 0, 0, 0], "UTF-32LE"), ([0, 0, 0, 0x7B], "UTF-32BE"), ([0x5B, 0, 0, 0], "UTF-32LE"),
            ([0, 0, 0, 0x5B], "UTF-32BE"), ([0x7B, 0], "UTF-16LE"), ([0, 0x7B], "UTF-16BE"), ([0x5B, 0], "UTF-16LE"),
            ([0, 0x5B], "UTF-16BE"),
        ]
        return patterns.first { bytes.starts(with: $0.0) }.map { .iconv($0.1) }
    }

    /// An EBCDIC document (`<?xm` as `4C 6F A7 94`, XML 1.0 Appendix F): the encoding its
    /// declaration names (read through IBM037, whose letters all EBCDIC code pages share), or IBM037.
    static func ebcdicDeclaredEncoding(_ bytes: [UInt8], warnings: inout [String]) -> TextEncoding? {
        guard bytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94]),
            let (head, _) = iconvToUTF8(Array(bytes.prefix(256)), from: "IBM037")
        else { return nil }
        guard let label = declaredEncoding(head) else { return .iconv("IBM037") }
        guard let encoding = TextEncoding(label: label) else {
            warnings.append("ignored the unknown encoding '\(label)' named by the XML declaration; read it as IBM037")
            return .iconv("IBM037")
        }
        return encoding
    }

    /// The `encoding` of an XML declaration at the start (after optional whitespace), read as
    /// ASCII: every encoding reaching this point is ASCII-compatible for the declaration.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard let range = xmlDeclarationRange(bytes) else { return nil }
        return pseudoAttribute("encoding", in: bytes[range])
    }

    /// `<?xml … ?>` when the document starts with one (after whitespace).
    private static func xmlDeclarationRange(_ bytes: [UInt8]) -> Range<Int>? {
        let start = bytes.firstIndex { !isXMLSpace($0) } ?? bytes.count
        guard matches(bytes, at: start, "<?xml"), start + 5 < bytes.count, isXMLSpace(bytes[start + 5]),
            let end = find(bytes, "?>", from: start + 5)
        else { return nil }
        return start..<(end + 2)
    }

    /// Replaces the declared encoding with `UTF-8` once the bytes are UTF-8: otherwise libxml2
    /// would decode the already-transcoded text a second time.
    static func rewriteDeclaredEncoding(_ bytes: [UInt8]) -> [UInt8] {
        guard let range = xmlDeclarationRange(bytes), let name = find(bytes[range], "encoding") else { return bytes }
        var i = name + 8
        while i < range.upperBound, isXMLSpace(bytes[i]) { i += 1 }
        guard i < range.upperBound, bytes[i] == UInt8(ascii: "=") else { return bytes }
        i += 1
        while i < range.upperBound, isXMLSpace(bytes[i]) { i += 1 }
        guard i < range.upperBound, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
            return bytes
        }
        let quote = bytes[i]
        guard let close = bytes[(i + 1)..<range.upperBound].firstIndex(of: quote) else { return bytes }
        let value = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
        guard value.lowercased() != "utf-8" else { return bytes }
        var output = bytes
        output.replaceSubrange((i + 1)..<close, with: Array("UTF-8".utf8))
        return output
    }

    private static func find(_ bytes: ArraySlice<UInt8>, _ literal: String) -> Int? {
        let utf8 = Array(literal.utf8)
        var i = bytes.startIndex
        while i + utf8.count <= bytes.endIndex {
            if bytes[i..<i + utf8.count].elementsEqual(utf8) { return i }
            i += 1
        }
        return nil
    }

    /// `bytes` in `encoding` → UTF-8. Undecodable sequences become U+FFFD with one warning, so
    /// one bad byte never costs the feed.
    static func transcode(_ bytes: [UInt8], from encoding: TextEncoding, warnings: inout [String]) -> [UInt8] {
        switch encoding {
        case .utf8:
            return bytes
        case .windows1252:
            return transcodeWindows1252(bytes)
        case .iconv(let name):
            guard let (output, invalid) = iconvToUTF8(bytes, from: name) else {
                // Only reachable for a BOM-announced encoding on a system without UTF-16/32 in iconv.
                warnings.append("cannot decode \(name) on this system; read the document as windows-1252")
                return transcodeWindows1252(bytes)
            }
            if invalid > 0 {
                warnings.append(
                    "\(invalid) byte sequence\(invalid == 1 ? " is" : "s are") not valid \(name); replaced with U+FFFD")
            }
            return output
        }
    }

    /// Whether no byte on its own is the unfinished start of a sequence in iconv's `name` (EINVAL):
    /// every multi-byte encoding has such bytes (the lead bytes of Shift_JIS, EUC-*, GB18030 and
    /// Big5; the escape byte of ISO-2022-* and UTF-7's `+`), no single-byte one has. Asked of iconv
    /// because the names it accepts are open-ended (aliases, code page numbers), so no table is complete.
    static func iconvIsSingleByte(_ name: String) -> Bool {
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return false }
        defer { iconv_close(converter) }
        // Room for what one byte becomes (12 bytes at most, TSCII's); running out would be E2BIG, not EINVAL.
        var output = [CChar](repeating: 0, count: 16)
        for byte in UInt8.min...UInt8.max {
            var input = [CChar(bitPattern: byte)]
            let failure = input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer -> Int32 in
                    var inputPointer = inputBuffer.baseAddress
                    var inputLeft = 1
                    var outputPointer = outputBuffer.baseAddress
                    var outputLeft = outputBuffer.count
                    _ = iconv(converter, nil, nil, nil, nil)  // each byte from the initial shift state
                    return iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) == -1 ? errno : 0
                }
            }
            if failure == EINVAL { return false }
        }
        return true
    }

    /// Converts with glibc's iconv; nil when it does not know `name`. Returns the UTF-8 bytes and
    /// how many invalid (or truncated) input sequences were replaced by U+FFFD.
    static func iconvToUTF8(_ bytes: [UInt8], from name: String) -> ([UInt8], Int)? {
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }

        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var invalid = 0
        var input = bytes
        input.withUnsafeMutableBytes { inputBuffer in
            var inputPointer = inputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            var inputLeft = inputBuffer.count
            while inputLeft > 0 {
                var failure: Int32 = 0
                let produced = chunk.withUnsafeMutableBytes { chunkBuffer -> Int in
                    var outputPointer = chunkBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                    var outputLeft = chunkBuffer.count
                    if iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) == -1 {
                        failure = errno
                    }
                    return chunkBuffer.count - outputLeft
                }
                output.append(contentsOf: chunk[0..<produced])
                if failure != 0, failure != E2BIG {
                    // EILSEQ (invalid) or EINVAL (cut off at the end): replace one byte and go on.
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    invalid += 1
                    inputPointer = inputPointer.map { $0 + 1 }
                    inputLeft -= 1
                    _ = iconv(converter, nil, nil, nil, nil)  // back to the initial shift state
                }
            }
        }
        return (output, invalid)
    }
}
