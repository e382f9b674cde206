import FeedsiteShared
import Foundation

/// Turns untrusted item bodies into `SanitisedHTML` (DESIGN §4: a closed world).
///
/// Feed HTML is parsed as an HTML5 fragment (`HTMLFragment`), walked against an allowlist into a
/// small tree of known constructs (`ContentBuilder`), tidied (`ContentNormaliser`) and rendered by
/// cmark-gfm from brand-new nodes (`CmarkDocument`). Nothing from the input is passed through as
/// markup: text is escaped by cmark, and every URL goes through `URLPolicy`.
///
/// Sanitising is idempotent: feeding the output back in yields the same output.
package struct HTMLSanitiser: Sendable {
    /// Caps that keep hostile input from costing unbounded time, memory or stack.
    package struct Limits: Sendable {
        /// Longer bodies are not sanitised: their content is left out (`SanitisedContent.omission`
        /// says why, for a warning), the item kept.
        package var maxInputBytes: Int
        /// Elements nested deeper than this are flattened to their text before any tree is built
        /// (browsers stop at 512 levels, Nokogiri at 400; no real post comes near).
        package var maxDepth: Int

        package init(maxInputBytes: Int = 2_000_000, maxDepth: Int = 256) {
            self.maxInputBytes = maxInputBytes
            self.maxDepth = maxDepth
        }
    }

    package var limits: Limits

    package init(limits: Limits = .init()) {
        self.limits = limits
    }

    /// Sanitises an HTML body.
    ///
    /// - Parameters:
    ///   - html: the text after exactly one XML decode (so `&lt;p&gt;` in an RSS description has
    ///     already become `<p>`).
    ///   - baseURL: resolves relative `href`/`src`; without it relative URLs are dropped.
    /// - Returns: the sanitised content, or empty content with an `omission` when the body is
    ///   over `maxInputBytes` or its parse over the memory and time budget.
    package func sanitise(html: String, baseURL: URL?) -> SanitisedContent {
        if let omission = oversized(html, kind: "HTML") { return omission }
        var input = html
        guard !input.isEmpty else { return .empty }
        // One scan for both questions in the usual case: text with nothing the HTML parser would
        // replace has no forbidden control either, and the subset parser need not look again.
        let isPlain = !input.withUTF8(HTMLSubsetParser.hasCharactersGumboReplaces)
        if !isPlain { input = Self.replacingForbiddenControls(input) }
        let fragment = HTMLFragment(
            parsing: input, maxDepth: max(limits.maxDepth, 1), opaqueElements: ContentBuilder.droppedElements,
            hasNoReplacedCharacters: isPlain)
        if let failure = fragment.failure {
            switch failure {
            case .overMemory(let bytes):
                return .omitted("parsing its HTML needs more than \(Self.size(bytes)) of memory")
            case .overTime(let seconds):
                return .omitted("parsing its HTML takes longer than \(Int(seconds)) s")
            }
        }
        var blocks = ContentBuilder(baseURL: baseURL).blocks(from: fragment.nodes)
        if ContentDepth.mayExceed(limits.maxDepth, htmlDepth: fragment.depth) {
            blocks = ContentDepth.capped(blocks, maxDepth: max(limits.maxDepth, 1))
        }
        return render(ContentNormaliser.normalise(blocks))
    }

    /// Sanitises plain text (Atom `type="text"`, JSON Feed `content_text`): shown as written, in
    /// paragraphs and lines, its typed URLs linked (`PlainTextContent`); markup and Markdown typed
    /// into it show as the characters they are.
    package func sanitise(plainText: String, baseURL: URL?) -> SanitisedContent {
        if let omission = oversized(plainText, kind: "text") { return omission }
        let blocks = PlainTextContent.blocks(from: Self.replacingForbiddenControls(plainText), baseURL: baseURL)
        guard !blocks.isEmpty else { return .empty }
        return render(ContentNormaliser.normalise(blocks))
    }

    /// Empty content saying why, when `text` is over `maxInputBytes`.
    private func oversized(_ text: String, kind: String) -> SanitisedContent? {
        let size = text.utf8.count
        let cap = max(limits.maxInputBytes, 0)
        guard size > cap else { return nil }
        return .omitted("its \(kind) is \(Self.size(size)), over the \(Self.size(cap)) that is sanitised")
    }

    /// `2.4 MB`, `17 KB`, `900 bytes` (decimal units, rounded).
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 {
            let tenths = (bytes + 50_000) / 100_000
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return bytes >= 1_000 ? "\((bytes + 500) / 1_000) KB" : "\(bytes) bytes"
    }

    /// A plain-text excerpt of at most `maxLength` characters (including the "…" added when the
    /// text is cut), with whitespace collapsed and the cut made at a word boundary when there is
    /// one in the second half of the allowance.
    package static func excerpt(_ plainText: String, maxLength: Int) -> String {
        guard maxLength > 0 else { return "" }
        // Hot path (an excerpt per item): read as contiguous UTF-8 with integer offsets, not by
        // walking `String.Index`es; see Benchmarks/RESULTS.md.
        if let excerpt = plainText.utf8.withContiguousStorageIfAvailable({
            Self.excerpt(of: plainText, utf8: $0, maxLength: maxLength)
        }) {
            return excerpt
        }
        var native = plainText
        native.makeContiguousUTF8()
        return native.utf8.withContiguousStorageIfAvailable {
            Self.excerpt(of: native, utf8: $0, maxLength: maxLength)
        } ?? ""
    }

    /// Punctuation an excerpt does not end on before its "…": `,;:.-–—`.
    private static func isTrailingPunctuation(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return false }
        switch scalar {
        case ",", ";", ":", ".", "-", "\u{2013}", "\u{2014}": return true
        default: return false
        }
    }

    /// The scalar (value, byte length) that starts at `offset` of valid UTF-8 with a lead byte.
    private static func decodeScalar(at offset: Int, in utf8: UnsafeBufferPointer<UInt8>) -> (UInt32, Int) {
        let lead = utf8[offset]
        func trail(_ index: Int) -> UInt32 { UInt32(utf8[offset + index] & 0x3F) }
        if lead < 0xE0 { return (UInt32(lead & 0x1F) << 6 | trail(1), 2) }
        if lead < 0xF0 { return (UInt32(lead & 0x0F) << 12 | trail(1) << 6 | trail(2), 3) }
        return (UInt32(lead & 0x07) << 18 | trail(1) << 12 | trail(2) << 6 | trail(3), 4)
    }

    /// Whether no rule of UAX #29 joins the scalar `value` to a following scalar that is never
    /// joined to what precedes it: it is not Prepend (U+0600... and the three- and four-byte ones in
    /// U+0800...U+0DFF and U+11000...U+11FFF are left out wholesale). The rules that join other
    /// pairs (CR LF, Hangul jamo, regional indicators, emoji ZWJ sequences, Indic conjuncts) all
    /// need a second scalar that `isNeverJoined` rejects.
    private static func standsAlone(_ value: UInt32, length: Int) -> Bool {
        switch length {
        case 1: true
        case 2: value < 0x600
        case 3: value >= 0xE00
        default: !(0x11000..<0x12000).contains(value)
        }
    }

    /// Whether the scalar at `offset` never joins the one before it (it is not Extend, SpacingMark,
    /// ZWJ, a Hangul jamo, a regional indicator or an emoji modifier): ASCII, Latin, Greek, Cyrillic
    /// and Armenian letters (not the combining marks U+0300...U+036F and U+0483...U+0489),
    /// general punctuation (dashes, quotes, ellipsis), letterlike symbols, arrows, maths and
    /// dingbats, CJK ideographs, and the emoji blocks (not the modifiers U+1F3FB...U+1F3FF).
    private static func isNeverJoined(at offset: Int, in utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let lead = utf8[offset]
        if lead < 0x80 { return true }
        let (value, _) = decodeScalar(at: offset, in: utf8)
        switch value {
        case 0x80..<0x300, 0x370..<0x483, 0x48A..<0x530: return true
        case 0x2010..<0x2028, 0x2030..<0x205F, 0x2100..<0x2C00, 0x4E00..<0xA000: return true
        case 0x1F300..<0x1F3FB, 0x1F400..<0x1FB00: return true
        default: return false
        }
    }

    /// `excerpt` over `text`'s UTF-8 bytes, `utf8`.
    private static func excerpt(of text: String, utf8: UnsafeBufferPointer<UInt8>, maxLength: Int) -> String {
        // Collapse whitespace while reading only as far as the excerpt needs: item bodies can be
        // hundreds of kilobytes and excerpts are a few hundred characters. The result is gathered
        // as UTF-8 with the positions the cut needs noted on the way, so the characters are
        // walked once (walking them again to cut was a third of the excerpt's cost).
        let budget = maxLength - 1
        var bytes: [UInt8] = []
        // min(count, maxLength × 4) without computing maxLength × 4 when it could overflow.
        bytes.reserveCapacity(maxLength < utf8.count / 4 ? maxLength * 4 : utf8.count)
        var count = 0
        var pendingSpace = false
        var isCut = false
        /// Byte length of the first `budget` characters.
        var budgetEnd = 0
        /// The last space among the first `budget` characters: byte offset and character index.
        var lastSpace: (offset: Int, index: Int)?
        /// Whether the last character taken reads as white space to `Character.isWhitespace` (its
        /// first scalar is), which a character whose scalars are not all white space can (a space
        /// with a combining mark); nil: it was a collapsed space.
        var lastCharacterIsWhitespace: Bool?
        /// Set for the character being read when it is a grapheme cluster found the slow way.
        var startsWithWhitespace = false
        var position = 0
        while position < utf8.count {
            // A scalar that no rule of UAX #29 joins to the scalar after it is a whole character,
            // read without grapheme breaking (which was most of the excerpt's cost): see
            // `standsAlone` and `isNeverJoined`. CR LF counts as two characters here, white space
            // either way.
            let byte = utf8[position]
            let (value, length) = byte < 0x80 ? (UInt32(byte), 1) : Self.decodeScalar(at: position, in: utf8)
            let end: Int
            let isWhitespace: Bool
            startsWithWhitespace = false
            if Self.standsAlone(value, length: length),
                position + length == utf8.count || Self.isNeverJoined(at: position + length, in: utf8),
                let scalar = Unicode.Scalar(value)
            {
                end = position + length
                isWhitespace = String.isWhitespace(scalar)
            } else {
                // Anything else: one grapheme cluster, found by the standard library.
                let start = text.utf8.index(text.utf8.startIndex, offsetBy: position)
                let after = text.index(after: start)
                end = text.utf8.distance(from: text.utf8.startIndex, to: after)
                isWhitespace = text.unicodeScalars[start..<after].allSatisfy(String.isWhitespace)
                startsWithWhitespace = String.isWhitespace(text.unicodeScalars[start])
            }
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
                lastCharacterIsWhitespace = nil
                pendingSpace = false
            }
            guard count < maxLength else {
                isCut = true
                break
            }
            if end == position + 1 {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[position..<end]))
            }
            count += 1
            if count == budget { budgetEnd = bytes.count }
            lastCharacterIsWhitespace = startsWithWhitespace
        }
        guard isCut else { return String(decoding: bytes, as: UTF8.self) }
        // `bytes` holds exactly `maxLength` characters and more text follows.
        var cutEnd = budgetEnd
        if lastCharacterIsWhitespace == false, let lastSpace, lastSpace.index >= budget / 2 {
            cutEnd = lastSpace.offset
        }
        var cut = String(decoding: bytes[..<cutEnd], as: UTF8.self)
        while let last = cut.last, last.isWhitespace || Self.isTrailingPunctuation(last) {
            cut.removeLast()
        }
        return cut + "…"
    }

    // MARK: - Helpers

    /// Control characters (other than whitespace) as U+FFFD.
    ///
    /// NUL would end the C strings cmark reads; the HTML parser replaces the other controls
    /// (except whitespace) with U+FFFD anyway, so doing it up front for both paths keeps
    /// plain-text output idempotent and free of characters HTML forbids.
    static func replacingForbiddenControls(_ text: String) -> String {
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

    /// A byte-level pre-check for `isForbiddenControl`, so the scalar walk runs only on the rare
    /// body that needs it: true when a C0 control other than whitespace, DEL, or the lead byte of a
    /// C1 control (0xC2 followed by 0x80...0x9F) occurs.
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
