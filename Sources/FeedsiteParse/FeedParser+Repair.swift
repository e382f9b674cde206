import FeedsiteShared
import Foundation

extension FeedParser {
    /// The result of a repair pass: new bytes and one warning per kind of fix.
    package struct Repair {
        package var bytes: [UInt8]
        package var warnings: [String]
        /// The warnings of the fixes to the structure (tags closed, dropped or moved, a document
        /// cut off), not to characters (`&`, entities, encodings): what may have lost content.
        package var structuralWarnings: [String]
    }

    /// Fixes what feeds most often get wrong, on the raw bytes, keeping every newline so line
    /// numbers stay true. It runs only on a document the strict parse rejected. Characters:
    /// - `&` that does not start a valid reference becomes `&amp;` (`?a=1&b=2`, `AT&T`);
    /// - HTML named entities XML lacks (`&nbsp;`, `&uuml;`, `&mdash;` — the full HTML 4 set) become
    ///   numeric references; unknown names are escaped so they show as written;
    /// - characters XML 1.0 forbids (C0 controls, U+FFFE/U+FFFF, references to them) are dropped;
    /// - a `<` that cannot start markup (`a < b`) becomes `&lt;`;
    /// - bytes that are not valid UTF-8 (the document claimed UTF-8 but lied), in CDATA sections too,
    ///   are read as windows-1252, or become U+FFFD where windows-1252 has no character;
    ///
    /// and structure, the way HTML parsers balance tags (so one broken tag costs no item):
    /// - an end tag closes the open element of its name, closing (with a warning) the elements left
    ///   open inside it (`<link>x</item>`); one that matches no open element but nearly matches one
    ///   (`</descriptio>`, `</Title>`) is read as that element's; any other is dropped (a stray);
    /// - an `<item>` or `<entry>` start tag closes the item of that name still open;
    /// - a field whose end tag never comes before its item or channel ends (`<title>Post` then
    ///   `<link>`, `<description>Body` then `<pubDate>`) is closed by the next field's start tag;
    /// - `<` in a title, link or id that starts no element closed inside it (`vector<int>`) is text;
    /// - attribute values are quoted (`url=http://x/a.mp3`), valueless attributes get an empty
    ///   value, repeated attributes are dropped, `<` in values is escaped;
    /// - comments and misplaced XML declarations inside the document are removed;
    /// - an end tag of the root element with more of the document after it is ignored;
    /// - a document cut off mid-way (a truncated download) has its last partial tag dropped and what
    ///   is still open closed, after a `<?feedsite-truncated here?>` marker telling the state machine to
    ///   drop the item it was in the middle of (its text is cut, so it is not published).
    ///
    /// What is still not well-formed after this is read by libxml2's recovery mode
    /// (`XMLEventReader.isRecovering`). Returns nil when nothing needed fixing.
    ///
    /// `balancingTags: false` keeps the markup as written (only the character fixes and the
    /// closing of a cut-off document apply), for readers that would rather refuse a document whose
    /// structure is broken (the OPML import).
    package static func repair(_ bytes: [UInt8], lineOffset: Int, balancingTags: Bool = false) -> Repair? {
        var pass = RepairPass(input: bytes, line: 1 + lineOffset, balancesTags: balancingTags)
        pass.run()
        guard !pass.fixes.isEmpty else { return nil }
        let fixes = pass.fixes.sorted { ($0.value.line, $0.key) < ($1.value.line, $1.key) }
        func warning(_ fix: (key: String, value: (line: Int, count: Int))) -> String {
            "line \(fix.value.line): \(fix.key)" + (fix.value.count > 1 ? " (\(fix.value.count) times)" : "")
        }
        return Repair(
            bytes: pass.output, warnings: fixes.map(warning),
            structuralWarnings: fixes.filter { !pass.characterFixes.contains($0.key) }.map(warning))
    }

    /// The processing-instruction target the repair pass inserts where a cut-off document ends.
    static let truncationMarker = "feedsite-truncated"

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isLegalXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    /// Length of the well-formed UTF-8 sequence starting at `i`, or 0 when it is not one.
    static func validUTF8SequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
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

/// One run of `FeedParser.repair`: a cursor over the input, the output, the open elements and the
/// fixes made (by kind: the line of the first and how many).
private struct RepairPass {
    let input: [UInt8]
    var output: [UInt8] = []
    var line: Int
    var fixes: [String: (line: Int, count: Int)] = [:]
    /// The kinds in `fixes` that are fixes to characters (`noteCharacter`).
    var characterFixes: Set<String> = []
    /// Qualified names of the open elements, outermost first.
    private var open: [ArraySlice<UInt8>] = [] {
        didSet { if open.count < openedOnLine.count { openedOnLine.removeSubrange(open.count...) } }
    }
    /// The line each of `open` started on (kept as long as `open`: appended by `push`).
    private var openedOnLine: [Int] = []
    /// Where in `open` each name is open, outermost first: an end tag finds its element however
    /// deep it lies (64 unclosed `<p>` or `<td>` in one post's HTML) in constant time, so hostile
    /// nesting stays linear. Kept by `push` and `closeOpen(from:)`, the only changes to `open`.
    private var openPositions: [ArraySlice<UInt8>: [Int]] = [:]
    /// An end tag of the root element was skipped because the document goes on after it.
    private var isRootEndPostponed = false
    private var i = 0
    private var nextByteCache: [UInt8: Int] = [:]
    /// `nextTag`'s answers, for start tags and end tags, by name.
    private var nextStartTag: [ArraySlice<UInt8>: Int] = [:]
    private var nextEndTag: [ArraySlice<UInt8>: Int] = [:]
    /// `find(_:from:)`'s answers: where each literal's search started and what it found.
    private var nextLiteral: [String: (from: Int, found: Int)] = [:]
    /// Where in `open` the items and channels are (`<item>`, `<entry>`, `<channel>`, `<feed>`),
    /// outermost first: what a field belongs to. Kept with `openPositions`.
    private var containerPositions: [Int] = []
    /// The index just past the document's last `>`: a root end tag before it is not the real end.
    private let lastTagEnd: Int

