import FeedsiteShared
import Foundation

extension FeedParser {
    /// An XML document made ready for the XML parser: UTF-8, leading noise stripped, DOCTYPE removed.
    package struct PreparedXML {
        package var bytes: [UInt8]
        /// Lines removed from the top, so reported line numbers match the original document.
        package var lineOffset: Int
        package var warnings: [String]
    }

    /// Drops whitespace before the document (the byte order mark is gone after decoding): strict
    /// parsers reject `\n<?xml …` (the declaration must come first), but it is common in the wild.
    package static func stripLeadingNoise(_ bytes: inout [UInt8], lineOffset: inout Int) {
        var start = 0
        while start < bytes.count, isXMLSpace(bytes[start]) {
            if bytes[start] == 0x0A { lineOffset += 1 }
            start += 1
        }
        if start > 0 { bytes.removeFirst(start) }
    }

    /// Drops text a server printed before the feed (a PHP warning: `<br /><b>Warning</b>: count():
    /// … on line <b>746</b><br />`, a `Deprecated:` line) when the feed's XML declaration or root
    /// element follows it within the first 64 KB: one such line took the whole feed down. Not for a
    /// document that starts as XML or as an HTML page (`<html>`, a DOCTYPE: its feed links are
    /// followed instead). The removed lines count in `lineOffset`, so line numbers stay true.
    static func skipTextBeforeFeed(_ bytes: inout [UInt8], lineOffset: inout Int) -> String? {
        guard let first = bytes.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") else { return nil }
        if first == UInt8(ascii: "<") {
            // XML's own start, or an element that is not HTML (a feed root or anything else XML).
            guard bytes.count > 1, bytes[1] != UInt8(ascii: "?"), bytes[1] != UInt8(ascii: "!") else { return nil }
            var end = 1
            while end < bytes.count, isASCIILetterOrDigit(bytes[end]) { end += 1 }
            let name = String(decoding: bytes[1..<end], as: UTF8.self).lowercased()
            guard messageElementNames.contains(name) else { return nil }
        }
        let head = Array(bytes.prefix(64 * 1024))
        let window = head.count
        var start: Int?
        if let declaration = find(head, "<?xml", from: 0) {
            start = declaration
        } else {
            for root in ["<rss", "<feed", "<rdf:RDF"] {
                var from = 0
                while let found = find(head, root, from: from) {
                    let after = found + root.utf8.count
                    if after < window, isXMLSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">") {
                        start = min(start ?? found, found)
                        break
                    }
                    from = found + 1
                }
            }
        }
        guard let start, start > 0 else { return nil }
        let skipped = bytes[..<start]
        let lowered = String(decoding: skipped, as: UTF8.self).lowercased()
        guard !lowered.contains("<html"), !lowered.contains("<!doctype") else { return nil }
        let lines = skipped.lazy.filter { $0 == 0x0A }.count
        // Its text, tags removed (`<br /><b>Warning</b>: …` reads `Warning: …`), at most 60 characters.
        let text = FeedText.plainText(fromHTML: String(decoding: skipped.prefix(400), as: UTF8.self))
        let excerpt = text.count > 60 ? text.prefix(59) + "…" : Substring(text)
        let firstLine = lineOffset + 1
        lineOffset += lines
        bytes.removeFirst(start)
        return "line \(firstLine): skipped text printed before the feed (\"\(excerpt)\"), up to line \(lineOffset + 1)"
            + " where its XML starts; the server should send the feed alone (a script's warning or error?)"
    }

    /// The HTML a server's message begins with (PHP's `<br />\n<b>Warning</b>`, a framework's
    /// `<pre>`), never a page's own start (`<html>`, `<head>`, `<title>`, `<meta>`).
    private static let messageElementNames: Set<String> = [
        "br", "b", "strong", "i", "em", "p", "div", "span", "font", "pre", "code", "hr", "table", "small", "h1",
        "h2", "h3", "h4", "h5", "h6",
    ]

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Checks the prolog and root element without parsing, so that HTML pages and non-XML get a
    /// clear error even when they are far from well-formed, removes the DOCTYPE (never loaded, and
    /// its internal subset is where entity-expansion and external-entity attacks live). `input` is
    /// already UTF-8 (`decodeToUTF8`).
    package static func prepareXML(_ input: [UInt8], lineOffset: Int) throws(FeedParseError) -> PreparedXML {
        var bytes = input
        var warnings: [String] = []
        // Where a `<!DOCTYPE html>` was: the root element then decides. A feed root after it (a
        // generator's template slip) is read as the feed; anything else is the HTML page it says.
        var htmlDoctype: (line: Int, column: Int)?
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
                if let at = htmlDoctype { throw .htmlPage(line: at.line, column: at.column) }
                throw FeedParseError(message: "the document has no root element; it is not a feed")
            }
            if matches(bytes, at: i, "<?") {
                i = (find(bytes, "?>", from: i + 2) ?? bytes.count) + 2
            } else if matches(bytes, at: i, "<!--") {
                i = (find(bytes, "-->", from: i + 4) ?? bytes.count) + 3
            } else if matchesCaseInsensitive(bytes, at: i, "<!DOCTYPE") {
                let start = i
                let end = doctypeEnd(bytes, from: i + 9)
                let nameStart = bytes[(i + 9)...].firstIndex { !isXMLSpace($0) } ?? end
                let nameEnd =
                    bytes[nameStart...].firstIndex {
                        isXMLSpace($0) || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "[")
                    } ?? end
                if String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self).lowercased() == "html" {
                    htmlDoctype = htmlDoctype ?? position(start)
                }
                if bytes[start..<min(end, bytes.count)].contains(UInt8(ascii: "[")) {
                    warnings.append(
                        "line \(position(start).line): ignored the DOCTYPE's internal subset (its entities are not expanded)"
                    )
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
                let local = (qualified.split(separator: ":").last.map(String.init) ?? qualified).lowercased()
                if feedRootNames.contains(local) {
                    if let at = htmlDoctype {
                        warnings.append(
                            "line \(at.line): ignored a <!DOCTYPE html> before the feed's root element <\(qualified)>")
                    }
                } else if htmlDoctype != nil || htmlElementNames.contains(local) {
                    let at = htmlDoctype ?? position(i)
                    guard let feed = embeddedFeed(in: bytes, from: i) else {
                        throw .htmlPage(line: at.line, column: at.column)
                    }
                    let (first, last) = (position(feed.range.lowerBound).line, position(feed.range.upperBound).line)
                    // The XML declaration at the very start stays (a declaration after spaces is
                    // an error); the page around the feed becomes spaces, its newlines kept.
                    let keep = matches(bytes, at: 0, "<?xml") ? (find(bytes, "?>", from: 0).map { $0 + 2 } ?? 0) : 0
                    for j in keep..<feed.range.lowerBound where bytes[j] != 0x0A { bytes[j] = 0x20 }
                    for j in feed.range.upperBound..<bytes.count where bytes[j] != 0x0A { bytes[j] = 0x20 }
                    warnings.append(
                        "line \(at.line): the document is an HTML page with a feed inside it; read its <\(feed.root)>"
                            + " (lines \(first)–\(last)) and ignored the page around it; the address should serve"
                            + " the feed alone")
                }
                break
            } else {
                if let at = htmlDoctype { throw .htmlPage(line: at.line, column: at.column) }
                let at = position(i)
                let head = bytes[i..<min(i + 40, bytes.count)]
                if isBinary(bytes, in: i..<head.endIndex) {
                    // These bytes may have been transcoded: `parse` shows the document's own.
                    throw binaryData(head.prefix(8), line: at.line, column: at.column)
                }
                let excerpt =
                    String(decoding: head, as: UTF8.self)
                    .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                throw FeedParseError(
                    line: at.line, column: at.column,
                    message: "the document is neither XML nor JSON (it starts with \"\(excerpt)\"); it is not a feed",
                    quotedText: excerpt)
            }
        }

        blankEmptyProcessingInstructions(&bytes)
        return PreparedXML(bytes: bytes, lineOffset: lineOffset, warnings: warnings)
    }

    /// A feed written whole inside an HTML page (a page that wraps its feed in `<html><body>`, a
    /// browser's "save page" of a feed): the first `<rss …>`, Atom `<feed …>` or `<rdf:RDF …>` start
    /// tag after `start`, to the end of its last end tag. None when the page holds no feed start
    /// tag, or no end tag for it, and when the page outside it links a feed (`type="application/rss+xml"`
    /// …): that link is the page's feed (discovery follows it), and markup quoted in a post is not.
    static func embeddedFeed(in bytes: [UInt8], from start: Int) -> (range: Range<Int>, root: String)? {
        // Each search below moves only forward (the next `>`, the next Atom namespace name are
        // remembered), so a page of a million `<feed`s costs one pass, not one per candidate.
        var nextClose = -1
        var nextAtom = -1
        var nextAtom03 = -1
        var best: (open: Int, root: String)?
        for root in ["rss", "feed", "rdf:RDF"] {
            var from = start
            while let open = find(bytes, "<" + root, from: from), best.map({ open < $0.open }) ?? true {
                from = open + 1
                let after = open + 1 + root.utf8.count
                guard after < bytes.count, isXMLSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">") else {
                    continue
                }
                if root == "feed" {
                    // An HTML page may have a custom `<feed>` element: only Atom's counts, its
                    // namespace named inside the start tag (before its first `>`).
                    if nextClose < after { nextClose = find(bytes, ">", from: after) ?? bytes.count }
                    if nextAtom < after {
                        nextAtom = find(bytes, "http://www.w3.org/2005/Atom", from: after) ?? bytes.count
                    }
                    if nextAtom03 < after { nextAtom03 = find(bytes, "purl.org/atom", from: after) ?? bytes.count }
                    guard min(nextAtom, nextAtom03) < nextClose else { continue }
                }
                best = (open, root)
                break
            }
        }
        guard let best else { return nil }
        let endTag = "</\(best.root)>"
        var end: Int?
        var from = best.open
        while let found = find(bytes, endTag, from: from) {
            end = found + endTag.utf8.count
            from = found + 1
        }
        guard let end else { return nil }
        for type in ["application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml"] {
            if let link = find(bytes, type, from: 0), link < best.open || find(bytes, type, from: end) != nil {
                return nil
            }
        }
        return (best.open..<end, best.root)
    }

    /// Replaces processing instructions without data (`<?php?>`, `<?foo ?>`) with spaces.
    ///
    /// swift-corelibs-foundation's `XMLParser` reads a PI's data with `strlen` without checking for
    /// NULL, so a data-less PI crashed the whole process (segfault) on Linux. `XMLEventReader` calls
    /// libxml2 directly and handles them, but the pass stays so results do not change (a blanked PI
    /// inside text reads as spaces). PIs never carry feed content, so removing them loses nothing;
    /// newlines are kept so line numbers stay true. CDATA
    /// sections and comments are skipped, since a `<?` there is text.
    static func blankEmptyProcessingInstructions(_ bytes: inout [UInt8]) {
        var i = 0
        while let open = nextMarkupDeclaration(bytes, from: i) {
            if matches(bytes, at: open, "<![CDATA[") {
                i = (find(bytes, "]]>", from: open + 9) ?? bytes.count) + 3
            } else if matches(bytes, at: open, "<!--") {
                i = (find(bytes, "-->", from: open + 4) ?? bytes.count) + 3
            } else if matches(bytes, at: open, "<?") {
                guard let close = find(bytes, "?>", from: open + 2) else { return }
                var j = open + 2
                while j < close, !isXMLSpace(bytes[j]) { j += 1 }  // the target
                if bytes[j..<close].allSatisfy(isXMLSpace) {
                    for k in open..<(close + 2) where bytes[k] != 0x0A { bytes[k] = 0x20 }
                }
                i = close + 2
            } else {
                i = open + 1
            }
            guard i < bytes.count else { return }
        }
    }

    /// The index of the next `<!` or `<?` at or after `start` (a comment, CDATA section, PI or
    /// declaration). Hot path (every document): `memchr` skips to each `<`.
    private static func nextMarkupDeclaration(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 1 < bytes.count, let open = firstIndex(of: UInt8(ascii: "<"), in: bytes, from: i, to: bytes.count - 1)
        {
            if bytes[open + 1] == UInt8(ascii: "!") || bytes[open + 1] == UInt8(ascii: "?") { return open }
            i = open + 1
        }
        return nil
    }

    /// The first `byte` in `bytes[start..<end]`.
    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        bytes.withUnsafeBufferPointer { ByteScan.firstIndex(of: byte, in: $0, from: start, to: end) }
    }

    /// The `>` ending a DOCTYPE, skipping quoted strings and the `[ … ]` internal subset.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var bracketDepth = 0
        return firstUnquotedIndex(in: bytes, from: start) { byte in
            if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth = max(0, bracketDepth - 1)
            }
            return byte == UInt8(ascii: ">") && bracketDepth == 0
        }
    }

    /// The first index from `start` at which `isEnd` holds outside a quoted string (`"…"`, `'…'`),
    /// or `bytes.count`. `isEnd` sees every byte outside quotes, in order.
    static func firstUnquotedIndex(in bytes: [UInt8], from start: Int, where isEnd: (UInt8) -> Bool) -> Int {
        var quote: UInt8?
        for index in start..<max(start, bytes.count) {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if isEnd(byte) {
                return index
            }
        }
        return bytes.count
    }

    /// `encoding="…"` inside an XML declaration.
    static func pseudoAttribute(_ name: String, in declaration: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: declaration, as: UTF8.self)
        guard let nameRange = text.range(of: name + "=") ?? text.range(of: name + " =") else { return nil }
        let rest = text[nameRange.upperBound...].drop { $0 == " " }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }

    /// Windows-1252 → UTF-8. Bytes 0x80–0x9F are the typographic characters Windows put there
    /// (curly quotes, dashes, €); the rest of the range is Latin-1. The five bytes windows-1252
    /// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become U+FFFD, never C1 controls.
    static func transcodeWindows1252(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                let scalar = windows1252Scalar(byte)
                appendUTF8((0x80...0x9F).contains(scalar) ? 0xFFFD : scalar, to: &output)
            }
        }
        return output
    }

    /// The Unicode scalar a windows-1252 byte stands for (the C1 control itself for the five
    /// undefined bytes, as the WHATWG index has it).
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
        let utf8 = literal.utf8  // a view, not an array: these run once per tag of every document
        return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    private static func matchesCaseInsensitive(_ bytes: [UInt8], at index: Int, _ literal: String) -> Bool {
        let utf8 = Array(literal.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        return zip(bytes[index..<index + utf8.count], utf8).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
    }

    /// What a document that is not text is, by its signature: an image or archive served where the
    /// feed should be (a favicon, a logo, a download). Nil for anything else.
    static func binaryKind(of bytes: ArraySlice<UInt8>) -> String? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count
                && bytes.dropFirst(offset).prefix(signature.count).elementsEqual(signature)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "a PNG image" }
        if starts([0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "a GIF image" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "a WebP image" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "an icon (.ico)" }
        if starts(Array("%PDF-".utf8)) { return "a PDF document" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        return nil
    }

    /// The error for a document that is binary data, showing `bytes` (its first ones) in hex.
    static func binaryData(_ bytes: some Collection<UInt8>, line: Int?, column: Int?) -> FeedParseError {
        let hex = bytes.prefix(8).map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16, uppercase: true) }
        var error = FeedParseError(
            line: line, column: column,
            message:
                "the document is binary data (its first bytes are \(hex.joined(separator: " "))), not text, so not "
                + "a feed; check the feed's address")
        error.isBinaryData = true
        return error
    }

    /// Whether `bytes[range]` (the start of a document) is not text: it holds a control character
    /// other than white space, or bytes that are not UTF-8 (a sequence cut by the range's end aside).
    static func isBinary(_ bytes: [UInt8], in range: Range<Int>) -> Bool {
        var k = range.lowerBound
        while k < range.upperBound {
            let byte = bytes[k]
            if byte < 0x20, !isXMLSpace(byte) { return true }
            if byte < 0x80 {
                k += 1
                continue
            }
            let length = validUTF8SequenceLength(bytes, at: k)
            if length == 0 { return range.upperBound - k >= 4 || range.upperBound == bytes.count }
            k += length
        }
        return false
    }

    static func find(_ bytes: [UInt8], _ literal: String, from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { ByteScan.firstIndex(of: Array(literal.utf8), in: $0, from: start) }
    }
}
