internal import CGumbo
internal import CGumboBounded

/// A parsed HTML5 fragment as plain Swift values: the only file that touches gumbo.
///
/// Feed bodies are parsed the way a browser parses `div.innerHTML = body`, so the sanitiser sees
/// exactly the tree a browser would build (comments, misnested tags and entity tricks resolved),
/// never its own guess at the markup. Gumbo parses with scripting disabled, which means the
/// content of `<noscript>` is an ordinary DOM subtree (lazy-loading blogs put the real `<img>`
/// there) rather than raw text that would need a second parse.
///
/// Hostile input is bounded before and during the parse: nesting deeper than `maxDepth` is
/// flattened before any tree is built (`NestingLimiter`), gumbo runs within a memory and time
/// budget and its tree is freed without recursion (`CGumboBounded`), and the conversion below is
/// iterative. A parse over budget yields no nodes and says why (`failure`).
struct HTMLFragment: Sendable, Hashable {
    /// The top-level nodes of the fragment.
    var nodes: [HTMLNode]
    /// The depth of the deepest element (0 for text only).
    var depth = 0
    /// Set when gumbo gave up within its budget (`nodes` is then empty).
    var failure: Failure?

    /// Why a fragment could not be parsed.
    enum Failure: Error, Sendable, Hashable {
        /// More live memory than `Budget.bytes(forInput:)` allows.
        case overMemory(bytes: Int)
        case overTime(seconds: Double)
    }

    /// What one gumbo parse may cost: memory grows with the input, time does not (a linear parse
    /// of the largest body the sanitiser accepts takes a fraction of a second).
    enum Budget {
        static func bytes(forInput count: Int) -> Int { 64_000_000 + 48 * count }
        static let seconds = 4.0
    }

    /// Parses `html` as the content of a `<div>`: by `HTMLSubsetParser` when the markup is within
    /// the part of HTML5 it models exactly (most feed bodies), otherwise by gumbo.
    ///
    /// - Parameters:
    ///   - maxDepth: elements nested deeper than this are flattened into their text, so neither
    ///     gumbo nor any later walk of the tree meets more than this depth.
    ///   - opaqueElements: names whose content never becomes text when flattening (`script`,
    ///     `style`…): flattening must not reveal what the sanitiser would have dropped.
    ///   - hasNoReplacedCharacters: the caller has checked that `html` holds nothing gumbo replaces
    ///     (`HTMLSubsetParser.hasCharactersGumboReplaces`), so the subset parser need not scan again.
    init(parsing html: String, maxDepth: Int, opaqueElements: Set<String>, hasNoReplacedCharacters: Bool = false) {
        let limited = NestingLimiter.limited(html, maxDepth: maxDepth, opaqueElements: opaqueElements)
        var input = limited ?? html
        if let (nodes, depth) = HTMLSubsetParser.parseMeasuringDepth(
            input, maxDepth: maxDepth, hasNoReplacedCharacters: hasNoReplacedCharacters)
        {
            self.nodes = nodes
            self.depth = depth
            return
        }
        // Gumbo's cost grows with the square of a tag's attributes (`NestingLimiter.maxAttributes`):
        // a body the depth pass left as it was (or skipped, having too few tags to nest deep) is
        // scanned for them now.
        if limited == nil, input.utf8.count > 2 * NestingLimiter.maxAttributes,
            let capped = NestingLimiter.limited(
                input, maxDepth: maxDepth, opaqueElements: opaqueElements, scanningAlways: true)
        {
            input = capped
        }
        switch Self.parseWithGumbo(input, maxDepth: maxDepth, opaqueElements: opaqueElements) {
        case .success(let (nodes, depth)):
            self.nodes = nodes
            self.depth = depth
        case .failure(let failure):
            self.nodes = []
            self.failure = failure
        }
    }

    /// The fragment's nodes as gumbo parses them (the reference `HTMLSubsetParser` is tested
    /// against), without limiting the nesting first; empty when gumbo gives up.
    static func gumboNodes(parsing html: String, maxDepth: Int, opaqueElements: Set<String>) -> [HTMLNode] {
        (try? parseWithGumbo(html, maxDepth: maxDepth, opaqueElements: opaqueElements).get().nodes) ?? []
    }