    /// Whether the structural repairs apply (see `FeedParser.repair`).
    let balancesTags: Bool

    init(input: [UInt8], line: Int, balancesTags: Bool) {
        self.input = input
        self.line = line
        self.balancesTags = balancesTags
        output.reserveCapacity(input.count + 256)
        lastTagEnd = (input.lastIndex(of: UInt8(ascii: ">")) ?? -1) + 1
    }

    /// A fix to characters (`&`, an entity, an encoding), not to the structure: `Repair.structuralWarnings`
    /// leaves it out. Only fixes `note` kept are remembered, so the set stays as bounded as `fixes`.
    mutating func noteCharacter(_ fix: String) {
        note(fix)
        if fixes[fix] != nil { characterFixes.insert(fix) }
    }

    mutating func note(_ fix: String) {
        if let existing = fixes[fix] {
            fixes[fix] = (existing.line, existing.count + 1)
        } else if fixes.count < Self.maximumKindsOfFix || fix == Self.otherFixes {
            fixes[fix] = (line, 1)
        } else {
            // A hostile document can name a new element in every tag: the warnings stay bounded.
            note(Self.otherFixes)
        }
    }

    /// How many distinct warnings a repair reports at most (one more counts all the others).
    static let maximumKindsOfFix = 50
    static let otherFixes = "repaired more problems of other kinds"

    /// How far down the open elements the searches by kind (an item of any name, fields that never
    /// hold one) look: real documents need a few levels, and a bound keeps hostile nesting linear.
    /// An element of a given name is found at any depth (`openPositions`).
    static let searchDepth = 64

    /// The deepest an element may open in the repaired document, a margin short of the reader's
    /// limit (the reader counts the elements the repair closes early too).
    static let deepestElement = XMLEventReader.maximumDepth - 24

    /// The innermost open element named `name`.
    private func openElement(named name: ArraySlice<UInt8>) -> Int? {
        openPositions[name]?.last
    }

    /// Forgets `open[index...]` (their end tags are written, or they are dropped).
    private mutating func closeOpen(from index: Int) {
        for position in (index..<open.count).reversed() {
            let name = open[position]
            openPositions[name]?.removeLast()
            if openPositions[name]?.isEmpty == true { openPositions[name] = nil }
        }
        open.removeSubrange(index...)
        while let last = containerPositions.last, last >= index { containerPositions.removeLast() }
    }

    /// The open element nearest the top (within `depth` levels) that `matches`.
    private func openElement(within depth: Int = searchDepth, where matches: (ArraySlice<UInt8>) -> Bool) -> Int? {
        let lowest = max(0, open.count - depth)
        return open[lowest...].lastIndex(where: matches)
    }

    mutating func run() {
        var isCutOff = false
        scan: while i < input.count {
            let byte = input[i]
            switch byte {
            case UInt8(ascii: "<"):
                if matches("<![CDATA[") {
                    if balancesTags, find("]]>", from: i + 9) == nil,
                        let (end, _) = endOfOpenElement()
                    {
                        // Never closed: it ends where the element it is in does.
                        note("closed a CDATA section left open")
                        copyLiteral(to: end)
                        output.append(contentsOf: "]]>".utf8)
                        continue scan
                    }
                    guard copySection(until: "]]>", from: i) else {
                        isCutOff = true
                        break scan
                    }
                } else if !balancesTags, matches("<!--") || matches("<?") {
                    guard copySection(until: matches("<!--") ? "-->" : "?>", from: i) else {
                        isCutOff = true
                        break scan
                    }
                } else if !balancesTags, i + 1 < input.count,
                    Self.startsName(input[i + 1]) || input[i + 1] == UInt8(ascii: "/")
                        || input[i + 1] == UInt8(ascii: "!")
                {
                    guard copyTag() else {
                        isCutOff = true
                        break scan
                    }
                } else if matches("<!--") {
                    // Comments carry nothing a feed needs, and are where `--` and bad bytes hide.
                    let end = find("-->", from: i + 4).map { $0 + 3 } ?? input.count
                    if end == input.count, let (close, tag) = endOfOpenElement() {
                        // Never closed: it ends where the element it is in does, as a CDATA section
                        // left open does, rather than taking every later item with it.
                        note("removed a comment left open, up to \(tag)")
                        blank(i..<close)
                        continue scan
                    }
                    if let dashes = FeedParser.find(input, "--", from: i + 4), dashes < end - 3 {
                        note("removed a comment containing '--'")
                    }
                    blank(i..<end)
                } else if matches("<?"), i + 2 < input.count, Self.startsName(input[i + 2]) {
                    let end = find("?>", from: i + 2).map { $0 + 2 } ?? input.count
                    if end == input.count, let (close, tag) = endOfOpenElement() {
                        // Never closed (server code that leaked, `<?php`): it ends where its element does.
                        note("removed a processing instruction left open, up to \(tag)")
                        blank(i..<close)
                        continue scan
                    }
                    if i + 5 < input.count, input[(i + 2)..<(i + 5)].map({ $0 | 0x20 }) == Array("xml".utf8),
                        FeedParser.isXMLSpace(input[i + 5]), i > 0
                    {
                        note("removed an XML declaration in the middle of the document")
                        blank(i..<end)
                    } else if !copySection(until: "?>", from: i) {
                        isCutOff = true
                        break scan
                    }
                } else if matches("<!") {
                    // A declaration inside the document (a second DOCTYPE): never read, removed.
                    let end = (find(">", from: i + 2) ?? input.count - 1) + 1
                    note("removed a declaration inside the document")
                    blank(i..<min(end, input.count))
                } else if i + 1 < input.count, input[i + 1] == UInt8(ascii: "/") {
                    guard endTag() else {
                        isCutOff = true
                        break scan
                    }
                } else if i + 1 < input.count, Self.startsName(input[i + 1]) {
                    guard startTag() else {
                        isCutOff = true
                        break scan
                    }
                } else {
                    output.append(contentsOf: "&lt;".utf8)
                    noteCharacter("repaired unescaped '<'")
                    i += 1
                }
            case UInt8(ascii: "]") where matches("]]>"):
                output.append(contentsOf: "]]&gt;".utf8)
                note("repaired ']]>' outside a CDATA section")
                i += 3
            default:
                characterData(isAttribute: false)
            }
        }
        if isRootEndPostponed, !isCutOff, !open.isEmpty {
            // The root's end tag came early; it takes effect here, closing what it would have closed.
            closeOpenElements(above: 0)
            closeElement(open[0])
            closeOpen(from: 0)
        }
        if isCutOff || !open.isEmpty {
            let inside = open.last.map { "<\(String(decoding: $0, as: UTF8.self))>" } ?? "a tag"
            note("repaired end of document inside \(inside), cut off (closed \(open.count) open elements)")
            // With data: data-less PIs are blanked (see `blankEmptyProcessingInstructions`).
            output.append(contentsOf: "<?\(FeedParser.truncationMarker) here?>".utf8)
            for name in open.reversed() { closeElement(name) }
        }
    }

