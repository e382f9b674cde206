import FeedsiteShared

/// An exact parser for the part of HTML5 whose tree construction is simple, in pure Swift; every
/// other input is left to gumbo (`HTMLFragment`).
///
/// Most feed bodies are markup a CMS wrote: properly nested paragraphs, links, emphasis, lists,
/// code, images and tables. For those, the HTML5 algorithm reduces to a stack of open elements
/// plus a handful of implied closes (`<p>` before a block, `<li>` after `<li>`, an implied
/// `<tbody>`), and this parser builds the same tree gumbo would, several times faster. The junk
/// feeds carry is modelled too, so that it does not send a whole body to gumbo: `<svg>` (kept, as
/// gumbo's tree keeps it for the sanitiser, as an element without its subtree), `<object>`,
/// `<embed>`, `<form>` and `<input>`. The moment the input needs anything more — an element or
/// state it does not model, a formatting element closed out of order (the adoption agency and
/// reconstruction of formatting elements), text a table would foster-parent, an unknown or legacy
/// character reference, a tokenizer error of any kind — it gives up and returns nil, and the
/// caller parses with gumbo. Giving up is always correct; answering is only allowed when the
/// answer is exactly gumbo's.
///
/// The differential tests hold it to that: on every fixture, the hostile corpus and a large
/// randomised corpus of well-formed and misnested markup, whenever this parser answers, its tree
/// equals gumbo's.
struct HTMLSubsetParser {
    /// Parses `html` as the content of a `<div>`, or returns nil when gumbo must.
    ///
    /// - Parameter maxDepth: nesting at which gumbo's path (which flattens deeper subtrees) takes over.
    /// - Parameter hasNoReplacedCharacters: the caller already knows that
    ///   `hasCharactersGumboReplaces` is false for `html`.
    static func parse(_ html: String, maxDepth: Int, hasNoReplacedCharacters: Bool = false) -> [HTMLNode]? {
        parseMeasuringDepth(html, maxDepth: maxDepth, hasNoReplacedCharacters: hasNoReplacedCharacters)?.nodes
    }

    /// `parse`, with the depth of the deepest element.
    static func parseMeasuringDepth(
        _ html: String, maxDepth: Int, hasNoReplacedCharacters: Bool = false
    ) -> (nodes: [HTMLNode], depth: Int)? {
        var html = html
        return html.withUTF8 { bytes in
            if !hasNoReplacedCharacters, hasCharactersGumboReplaces(bytes) { return nil }
            var parser = HTMLSubsetParser(bytes: bytes, maxDepth: maxDepth)
            do {
                try parser.run()
            } catch {
                return nil
            }
            return (parser.finish(), parser.deepest)
        }
    }