    /// How deep gumbo's tree for `html` is (elements below the fragment's root), counted
    /// iteratively: tests and fuzz targets check the nesting limit against gumbo itself. Nil when
    /// gumbo gives up.
    static func gumboDepth(parsing html: String) -> Int? {
        try? withGumboRoot(html) { root in
            var deepest = 0
            var stack: [(UnsafeMutablePointer<GumboNode>, Int)] = [(root, 0)]
            while let (node, depth) = stack.popLast() {
                guard node.pointee.type == GUMBO_NODE_ELEMENT || node.pointee.type == GUMBO_NODE_TEMPLATE else {
                    continue
                }
                deepest = max(deepest, depth)
                let vector = node.pointee.v.element.children
                for index in 0..<Int(vector.length) {
                    if let raw = vector.data[index] {
                        stack.append((raw.assumingMemoryBound(to: GumboNode.self), depth + 1))
                    }
                }
            }
            return deepest
        }.get()
    }

    /// Gumbo's tree for `html`, converted; `budgetBytes` replaces the default memory budget.
    static func parseWithGumbo(
        _ html: String, maxDepth: Int, opaqueElements: Set<String>, budgetBytes: Int? = nil
    ) -> Result<(nodes: [HTMLNode], depth: Int), Failure> {
        withGumboRoot(html, budgetBytes: budgetBytes) { root in
            Converter(maxDepth: maxDepth, opaqueElements: opaqueElements).nodes(below: root)
        }
    }

    /// Runs `body` on gumbo's root for `html` while the tree is alive, within the budget.
    private static func withGumboRoot<T>(
        _ html: String, budgetBytes: Int? = nil, _ body: (UnsafeMutablePointer<GumboNode>) -> T
    ) -> Result<T, Failure> {
        var html = html
        return html.withUTF8 { bytes -> Result<T, Failure> in
            let budget = budgetBytes ?? Budget.bytes(forInput: bytes.count)
            // Gumbo reads `length` bytes, not a C string; an empty buffer may have no address.
            let parse = "".withCString { empty in
                let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } ?? empty
                return feedsite_gumbo_parse(base, bytes.count, budget, Budget.seconds)
            }
            guard let parse else { return .failure(.overMemory(bytes: 0)) }
            defer { feedsite_gumbo_release(parse) }
            switch feedsite_gumbo_status(parse) {
            case FEEDSITE_GUMBO_COMPLETE:
                guard let root = feedsite_gumbo_root(parse) else { return .failure(.overMemory(bytes: 0)) }
                return .success(body(root))
            case FEEDSITE_GUMBO_OVER_TIME:
                return .failure(.overTime(seconds: Budget.seconds))
            default:
                return .failure(.overMemory(bytes: budget))
            }
        }
    }
}

/// One node of a parsed fragment. Comments, doctypes and templates are not represented.
enum HTMLNode: Sendable, Hashable {
    case element(HTMLElement)
    /// Decoded character data.
    case text(String)
}

/// An element with its (lowercased) name and decoded attributes.
struct HTMLElement: Sendable, Hashable {
    /// The standard lowercase tag name, or "" for a tag gumbo does not know (custom elements).
    var name: String
    /// False for SVG and MathML content, which the sanitiser drops whatever the tag name.
    var isHTML: Bool
    /// First occurrence wins, as in browsers.
    var attributes: HTMLAttributes
    var children: [HTMLNode]

    subscript(attribute name: String) -> String? { attributes[name] }
}

