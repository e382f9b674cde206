import FeedsiteShared

/// Bounds how deep an HTML fragment nests before any tree is built from it.
///
/// Gumbo frees its tree recursively and walks its stack of open elements once per tag, so a body
/// nested 100,000 levels deep either exhausts the stack or takes minutes. Browsers stop nesting at
/// about 512 levels; this pass does the same in one linear scan over the tags: it follows the
/// stack of open elements gumbo will build (`NestingLimiter.TreeModel`, the insertion rules of
/// gumbo 0.10 for the stack alone) and drops every start tag that would take it past the limit,
/// with the end tags that belong to them. Text is kept, so deep content is flattened into the
/// deepest element allowed; the content of an element the sanitiser drops whole (`script`, `svg`…)
/// is dropped with it, so flattening never reveals it.
///
/// Hot path: bodies with few tags cannot be deep and are not scanned beyond counting their `<`.
struct NestingLimiter {
    /// The input with the tags that nest too deep removed, or nil when nothing needs removing.
    ///
    /// - Parameters:
    ///   - maxDepth: the deepest an element may sit (the fragment's own root not counted).
    ///   - opaqueElements: names whose content is dropped with them when their start tag is.
    ///   - scanningAlways: scan even a body with too few tags to nest too deep, for its attributes
    ///     (`maxAttributes`): before gumbo, which the subset parser's bodies never reach.
    static func limited(
        _ html: String, maxDepth: Int, opaqueElements: Set<String>, scanningAlways: Bool = false
    ) -> String? {
        var html = html
        let limit = max(maxDepth, 1)
        let ranges: [Range<Int>] = html.withUTF8 { bytes in
            // Every element gumbo creates costs a `<` (an implied `tbody`/`tr` or a reconstructed
            // formatting element comes with at least one other tag), so with fewer than half the
            // limit in `<` bytes the depth cannot exceed it.
            guard scanningAlways || Self.countsAtLeast(UInt8(ascii: "<"), limit / 2, in: bytes) else { return [] }
            var limiter = NestingLimiter(bytes: bytes, limit: limit, opaqueElements: opaqueElements)
            limiter.run()
            return limiter.dropped
        }
        guard !ranges.isEmpty else { return nil }
        return html.removingUTF8Ranges(ranges) { output in
            // A `<` just before what is left out was text (a tag cannot follow it directly), but
            // joined to what comes after it could start new markup: `<<t>s>` without its `<t>`
            // reads `<s>`. It is written as the character reference it stands for.
            if output.last == UInt8(ascii: "<") {
                output.removeLast()
                output.append(contentsOf: "&lt;".utf8)
            }
        }
    }

    /// The most attributes a start tag keeps; those after are left out. Gumbo checks each attribute
    /// against every one before it, so a tag with n attributes costs n² (a `<p>` with 100,000 ran
    /// into gumbo's time budget, 4 s, and the item lost its content). No real tag comes near.
    static let maxAttributes = 256

    /// Whether `byte` occurs at least `count` times (stops counting there).
    static func countsAtLeast(_ byte: UInt8, _ count: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = 0
        var index = 0
        while found < count, let next = ByteScan.firstIndex(of: byte, in: bytes, from: index, to: bytes.count) {
            found += 1
            index = next + 1
        }
        return found >= count
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limit: Int
    private let opaqueTags: TagSet
    private var position = 0
    private var model = TreeModel()
    /// Byte ranges left out of the output, in order.
    private(set) var dropped: [Range<Int>] = []
    /// Start tags dropped for depth whose end tags have not been seen: their tag and whether their
    /// content is dropped too. Gumbo never sees them; they only pair end tags with dropped starts.
    private var phantoms: [(tag: Tag, isOpaque: Bool)] = []
    private var opaquePhantoms = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, limit: Int, opaqueElements: Set<String>) {
        self.bytes = bytes
        self.limit = limit
        var tags = TagSet()
        for name in opaqueElements {
            let tag = Tag(name: Array(name.utf8))
            if tag != .unknown { tags.insert(tag) }
        }
        opaqueTags = tags
    }

    // MARK: - Tokenizer

