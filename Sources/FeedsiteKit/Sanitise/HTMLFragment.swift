internal import CGumbo

/// A parsed HTML5 fragment as plain Swift values: the only file that touches gumbo.
///
/// Feed bodies are parsed the way a browser parses `div.innerHTML = body`, so the sanitiser sees
/// exactly the tree a browser would build (comments, misnested tags and entity tricks resolved),
/// never its own guess at the markup. Gumbo parses with scripting disabled, which means the
/// content of `<noscript>` is an ordinary DOM subtree (lazy-loading blogs put the real `<img>`
/// there) rather than raw text that would need a second parse.
struct HTMLFragment: Sendable, Hashable {
    /// The top-level nodes of the fragment.
    var nodes: [HTMLNode]

    /// Parses `html` as the content of a `<div>`: by `HTMLSubsetParser` when the markup is within
    /// the part of HTML5 it models exactly (most feed bodies), otherwise by gumbo.
    ///
    /// - Parameters:
    ///   - maxDepth: elements nested deeper than this are flattened into their text, so no later
    ///     recursive walk can exhaust the stack (10,000 nested `<div>`s are a classic attack).
    ///   - opaqueElements: names whose content never becomes text when flattening (`script`,
    ///     `style`…): flattening must not reveal what the sanitiser would have dropped.
    ///   - hasNoReplacedCharacters: the caller has checked that `html` holds nothing gumbo replaces
    ///     (`HTMLSubsetParser.hasCharactersGumboReplaces`), so the subset parser need not scan again.
    init(parsing html: String, maxDepth: Int, opaqueElements: Set<String>, hasNoReplacedCharacters: Bool = false) {
        nodes =
            HTMLSubsetParser.parse(html, maxDepth: maxDepth, hasNoReplacedCharacters: hasNoReplacedCharacters)
            ?? Self.gumboNodes(parsing: html, maxDepth: maxDepth, opaqueElements: opaqueElements)
    }

    /// The fragment's nodes as gumbo parses them (the reference `HTMLSubsetParser` is tested against).
    static func gumboNodes(parsing html: String, maxDepth: Int, opaqueElements: Set<String>) -> [HTMLNode] {
        var options = kGumboDefaultOptions
        options.fragment_context = GUMBO_TAG_DIV
        options.fragment_namespace = GUMBO_NAMESPACE_HTML
        // Errors are not reported anywhere; recording them only costs memory on hostile input.
        options.max_errors = 0
        var utf8 = Array(html.utf8)
        utf8.append(0)
        let nodes: [HTMLNode] = utf8.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            let bytes = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            // The output points into `buffer`, so it is converted and freed inside this closure.
            guard let output = gumbo_parse_with_options(&options, bytes, buffer.count - 1) else { return [] }
            defer { gumbo_destroy_output(&options, output) }
            guard let root = output.pointee.root else { return [] }
            let converter = Converter(maxDepth: maxDepth, opaqueElements: opaqueElements)
            return converter.children(of: root, depth: 0)
        }
        return nodes
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
/// `<img>` is asked for a dozen) cost more than comparing a few short strings.
struct HTMLAttributes: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var pairs: [Pair] = []

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
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    /// Adds an attribute unless one with the same name is already there (the first one wins).
    mutating func add(_ name: String, _ value: String) {
        guard self[name] == nil else { return }
        pairs.append(Pair(name: name, value: value))
    }

    func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        pairs.lazy.map { (name: $0.name, value: $0.value) }.makeIterator()
    }
}

/// Copies gumbo's tree into Swift values while the parse output is alive.
private struct Converter {
    let maxDepth: Int
    let opaqueElements: Set<String>

    /// Recursion is bounded by `maxDepth`; deeper subtrees go through the iterative `flatten`.
    func children(of node: UnsafeMutablePointer<GumboNode>, depth: Int) -> [HTMLNode] {
        let vector = node.pointee.v.element.children
        var result: [HTMLNode] = []
        result.reserveCapacity(Int(vector.length))
        for index in 0..<Int(vector.length) {
            guard let raw = vector.data[index] else { continue }
            let child = raw.assumingMemoryBound(to: GumboNode.self)
            if let converted = convert(child, depth: depth + 1) {
                result.append(converted)
            }
        }
        return result
    }

    private func convert(_ node: UnsafeMutablePointer<GumboNode>, depth: Int) -> HTMLNode? {
        switch node.pointee.type {
        case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
            return .text(Self.text(of: node))
        case GUMBO_NODE_ELEMENT:
            let element = node.pointee.v.element
            let name = Self.name(of: element)
            let isHTML = element.tag_namespace == GUMBO_NAMESPACE_HTML
            if depth > maxDepth {
                guard isHTML, !opaqueElements.contains(name) else { return nil }
                return .text(flatten(node))
            }
            return .element(
                HTMLElement(
                    name: name,
                    isHTML: isHTML,
                    attributes: Self.attributes(of: element),
                    children: isHTML ? children(of: node, depth: depth) : []))
        default:
            // Comments, the document node and <template> contents (GUMBO_NODE_TEMPLATE) are inert.
            return nil
        }
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
            result.add(String(cString: name).lowercased(), String(cString: value))
        }
        return result
    }
}