    // MARK: - Characters

    /// Where the innermost open element whose end tag comes later ends (its end tag's offset, from
    /// `i` on) and that tag: where a comment, CDATA section or processing instruction that is never
    /// closed is taken to end. An element's end tag counts only before the end of the element
    /// around it (an item ends at its `</item>`, or at the next `<item>`, which closes it): a
    /// `<title><![CDATA[` whose `</title>` is missing ends at its item's end, not at the next item's
    /// `</title>`, which would take that item with it. At most 8 levels out.
    private mutating func endOfOpenElement() -> (offset: Int, tag: String)? {
        var found: (offset: Int, tag: String)?
        for element in open.suffix(8) {
            let name = String(decoding: element, as: UTF8.self)
            var end = nextTag(element, isEnd: true).map { (offset: $0, tag: "</\(name)>") }
            if element == Self.item || element == Self.entry, let start = nextTag(element, isEnd: false),
                start < end?.offset ?? .max
            {
                end = (start, "<\(name)>")
            }
            if let end, end.offset < found?.offset ?? input.count { found = end }
        }
        return found
    }

    /// The next `literal` (`-->`, `]]>`, `?>`, `>`) from `start` on, remembered per literal: the
    /// cursor only moves forward, so a document of 20,000 comments left open (each search finding
    /// nothing to the end) is read in one pass per literal, not one per comment.
    private mutating func find(_ literal: String, from start: Int) -> Int? {
        if let (from, found) = nextLiteral[literal], start >= from, start <= found {
            return found < input.count ? found : nil
        }
        let found = FeedParser.find(input, literal, from: start)
        nextLiteral[literal] = (start, found ?? input.count)
        return found
    }

    private func matches(_ literal: String) -> Bool {
        FeedParser.matches(input, at: i, literal)
    }

    /// Replaces `range` with its newlines only, so line numbers stay true.
    private mutating func blank(_ range: Range<Int>) {
        for byte in input[range] where byte == 0x0A {
            output.append(0x0A)
            line += 1
        }
        i = range.upperBound
    }

    /// Copies a CDATA section or processing instruction up to and including `terminator`,
    /// fixing its characters; false when the document ends inside it (nothing is copied then).
    private mutating func copySection(until terminator: String, from start: Int) -> Bool {
        guard let end = find(terminator, from: start + 2).map({ $0 + terminator.utf8.count })
        else { return false }
        copyLiteral(to: end)
        return true
    }

    /// Copies up to `end` with `&` and `<` as they are (the inside of a section), fixing the rest.
    private mutating func copyLiteral(to end: Int) {
        while i < end {
            let byte = input[i]
            if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") {
                output.append(byte)
                i += 1
            } else {
                characterData(isAttribute: false, until: end)
            }
        }
    }

