extension Template {
    /// A tag that renders nothing, or not what it seems to ask for: a name no view type provides
    /// where it is used (`{{titel}}`), an object or list printed as text, HTML printed escaped or
    /// text asked for unescaped. Found when the templates are loaded; reported as a warning.
    struct NameWarning: Sendable, Hashable {
        /// The template's name (its file name without `.mustache`).
        var template: String
        var location: Location
        var message: String
    }

    /// The most warnings reported per template; a hostile or foreign file is not a flood.
    static let maximumNameWarnings = 20

    /// Walks every page template with the view type it is rendered with, and through it the
    /// partials and parents it uses, keeping the context stack as the renderer does: a section on
    /// an object or a list of objects pushes that view type; inverted sections, sections on a
    /// Boolean or on text, and `{{.}}` push none that has names. Partials are checked where they
    /// are included, blocks where their parent puts them. A partial or parent used from several
    /// places is checked in each; a tag is reported when none of them provides its name.
    static func checkNames(
        _ templates: [String: Template], pageTypes: [String: String] = TemplateSchema.pageTypes,
        viewTypes: [String: [String: TemplateSchema.Kind]] = TemplateSchema.viewTypesWithGlobals
    ) -> [NameWarning] {
        var checker = NameChecker(templates: templates, viewTypes: viewTypes)
        // What every page can read under its own names (`{{t.key}}`), when the schema has it.
        let base: [NameChecker.Scope] =
            viewTypes[TemplateGlobals.typeName] != nil ? [.view(TemplateGlobals.typeName)] : []
        for (page, type) in pageTypes.sorted(by: { $0.key < $1.key }) {
            checker.include(page, stack: base + [.view(type)], overrides: [:])
        }
        return checker.warnings
    }

    /// The candidate a typo most likely meant (the same rule as for template names).
    static func nearestName(_ name: String, in candidates: [String]) -> String? {
        NameChecker.nearest(name, in: candidates)
    }
}

/// The walk behind `Template.checkNames`: a model of `Template.Renderer` over types instead of values.
private struct NameChecker {
    typealias Kind = TemplateSchema.Kind
    typealias Node = Template.Node
    typealias Location = Template.Location

    /// What a section put on the context stack.
    enum Scope: Hashable {
        /// A view type: its fields are names.
        case view(String)
        /// A value without fields (text, a number), whose only name is `.`.
        case value
        /// Inside a section on a name that is not known: anything may be meant, nothing is reported.
        case unknown
    }

    /// A `{{$block}}` definition from a child template, in effect while its parent is walked.
    struct Override {
        var nodes: [Node]
        /// The template it is written in.
        var template: String
        /// Where the `{{<parent}}` tag that defines it is: two overrides from one place are one.
        var origin: String
    }

    /// A tag in a file.
    struct Tag: Hashable {
        var template: String
        var location: Location
    }

    /// What is wrong with a tag in one context.
    struct Problem {
        var message: String
        /// The message names what was probably meant: it wins over one from another context that does not.
        var isSuggestion = false
    }

    /// How a name resolves in a context.
    enum Resolution {
        case found(Kind)
        /// `.`: always the top of the stack.
        case implicitIterator
        /// Under a section on an unknown name: not checked.
        case unchecked
        /// Not provided; the message says what is there instead.
        case missing(Problem)
    }

    let templates: [String: Template]
    let viewTypes: [String: [String: Kind]]
    /// The problem found at each tag (the first, unless a later one has a suggestion).
    private var problems: [Tag: Problem] = [:]
    private var order: [Tag] = []
    /// Tags that resolved in at least one context.
    private var resolved: Set<Tag> = []
    /// Templates already walked with the same context and overrides.
    private var visited: Set<String> = []
    /// Tags left to walk: partials that include each other in many contexts stay bounded.
    private var budget = 250_000
    /// The template being walked when the budget ran out.
    private var exhausted: String?
    private var depth = 0
    /// `walk` calls open (sections, partials, blocks nested, across files).
    private var frames = 0

    init(templates: [String: Template], viewTypes: [String: [String: Kind]]) {
        self.templates = templates
        self.viewTypes = viewTypes
    }