/// An element's attributes in source order, each name once (the first occurrence, as in browsers).
///
/// A small array searched linearly rather than a dictionary: elements carry a handful of
/// attributes, and hashing every name on insertion and on each of the sanitiser's lookups (an
/// `<img>` is asked for a dozen) cost more than comparing a few short strings. Past
/// `indexedCount` names a dictionary of positions joins it, so an element with 100,000
/// attributes costs linear time, not quadratic (8.9 s for one such tag).
struct HTMLAttributes: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var pairs: [Pair] = []
    /// Positions in `pairs` by name, once there are more than `indexedCount`.
    private var index: [String: Int]?

    static let indexedCount = 16

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.pairs == rhs.pairs }
    func hash(into hasher: inout Hasher) { hasher.combine(pairs) }

    private struct Pair: Sendable, Hashable {
        var name: String
        var value: String
    }

    init() {}

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    var isEmpty: Bool { pairs.isEmpty }

    subscript(name: String) -> String? {
        if let index { return index[name].map { pairs[$0].value } }
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    /// Adds an attribute unless one with the same name is already there (the first one wins).
    mutating func add(_ name: String, _ value: String) {
        guard self[name] == nil else { return }
        pairs.append(Pair(name: name, value: value))
        if index != nil {
            index?[name] = pairs.count - 1
        } else if pairs.count > Self.indexedCount {
            index = Dictionary(
                pairs.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
    }

    func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        pairs.lazy.map { (name: $0.name, value: $0.value) }.makeIterator()
    }
}

/// Copies gumbo's tree into Swift values while the parse output is alive, iteratively (with an
/// explicit stack of open elements), so no input depth reaches the call stack.
private struct Converter {
    let maxDepth: Int
    let opaqueElements: Set<String>

    /// An element being converted: its children so far and where the walk stands in gumbo's.
    private struct Frame {
        let node: UnsafeMutablePointer<GumboNode>
        var next = 0
        var children: [HTMLNode] = []
    }

    /// The converted children of `root` and the depth of the deepest element kept; elements
    /// deeper than `maxDepth` become their text.
    func nodes(below root: UnsafeMutablePointer<GumboNode>) -> (nodes: [HTMLNode], depth: Int) {
        var frames = [Frame(node: root)]
        var deepest = 0
        while let top = frames.last {
            let vector = top.node.pointee.v.element.children
            guard top.next < Int(vector.length) else {
                let finished = frames.removeLast()
                guard !frames.isEmpty else { return (finished.children, deepest) }
                let element = finished.node.pointee.v.element
                frames[frames.count - 1].children.append(
                    .element(
                        HTMLElement(
                            name: Self.name(of: element), isHTML: true, attributes: Self.attributes(of: element),
                            children: finished.children)))
                continue
            }
            frames[frames.count - 1].next += 1
            guard let raw = vector.data[top.next] else { continue }
            let child = raw.assumingMemoryBound(to: GumboNode.self)
            switch child.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                frames[frames.count - 1].children.append(.text(Self.text(of: child)))
            case GUMBO_NODE_ELEMENT:
                let element = child.pointee.v.element
                let isHTML = element.tag_namespace == GUMBO_NAMESPACE_HTML
                if frames.count > maxDepth, element.children.length > 0 {
                    // Deeper than the limit (the nesting limiter keeps gumbo from building this;
                    // an element without children, such as an image, may sit one below it).
                    if isHTML, !opaqueElements.contains(Self.name(of: element)) {
                        frames[frames.count - 1].children.append(.text(flatten(child)))
                    }
                } else if isHTML {
                    frames.append(Frame(node: child))
                    deepest = max(deepest, frames.count - 1)
                } else {
                    // SVG and MathML: the sanitiser drops them whole, so their subtree is not copied.
                    frames[frames.count - 1].children.append(
                        .element(
                            HTMLElement(
                                name: Self.name(of: element), isHTML: false,
                                attributes: Self.attributes(of: element), children: [])))
                }
            default:
                // Comments, the document node and <template> contents (GUMBO_NODE_TEMPLATE) are inert.
                continue
            }
        }
        return ([], deepest)
    }

    /// The text content of a subtree, iteratively (the subtree may be arbitrarily deep), skipping
    /// opaque and foreign elements. Block boundaries become spaces so words do not run together.
    private func flatten(_ root: UnsafeMutablePointer<GumboNode>) -> String {
        var text = ""
        var stack: [UnsafeMutablePointer<GumboNode>] = [root]
        while let node = stack.popLast() {
            switch node.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE:
                text += Self.text(of: node)
            case GUMBO_NODE_ELEMENT:
                let element = node.pointee.v.element
                guard element.tag_namespace == GUMBO_NAMESPACE_HTML,
                    !opaqueElements.contains(Self.name(of: element))
                else { continue }
                text += " "
                let vector = element.children
                // Reversed so that popping visits children in document order.
                for index in stride(from: Int(vector.length) - 1, through: 0, by: -1) {
                    if let raw = vector.data[index] {
                        stack.append(raw.assumingMemoryBound(to: GumboNode.self))
                    }
                }
            default:
                continue
            }
        }
        return text
    }

    private static func text(of node: UnsafeMutablePointer<GumboNode>) -> String {
        guard let text = node.pointee.v.text.text else { return "" }
        return String(cString: text)
    }

    private static func name(of element: GumboElement) -> String {
        guard element.tag != GUMBO_TAG_UNKNOWN, let name = gumbo_normalized_tagname(element.tag) else { return "" }
        return String(cString: name)
    }

    private static func attributes(of element: GumboElement) -> HTMLAttributes {
        let vector = element.attributes
        var result = HTMLAttributes()
        for index in 0..<Int(vector.length) {
            guard let raw = vector.data[index] else { continue }
            let attribute = raw.assumingMemoryBound(to: GumboAttribute.self).pointee
            guard let name = attribute.name, let value = attribute.value else { continue }
            // ASCII capitals only, the tokenizer's rule (`É` stays `É`, the Kelvin sign is no `k`):
            // gumbo lowers HTML names itself; this covers the ones it adjusts in foreign content
            // (`viewBox`), which the subset parser writes lowercase.
            var written = String(cString: name)
            result.add(written.withUTF8(HTMLSubsetParser.lowercased), String(cString: value))
        }
        return result
    }

}