    /// Copies the character at `i` (and a run of plain bytes after it), fixing what XML forbids:
    /// bad references, control characters, invalid UTF-8, `<` (only in attribute values here).
    private mutating func characterData(isAttribute: Bool, until limit: Int? = nil) {
        let end = limit ?? input.count
        let byte = input[i]
        switch byte {
        case 0x0A:
            line += 1
            output.append(byte)
            i += 1
        case UInt8(ascii: "&"):
            i += 1
            repairReference()
        case UInt8(ascii: "<") where isAttribute:
            output.append(contentsOf: "&lt;".utf8)
            noteCharacter("repaired '<' in an attribute value")
            i += 1
        case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F:
            noteCharacter("repaired illegal control character")
            i += 1
        case 0x80...0xFF:
            let length = FeedParser.validUTF8SequenceLength(input, at: i)
            if length == 0 || i + length > end {
                let scalar = FeedParser.windows1252Scalar(byte)
                if (0x80...0x9F).contains(scalar) {
                    FeedParser.appendUTF8(0xFFFD, to: &output)
                    noteCharacter("repaired invalid UTF-8 (replaced with U+FFFD)")
                } else {
                    FeedParser.appendUTF8(scalar, to: &output)
                    noteCharacter("repaired invalid UTF-8 (read as windows-1252)")
                }
                i += 1
            } else if length == 3, byte == 0xEF, input[i + 1] == 0xBF, input[i + 2] >= 0xBE {
                noteCharacter("repaired illegal character U+FFFE/U+FFFF")
                i += 3
            } else {
                output.append(contentsOf: input[i..<i + length])
                i += length
            }
        default:
            output.append(byte)
            i += 1
        }
    }

