import Foundation

/// Turns untrusted item bodies into `SanitisedHTML` (DESIGN §4: a closed world).
///
/// Feed HTML is parsed as an HTML5 fragment (`HTMLFragment`), walked against an allowlist into a
/// small tree of known constructs (`ContentBuilder`), tidied (`ContentNormaliser`) and rendered by
/// cmark-gfm from brand-new nodes (`CmarkDocument`). Nothing from the input is passed through as
/// markup: text is escaped by cmark, and every URL goes through `URLPolicy`.
///
/// Sanitising is idempotent: feeding the output back in yields the same output.
public struct HTMLSanitiser: Sendable {
    /// Caps that keep hostile input from costing unbounded time, memory or stack.
    public struct Limits: Sendable {
        /// Longer input is cut (at a character boundary) and the prefix sanitised.
        public var maxInputBytes: Int
        /// Elements nested deeper than this are flattened to their text.
        public var maxDepth: Int

        public init(maxInputBytes: Int = 2_000_000, maxDepth: Int = 200) {
            self.maxInputBytes = maxInputBytes
            self.maxDepth = maxDepth
        }
    }

    public var limits: Limits

    public init(limits: Limits = .init()) {
        self.limits = limits
    }

    /// Sanitises an HTML body.
    ///
    /// - Parameters:
    ///   - html: the text after exactly one XML decode (so `&lt;p&gt;` in an RSS description has
    ///     already become `<p>`).
    ///   - baseURL: resolves relative `href`/`src`; without it relative URLs are dropped.
    public func sanitise(html: String, baseURL: URL?) -> SanitisedContent {
        var input = capped(html)
        guard !input.isEmpty else { return .empty }
        // One scan for both questions in the usual case: text with nothing the HTML parser would
        // replace has no forbidden control either, and the subset parser need not look again.
        let isPlain = !input.withUTF8(HTMLSubsetParser.hasCharactersGumboReplaces)
        if !isPlain { input = Self.replacingForbiddenControls(input) }
        let fragment = HTMLFragment(
            parsing: input, maxDepth: max(limits.maxDepth, 1), opaqueElements: ContentBuilder.droppedElements,
            hasNoReplacedCharacters: isPlain)
        let blocks = ContentBuilder(baseURL: baseURL).blocks(from: fragment.nodes)
        return render(ContentNormaliser.normalise(blocks))
    }

    /// Sanitises plain text or Markdown (Atom `type="text"`, JSON Feed `content_text`): parsed by
    /// cmark in safe mode, then held to the same allowlist and URL policy as HTML. Markup typed
    /// into the text shows as text.
    public func sanitise(plainText: String, baseURL: URL?) -> SanitisedContent {
        let input = Self.dedented(prepared(plainText))
        guard !input.isEmpty else { return .empty }
        let blocks = CmarkDocument.parse(markdown: input, baseURL: baseURL, maxDepth: max(limits.maxDepth, 1))
        return render(ContentNormaliser.normalise(blocks))
    }