    /// Thrown as soon as the input leaves the modelled subset.
    private struct Unsupported: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0
    /// The stack of open elements; `stack[0]` stands for the fragment's root (the `html` element).
    private var stack: [OpenElement]
    /// Character data not yet attached to the current node (adjacent text merges into one node).
    private var pendingText: [UInt8] = []
    /// The spec's form element pointer is set: a `<form>` was inserted and not closed by its end tag.
    private var isFormPointerSet = false
    /// The depth of the deepest element inserted so far.
    private var deepest = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.stack = [OpenElement(name: "", kind: .root, isSpecial: true, mode: .body, attributes: [:])]
    }

    private struct OpenElement {
        var name: String
        var kind: Kind
        /// In the spec's "special" category (the root counts too).
        var isSpecial: Bool
        /// The insertion mode while this element is the current node: it follows from the nearest
        /// table element at or above it, so it is settled when the element is pushed.
        var mode: Mode
        var attributes: HTMLAttributes
        var children: [HTMLNode] = []
    }

    // MARK: - Elements

    /// How the tree builder treats a start tag, per the "in body" and table insertion modes.
    private enum Kind {
        case root
        /// Closes an open `<p>` first (`div`, `ul`, `blockquote`…).
        case block
        case heading
        case pre
        case listItem
        case definition
        case anchor
        /// Formatting elements other than `a` (the list of active formatting elements).
        case formatting
        /// Void elements with no effect on an open `<p>`.
        case void
        case horizontalRule
        /// "Any other start tag".
        case ordinary
        /// Content is raw text up to the matching end tag (`style`, `iframe`).
        case rawText
        case script
        case table
        case tableSection
        case row
        case cell
        /// `object`: a scope boundary that also puts a marker on the list of active formatting elements.
        case object
        /// `form`, whose start and end tags go through the form element pointer.
        case form
        /// `svg`: foreign content, read whole (`foreignContent`) as one element without children.
        case foreign

        var isFormatting: Bool { self == .anchor || self == .formatting }
    }

    /// What the tree builder needs to know of a modelled element, looked up once per tag (the
    /// name sets it replaced cost a hash per test, and the tests run per open element).
    private struct ElementInfo {
        var kind: Kind
        var isSpecial: Bool
    }

    /// Every element this parser models. Anything else, including custom elements, goes to gumbo.
    private static let elements: [String: ElementInfo] = kinds.reduce(into: [:]) { elements, entry in
        elements[entry.key] = ElementInfo(kind: entry.value, isSpecial: special.contains(entry.key))
    }

    private static let kinds = [String: Kind](elementNames: [
        .block: [
            "address", "article", "aside", "blockquote", "center", "details", "div", "dl", "fieldset",
            "figcaption", "figure", "footer", "header", "hgroup", "nav", "ol", "p", "section", "summary", "ul",
        ],
        .heading: ["h1", "h2", "h3", "h4", "h5", "h6"],
        .formatting: ["b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u"],
        .void: ["br", "img", "wbr", "embed", "input"],
        .ordinary: [
            "span", "abbr", "cite", "dfn", "kbd", "samp", "var", "sub", "sup", "q", "ins", "del", "bdo", "noscript",
        ],
        .pre: ["pre"], .listItem: ["li"], .definition: ["dd", "dt"], .anchor: ["a"], .horizontalRule: ["hr"],
        .rawText: ["style", "iframe"], .script: ["script"], .table: ["table"],
        .tableSection: ["tbody", "thead", "tfoot"],
        .row: ["tr"], .cell: ["td", "th"], .object: ["object"], .form: ["form"], .foreign: ["svg"],
    ])

    /// The spec's "special" category, restricted to modelled elements (plus the root).
    private static let special: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "center", "dd", "details", "div", "dl", "dt",
        "embed", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "iframe", "img", "input", "li", "nav", "noscript", "object", "ol", "p", "pre", "script",
        "section", "style", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "wbr",
    ]

    /// Elements "generate implied end tags" pops (those of them this parser models).
    private static func hasImpliedEndTag(_ name: String) -> Bool {
        name == "p" || name == "li" || name == "dd" || name == "dt"
    }

    // MARK: - Tokenizer

    private mutating func run() throws(Unsupported) {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "<"):
                try markup()
            case UInt8(ascii: "&"):
                try appendText(UTF8Bytes(try characterReference(inAttribute: false)))
            default:
                try text()
            }
        }
    }

    /// A run of character data up to the next `<` or `&`, with newlines normalised as the input
    /// stream preprocessor does (CR LF and lone CR become LF).
    private mutating func text() throws(Unsupported) {
        let start = position
        var end = position
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\r") { break }
            end += 1
        }
        if end > start {
            try appendText(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            position = end
        } else {
            // A carriage return.
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "\n") { position += 1 }
            try appendText(CollectionOfOne(UInt8(ascii: "\n")))
        }
    }

    private mutating func appendText(_ text: some Collection<UInt8>) throws(Unsupported) {
        guard !text.isEmpty else { return }
        // gumbo 0.10 places text that follows a `<form>` directly after the form rather than in it
        // (differential runs found `<form>x</form>`): left to gumbo.
        if stack[stack.count - 1].kind == .form { throw Unsupported() }
        switch stack[stack.count - 1].mode {
        case .body, .cell:
            break
        case .table, .tableBody, .row:
            // Only whitespace is inserted in place; anything else is foster-parented.
            guard text.allSatisfy(Self.isWhitespace) else { throw Unsupported() }
        }
        pendingText.append(contentsOf: text)
    }

    private mutating func markup() throws(Unsupported) {
        let next = byte(at: position + 1)
        switch next {
        case let byte? where Self.isASCIILetter(byte):
            position += 1
            try startTag()
        case UInt8(ascii: "/"):
            guard let letter = byte(at: position + 2), Self.isASCIILetter(letter) else { throw Unsupported() }
            position += 2
            try endTag()
        case UInt8(ascii: "!"):
            try comment()
        case UInt8(ascii: "?"):
            throw Unsupported()
        default:
            // A `<` that starts no tag is text (`a < b`, `<3`, or the last character).
            position += 1
            try appendText(CollectionOfOne(UInt8(ascii: "<")))
        }
    }

    /// `<!--…-->`: dropped from the tree, but it separates the text around it into two nodes.
    private mutating func comment() throws(Unsupported) {
        guard hasPrefix("<!--", at: position) else { throw Unsupported() }
        var index = position + 4
        // `<!-->` and `<!--->` end abruptly; `--!>` also ends a comment. Leave those to gumbo.
        if byte(at: index) == UInt8(ascii: ">") || hasPrefix("->", at: index) { throw Unsupported() }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "-"), hasPrefix("-->", at: index) {
                flushText()
                position = index + 3
                return
            }
            if bytes[index] == UInt8(ascii: "-"), hasPrefix("--!", at: index) { throw Unsupported() }
            index += 1
        }
        throw Unsupported()
    }

    /// Reads a tag name (the first letter is already checked), lowercased.
    private mutating func tagName() throws(Unsupported) -> String {
        let start = position
        while position < bytes.count, Self.isASCIIAlphanumeric(bytes[position]) {
            position += 1
        }
        guard let next = byte(at: position),
            Self.isWhitespace(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: ">")
        else { throw Unsupported() }
        return Self.lowercased(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    }

    private mutating func startTag() throws(Unsupported) {
        let tag = try readStartTag()
        try process(startTag: tag.name, attributes: tag.attributes, isSelfClosing: tag.isSelfClosing)
    }

    /// A start tag after its `<` (the first letter is already checked), up to and including `>`.
    private mutating func readStartTag() throws(Unsupported) -> (
        name: String, attributes: HTMLAttributes, isSelfClosing: Bool
    ) {
        let name = try tagName()
        var attributes = HTMLAttributes()
        var isSelfClosing = false
        var count = 0
        attributesLoop: while true {
            skipWhitespace()
            guard let byte = byte(at: position) else { throw Unsupported() }
            switch byte {
            case UInt8(ascii: ">"):
                position += 1
                break attributesLoop
            case UInt8(ascii: "/"):
                guard self.byte(at: position + 1) == UInt8(ascii: ">") else { throw Unsupported() }
                isSelfClosing = true
                position += 2
                break attributesLoop
            default:
                let (key, value) = try attribute()
                // Those after the limit are left out, as they are before gumbo (`NestingLimiter`).
                count += 1
                guard count <= NestingLimiter.maxAttributes else { continue }
                // A repeated name without a value is left to gumbo, whose tree is the reference:
                // gumbo 0.10 glues it onto the next name (`<p a a b>` gives `a`, `ab`).
                if value.isEmpty, attributes[key] != nil { throw Unsupported() }
                attributes.add(key, value)
            }
        }
        return (name, attributes, isSelfClosing)
    }

    private mutating func attribute() throws(Unsupported) -> (String, String) {
        let start = position
        while let byte = byte(at: position), !Self.isWhitespace(byte), byte != UInt8(ascii: "/"),
            byte != UInt8(ascii: ">"), byte != UInt8(ascii: "=")
        {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<") {
                throw Unsupported()
            }
            position += 1
        }
        guard position > start else { throw Unsupported() }
        let name = Self.lowercased(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: "=") else { return (name, "") }
        position += 1
        skipWhitespace()
        var value: [UInt8] = []
        guard let first = byte(at: position) else { throw Unsupported() }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            position += 1
            while true {
                guard let byte = byte(at: position) else { throw Unsupported() }
                if byte == first {
                    position += 1
                    break
                }
                try appendAttributeByte(byte, to: &value)
            }
            // Attributes must be separated by whitespace.
            guard let next = byte(at: position),
                Self.isWhitespace(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: ">")
            else { throw Unsupported() }
        } else {
            while let byte = byte(at: position), !Self.isWhitespace(byte), byte != UInt8(ascii: ">") {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "`"):
                    throw Unsupported()
                default:
                    try appendAttributeByte(byte, to: &value)
                }
            }
            guard !value.isEmpty else { throw Unsupported() }
        }
        return (name, String(decoding: value, as: UTF8.self))
    }

    private mutating func appendAttributeByte(_ byte: UInt8, to value: inout [UInt8]) throws(Unsupported) {
        switch byte {
        case UInt8(ascii: "&"):
            value += UTF8Bytes(try characterReference(inAttribute: true))
        case UInt8(ascii: "\r"):
            position += 1
            if self.byte(at: position) == UInt8(ascii: "\n") { position += 1 }
            value.append(UInt8(ascii: "\n"))
        default:
            value.append(byte)
            position += 1
        }
    }

    private mutating func endTag() throws(Unsupported) {
        try process(endTag: try readEndTag())
    }

    /// An end tag's name, after its `</` (the first letter is already checked), up to and including `>`.
    private mutating func readEndTag() throws(Unsupported) -> String {
        let name = try tagName()
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: ">") else { throw Unsupported() }
        position += 1
        return name
    }

    /// At `&`: the decoded reference, or a literal `&` when none starts here. Legacy forms
    /// (no semicolon, names outside HTML 4's set, numbers the spec remaps) are left to gumbo.
    private mutating func characterReference(inAttribute: Bool) throws(Unsupported) -> Unicode.Scalar {
        var index = position + 1
        guard let next = byte(at: index) else {
            position = index
            return "&"
        }
        var scalarValue: UInt32
        if next == UInt8(ascii: "#") {
            index += 1
            var isHex = false
            if let x = byte(at: index), x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
                isHex = true
                index += 1
            }
            let digitsStart = index
            scalarValue = 0
            while let byte = byte(at: index), let digit = Self.digitValue(byte, hex: isHex) {
                scalarValue = scalarValue &* (isHex ? 16 : 10) &+ digit
                index += 1
                guard index - digitsStart <= 7 else { throw Unsupported() }
            }
            guard index > digitsStart, byte(at: index) == UInt8(ascii: ";") else { throw Unsupported() }
            switch scalarValue {
            case 0x09, 0x0A, 0x0C, 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFDCF, 0xFDF0...0x10FFFF:
                // Noncharacters (U+xFFFE, U+xFFFF) are kept but are parse errors: leave them.
                guard scalarValue & 0xFFFE != 0xFFFE else { throw Unsupported() }
            default:
                throw Unsupported()
            }
        } else if Self.isASCIIAlphanumeric(next) {
            let nameStart = index
            while let byte = byte(at: index), Self.isASCIIAlphanumeric(byte) {
                index += 1
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
            // HTML 4's names (the table the feed parser repairs XML with), which HTML5 decodes the
            // same way except `lang` and `rang`; any other name is left to gumbo's full table.
            guard byte(at: index) == UInt8(ascii: ";"), name != "lang", name != "rang",
                let value = HTMLEntities.codePoints[name]
            else { throw Unsupported() }
            scalarValue = value
        } else {
            position = index
            return "&"
        }
        position = index + 1
        guard let scalar = Unicode.Scalar(scalarValue) else { throw Unsupported() }
        return scalar
    }

    /// A scalar's UTF-8 bytes as a collection, without allocating (references are frequent:
    /// `&#8212;`, `&amp;`, `&nbsp;` in most bodies).
    private struct UTF8Bytes: RandomAccessCollection {
        private var storage: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let endIndex: Int
        var startIndex: Int { 0 }

        init(_ scalar: Unicode.Scalar) {
            var count = 0
            var storage = self.storage
            withUnsafeMutableBytes(of: &storage) { buffer in
                UTF8.encode(scalar) { unit in
                    buffer[count] = unit
                    count += 1
                }
            }
            self.storage = storage
            endIndex = count
        }

        subscript(position: Int) -> UInt8 {
            withUnsafeBytes(of: storage) { $0[position] }
        }
    }

    // MARK: - Tree construction

    /// The insertion mode, which for the modelled subset follows from the nearest table element.
    private enum Mode {
        case body, table, tableBody, row, cell
    }

    private mutating func process(
        startTag name: String, attributes: HTMLAttributes, isSelfClosing: Bool
    )
        throws(Unsupported)
    {
        guard let info = Self.elements[name] else { throw Unsupported() }
        try process(startTag: name, info: info, attributes: attributes, isSelfClosing: isSelfClosing)
    }

    private mutating func process(
        startTag name: String, info: ElementInfo, attributes: HTMLAttributes, isSelfClosing: Bool
    )
        throws(Unsupported)
    {
        let kind = info.kind
        // A self-closing flag on a non-void element is ignored by browsers: `<div/>` opens a div.
        if isSelfClosing, kind != .void, kind != .horizontalRule, kind != .foreign { throw Unsupported() }
        switch stack[stack.count - 1].mode {
        case .body:
            try inBody(startTag: name, info: info, attributes: attributes, isSelfClosing: isSelfClosing)
        case .cell:
            if kind == .cell || kind == .row || kind == .tableSection {
                try closeCell()
                try process(startTag: name, info: info, attributes: attributes, isSelfClosing: isSelfClosing)
            } else {
                try inBody(startTag: name, info: info, attributes: attributes, isSelfClosing: isSelfClosing)
            }
        case .table, .tableBody, .row:
            // Table, section, row, cell: a tag one level below the current one is inserted; one
            // further below gets the level between (`tbody`, `tr`) inserted first, one at or above
            // closes the current level; either way the tag is then processed again.
            let level = Self.tableLevel(of: stack[stack.count - 1].mode)
            guard let tagLevel = Self.tableLevel(of: kind) else { throw Unsupported() }
            if tagLevel == level + 1 {
                try insert(name, info, attributes: attributes)
                return
            }
            if tagLevel > level + 1 {
                let implied = level == 0 ? "tbody" : "tr"
                try insert(
                    implied, ElementInfo(kind: level == 0 ? .tableSection : .row, isSpecial: true), attributes: [:])
            } else {
                try pop()
            }
            try process(startTag: name, info: info, attributes: attributes, isSelfClosing: isSelfClosing)
        }
    }

    /// A table mode's depth below its table (the table 0, a section 1, a row 2).
    private static func tableLevel(of mode: Mode) -> Int {
        switch mode {
        case .table: 0
        case .tableBody: 1
        case .row: 2
        case .body, .cell: -1
        }
    }

    /// The depth below a table that a tag of `kind` opens (a section 1, a row 2, a cell 3); nil for
    /// a tag other than these, which this parser does not model directly inside a table.
    private static func tableLevel(of kind: Kind) -> Int? {
        switch kind {
        case .tableSection: 1
        case .row: 2
        case .cell: 3
        default: nil
        }
    }

    private mutating func inBody(
        startTag name: String, info: ElementInfo, attributes: HTMLAttributes, isSelfClosing: Bool
    )
        throws(Unsupported)
    {
        let kind = info.kind
        switch kind {
        case .root, .tableSection, .row, .cell:
            // Table parts outside a table are ignored: a parse error.
            throw Unsupported()
        case .object:
            try insert(name, info, attributes: attributes)
        case .form:
            // A second form while the pointer is set is ignored (a parse error).
            guard !isFormPointerSet else { throw Unsupported() }
            try closeParagraphIfInButtonScope()
            try insert(name, info, attributes: attributes)
            isFormPointerSet = true
        case .foreign:
            try foreignContent(attributes: attributes, isSelfClosing: isSelfClosing)
        case .block:
            try closeParagraphIfInButtonScope()
            try insert(name, info, attributes: attributes)
        case .heading:
            try closeParagraphIfInButtonScope()
            if stack[stack.count - 1].kind == .heading { try pop() }
            try insert(name, info, attributes: attributes)
        case .pre:
            try closeParagraphIfInButtonScope()
            try insert(name, info, attributes: attributes)
            // A newline right after `<pre>` is dropped; one written as a reference is left to gumbo.
            switch byte(at: position) {
            case UInt8(ascii: "\n"):
                position += 1
            case UInt8(ascii: "\r"):
                position += 1
                if byte(at: position) == UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "&"):
                throw Unsupported()
            default:
                break
            }
        case .listItem, .definition:
            try closeOpenItem(for: name)
            try closeParagraphIfInButtonScope()
            try insert(name, info, attributes: attributes)
        case .anchor, .formatting:
            // A second `<a>` runs the adoption agency; three open alike formatting elements
            // trigger the Noah's Ark clause. Neither is modelled.
            let sameName = openFormattingElements(named: name)
            guard kind == .anchor ? sameName == 0 : sameName < 2 else { throw Unsupported() }
            try insert(name, info, attributes: attributes)
        case .void:
            try insert(name, info, attributes: attributes)
            try pop()
        case .horizontalRule:
            try closeParagraphIfInButtonScope()
            try insert(name, info, attributes: attributes)
            try pop()
        case .ordinary:
            try insert(name, info, attributes: attributes)
        case .rawText, .script:
            try insert(name, info, attributes: attributes)
            try rawText(endingWith: name, isScript: kind == .script)
            try pop()
        case .table:
            try closeParagraphIfInButtonScope()
            try insert(name, info, attributes: attributes)
        }
    }

    /// `<li>`, `<dd>` and `<dt>` close an open item of their own sort unless a block other than
    /// `address`, `div` or `p` lies between.
    private mutating func closeOpenItem(for name: String) throws(Unsupported) {
        let isListItem = name == "li"
        // Found first, closed after: a copy of `stack` kept alive while popping would make every
        // append to the parent's children copy them (`<ul><li><li>…` was quadratic).
        var open: String?
        for index in stack.indices.reversed() {
            let elementName = stack[index].name
            if isListItem ? elementName == "li" : elementName == "dd" || elementName == "dt" {
                open = elementName
                break
            }
            if stack[index].isSpecial, elementName != "address", elementName != "div", elementName != "p" {
                return
            }
        }
        guard let open else { return }
        try generateImpliedEndTags(except: open)
        try popUntil(open)
    }

    /// The content of `style`, `iframe` or `script`: everything up to the matching end tag, as text.
    private mutating func rawText(endingWith name: String, isScript: Bool) throws(Unsupported) {
        let start = position
        var index = position
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), byte(at: index + 1) == UInt8(ascii: "/"),
                Self.matchesCaseInsensitively(name, bytes: bytes, at: index + 2),
                let after = byte(at: index + 2 + name.utf8.count),
                Self.isWhitespace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">")
            {
                break
            }
            index += 1
        }
        guard index < bytes.count else { throw Unsupported() }
        let content = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // Script data has escape states after `<!--`; not modelled.
        if isScript, Self.contains(Array("<!--".utf8), in: content) { throw Unsupported() }
        var text: [UInt8] = []
        text.reserveCapacity(content.count)
        var offset = 0
        while offset < content.count {
            if content[offset] == UInt8(ascii: "\r") {
                text.append(UInt8(ascii: "\n"))
                if offset + 1 < content.count, content[offset + 1] == UInt8(ascii: "\n") { offset += 1 }
            } else {
                text.append(content[offset])
            }
            offset += 1
        }
        pendingText += text
        position = index + 2 + name.utf8.count
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: ">") else { throw Unsupported() }
        position += 1
    }

    private mutating func process(endTag name: String) throws(Unsupported) {
        guard let kind = Self.elements[name]?.kind else { throw Unsupported() }
        switch stack[stack.count - 1].mode {
        case .body:
            try inBody(endTag: name, kind: kind)
        case .cell:
            switch kind {
            case .cell:
                guard stack[stack.count - 1].name == name || hasInTableScope(name) else { throw Unsupported() }
                try closeCell()
            case .row, .tableSection, .table:
                guard hasInTableScope(name) else { throw Unsupported() }
                try closeCell()
                try process(endTag: name)
            default:
                try inBody(endTag: name, kind: kind)
            }
        case .table:
            guard kind == .table else { throw Unsupported() }
            try pop()
        case .tableBody:
            switch kind {
            case .tableSection where stack[stack.count - 1].name == name:
                try pop()
            case .table:
                try pop()
                try process(endTag: name)
            default:
                throw Unsupported()
            }
        case .row:
            switch kind {
            case .row:
                try pop()
            case .table:
                try pop()
                try process(endTag: name)
            case .tableSection where hasInTableScope(name):
                try pop()
                try process(endTag: name)
            default:
                throw Unsupported()
            }
        }
    }

    private mutating func inBody(endTag name: String, kind: Kind) throws(Unsupported) {
        switch kind {
        case .root, .void, .horizontalRule, .rawText, .script, .table, .tableSection, .row, .cell, .foreign:
            throw Unsupported()
        case .object:
            guard hasInScope(name, boundaries: .normal) else { throw Unsupported() }
            try generateImpliedEndTags(except: nil)
            guard stack[stack.count - 1].name == name else { throw Unsupported() }
            try pop(closingObject: true)
        case .form:
            // The pointer's element is removed where it stands; when it is not the current node
            // (after implied end tags) the rest of the stack stays open: not modelled.
            guard isFormPointerSet, hasInScope(name, boundaries: .normal) else { throw Unsupported() }
            isFormPointerSet = false
            try generateImpliedEndTags(except: nil)
            guard stack[stack.count - 1].name == name else { throw Unsupported() }
            try pop()
        case .block where name == "p":
            guard hasInScope("p", boundaries: .normal) else { throw Unsupported() }
            try closeParagraph()
        case .block, .pre:
            guard hasInScope(name, boundaries: .normal) else { throw Unsupported() }
            try generateImpliedEndTags(except: nil)
            try popUntil(name)
        case .listItem:
            guard hasInScope(name, boundaries: .listItem) else { throw Unsupported() }
            try generateImpliedEndTags(except: name)
            try popUntil(name)
        case .definition:
            guard hasInScope(name, boundaries: .normal) else { throw Unsupported() }
            try generateImpliedEndTags(except: name)
            try popUntil(name)
        case .heading:
            guard let open = stack.last(where: { $0.kind == .heading })?.name, hasInScope(open, boundaries: .normal)
            else { throw Unsupported() }
            try generateImpliedEndTags(except: nil)
            try popUntil(open)
        case .anchor, .formatting:
            // The adoption agency, where it reduces to closing the element (no "furthest block").
            guard let index = stack.lastIndex(where: { $0.name == name }),
                stack[index].kind.isFormatting, hasInScope(name, boundaries: .normal)
            else { throw Unsupported() }
            if stack[(index + 1)...].contains(where: \.isSpecial) { throw Unsupported() }
            try popUntil(name)
        case .ordinary:
            // "Any other end tag" (found first, popped after, as in `closeOpenItem`).
            for index in stack.indices.reversed() {
                if stack[index].name == name { break }
                if stack[index].isSpecial || index == 0 { throw Unsupported() }
            }
            try popUntil(name)
        }
    }

    // MARK: - Foreign content

    /// Start tags that break out of foreign content back into HTML (the spec's list, `font` with
    /// attributes included as `font`): not modelled.
    private static let foreignBreakouts: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "font",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol",
        "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
    ]

    /// An `<svg>` (its start tag read): the sanitiser drops SVG whole, and gumbo's tree keeps the
    /// `svg` element without its subtree, so the content is only read through to the matching end
    /// tag. Nested SVG elements must close in order; anything that would leave foreign content
    /// (an HTML breakout tag, an HTML integration point, an end tag that matches no open SVG
    /// element, CDATA, the end of the input) is left to gumbo, as are namespaced attributes on
    /// the `svg` element itself, which gumbo renames.
    private mutating func foreignContent(attributes: HTMLAttributes, isSelfClosing: Bool) throws(Unsupported) {
        guard stack.count <= maxDepth, !attributes.contains(where: { $0.name.utf8.contains(UInt8(ascii: ":")) })
        else { throw Unsupported() }
        flushText()
        var open = isSelfClosing ? [] : ["svg"]
        while !open.isEmpty {
            guard let next = ByteScan.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: position, to: bytes.count)
            else { throw Unsupported() }
            // Text is dropped with the element, but references in it must be ones gumbo decodes plainly.
            while let ampersand = ByteScan.firstIndex(of: UInt8(ascii: "&"), in: bytes, from: position, to: next) {
                position = ampersand
                _ = try characterReference(inAttribute: false)
            }
            position = next
            switch byte(at: position + 1) {
            case let letter? where Self.isASCIILetter(letter):
                position += 1
                let tag = try readStartTag()
                guard !Self.foreignBreakouts.contains(tag.name), tag.name != "foreignobject", tag.name != "desc",
                    tag.name != "title", tag.name != "math"
                else { throw Unsupported() }
                if !tag.isSelfClosing { open.append(tag.name) }
            case UInt8(ascii: "/"):
                guard let letter = byte(at: position + 2), Self.isASCIILetter(letter) else { throw Unsupported() }
                position += 2
                guard try readEndTag() == open.last else { throw Unsupported() }
                open.removeLast()
            case UInt8(ascii: "!"):
                guard hasPrefix("<!--", at: position) else { throw Unsupported() }
                try comment()
            default:
                throw Unsupported()
            }
        }
        stack[stack.count - 1].children.append(
            .element(HTMLElement(name: "svg", isHTML: false, attributes: attributes, children: [])))
    }

    // MARK: - Stack operations

    private mutating func insert(_ name: String, _ info: ElementInfo, attributes: HTMLAttributes) throws(Unsupported) {
        // Elements nest at most `maxDepth` deep (the root not counted); a void element, which holds
        // nothing, may sit one below the deepest, as the nesting limiter lets it.
        guard stack.count <= maxDepth || info.kind == .void || info.kind == .horizontalRule else {
            throw Unsupported()
        }
        flushText()
        deepest = max(deepest, stack.count)
        let mode: Mode =
            switch info.kind {
            case .cell: .cell
            case .row: .row
            case .tableSection: .tableBody
            case .table: .table
            default: stack[stack.count - 1].mode
            }
        stack.append(
            OpenElement(name: name, kind: info.kind, isSpecial: info.isSpecial, mode: mode, attributes: attributes))
    }

    /// Pops the current node into its parent. Popping a formatting element other than through its
    /// own end tag would leave it to be reconstructed later: not modelled.
    /// Likewise an `object` closed other than by its own end tag would leave its marker on the
    /// list of active formatting elements.
    private mutating func pop(allowingFormatting: Bool = false, closingObject: Bool = false) throws(Unsupported) {
        guard stack.count > 1 else { throw Unsupported() }
        let kind = stack[stack.count - 1].kind
        if !allowingFormatting, kind.isFormatting { throw Unsupported() }
        if !closingObject, kind == .object { throw Unsupported() }
        flushText()
        let element = stack.removeLast()
        stack[stack.count - 1].children.append(
            .element(
                HTMLElement(
                    name: element.name, isHTML: true, attributes: element.attributes, children: element.children)))
    }

    /// Pops up to and including the nearest open element called `name`.
    private mutating func popUntil(_ name: String) throws(Unsupported) {
        while stack.count > 1 {
            let isTarget = stack[stack.count - 1].name == name
            try pop(allowingFormatting: isTarget)
            if isTarget { return }
        }
        throw Unsupported()
    }

    /// Closing a cell clears the formatting elements opened in it, so they may be popped.
    private mutating func closeCell() throws(Unsupported) {
        try generateImpliedEndTags(except: nil)
        while stack.count > 1 {
            let isCell = stack[stack.count - 1].kind == .cell
            try pop(allowingFormatting: true)
            if isCell { return }
        }
        throw Unsupported()
    }

    private mutating func generateImpliedEndTags(except name: String?) throws(Unsupported) {
        while let current = stack.last, Self.hasImpliedEndTag(current.name), current.name != name {
            try pop()
        }
    }

    private mutating func closeParagraphIfInButtonScope() throws(Unsupported) {
        if hasInScope("p", boundaries: .normal) { try closeParagraph() }
    }

    private mutating func closeParagraph() throws(Unsupported) {
        try generateImpliedEndTags(except: "p")
        try popUntil("p")
    }

    /// The spec's scopes, as far as the modelled subset has their boundaries (it has no `button`,
    /// `caption`, `object`, `template`…): the default and button scopes end at `table`, `td` and
    /// `th`, list item scope also at `ol` and `ul`, table scope at `table` only.
    private enum Scope {
        case normal, listItem, table

        func isBoundary(_ element: OpenElement) -> Bool {
            switch element.kind {
            case .root, .table: true
            case .cell, .object: self != .table
            case .block: self == .listItem && (element.name == "ol" || element.name == "ul")
            default: false
            }
        }
    }

    private func hasInScope(_ name: String, boundaries scope: Scope) -> Bool {
        for element in stack.reversed() {
            if element.name == name { return true }
            if scope.isBoundary(element) { return false }
        }
        return false
    }

    private func hasInTableScope(_ name: String) -> Bool {
        hasInScope(name, boundaries: .table)
    }

    /// Open formatting elements called `name` since the last cell (the list's last marker).
    private func openFormattingElements(named name: String) -> Int {
        var count = 0
        for element in stack.reversed() {
            if element.kind == .cell || element.kind == .object { break }
            if element.name == name, element.kind.isFormatting { count += 1 }
        }
        return count
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        stack[stack.count - 1].children.append(.text(String(decoding: pendingText, as: UTF8.self)))
        pendingText.removeAll(keepingCapacity: true)
    }

    /// At the end of input every open element is closed where it stands.
    private mutating func finish() -> [HTMLNode] {
        flushText()
        while stack.count > 1 {
            let element = stack.removeLast()
            stack[stack.count - 1].children.append(
                .element(
                    HTMLElement(
                        name: element.name, isHTML: true, attributes: element.attributes, children: element.children)))
        }
        return stack[0].children
    }

    // MARK: - Bytes

    /// Gumbo drops NUL in text and replaces other controls (C0 except whitespace, DEL, C1) and
    /// noncharacters with U+FFFD wherever they occur. The sanitiser has already replaced controls
    /// (`HTMLSanitiser.replacingForbiddenControls`), so this only finds noncharacters in practice.
    static func hasCharactersGumboReplaces(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        // Only controls and non-ASCII bytes matter: printable ASCII is skipped eight bytes at a time.
        var index = ByteScan.nextControlOrNonASCII(in: bytes, from: 0)
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D { return true }
            } else if byte >= 0x7F {
                let second = index + 1 < count ? bytes[index + 1] : 0
                let third = index + 2 < count ? bytes[index + 2] : 0
                switch byte {
                case 0x7F:
                    return true
                case 0xC2 where second < 0xA0:
                    // U+0080...U+009F
                    return true
                case 0xEF where second == 0xB7 && (0x90...0xAF).contains(third):
                    // U+FDD0...U+FDEF
                    return true
                case 0xEF where second == 0xBF && third >= 0xBE:
                    // U+FFFE, U+FFFF
                    return true
                case 0xF0...0xF4 where second & 0x0F == 0x0F && third == 0xBF:
                    // U+1FFFE, U+1FFFF … U+10FFFF
                    if index + 3 < count, bytes[index + 3] >= 0xBE { return true }
                default:
                    break
                }
            }
            index = ByteScan.nextControlOrNonASCII(in: bytes, from: index + 1)
        }
        return false
    }

    private func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] {
                return false
            }
            return true
        }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) {
            position += 1
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// ASCII lowercasing; other bytes (UTF-8 in attribute names) are kept.
    /// ASCII capitals lowered, every other byte as it is.
    static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    private static func matchesCaseInsensitively(
        _ name: String, bytes: UnsafeBufferPointer<UInt8>, at index: Int
    )
        -> Bool
    {
        var offset = index
        for expected in name.utf8 {
            guard offset < bytes.count else { return false }
            let byte = bytes[offset]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == expected else { return false }
            offset += 1
        }
        return true
    }

    private static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            var matches = true
            for offset in 1..<needle.count where haystack[start + offset] != needle[offset] {
                matches = false
                break
            }
            if matches { return true }
        }
        return false
    }
}