    /// After a `&` (at `i`): copies a valid reference, or writes its repaired form.
    private mutating func repairReference() {
        // Look ahead for `name;` / `#123;` / `#x1F;` within a sane length.
        var j = i
        while j < input.count, j - i < 40, Self.isReferenceByte(input[j]) { j += 1 }
        guard j < input.count, input[j] == UInt8(ascii: ";"), j > i else {
            output.append(contentsOf: "&amp;".utf8)
            noteCharacter("repaired unescaped '&'")
            return
        }
        let name = String(decoding: input[i..<j], as: UTF8.self)
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            if let value, FeedParser.isLegalXMLCharacter(value) {
                if digits.first == "X" {
                    // XML spells hexadecimal references with a lowercase x only; HTML takes both.
                    output.append(contentsOf: "&#x\(String(value, radix: 16));".utf8)
                    noteCharacter("repaired character reference with an uppercase X (&#X…;)")
                } else {
                    output.append(UInt8(ascii: "&"))
                    output.append(contentsOf: input[i...j])
                }
            } else if value != nil {
                noteCharacter("repaired reference to an illegal character &\(name);")
            } else {
                output.append(contentsOf: "&amp;".utf8)
                noteCharacter("repaired unescaped '&'")
                return
            }
        } else if ["amp", "lt", "gt", "quot", "apos"].contains(name) {
            output.append(UInt8(ascii: "&"))
            output.append(contentsOf: input[i...j])
        } else if let codePoint = HTMLEntities.codePoints[name] {
            output.append(contentsOf: "&#\(codePoint);".utf8)
            noteCharacter("repaired undefined entity &\(name);")
        } else {
            output.append(contentsOf: "&amp;".utf8)
            noteCharacter("repaired unknown entity &\(name);")
            return
        }
        i = j + 1
    }

    // MARK: - Tags

    /// The qualified name starting at `start` and the index after it.
    private func name(at start: Int) -> Range<Int> {
        var end = start
        while end < input.count, Self.isNameByte(input[end]) { end += 1 }
        return start..<end
    }

    private mutating func skipSpace() {
        while i < input.count, FeedParser.isXMLSpace(input[i]) {
            if input[i] == 0x0A { line += 1 }
            output.append(input[i])
            i += 1
        }
    }

    /// The tag at `i` copied as written (`balancesTags` off), its characters fixed, the open elements
    /// tracked for a cut-off end; false when the document ends inside it.
    private mutating func copyTag() -> Bool {
        let end = FeedParser.firstUnquotedIndex(in: input, from: i + 1) { $0 == UInt8(ascii: ">") }
        guard end < input.count else { return false }
        let tag = input[(i + 1)..<end]
        if let first = tag.first, first != UInt8(ascii: "!") {
            let isEndTag = first == UInt8(ascii: "/")
            let nameStart = isEndTag ? tag.startIndex + 1 : tag.startIndex
            let name = input[self.name(at: nameStart)]
            if isEndTag {
                if let index = openElement(named: name) { closeOpen(from: index) }
            } else if tag.last != UInt8(ascii: "/") {
                push(name, line: line)
            }
        }
        output.append(UInt8(ascii: "<"))
        i += 1
        while i < end { characterData(isAttribute: true, until: end) }
        output.append(UInt8(ascii: ">"))
        i = end + 1
        return true
    }

    /// `<name attributes…>` or `<name …/>` at `i`; false when the document ends inside it.
    private mutating func startTag() -> Bool {
        let tagStart = i
        let lineAtStart = line
        let outputAtStart = output.count
        let fixesAtStart = fixes
        let nameRange = name(at: i + 1)
        let name = input[nameRange]
        // An item or entry never contains another: a start tag of one closes the one left open.
        let isItem = Self.isItemElement(name)
        i = nameRange.upperBound
        var attributes = Set<ArraySlice<UInt8>>()
        var attributeOutput: [UInt8] = []
        swap(&output, &attributeOutput)
        var isEmptyElement = false
        var isUnended = false
        while true {
            let hadSpace = i < input.count && FeedParser.isXMLSpace(input[i])
            skipSpace()
            guard i < input.count else {
                // The document ends inside this tag: drop it, close the rest.
                swap(&output, &attributeOutput)
                output.removeSubrange(outputAtStart...)
                line = lineAtStart
                i = tagStart
                return false
            }
            let byte = input[i]
            if byte == UInt8(ascii: ">") {
                i += 1
                break
            }
            if byte == UInt8(ascii: "<") {
                note("repaired a tag without its '>'")  // the next tag begins: end this one here
                isUnended = true
                break
            }
            if byte == UInt8(ascii: "/") {
                if i + 1 < input.count, input[i + 1] == UInt8(ascii: ">") {
                    isEmptyElement = true
                    i += 2
                    break
                }
                i += 1  // a stray `/`
                note("repaired a stray '/' in a tag")
                continue
            }
            let attributeName = self.name(at: i)
            guard !attributeName.isEmpty else {
                i += 1
                note("repaired a character that cannot start an attribute name")
                continue
            }
            if !hadSpace { output.append(UInt8(ascii: " ")) }
            i = attributeName.upperBound
            // `name = value`, with optional space around `=` (kept as written).
            var j = i
            while j < input.count, FeedParser.isXMLSpace(input[j]) { j += 1 }
            let isValidName = Self.isAttributeName(input[attributeName])
            if !isValidName { note("dropped an attribute whose name is not an XML name") }
            let isDuplicate = isValidName && !attributes.insert(input[attributeName]).inserted
            if isDuplicate { note("repaired an attribute given twice (kept the first)") }
            let outputBeforeAttribute = output.count
            output.append(contentsOf: input[attributeName])
            if j < input.count, input[j] == UInt8(ascii: "=") {
                skipSpace()
                output.append(UInt8(ascii: "="))
                i += 1
                skipSpace()
                guard attributeValue() else { continue }
            } else {
                output.append(contentsOf: "=\"\"".utf8)
                note("repaired an attribute without a value")
            }
            if isDuplicate || !isValidName {
                // Removed, but its newlines stay so line numbers stay true.
                let newlines = output[outputBeforeAttribute...].filter { $0 == 0x0A }.count
                output.removeSubrange(outputBeforeAttribute...)
                output.append(contentsOf: repeatElement(0x0A, count: newlines))
            }
        }
        swap(&output, &attributeOutput)
        if !isItem { closeUnendedField(before: name) }
        if !isItem, !isEmptyElement, isUnended || !Self.isHTMLPhrasing(name), let field = textField(holdingAsText: name)
        {
            // Read again as text, from just after its `<`, as written.
            fixes = fixesAtStart
            i = tagStart + 1
            line = lineAtStart
            output.append(contentsOf: "&lt;".utf8)
            note("repaired unescaped '<' in <\(String(decoding: field, as: UTF8.self))> (read as text)")
            return true
        }
        if isItem, !isEmptyElement {
            if let index = openElement(named: name) {
                if index + 1 == open.count || !isTextInMarkup(from: index + 1) {
                    closeOpenElements(above: index)
                    closeElement(open[index])
                    closeOpen(from: index)
                    note("closed <\(String(decoding: name, as: UTF8.self))> before the next one")
                }
            } else if openElement(where: Self.isItemElement) == nil {
                closeFields(beforeItem: name)
            }
        }
        if isItem, !isEmptyElement, open.count >= Self.deepestElement {
            // An item this deep is inside elements left open before it (thousands of `<x>` in the
            // channel): they close, down to its channel (or the root), so it and the items after it
            // are read rather than removed with the tags below.
            var keep = containerPositions.last { Self.isChannelElement(open[$0]) } ?? 0
            if keep + 1 >= Self.deepestElement { keep = 0 }
            for name in open[(keep + 1)...].reversed() { closeElement(name) }
            note(
                "closed \(open.count - keep - 1) elements left open before <\(String(decoding: name, as: UTF8.self))>,"
                    + " which was nested deeper than \(Self.deepestElement) levels")
            closeOpen(from: keep + 1)
        }
        if open.count >= Self.deepestElement, !isEmptyElement {
            // Deeper than the reader reads (`XMLEventReader.maximumDepth`, where it stops): the tag
            // goes and its text stays, so the post it is in and the posts after it are read. Its
            // end tag then closes an element further out, or nothing; text is never lost.
            note("removed tags nested deeper than \(Self.deepestElement) levels (their text is kept)")
            output.append(contentsOf: repeatElement(0x0A, count: attributeOutput.lazy.filter { $0 == 0x0A }.count))
            return true
        }
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name)
        output.append(contentsOf: attributeOutput)
        // An HTML void element (`<br>`, `<img …>`) has no content and no end tag: left open, it would
        // swallow the items after it.
        let isVoid = !isEmptyElement && Self.htmlVoidElements.contains(name.map { $0 | 0x20 })
        if isVoid { note("closed <\(String(decoding: name, as: UTF8.self))> (an HTML element that has no end tag)") }
        output.append(contentsOf: isEmptyElement || isVoid ? "/>".utf8 : ">".utf8)
        if !isEmptyElement, !isVoid { push(name, line: lineAtStart) }
        return true
    }

    private mutating func push(_ name: ArraySlice<UInt8>, line: Int) {
        openPositions[name, default: []].append(open.count)
        if Self.isItemElement(name) || Self.isChannelElement(name) { containerPositions.append(open.count) }
        open.append(name)
        openedOnLine.append(line)
    }

    /// A field start tag (`<link>`, `<pubDate>`, `<guid>`) met inside a field of an item or channel
    /// whose end tag never comes before its item or channel ends (`<title>First post` then
    /// `<link>…`; `<description>Body` then `<pubDate>…`): the field was left open, and it is closed
    /// here (with any HTML left open in it), so it does not swallow the fields after it. A field
    /// whose end tag does come later keeps what is written inside it (`<title>Use <link></title>`),
    /// and in a field that holds HTML, a tag HTML has too (`<link>`, `<title>`, `<source>`) is HTML.
    private mutating func closeUnendedField(before name: ArraySlice<UInt8>) {
        guard let containerIndex = containerPositions.last, containerIndex + 1 < open.count, Self.isField(name)
        else { return }
        let container = open[containerIndex]
        let field = open[containerIndex + 1]
        guard Self.isTextField(field) || (Self.holdsMarkup(field) && !Self.isHTMLElement(name)) else { return }
        // Where the container ends: its end tag, or the start of the next one (of an item, for a
        // channel, whose fields come before its items).
        let nextContainer: Int?
        if Self.isItemElement(container) {
            nextContainer = nextTag(container, isEnd: false)
        } else if let item = nextTag(Self.item, isEnd: false), let entry = nextTag(Self.entry, isEnd: false) {
            nextContainer = min(item, entry)
        } else {
            nextContainer = nil
        }
        guard let fieldEnd = nextTag(field, isEnd: true), let containerEnd = nextTag(container, isEnd: true),
            let nextContainer, fieldEnd > min(containerEnd, nextContainer)
        else { return }
        let position = containerIndex + 1
        closeOpenElements(above: position)
        note(
            "closed <\(String(decoding: field, as: UTF8.self))> (opened on line \(openedOnLine[position])) before <\(String(decoding: name, as: UTF8.self))>: its end tag is missing"
        )
        closeElement(field)
        closeOpen(from: position)
    }

    /// The text field of an item or channel (`<title>`, `<link>`, `<guid>`) that the tag `name`
    /// just read stands in, when the field's end tag comes before any end tag of `name`: the tag is
    /// text written without escaping its `<` (`std::vector<int>`, `List<String>`, `a<b then`), not
    /// an element. The caller keeps as markup a tag whose end tag comes first (`<b>bold</b>`), a
    /// whole tag of HTML's (`<b>bold` left open) and HTML's void elements (`<br>`).
    private mutating func textField(holdingAsText name: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let containerIndex = containerPositions.last, containerIndex + 2 == open.count else { return nil }
        let field = open[containerIndex + 1]
        guard Self.isTextField(field), !Self.htmlVoidElements.contains(name.map { $0 | 0x20 }),
            let fieldEnd = nextTag(field, isEnd: true), let ownEnd = nextTag(name, isEnd: true), ownEnd > fieldEnd
        else { return nil }
        return field
    }

    /// The index of the next `<name` or `</name` (`isEnd`) from `i` on, where the name
    /// ends there (`</title>`, `</title >`, not `</titles>`), or the end of the input. Remembered
    /// per tag (the cursor only moves forward, so each search goes over the input once); past
    /// `maximumTagSearches` distinct tags (a hostile document naming a new prefix in every tag) it
    /// answers nil, and the fields stay as written.
    private mutating func nextTag(_ name: ArraySlice<UInt8>, isEnd: Bool) -> Int? {
        let known = isEnd ? nextEndTag[name] : nextStartTag[name]
        if let known, known >= i { return known }
        guard known != nil || nextStartTag.count + nextEndTag.count < Self.maximumTagSearches else { return nil }
        let literal = (isEnd ? Array("</".utf8) : Array("<".utf8)) + name
        var from = i
        var found = input.count
        while let at = input.withUnsafeBufferPointer({ ByteScan.firstIndex(of: literal, in: $0, from: from) }) {
            let after = at + literal.count
            if after >= input.count || !Self.isNameByte(input[after]) {
                found = at
                break
            }
            from = at + 1
        }
        if isEnd { nextEndTag[name] = found } else { nextStartTag[name] = found }
        return found
    }

    static let maximumTagSearches = 128
    private static let item = Array("item".utf8)[...]
    private static let entry = Array("entry".utf8)[...]

    /// An `<item>` or `<entry>` start tag met while elements that never hold one are open above
    /// the channel (an `<itunes:category>`, `<image>` or `<description>` left open before the
    /// first item): those are closed, so the items are the channel's and not lost inside them.
    /// An item tag that is text in an open markup element (`use the <item> element</description>`)
    /// closes nothing.
    private mutating func closeFields(beforeItem name: ArraySlice<UInt8>) {
        // As far down as an end tag looks (`searchDepth`), so hostile nesting stays linear.
        let lowest = max(0, open.count - Self.searchDepth)
        var index = open.count
        while index > lowest, Self.neverHoldsItems(open[index - 1]) { index -= 1 }
        guard index < open.count, !isTextInMarkup(from: index) else { return }
        let item = String(decoding: name, as: UTF8.self)
        for position in (index..<open.count).reversed() {
            closeElement(open[position])
            let field = String(decoding: open[position], as: UTF8.self)
            note(
                "closed <\(field)> (opened on line \(openedOnLine[position])) before <\(item)>: an item is never inside it"
            )
        }
        closeOpen(from: index)
    }

    /// Whether the item start tag just read is text inside an open markup element at or above
    /// `open[index]`: the next tag is the end tag of one (an item's own first tag is a start tag).
    private mutating func isTextInMarkup(from index: Int) -> Bool {
        let next = nextLessThan(after: i - 1)
        guard next + 1 < input.count, input[next + 1] == UInt8(ascii: "/") else { return false }
        let endName = input[name(at: next + 2)]
        guard Self.holdsMarkup(endName), let position = openElement(named: endName) else { return false }
        return position >= index
    }

    /// The value after `=` at `i`, written quoted; false when there is none (`a= >`).
    private mutating func attributeValue() -> Bool {
        guard i < input.count else { return false }
        let quote = input[i]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            // Where the value ends: at its closing quote on the same line (HTML reads `title="a<b"`
            // that way); failing that, the quote is missing and the value ends with the tag, at a
            // `>` on the same line; a value spanning lines ends at its quote before the next tag.
            // The searches are remembered, so the pass stays linear however long the line.
            let close = next(quote, after: i)
            let lineEnd = next(0x0A, after: i)
            let tagEnd = next(UInt8(ascii: ">"), after: i)
            if close < lineEnd || (tagEnd > lineEnd && close < nextLessThan(after: i)) {
                output.append(quote)
                i += 1
                while i < close { characterData(isAttribute: true, until: close) }
                output.append(quote)
                i += 1
                return true
            }
            note("repaired an attribute value without its closing quote")
            i += 1
        }
        // Unquoted (HTML style): up to whitespace or `>`.
        if !(quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")) {
            note("repaired an unquoted attribute value")
        }
        output.append(UInt8(ascii: "\""))
        while i < input.count, !FeedParser.isXMLSpace(input[i]), input[i] != UInt8(ascii: ">") {
            if input[i] == UInt8(ascii: "\"") {
                output.append(contentsOf: "&quot;".utf8)
                i += 1
            } else if input[i] == UInt8(ascii: "/"), i + 1 < input.count, input[i + 1] == UInt8(ascii: ">") {
                break  // `url=http://x/a.mp3/>`: in a feed, `/>` ends an empty element
            } else {
                characterData(isAttribute: true)
            }
        }
        output.append(UInt8(ascii: "\""))
        return true
    }

    /// The index of the first `<` after `index`, or the end of the input.
    private mutating func nextLessThan(after index: Int) -> Int {
        next(UInt8(ascii: "<"), after: index)
    }

    /// The index of the first `byte` after `index`, or the end of the input; remembered per byte,
    /// so that many attributes before one `<`, `>`, quote or newline cost one search (the cursor
    /// only moves forward).
    private mutating func next(_ byte: UInt8, after index: Int) -> Int {
        if let known = nextByteCache[byte], known > index { return known }
        let found =
            input.withUnsafeBufferPointer {
                ByteScan.firstIndex(of: byte, in: $0, from: index + 1, to: input.count)
            } ?? input.count
        nextByteCache[byte] = found
        return found
    }

    /// `</name>` at `i`; false when the document ends inside it.
    private mutating func endTag() -> Bool {
        let nameRange = name(at: i + 2)
        guard let found = FeedParser.find(input, ">", from: nameRange.upperBound) else { return false }
        // `</title` without its `>`: the end tag stops where the next tag starts.
        let nextOpen = nextLessThan(after: i)
        let tagEnd = found < nextOpen ? found + 1 : nextOpen
        if found >= nextOpen { note("repaired a tag without its '>'") }
        // Whatever is between the name and `>` (spaces, or junk) is dropped with the tag.
        for byte in input[nameRange.upperBound..<tagEnd] where byte == 0x0A { line += 1 }
        let name = input[nameRange]
        let written = String(decoding: name, as: UTF8.self)
        i = tagEnd
        if let index = openElement(named: name) {
            if index == 0, tagEnd < lastTagEnd {
                note("ignored </\(written)>: the document goes on after it")
                isRootEndPostponed = true
                return true
            }
            closeOpenElements(above: index)
            closeElement(name)
            closeOpen(from: index)
        } else if let index = openElement(within: 8, where: { Self.isMisspelling(name, of: $0) }) {
            let meant = open[index]
            note("repaired mismatched end tag </\(written)> (read as </\(String(decoding: meant, as: UTF8.self))>)")
            closeOpenElements(above: index)
            closeElement(meant)
            closeOpen(from: index)
        } else {
            note("dropped end tag </\(written)> that closes no open element")
        }
        return true
    }

    /// Writes end tags for the elements open above `open[index]`, innermost first.
    private mutating func closeOpenElements(above index: Int) {
        guard index + 1 < open.count else { return }
        for name in open[(index + 1)...].reversed() {
            closeElement(name)
            note("closed <\(String(decoding: name, as: UTF8.self))> left open")
        }
    }

    private mutating func closeElement(_ name: ArraySlice<UInt8>) {
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name)
        output.append(UInt8(ascii: ">"))
    }

    /// `written` is a plausible misspelling of the open element `name`: the same but for case, or
    /// one or two letters off in a name of four or more (`descriptio`, `titel`, `pubdate`).
    private static func isMisspelling(_ written: ArraySlice<UInt8>, of name: ArraySlice<UInt8>) -> Bool {
        guard !written.isEmpty, written.count <= 64 else { return false }
        let a = written.map { $0 | 0x20 }
        let b = name.map { $0 | 0x20 }
        if a == b { return true }
        guard a.count >= 4, b.count >= 4, abs(a.count - b.count) <= 2 else { return false }
        return editDistance(a, b, limit: 2) <= 2
    }

    /// Levenshtein distance with adjacent transpositions, stopping early past `limit`.
    private static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for x in 1...a.count {
            var current = [x] + [Int](repeating: 0, count: b.count)
            for y in 1...b.count {
                let cost = a[x - 1] == b[y - 1] ? 0 : 1
                current[y] = min(previous[y] + 1, current[y - 1] + 1, previous[y - 1] + cost)
                if x > 1, y > 1, a[x - 1] == b[y - 2], a[x - 2] == b[y - 1] {
                    current[y] = min(current[y], previousPrevious[y - 2] + 1)
                }
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previousPrevious = previous
            previous = current
        }
        return previous[b.count]
    }

    private static func isReferenceByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "#")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// A name XML accepts for an attribute: it starts with a letter or `_` (not a digit, `-`, `.`
    /// or `:`), and a `:` in it separates two non-empty parts (`http:` or `a:b:c` are not names).
    private static func isAttributeName(_ name: ArraySlice<UInt8>) -> Bool {
        guard let first = name.first, startsName(first), first != UInt8(ascii: ":"),
            name.last != UInt8(ascii: ":")
        else { return false }
        return name.lazy.filter { $0 == UInt8(ascii: ":") }.count <= 1
    }

    /// An HTML element found in running text (`<b>`, `<em>`, `<a …>`), in any case.
    private static func isHTMLPhrasing(_ name: ArraySlice<UInt8>) -> Bool {
        name.count <= 6 && htmlPhrasing.contains(name.map { $0 | 0x20 })
    }

    private static let htmlPhrasing: Set<[UInt8]> = Set(
        [
            "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "del", "dfn", "em", "font", "i", "ins", "kbd",
            "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
            "p", "div", "h1", "h2", "h3", "h4", "h5", "h6",
        ].map { Array($0.utf8) })

    /// HTML's void elements, lowercase, but for those whose names feeds use for elements with content
    /// (RSS `<link>` and `<source>`, `<base>`).
    private static let htmlVoidElements: Set<[UInt8]> = Set(
        ["br", "hr", "img", "input", "meta", "area", "col", "embed", "param", "track", "wbr"].map { Array($0.utf8) })

    /// An element whose text is markup (`<description>`, `<content:encoded>`, Atom `<content>`…):
    /// an `<item>` tag inside one is part of that markup, not the next item.
    private static func holdsMarkup(_ name: ArraySlice<UInt8>) -> Bool {
        let local = Self.lowercasedLocalName(name)
        return markupHolders.contains(local)
    }

    /// The part of a qualified name after its prefix (`encoded` of `content:encoded`).
    private static func localName(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")), colon + 1 < name.endIndex else { return name }
        return name[(colon + 1)...]
    }

    private static func lowercasedLocalName(_ name: ArraySlice<UInt8>) -> [UInt8] {
        localName(name).map { $0 | 0x20 }
    }

    /// `<item>` or `<entry>`, with any prefix.
    private static func isItemElement(_ name: ArraySlice<UInt8>) -> Bool {
        let local = Self.localName(name)
        return local.elementsEqual("item".utf8) || local.elementsEqual("entry".utf8)
    }

    /// An element of a channel or feed (RSS, RDF, Atom, iTunes, Dublin Core, Media RSS) that never
    /// holds items: what an item start tag closes when it was left open. Unknown elements may be
    /// wrappers (`<items><item>`), so they stay open.
    private static func neverHoldsItems(_ name: ArraySlice<UInt8>) -> Bool {
        let local = Self.lowercasedLocalName(name)
        return markupHolders.contains(local) || channelFields.contains(local)
    }

    /// `<channel>` or `<feed>`, with any prefix.
    private static func isChannelElement(_ name: ArraySlice<UInt8>) -> Bool {
        let local = Self.localName(name)
        return local.elementsEqual("channel".utf8) || local.elementsEqual("feed".utf8)
    }

    /// A field of an item or channel that holds plain text, never other fields: what a field start
    /// tag inside it closes when its own end tag is missing.
    private static func isTextField(_ name: ArraySlice<UInt8>) -> Bool {
        textFields.contains(Self.lowercasedLocalName(name))
    }

    /// A field of an item or channel in any of the formats read (RSS, RDF, Atom, iTunes, Dublin
    /// Core, Media RSS).
    private static func isField(_ name: ArraySlice<UInt8>) -> Bool {
        let local = Self.lowercasedLocalName(name)
        return textFields.contains(local) || channelFields.contains(local) || markupHolders.contains(local)
    }

    /// A feed field whose name HTML uses too (`<link>`, `<title>`, `<source>`, `<summary>`): inside a
    /// field that holds HTML it is taken as HTML. A prefixed name is never HTML.
    private static func isHTMLElement(_ name: ArraySlice<UInt8>) -> Bool {
        !name.contains(UInt8(ascii: ":")) && htmlFieldNames.contains(name.map { $0 | 0x20 })
    }

    private static let htmlFieldNames: Set<[UInt8]> = Set(
        ["title", "link", "source", "summary", "image", "content", "time", "data", "address", "header", "footer"].map {
            Array($0.utf8)
        })

    private static let textFields: Set<[UInt8]> = Set(
        [
            "title", "link", "guid", "pubdate", "lastbuilddate", "updated", "published", "issued", "modified",
            "created", "date", "id", "comments", "language", "copyright", "generator", "creator", "managingeditor",
            "webmaster", "ttl", "explicit", "keywords", "duration", "subject",
        ].map { Array($0.utf8) })

    private static let channelFields: Set<[UInt8]> = Set(
        [
            "link", "language", "copyright", "managingeditor", "webmaster", "pubdate", "lastbuilddate", "category",
            "generator", "docs", "cloud", "ttl", "image", "url", "width", "height", "rating", "textinput", "name",
            "skiphours", "skipdays", "hour", "day", "tagline", "author", "contributor", "owner", "email", "uri",
            "explicit", "keywords", "type", "new-feed-url", "block", "complete", "creator", "date", "subject",
            "publisher", "updated", "modified", "id", "icon", "logo", "info", "thumbnail", "guid", "comments",
            "enclosure", "source",
        ].map { Array($0.utf8) })

    private static let markupHolders: Set<[UInt8]> = Set(
        ["description", "summary", "content", "encoded", "title", "subtitle", "rights"].map { Array($0.utf8) })

    /// Whether a byte can start an element name (after `<`).
    private static func startsName(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    /// Whether a byte can continue a name: letters, digits, `-_.:`, and any non-ASCII byte.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        startsName(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}