    /// A plain-text excerpt of at most `maxLength` characters (including the "…" added when the
    /// text is cut), with whitespace collapsed and the cut made at a word boundary when there is
    /// one in the second half of the allowance.
    public static func excerpt(_ plainText: String, maxLength: Int) -> String {
        guard maxLength > 0 else { return "" }
        // Collapse whitespace while reading only as far as the excerpt needs: item bodies can be
        // hundreds of kilobytes and excerpts are a few hundred characters. The result is gathered
        // as UTF-8 with the positions the cut needs noted on the way, so the characters are
        // walked once (walking them again to cut was a third of the excerpt's cost).
        let budget = maxLength - 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(plainText.utf8.count, maxLength * 4))
        var count = 0
        var pendingSpace = false
        var isCut = false
        /// Byte length of the first `budget` characters.
        var budgetEnd = 0
        /// The last space among the first `budget` characters: byte offset and character index.
        var lastSpace: (offset: Int, index: Int)?
        /// Where the last character taken starts (nil: it was a collapsed space).
        var lastCharacter: String.Index?
        let utf8 = plainText.utf8
        var position = plainText.startIndex
        while position < plainText.endIndex {
            // Two ASCII bytes always have a character boundary between them, except CR LF (which is
            // white space either way): such a byte is a whole character, read without grapheme
            // breaking, which was most of the excerpt's cost on mostly-ASCII text.
            let byte = utf8[position]
            let next = utf8.index(after: position)
            let isSingleByte = byte < 0x80 && (next == utf8.endIndex || utf8[next] < 0x80)
            // Likewise a scalar below U+0600 (two bytes, lead 0xC2...0xD7: Latin, Greek, Cyrillic,
            // Hebrew) followed by ASCII is a whole character: no rule of UAX #29 joins such a pair
            // (the first Prepend scalar is U+0600; ASCII is never Extend or SpacingMark). Accented
            // Latin text took the grapheme-breaking path at every accent.
            var twoByteScalar: Unicode.Scalar?
            if !isSingleByte, byte >= 0xC2, byte <= 0xD7, next != utf8.endIndex {
                let after = utf8.index(after: next)
                if after == utf8.endIndex || utf8[after] < 0x80 {
                    twoByteScalar = Unicode.Scalar(UInt32(byte & 0x1F) << 6 | UInt32(utf8[next] & 0x3F))
                }
            }
            let end =
                isSingleByte ? next : twoByteScalar != nil ? utf8.index(after: next) : plainText.index(after: position)
            let isWhitespace =
                isSingleByte
                ? String.isWhitespace(Unicode.Scalar(byte))
                : twoByteScalar.map(String.isWhitespace)
                    ?? plainText.unicodeScalars[position..<end].allSatisfy(String.isWhitespace)
            defer { position = end }
            if isWhitespace {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                guard count < maxLength else {
                    isCut = true
                    break
                }
                if count < budget { lastSpace = (bytes.count, count) }
                bytes.append(UInt8(ascii: " "))
                count += 1
                if count == budget { budgetEnd = bytes.count }
                lastCharacter = nil
                pendingSpace = false
            }
            guard count < maxLength else {
                isCut = true
                break
            }
            if isSingleByte { bytes.append(byte) } else { bytes.append(contentsOf: utf8[position..<end]) }
            count += 1
            if count == budget { budgetEnd = bytes.count }
            lastCharacter = position
        }
        guard isCut else { return String(decoding: bytes, as: UTF8.self) }
        // `bytes` holds exactly `maxLength` characters and more text follows.
        var cutEnd = budgetEnd
        if let last = lastCharacter, !plainText[last].isWhitespace, let lastSpace, lastSpace.index >= budget / 2 {
            cutEnd = lastSpace.offset
        }
        var cut = String(decoding: bytes[..<cutEnd], as: UTF8.self)
        while let last = cut.last, last.isWhitespace || ",;:.-–—".contains(last) {
            cut.removeLast()
        }
        return cut + "…"
    }

    // MARK: - Helpers

    /// Caps the size at a Unicode scalar boundary and replaces control characters with U+FFFD.
    ///
    /// NUL would end the C strings cmark and gumbo read; the HTML parser replaces the other
    /// controls (except whitespace) with U+FFFD anyway, so doing it up front for both paths keeps
    /// plain-text output idempotent and free of characters HTML forbids.
    private func prepared(_ text: String) -> String {
        Self.replacingForbiddenControls(capped(text))
    }

    /// `text` cut to `maxInputBytes` at a Unicode scalar boundary.
    private func capped(_ text: String) -> String {
        var input = text
        let cap = max(limits.maxInputBytes, 0)
        if input.utf8.count > cap {
            var end = input.utf8.index(input.utf8.startIndex, offsetBy: cap)
            while end > input.startIndex, end.samePosition(in: input.unicodeScalars) == nil {
                end = input.utf8.index(before: end)
            }
            input = String(input.unicodeScalars[..<end])
        }
        return input
    }

    /// Control characters (other than whitespace) as U+FFFD.
    private static func replacingForbiddenControls(_ text: String) -> String {
        var input = text
        if Self.mayContainForbiddenControl(input) {
            var scalars = String.UnicodeScalarView()
            for scalar in input.unicodeScalars {
                scalars.append(Self.isForbiddenControl(scalar) ? "\u{FFFD}" : scalar)
            }
            input = String(scalars)
        }
        return input
    }

    /// Removes the indentation that every line after the first shares. Text taken from an
    /// indented XML element (YouTube's `media:description`) carries the document's indentation,
    /// which Markdown would read as a code block; text with any unindented line is unchanged.
    static func dedented(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > 1 else { return text }
        let isIndent = { (character: Character) in character == " " || character == "\t" }
        let firstIsIndented = lines[0].first.map(isIndent) ?? false
        let measured = lines.indices.filter { index in
            (index > 0 || firstIsIndented) && lines[index].contains { !isIndent($0) && $0 != "\r" }
        }
        let common = measured.map { lines[$0].prefix(while: isIndent).count }.min() ?? 0
        guard common > 0 else { return text }
        for index in measured {
            lines[index] = String(lines[index].dropFirst(common))
        }
        for index in lines.indices where !measured.contains(index) && index > 0 {
            // Blank lines: their whitespace means nothing.
            lines[index] = String(lines[index].drop(while: isIndent))
        }
        return lines.joined(separator: "\n")
    }

    /// A byte-level pre-check for `isForbiddenControl` (a scalar walk over every item body cost
    /// 3 % of the sanitiser): true when a C0 control other than whitespace, DEL, or the lead byte
    /// of a C1 control (0xC2 followed by 0x80...0x9F) occurs.
    static func mayContainForbiddenControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Printable ASCII is skipped eight bytes at a time.
            var index = ByteScan.nextControlOrNonASCII(in: bytes, from: 0)
            while index < bytes.count {
                switch bytes[index] {
                case 0x09, 0x0A, 0x0C, 0x0D, 0xA0...: break
                case 0x00...0x1F, 0x7F: return true
                default:
                    // 0x80...0x9F: a C1 control when the lead byte is 0xC2.
                    if index > 0 && bytes[index - 1] == 0xC2 { return true }
                }
                index = ByteScan.nextControlOrNonASCII(in: bytes, from: index + 1)
            }
            return false
        }
    }

    /// C0 controls other than tab, line feed, form feed and carriage return; DEL; C1 controls.
    private static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// Renders, then adds the attributes every published link and image carries.
    ///
    /// Exact substitution is safe here: cmark escapes `<` in all text and attribute values, so
    /// `<a href="` and `<img src="` can only be the tags cmark itself wrote.
    private func render(_ blocks: [ContentBlock]) -> SanitisedContent {
        let rendering = CmarkDocument.render(blocks, finishingHTML: Self.addingPublishedAttributes)
        let plainText = Self.trimmed(rendering.plainText)
        return SanitisedContent(html: SanitisedHTML(html: rendering.html), plainText: plainText)
    }

    private static let linkTag = Array("<a href=\"".utf8)
    private static let linkReplacement = Array("<a rel=\"nofollow ugc noopener\" href=\"".utf8)
    private static let imageTag = Array("<img src=\"".utf8)
    private static let imageReplacement =
        Array("<img loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\" src=\"".utf8)

    /// cmark's output (UTF-8) as a string with the published attributes added: the tags are found
    /// first, then everything is copied once into a string of the final size (building the plain
    /// string and then a second one with the substitutions copied and validated every body twice).
    static func addingPublishedAttributes(to bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Where each tag starts and whether it is a link (else an image).
        var matches: [(offset: Int, isLink: Bool)] = []
        var index = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: 0, to: bytes.count)
        while let found = index {
            if Self.hasPrefix(bytes, linkTag, at: found) {
                matches.append((found, true))
            } else if Self.hasPrefix(bytes, imageTag, at: found) {
                matches.append((found, false))
            }
            index = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: found + 1, to: bytes.count)
        }
        guard !matches.isEmpty else { return String(decoding: bytes, as: UTF8.self) }
        let capacity = matches.reduce(bytes.count) { total, match in
            total + (match.isLink ? linkReplacement.count - linkTag.count : imageReplacement.count - imageTag.count)
        }
        return String(unsafeUninitializedCapacity: capacity) { output in
            var written = 0
            func copy(_ source: UnsafeBufferPointer<UInt8>) {
                guard let base = source.baseAddress, let target = output.baseAddress else { return }
                (target + written).update(from: base, count: source.count)
                written += source.count
            }
            var copiedUpTo = 0
            for match in matches {
                copy(UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<match.offset]))
                (match.isLink ? linkReplacement : imageReplacement).withUnsafeBufferPointer(copy)
                copiedUpTo = match.offset + (match.isLink ? linkTag.count : imageTag.count)
            }
            copy(UnsafeBufferPointer(rebasing: bytes[copiedUpTo...]))
            return written
        }
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8], at index: Int) -> Bool {
        guard bytes.count - index >= prefix.count else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] {
            return false
        }
        return true
    }

    /// `text` without leading and trailing white space (Unicode's definition).
    static func trimmed(_ text: some StringProtocol) -> String {
        let string = String(text)
        let scalars = string.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        // Usually nothing is trimmed: keep the string rather than copy it.
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return string }
        return String(scalars[first...last])
    }
}