    /// The problems no context resolved, at most `maximumNameWarnings` per template.
    var warnings: [Template.NameWarning] {
        var result: [Template.NameWarning] = []
        let unresolved = order.filter { !resolved.contains($0) }.sorted {
            ($0.template, $0.location.line, $0.location.column) < ($1.template, $1.location.line, $1.location.column)
        }
        var counts: [String: Int] = [:]
        for tag in unresolved {
            counts[tag.template, default: 0] += 1
            guard counts[tag.template, default: 0] <= Template.maximumNameWarnings, let problem = problems[tag] else {
                continue
            }
            result.append(
                Template.NameWarning(template: tag.template, location: tag.location, message: problem.message))
        }
        for (template, count) in counts.sorted(by: { $0.key < $1.key }) where count > Template.maximumNameWarnings {
            result.append(
                Template.NameWarning(
                    template: template, location: Location(line: 1, column: 1),
                    message: "\(count - Template.maximumNameWarnings) more tags like the ones above are not reported"))
        }
        if let exhausted {
            result.append(
                Template.NameWarning(
                    template: exhausted, location: Location(line: 1, column: 1),
                    message: "the partials and parents nest too much for every name to be checked"))
        }
        return result
    }

    /// Walks template `name` in a context, unless it was already walked in the same one.
    mutating func include(_ name: String, stack: [Scope], overrides: [String: Override]) {
        guard let template = templates[name], depth < Template.Renderer.maximumDepth else { return }
        let signature = overrides.sorted { $0.key < $1.key }.map { "\($0.key)@\($0.value.origin)" }
        let key = ([name, Self.signature(of: stack)] + signature).joined(separator: "\u{1}")
        guard visited.insert(key).inserted else { return }
        depth += 1
        defer { depth -= 1 }
        walk(template.nodes, in: name, stack: stack, overrides: overrides)
    }

    private mutating func walk(_ nodes: [Node], in template: String, stack: [Scope], overrides: [String: Override]) {
        // Bounded like the renderer (`maximumFrames`): this recurses once per section, partial and
        // block, and 64 partials each 100 sections deep would overflow a thread's stack.
        guard frames < Template.Renderer.maximumFrames else {
            exhausted = exhausted ?? template
            return
        }
        frames += 1
        defer { frames -= 1 }
        for node in nodes {
            guard budget > 0 else {
                exhausted = exhausted ?? template
                return
            }
            budget -= 1
            switch node {
            case .text:
                break
            case .variable(let name, let isEscaped):
                record(name.location, in: template, problem: problem(printing: name, isEscaped: isEscaped, in: stack))
            case .section(let name, let children, let isInverted):
                var inner = stack
                switch resolve(name, in: stack) {
                case .found(let kind):
                    record(name.location, in: template, problem: nil)
                    if !isInverted, let scope = Self.scope(entering: kind) { inner.append(scope) }
                case .implicitIterator, .unchecked:
                    record(name.location, in: template, problem: nil)
                case .missing(let problem):
                    record(name.location, in: template, problem: problem)
                    inner.append(.unknown)
                }
                walk(children, in: template, stack: inner, overrides: overrides)
            case .partial(let name, _, _):
                include(name, stack: stack, overrides: overrides)
            case .parent(let name, let blocks, _, let location):
                let origin = "\(template):\(location)"
                let own = blocks.mapValues { Override(nodes: $0, template: template, origin: origin) }
                // The outermost template's definition of a block wins, as when rendering.
                include(name, stack: stack, overrides: own.merging(overrides) { _, outer in outer })
            case .block(let name, let defaults, _):
                guard depth < Template.Renderer.maximumDepth else { continue }
                depth += 1
                defer { depth -= 1 }
                if let override = overrides[name] {
                    walk(override.nodes, in: override.template, stack: stack, overrides: overrides)
                } else {
                    walk(defaults, in: template, stack: stack, overrides: overrides)
                }
            }
        }
    }

    private mutating func record(_ location: Location, in template: String, problem: Problem?) {
        let tag = Tag(template: template, location: location)
        guard let problem else {
            resolved.insert(tag)
            return
        }
        if let earlier = problems[tag] {
            if problem.isSuggestion, !earlier.isSuggestion { problems[tag] = problem }
        } else {
            problems[tag] = problem
            order.append(tag)
        }
    }

    /// What a section on a value of this kind pushes: a view type, a value without names, or
    /// nothing (a Boolean only decides whether the section shows).
    private static func scope(entering kind: Kind) -> Scope? {
        switch kind.present {
        case .object(let type): .view(type)
        case .list(let element):
            if case .object(let type) = element.present { .view(type) } else { .value }
        case .bool: nil
        case .string, .html, .int, .optional: .value
        }
    }

    /// The stack as name lookup sees it: from the innermost, each view type once (an outer copy
    /// of a type is never reached), down to the first unknown section.
    private static func signature(of stack: [Scope]) -> String {
        var types: [String] = []
        for scope in stack.reversed() {
            switch scope {
            case .view(let type) where !types.contains(type): types.append(type)
            case .view, .value: continue
            case .unknown: return (types + ["?"]).joined(separator: ",")
            }
        }
        return types.joined(separator: ",")
    }