    private mutating func run() {
        while position < bytes.count {
            guard let open = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: position, to: bytes.count)
            else {
                text(position..<bytes.count)
                return
            }
            if open > position { text(position..<open) }
            position = open
            markup()
        }
    }

    private func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// Character data: it may reconstruct formatting elements; inside a dropped opaque element
    /// it is dropped too.
    private mutating func text(_ range: Range<Int>) {
        if opaquePhantoms > 0 {
            drop(range)
            return
        }
        var hasNonWhitespace = false
        for index in range where !Self.isWhitespace(bytes[index]) {
            hasNonWhitespace = true
            break
        }
        model.text(hasNonWhitespace: hasNonWhitespace)
    }

    /// At a `<`: a tag, a comment-like construct, or a literal `<` (text).
    private mutating func markup() {
        let start = position
        switch byte(at: start + 1) {
        case let letter? where Self.isASCIILetter(letter):
            position = start + 1
            guard let tag = readTag(isEndTag: false) else { return }
            startTag(tag, range: start..<position)
        case UInt8(ascii: "/"):
            switch byte(at: start + 2) {
            case let letter? where Self.isASCIILetter(letter):
                position = start + 2
                guard let tag = readTag(isEndTag: true) else { return }
                endTag(tag.tag, nameHash: tag.nameHash, range: start..<position, excessAttributes: tag.excessAttributes)
            case UInt8(ascii: ">"):
                // `</>` is no token at all, yet gumbo 0.10 counts it into the original text of the
                // next tag, by which it matches foreign elements: `<math></></math>` leaves the
                // `math` open. Left out, it changes nothing else and the quirk cannot arise.
                position = start + 3
                drop(start..<position)
            case nil:
                position = bytes.count
                text(start..<bytes.count)
            default:
                skipBogusComment(from: start + 2)
            }
        case UInt8(ascii: "!"):
            markupDeclaration(at: start)
        case UInt8(ascii: "?"):
            skipBogusComment(from: start + 1)
        default:
            position = start + 1
            text(start..<position)
        }
    }

    /// `<!--…-->`, `<!DOCTYPE…>`, `<![CDATA[…]]>` (in foreign content) or a bogus comment.
    private mutating func markupDeclaration(at start: Int) {
        let after = start + 2
        if hasPrefix("--", at: after) {
            // `<!-->` and `<!--->` end at once; otherwise the first `-->` or `--!>` ends it.
            let body = after + 2
            if byte(at: body) == UInt8(ascii: ">") {
                position = body + 1
            } else if hasPrefix("->", at: body) {
                position = body + 2
            } else {
                position = bytes.count
                var index = body
                while let dash = ByteScan.firstIndex(of: UInt8(ascii: "-"), in: bytes, from: index, to: bytes.count) {
                    if hasPrefix("-->", at: dash) {
                        position = dash + 3
                        break
                    }
                    if hasPrefix("--!>", at: dash) {
                        position = dash + 4
                        break
                    }
                    index = dash + 1
                }
            }
            dropIfInsideOpaquePhantom(start..<position)
        } else if model.isCurrentNodeForeign, after + 7 <= bytes.count,
            Array(UnsafeBufferPointer(rebasing: bytes[after..<after + 7])) == Array("[CDATA[".utf8)
        {
            position = bytes.count
            var index = after + 7
            while let bracket = ByteScan.firstIndex(of: UInt8(ascii: "]"), in: bytes, from: index, to: bytes.count) {
                if hasPrefix("]]>", at: bracket) {
                    position = bracket + 3
                    break
                }
                index = bracket + 1
            }
            // CDATA in foreign content is character data.
            text(start..<position)
        } else {
            // `<!DOCTYPE …>` ends at the first `>` as a bogus comment does.
            skipBogusComment(from: after)
        }
    }

    private mutating func skipBogusComment(from index: Int) {
        let start = position
        position =
            ByteScan.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: index, to: bytes.count).map { $0 + 1 }
            ?? bytes.count
        dropIfInsideOpaquePhantom(start..<position)
    }

    private mutating func dropIfInsideOpaquePhantom(_ range: Range<Int>) {
        if opaquePhantoms > 0 { drop(range) }
    }

    /// What the tokenizer read of a tag.
    struct TagToken {
        var tag: Tag
        /// Case-insensitive hash of the name (foreign elements and unknown tags are told apart by name).
        var nameHash: UInt64
        var isSelfClosing = false
        /// Order-independent hash of the attributes (names lowercased, values raw): the identity
        /// the list of active formatting elements compares (Noah's Ark clause).
        var attributesHash: UInt64 = 0
        /// `font` with `color`, `face` or `size`; `annotation-xml` with an HTML `encoding`.
        var hasSignificantAttribute = false
        /// A tag's attributes after its `maxAttributes`th, left out when the tag is kept (an end
        /// tag's too: gumbo reads them, at the same cost, and they mean nothing).
        var excessAttributes: Range<Int>?
    }

    /// Reads a tag from its name (at `position`) to its `>`, as the HTML tokenizer does: quoted
    /// attribute values may hold `>`. Returns nil (and consumes the rest) when the input ends
    /// inside the tag, which the tokenizer then never emits.
    private mutating func readTag(isEndTag: Bool) -> TagToken? {
        let nameStart = position
        while position < bytes.count, !Self.endsTagName(bytes[position]) { position += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<position])
        let tag = Tag(name: name)
        // The name foreign elements are matched by, as gumbo 0.10 takes it from the tag's original
        // text: a start tag's up to the first C `isspace` (vertical tab included) or `/`.
        let matchedName = name.firstIndex(of: 0x0B).map { UnsafeBufferPointer(rebasing: name[..<$0]) } ?? name
        var token = TagToken(tag: tag, nameHash: Self.hash(lowercasing: matchedName))
        let needsAttributes = !isEndTag && (tag.isFormatting || tag == .font || tag == .annotationXML)
        var attributeCount = 0
        var excessStart: Int?
        var lastAttributeEnd = position
        while position < bytes.count {
            let byte = bytes[position]
            if Self.isWhitespace(byte) {
                position += 1
                continue
            }
            if byte == UInt8(ascii: ">") {
                position += 1
                if isEndTag { token.nameHash = Self.endTagTextHash(bytes, nameStart..<position - 1) }
                if let excessStart { token.excessAttributes = excessStart..<lastAttributeEnd }
                return token
            }
            if byte == UInt8(ascii: "/") {
                position += 1
                if self.byte(at: position) == UInt8(ascii: ">") {
                    position += 1
                    token.isSelfClosing = true
                    if isEndTag { token.nameHash = Self.endTagTextHash(bytes, nameStart..<position - 1) }
                    if let excessStart { token.excessAttributes = excessStart..<lastAttributeEnd }
                    return token
                }
                continue
            }
            // An attribute name: its first character may be anything (even `=`).
            let attributeStart = position
            attributeCount += 1
            if attributeCount == Self.maxAttributes + 1 { excessStart = attributeStart }
            defer { lastAttributeEnd = position }
            position += 1
            while position < bytes.count, !Self.endsAttributeName(bytes[position]) { position += 1 }
            let attributeName = UnsafeBufferPointer(rebasing: bytes[attributeStart..<position])
            while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
            var valueRange = position..<position
            if self.byte(at: position) == UInt8(ascii: "=") {
                position += 1
                while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
                guard let first = self.byte(at: position) else { break }
                if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                    guard
                        let close = ByteScan.firstIndex(of: first, in: bytes, from: position + 1, to: bytes.count)
                    else {
                        position = bytes.count
                        break
                    }
                    valueRange = position + 1..<close
                    position = close + 1
                } else if first != UInt8(ascii: ">") {
                    let valueStart = position
                    while position < bytes.count, !Self.isWhitespace(bytes[position]),
                        bytes[position] != UInt8(ascii: ">")
                    {
                        position += 1
                    }
                    valueRange = valueStart..<position
                }
            }
            if needsAttributes, excessStart == nil {
                let value = UnsafeBufferPointer(rebasing: bytes[valueRange])
                token.attributesHash &+= Self.hash(lowercasing: attributeName) &* 31 &+ Self.hash(value)
                let nameHash = Self.hash(lowercasing: attributeName)
                if tag == .font, nameHash == Self.colorHash || nameHash == Self.faceHash || nameHash == Self.sizeHash {
                    token.hasSignificantAttribute = true
                }
                if tag == .annotationXML, nameHash == Self.encodingHash {
                    let encoding = Self.hash(lowercasing: value)
                    if encoding == Self.textHTMLHash || encoding == Self.xhtmlHash {
                        token.hasSignificantAttribute = true
                    }
                }
            }
        }
        position = bytes.count
        return nil
    }

    /// What gumbo 0.10 matches an end tag against foreign elements by: its whole original text
    /// between `</` and `>`, whitespace, attributes and `/` included, so `</tr/>` or `</tr x>`
    /// closes no SVG `tr` (it goes on to the HTML rules, which ignore it there).
    private static func endTagTextHash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        hash(lowercasing: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    private static let colorHash = hash(lowercasing: "color")
    private static let faceHash = hash(lowercasing: "face")
    private static let sizeHash = hash(lowercasing: "size")
    private static let encodingHash = hash(lowercasing: "encoding")
    private static let textHTMLHash = hash(lowercasing: "text/html")
    private static let xhtmlHash = hash(lowercasing: "application/xhtml+xml")

    // MARK: - Tags

    /// Formatting elements gumbo may reconstruct in all (each reconstruction is a new element):
    /// past it, a tag that would leave more of them to reconstruct is dropped, so sloppy markup
    /// keeps its formatting while `<div><b id=1></div>…<div>x</div>…` cannot multiply elements.
    static let reconstructionBudget = 20_000

    private mutating func startTag(_ token: TagToken, range: Range<Int>) {
        let content = model.contentKind(of: token)
        var contentEnd = position
        var hasEndTag = false
        switch content {
        case .normal:
            break
        case .rawText(let endName):
            (contentEnd, hasEndTag) =
                token.tag == .script ? endOfScriptData() : endOfRawText(named: endName)
        case .plainText:
            contentEnd = bytes.count
        }
        let weight = model.weight(of: token)
        if opaquePhantoms == 0, phantoms.isEmpty || weight == 0, model.effectiveDepth + weight <= limit {
            // Past the budget a trial run decides (a copy per tag, only for such input).
            if isThrottled {
                var next = model
                next.startTag(token)
                if hasEndTag { next.endOfRawText(token.tag) }
                if next.offStack <= model.offStack {
                    model = next
                    if let excess = token.excessAttributes { drop(excess) }
                    position = contentEnd
                    return
                }
            } else {
                model.startTag(token)
                if hasEndTag { model.endOfRawText(token.tag) }
                if let excess = token.excessAttributes { drop(excess) }
                position = contentEnd
                return
            }
        }
        // Left out. An element whose content is text only goes with its content; other end tags
        // are paired with it while it is "open", and its content is dropped too when the
        // sanitiser would drop the element whole.
        switch content {
        case .rawText, .plainText:
            drop(range.lowerBound..<contentEnd)
            position = contentEnd
            return
        case .normal:
            drop(range)
        }
        guard weight > 0 else { return }
        let isOpaque = token.tag == .unknown ? false : opaqueTags.contains(token.tag)
        phantoms.append((token.tag, isOpaque))
        if isOpaque { opaquePhantoms += 1 }
    }

    /// Past the reconstruction budget.
    private var isThrottled: Bool { model.reconstructed > Self.reconstructionBudget }

    private mutating func endTag(_ tag: Tag, nameHash: UInt64, range: Range<Int>, excessAttributes: Range<Int>? = nil) {
        if let index = phantoms.lastIndex(where: { $0.tag == tag }) {
            for phantom in phantoms[index...] where phantom.isOpaque { opaquePhantoms -= 1 }
            phantoms.removeSubrange(index...)
            drop(range)
            return
        }
        if opaquePhantoms > 0 {
            drop(range)
            return
        }
        let closed: Bool
        if isThrottled {
            var next = model
            closed = next.endTag(tag, nameHash: nameHash)
            if next.offStack > model.offStack {
                drop(range)
                return
            }
            model = next
        } else {
            closed = model.endTag(tag, nameHash: nameHash)
        }
        if closed {
            // The elements the dropped ones would have sat in are closed: so are they.
            phantoms.removeAll()
            opaquePhantoms = 0
        }
        if let excessAttributes { drop(excessAttributes) }
    }

    /// Where the text of a raw-text element ends (after its end tag, or at the end of the input)
    /// and whether the end tag was there.
    private mutating func endOfRawText(named name: [UInt8]) -> (Int, Bool) {
        var index = position
        while let open = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index, to: bytes.count) {
            index = open + 1
            guard byte(at: open + 1) == UInt8(ascii: "/"), open + 2 + name.count <= bytes.count else { continue }
            var matches = true
            for (offset, expected) in name.enumerated() where bytes[open + 2 + offset] | 0x20 != expected {
                matches = false
                break
            }
            guard matches, let after = byte(at: open + 2 + name.count),
                Self.isWhitespace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">")
            else { continue }
            // The end tag itself, read like any tag up to its `>`.
            return endOfEndTag(at: open)
        }
        return (bytes.count, false)
    }

    /// Where a script's text ends, following the tokenizer's script data states: inside `<!--`
    /// a `<script` starts a "double escaped" part in which `</script>` does not end the script.
    private mutating func endOfScriptData() -> (Int, Bool) {
        enum State { case data, escaped, doubleEscaped }
        var state = State.data
        var dashes = 0
        var index = position
        while index < bytes.count {
            if state == .data {
                guard let open = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index, to: bytes.count)
                else { break }
                index = open
                if isScriptTag(at: index, isEndTag: true) { return endOfEndTag(at: index) }
                if hasPrefix("<!--", at: index) {
                    state = .escaped
                    dashes = 2
                    index += 4
                } else {
                    index += 1
                }
                continue
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "-") {
                dashes += 1
                index += 1
                continue
            }
            if byte == UInt8(ascii: ">"), dashes >= 2 {
                state = .data
            } else if byte == UInt8(ascii: "<") {
                if state == .escaped, isScriptTag(at: index, isEndTag: true) { return endOfEndTag(at: index) }
                if state == .escaped, isScriptTag(at: index, isEndTag: false) {
                    state = .doubleEscaped
                    index += 7
                    dashes = 0
                    continue
                }
                if state == .doubleEscaped, isScriptTag(at: index, isEndTag: true) {
                    state = .escaped
                    index += 8
                    dashes = 0
                    continue
                }
            }
            dashes = 0
            index += 1
        }
        return (bytes.count, false)
    }

    /// `<script` or `</script` at `index`, followed by whitespace, `/` or `>`.
    private func isScriptTag(at index: Int, isEndTag: Bool) -> Bool {
        let nameStart = index + (isEndTag ? 2 : 1)
        guard hasPrefix(isEndTag ? "</script" : "<script", at: index), let after = byte(at: nameStart + 6) else {
            return false
        }
        return Self.isWhitespace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">")
    }

    /// The end of the end tag that starts at `index` (read like any tag), and whether it is whole.
    private mutating func endOfEndTag(at index: Int) -> (Int, Bool) {
        let saved = position
        position = index + 2
        let isComplete = readTag(isEndTag: true) != nil
        let end = position
        position = saved
        return (end, isComplete)
    }

    private mutating func drop(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if let last = dropped.last, last.upperBound == range.lowerBound {
            dropped[dropped.count - 1] = last.lowerBound..<range.upperBound
        } else {
            dropped.append(range)
        }
    }

    // MARK: - Bytes

    /// Whether `prefix` (lowercase) is at `index`, ASCII letters compared case-insensitively and
    /// everything else exactly (`[CDATA[` is case-sensitive and has no letters to fold).
    private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { expected in
            for offset in 0..<count {
                let byte = bytes[index + offset]
                let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if folded != expected[offset] { return false }
            }
            return true
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func endsTagName(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    private static func endsAttributeName(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
    }

    /// FNV-1a over the bytes with ASCII letters lowercased.
    static func hash(lowercasing bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            hash = (hash ^ UInt64(lowered)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    static func hash(lowercasing string: String) -> UInt64 {
        hash(lowercasing: string.utf8)
    }

    /// FNV-1a over the bytes as they are.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
