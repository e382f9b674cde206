extension Template {
    /// Renders templates from one set (partials and parents are looked up in it) into bytes.
    ///
    /// A value type with the context stack, the `{{$block}}` overrides in effect and the
    /// indentation of the partial being rendered; one per page.
    struct Renderer {
        let templates: [String: Template]
        private(set) var output: [UInt8] = []
        private var stack: [TemplateValue] = []
        private var overrides: [String: [Node]] = [:]
        private var indentation: [UInt8] = []
        private var depth = 0

        /// Partials, parents and blocks nested deeper than this are a template that includes itself.
        static let maximumDepth = 64

        /// Why a render stopped: the template set is inconsistent, not the data.
        enum Failure: Error {
            case missingTemplate(String)
            case tooDeep(String)
        }

        init(templates: [String: Template], capacity: Int = 16_384) {
            self.templates = templates
            output.reserveCapacity(capacity)
        }

        /// Renders template `name` with `value` as the outermost context, and `globals` (names
        /// every page has, such as `t`) below it.
        mutating func render(_ name: String, with value: TemplateValue, globals: TemplateValue? = nil) throws(Failure) {
            guard let template = templates[name] else { throw .missingTemplate(name) }
            let count = stack.count
            if let globals { stack.append(globals) }
            stack.append(value)
            defer { stack.removeSubrange(count...) }
            try render(template.nodes)
        }

        private mutating func render(_ nodes: [Node]) throws(Failure) {
            for node in nodes {
                switch node {
                case .text(let bytes):
                    write(text: bytes)
                case .variable(let name, let isEscaped):
                    guard let value = lookup(name) else { continue }
                    switch value {
                    case .string(let text): write(text, isEscaped: true)
                    case .html(let html): write(html.html, isEscaped: isEscaped)
                    case .int(let number): write(String(number), isEscaped: false)
                    case .bool(let flag): write(flag ? "true" : "false", isEscaped: false)
                    case .list, .object, .nothing: break  // nothing sensible to print; use a section
                    }
                case .section(let name, let children, let isInverted):
                    let value = lookup(name)
                    if isInverted {
                        if value?.isFalsey ?? true { try render(children) }
                        continue
                    }
                    guard let value, !value.isFalsey else { continue }
                    switch value {
                    case .bool:
                        try render(children)
                    case .list(let elements):
                        for element in elements {
                            stack.append(element)
                            try render(children)
                            stack.removeLast()
                        }
                    default:
                        stack.append(value)
                        try render(children)
                        stack.removeLast()
                    }
                case .partial(let name, let partialIndentation, _):
                    guard let template = templates[name] else { throw .missingTemplate(name) }
                    let saved = indentation
                    indentation += partialIndentation
                    try nested(name) { renderer throws(Failure) in try renderer.render(template.nodes) }
                    indentation = saved
                case .parent(let name, let blocks, _):
                    guard let template = templates[name] else { throw .missingTemplate(name) }
                    let saved = overrides
                    // The outermost template's definition of a block wins (it is the most specific).
                    overrides = blocks.merging(overrides) { _, outer in outer }
                    try nested(name) { renderer throws(Failure) in try renderer.render(template.nodes) }
                    overrides = saved
                case .block(let name, let defaults):
                    let children = overrides[name] ?? defaults
                    try nested(name) { renderer throws(Failure) in try renderer.render(children) }
                }
            }
        }

        private mutating func nested(
            _ name: String, _ body: (inout Renderer) throws(Failure) -> Void
        ) throws(Failure) {
            guard depth < Self.maximumDepth else { throw .tooDeep(name) }
            depth += 1
            defer { depth -= 1 }
            try body(&self)
        }

        /// Mustache lookup: the first name in the innermost context that has it, the rest inside that.
        private func lookup(_ name: Name) -> TemplateValue? {
            guard !name.parts.isEmpty else { return stack.last }
            for index in stack.indices.reversed() {
                if case .object(let object) = stack[index], let value = object.value(name, at: 0) { return value }
            }
            return nil
        }

        private var isAtLineStart: Bool { output.last == UInt8(ascii: "\n") || output.isEmpty }

        /// Template text, indented line by line inside an indented partial.
        private mutating func write(text bytes: [UInt8]) {
            guard !indentation.isEmpty else {
                output.append(contentsOf: bytes)
                return
            }
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = (bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? (bytes.count - 1)) + 1
                if isAtLineStart { output.append(contentsOf: indentation) }
                output.append(contentsOf: bytes[lineStart..<lineEnd])
                lineStart = lineEnd
            }
        }

        /// A value. Data is never indented line by line (the spec indents template lines only).
        private mutating func write(_ text: String, isEscaped: Bool) {
            guard !text.isEmpty else { return }
            if !indentation.isEmpty, isAtLineStart { output.append(contentsOf: indentation) }
            var text = text
            text.withUTF8 { bytes in
                guard isEscaped else {
                    output.append(contentsOf: bytes)
                    return
                }
                Self.appendEscaped(bytes, to: &output)
            }
        }

        /// HTML-escapes `& < > " '` (the five characters swift-mustache and Mustache.js escape).
        static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
            var runStart = 0
            for index in bytes.indices {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }
}
