/// A compiled Mustache template: the user-editable files in `Templates/`.
///
/// feedsite's own implementation of the [Mustache spec](https://mustache.github.io/mustache.5.html)
/// (interpolation, sections, inverted sections, comments, partials, set delimiters, standalone-line
/// whitespace rules) and its inheritance extension (`{{<parent}}` with `{{$block}}` overrides),
/// held to the official spec's tests by `MustacheSpecTests`, deviations listed there.
/// Hand-written for a safety rule and a measurement (Benchmarks/RESULTS.md): escaping is decided
/// by the value's type, not only by the tag (`{{{name}}}` emits only a `SanitisedHTML` value
/// verbatim; a plain string is HTML-escaped by every tag), and rendering is byte-level: typed
/// values (`TemplateValue`), names resolved to keys when parsed, a template set compiled into a
/// flat `Program` of trivial instructions, escaping as a byte loop, a page rendered into one byte
/// buffer.
struct Template: Sendable {
    /// The parsed nodes, in document order.
    let nodes: [Node]

    /// How deep sections, blocks and parents may nest in one file: the renderer, the load-time
    /// check and freeing a tree recurse once per level.
    static let maximumNesting = 100
    /// The longest delimiter `{{=<% %>=}}` may set: each tag is searched for with them.
    static let maximumDelimiterBytes = 16

    /// One piece of a template. Not `indirect`: the arrays already hold the nesting, and the
    /// renderer reads a node without a box's retain and release (hot path).
    enum Node: Sendable {
        /// Literal text, copied to the output.
        case text([UInt8])
        /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (verbatim when the value is HTML).
        case variable(Name, isEscaped: Bool)
        /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
        case section(Name, [Node], isInverted: Bool)
        /// `{{>name}}`; `indentation` is the whitespace before a standalone partial tag, added to
        /// every line the partial renders.
        case partial(String, indentation: [UInt8], at: Location)
        /// `{{<name}}…{{/name}}`: render template `name` with these `{{$block}}` overrides;
        /// `indentation` is the whitespace before a parent tag that starts its line, added to
        /// every line the parent renders.
        case parent(String, blocks: [String: [Node]], indentation: [UInt8], at: Location)
        /// `{{$name}}default{{/name}}`: an override from a child template, else the default,
        /// either with `indentation` added to every line.
        case block(String, [Node], indentation: [UInt8])
    }

    /// A dotted name (`item.title`); no parts means the implicit iterator `.`.
    struct Name: Sendable, Hashable, CustomStringConvertible {
        let parts: [String]
        /// `parts` resolved to view-model keys.
        let keys: [TemplateKey?]
        /// Where its tag starts, for the load-time check's warnings.
        let location: Location

        init(parts: [String], at location: Location = Location(line: 1, column: 1)) {
            self.parts = parts
            self.keys = parts.map(TemplateKey.init(rawValue:))
            self.location = location
        }

        var description: String { parts.isEmpty ? "." : parts.joined(separator: ".") }

        /// `body` with this name as view models read it.
        func withView<Result>(_ body: (NameView) -> Result) -> Result {
            parts.withUnsafeBufferPointer { parts in
                keys.withUnsafeBufferPointer { keys in body(NameView(parts: parts, keys: keys)) }
            }
        }
    }

    /// A name as view models read it (`TemplateObject.value(_:at:)`): its parts and keys in
    /// buffers that outlive the call (a `Program`'s, or a `Name`'s for the duration of
    /// `withView`). Trivial, so handing it from context to context retains nothing; a lookup
    /// does that for every context it tries (hot path).
    struct NameView {
        let parts: UnsafeBufferPointer<String>
        let keys: UnsafeBufferPointer<TemplateKey?>
    }

    /// A 1-based line and column (in characters) in the template's file.
    struct Location: Sendable, Hashable, CustomStringConvertible {
        var line: Int
        var column: Int

        var description: String { "\(line):\(column)" }
    }

    /// Names of the partials and parents this template refers to, nested ones included, so that a
    /// missing file is reported when templates are loaded rather than rendered as nothing.
    var referencedTemplates: Set<String> {
        var names = Set<String>()
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text, .variable: break
                case .section(_, let children, _), .block(_, let children, _): visit(children)
                case .partial(let name, _, _): names.insert(name)
                case .parent(let name, let blocks, _, _):
                    names.insert(name)
                    blocks.values.forEach(visit)
                }
            }
        }
        visit(nodes)
        return names
    }
}

/// A template failed to parse: where and why, for a `TemplateError`.
struct TemplateSyntaxError: Error, Sendable {
    var line: Int
    var column: Int
    var message: String
}

extension Template {
    /// A template that includes itself whatever the data, with the chain of names; nil when none
    /// does. Only partials and parents at a template's top level count (one inside a section, or
    /// in a block that may be overridden, is rendered or not by what it is given), so a set
    /// reported can only run away: an error when loaded, before anything is fetched.
    static func unconditionalCycle(in templates: [String: Template]) -> (String, [String])? {
        var edges: [String: [String]] = [:]
        for (name, template) in templates {
            edges[name] = template.nodes.compactMap { node in
                switch node {
                case .partial(let target, _, _), .parent(let target, _, _, _):
                    templates[target] != nil ? target : nil
                case .text, .variable, .section, .block: nil
                }
            }
        }
        // Depth-first, without recursion: 0 unvisited, 1 on the path, 2 done.
        var state: [String: Int] = [:]
        for start in templates.keys.sorted() where state[start] == nil {
            var path: [(name: String, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = path.last {
                let targets = edges[top.name] ?? []
                guard top.next < targets.count else {
                    state[top.name] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let target = targets[top.next]
                switch state[target] {
                case 1?:
                    let names = path.map(\.name)
                    let cycle = names[(names.firstIndex(of: target) ?? 0)...] + [target]
                    return (target, Array(cycle))
                case nil:
                    state[target] = 1
                    path.append((target, 0))
                default:
                    break
                }
            }
        }
        return nil
    }
}