    /// Mustache lookup over types: the first part in the innermost view type that has it, the
    /// rest inside that.
    private func resolve(_ name: Template.Name, in stack: [Scope]) -> Resolution {
        guard let first = name.parts.first else { return .implicitIterator }
        var found: Kind?
        search: for scope in stack.reversed() {
            switch scope {
            case .unknown: return .unchecked
            case .value: continue
            case .view(let type):
                if let kind = viewTypes[type]?[first] {
                    found = kind
                    break search
                }
            }
        }
        guard var kind = found else { return .missing(missing(first, in: stack)) }
        for index in name.parts.indices.dropFirst() {
            let prefix = name.parts[..<index].joined(separator: ".")
            let part = name.parts[index]
            switch kind.present {
            case .object(let type):
                guard let next = viewTypes[type]?[part] else {
                    guard let suggestion = Self.nearest(part, in: viewTypes[type]?.keys.sorted() ?? []) else {
                        return .missing(
                            Problem(message: "'\(name)' is not a variable here: '\(prefix)' has no '\(part)'"))
                    }
                    return .missing(
                        Problem(
                            message: "'\(name)' is not a variable here; did you mean '\(prefix).\(suggestion)'?",
                            isSuggestion: true))
                }
                kind = next
            case .list:
                return .missing(
                    Problem(
                        message: "'\(name)' is not a variable here: '\(prefix)' is a list; use '\(part)' inside a"
                            + " '{{#\(prefix)}}' section", isSuggestion: true))
            default:
                return .missing(Problem(message: "'\(name)' is not a variable here: '\(prefix)' has no fields"))
            }
        }
        return .found(kind)
    }

    /// `'titel' is not a variable here; did you mean 'title'?`: the nearest name in scope, else an
    /// object in scope that has the name, else a list whose elements have it.
    private func missing(_ name: String, in stack: [Scope]) -> Problem {
        let message = "'\(name)' is not a variable here"
        var types: [String] = []
        for case .view(let type) in stack.reversed() where !types.contains(type) { types.append(type) }
        let names = types.flatMap { viewTypes[$0]?.keys.sorted() ?? [] }
        if let suggestion = Self.nearest(name, in: names) {
            return Problem(message: message + "; did you mean '\(suggestion)'?", isSuggestion: true)
        }
        let fields = types.flatMap { (viewTypes[$0] ?? [:]).sorted { $0.key < $1.key } }
        for (field, kind) in fields {
            if case .object(let inner) = kind.present, viewTypes[inner]?[name] != nil {
                return Problem(message: message + "; did you mean '\(field).\(name)'?", isSuggestion: true)
            }
        }
        for (field, kind) in fields {
            if case .list(let element) = kind.present, case .object(let inner) = element.present,
                viewTypes[inner]?[name] != nil
            {
                return Problem(
                    message: message + "; each of '\(field)' has it: use it inside a '{{#\(field)}}' section",
                    isSuggestion: true)
            }
        }
        return Problem(message: message + " (README.md, 'Templates', lists the variables of each page)")
    }

    /// Why printing `name` shows nothing or not what it seems to ask for, if it does.
    private func problem(printing name: Template.Name, isEscaped: Bool, in stack: [Scope]) -> Problem? {
        let message: String
        switch resolve(name, in: stack) {
        case .implicitIterator, .unchecked:
            return nil
        case .missing(let problem):
            return problem
        case .found(let kind):
            switch kind.present {
            case .object(let type):
                let fields = viewTypes[type]?.keys.sorted() ?? []
                let example = ["title", "name"].first(where: fields.contains) ?? fields.first ?? "name"
                message =
                    "'\(name)' is an object and prints nothing; print one of its fields, such as '\(name).\(example)'"
            case .list:
                message = "'\(name)' is a list and prints nothing; repeat its elements with a '{{#\(name)}}' section"
            case .html where isEscaped:
                message = "'\(name)' is sanitised HTML, shown as markup by this tag; use '{{{\(name)}}}' to insert it"
            case .string where !isEscaped:
                message =
                    "'\(name)' is text, escaped even by '{{{…}}}'; only sanitised HTML such as 'item.content' is"
                    + " inserted unescaped"
            default:
                return nil
            }
        }
        return Problem(message: message, isSuggestion: true)
    }

    /// The candidate a typo most likely meant: the same name in another case, or one edit away
    /// (two for names of six characters or more), a swap of two neighbours counting as one.
    static func nearest(_ name: String, in candidates: [String]) -> String? {
        let lowered = Array(name.lowercased())
        let limit = lowered.count < 4 ? 0 : lowered.count < 6 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates where abs(candidate.count - lowered.count) <= limit {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance with transpositions (optimal string alignment): `titel` is one edit
    /// from `title`, where plain Levenshtein makes it two, as far as from `site`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
