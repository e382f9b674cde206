extension Template {
    /// Renders templates from one set (partials and parents are looked up in it) into bytes.
    ///
    /// A value type with the context stack, the `{{$block}}` overrides in effect and the
    /// indentation of the partials, parents and blocks being rendered; one per page. It walks the
    /// set's `Program`.
    struct Renderer {
        let program: Program
        /// `program`'s buffers, read without retaining anything (it keeps them alive).
        private let ops: UnsafeBufferPointer<Program.Op>
        private let bytes: UnsafeBufferPointer<UInt8>
        private let indentations: UnsafeBufferPointer<Range<Int>>
        private let names: UnsafeBufferPointer<NameView>
        private(set) var output: [UInt8] = []
        private var stack: [TemplateValue] = []
        /// The override in effect for each block (by the program's block index).
        private var overrides: [Range<Int>?]
        private var indentation: [UInt8] = []
        private var depth = 0
        /// Instruction lists being run (`run` calls open: sections, partials, parents, blocks).
        private var frames = 0
        /// Repeats rendered so far (`step()`), against `maximumSteps`.
        private var steps = 0
        /// Instructions run so far, against `maximumOperations`.
        private var operations = 0
        /// The template `render` was asked for, named when a render is cut off.
        private var page = ""
        /// The way back to the site's root from the page being rendered (`../../`): what a
        /// `.link` is written after.
        private var root = ""

        /// Partials, parents and blocks nested deeper than this are a template that includes itself.
        static let maximumDepth = 64
        /// Sections, partials, parents and blocks nested together, across files: the renderer
        /// recurses once per level, and 64 partials each 100 sections deep would overflow a
        /// thread's stack. A real theme nests a few dozen.
        static let maximumFrames = 256
        /// The most one render may write or repeat: partials that each include the next twice
        /// (`{{>b}}{{>b}}` in `a`, `{{>c}}{{>c}}` in `b`…), or sections on a list nested in sections
        /// on the same list, render 2^depth (or length^depth) times within the depth limits, and
        /// would fill memory or run for ever. A real page stays far below both (the status page of
        /// 10,000 feeds: 5 MB and about 100,000 repeats).
        static let maximumOutput = 64 << 20
        static let maximumSteps = 10_000_000
        /// Instructions one render may run: a partial of 200,000 tags that print nothing,
        /// included 150,000 times, writes nothing and repeats little, but would look up names for
        /// hours. The status page of 10,000 feeds runs a few million.
        static let maximumOperations = 200_000_000
        /// This renderer's limits (smaller in the fuzz target, so a runaway is stopped quickly).
        var limits = (output: maximumOutput, steps: maximumSteps, operations: maximumOperations)

        /// Why a render stopped: the template set is inconsistent, not the data.
        enum Failure: Error {
            case missingTemplate(String)
            case tooDeep(String)
            /// A block (`{{$name}}`) nests too deep, rendering the page's template.
            case blockTooDeep(block: String, page: String)
            /// Sections, partials and blocks together nest past `maximumFrames` (in this page's template).
            case nestedTooDeep(String)
            /// The page's render went over `limits`.
            case tooLarge(String)
        }

        init(program: Program, capacity: Int = 16_384) {
            self.program = program
            ops = program.ops
            bytes = program.bytes
            indentations = program.indentations
            names = program.names
            overrides = Array(repeating: nil, count: program.blockNames.count)
            output.reserveCapacity(capacity)
        }

        init(templates: [String: Template], capacity: Int = 16_384) {
            self.init(program: Program(templates), capacity: capacity)
        }

        /// Renders template `name` with `value` as the outermost context, and `globals` (names
        /// every page has, such as `t`) below it, for a page `root` away from the site's root.
        mutating func render(
            _ name: String, with value: TemplateValue, globals: TemplateValue? = nil, root: String = ""
        ) throws(Failure) {
            guard let range = program.range(of: name) else { throw .missingTemplate(name) }
            page = name
            self.root = root
            steps = 0
            operations = 0
            let count = stack.count
            if let globals { stack.append(globals) }
            stack.append(value)
            defer { stack.removeSubrange(count...) }
            try run(range)
        }

        private mutating func run(_ range: Range<Int>) throws(Failure) {
            guard frames < Self.maximumFrames else { throw .nestedTooDeep(page) }
            frames += 1
            defer { frames -= 1 }
            var position = range.lowerBound
            operations += range.count
            guard operations <= limits.operations else { throw .tooLarge(page) }
            while position < range.upperBound {
                let op = ops[position]
                position += 1
                switch op {
                case .text(let start, let end):
                    try write(text: start..<end)
                case .variable(let name, let isEscaped):
                    guard let value = lookup(name) else { continue }
                    switch consume value {
                    case .string(let text): write(text, isEscaped: true)
                    case .link(let path):
                        write(root, isEscaped: true)
                        write(path, isEscaped: true)
                    case .html(let html): write(html.html, isEscaped: isEscaped)
                    case .int(let number): write(String(number), isEscaped: false)
                    case .bool(let flag): write(flag ? "true" : "false", isEscaped: false)
                    case .list, .object, .nothing: break  // nothing sensible to print; use a section
                    }
                    // A value can be large (an item's content): a page of many is stopped here,
                    // not only at the next repeat.
                    guard output.count <= limits.output else { throw .tooLarge(page) }
                case .section(let name, let length, let isInverted):
                    let body = position..<(position + length)
                    position = body.upperBound
                    let value = lookup(name)
                    if isInverted {
                        if value?.isFalsey ?? true { try run(body) }
                        continue
                    }
                    guard let value, !value.isFalsey else { continue }
                    switch consume value {
                    case .bool:
                        try run(body)
                    case .list(let elements):
                        for element in elements {
                            try step()
                            stack.append(element)
                            try run(body)
                            stack.removeLast()
                        }
                    case let value:
                        stack.append(value)
                        try run(body)
                        stack.removeLast()
                    }
                case .partial(let template, let indent):
                    let target = try self.template(template)
                    try nested(.template(template), indentation: indent) { renderer throws(Failure) in
                        try renderer.run(target)
                    }
                case .parent(let template, let length, let indent):
                    let target = try self.template(template)
                    let blocks = position..<(position + length)
                    position = blocks.upperBound
                    // The outermost template's definition of a block wins (it is the most
                    // specific): an override applies only to a block that has none yet.
                    var applied: [Int] = []
                    var next = blocks.lowerBound
                    while next < blocks.upperBound {
                        guard case .override(let block, let bodyLength) = ops[next] else { break }
                        let body = (next + 1)..<(next + 1 + bodyLength)
                        if overrides[block] == nil {
                            overrides[block] = body
                            applied.append(block)
                        }
                        next = body.upperBound
                    }
                    defer { for block in applied { overrides[block] = nil } }
                    try nested(.template(template), indentation: indent) { renderer throws(Failure) in
                        try renderer.run(target)
                    }
                case .block(let block, let length, let indent):
                    let defaults = position..<(position + length)
                    position = defaults.upperBound
                    let body = overrides[block] ?? defaults
                    try nested(.block(block), indentation: indent) { renderer throws(Failure) in
                        try renderer.run(body)
                    }
                case .override(_, let length):
                    position += length  // only read by its parent
                }
            }
        }

        /// The instructions of template `index`, or why there are none.
        private func template(_ index: Int) throws(Failure) -> Range<Int> {
            guard let range = program.templateRanges[index] else {
                throw .missingTemplate(program.templateNames[index])
            }
            return range
        }

        /// What a nested render is, named only in the error when it nests too deep.
        private enum Nesting {
            case template(Int)
            case block(Int)
        }

        /// `body`, one level deeper, with indentation `index` (none for 0) added to the lines it writes.
        private mutating func nested(
            _ nesting: Nesting, indentation index: Int, _ body: (inout Renderer) throws(Failure) -> Void
        ) throws(Failure) {
            guard depth < Self.maximumDepth else {
                switch nesting {
                case .template(let index): throw .tooDeep(program.templateNames[index])
                case .block(let index): throw .blockTooDeep(block: program.blockNames[index], page: page)
                }
            }
            try step()
            depth += 1
            defer { depth -= 1 }
            guard index != 0 else { return try body(&self) }
            let saved = indentation.count
            indentation.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[indentations[index]]))
            defer { indentation.removeSubrange(saved...) }
            try body(&self)
        }

        /// Counts a repeat (a list element's section, a partial, a parent or a block: what can
        /// multiply a page) and stops a render past `limits`.
        private mutating func step() throws(Failure) {
            steps += 1
            guard steps <= limits.steps, output.count <= limits.output else { throw .tooLarge(page) }
        }

        /// Mustache lookup: the first name in the innermost context that has it, the rest inside that.
        private func lookup(_ index: Int) -> TemplateValue? {
            let name = names[index]
            guard !name.keys.isEmpty else { return stack.last }
            for position in stack.indices.reversed() {
                guard case .object(let object) = stack[position] else { continue }
                if let value = object.value(name, at: 0) { return value }
            }
            return nil
        }

        private var isAtLineStart: Bool { output.last == UInt8(ascii: "\n") || output.isEmpty }

        /// Template text, indented line by line inside an indented partial, parent or block (each
        /// line checked against the output limit: an indentation of a megabyte before a partial
        /// of a million lines would write a terabyte in one piece of text).
        private mutating func write(text range: Range<Int>) throws(Failure) {
            guard !indentation.isEmpty else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                return
            }
            var lineStart = range.lowerBound
            while lineStart < range.upperBound {
                guard output.count <= limits.output else { throw .tooLarge(page) }
                let lineEnd =
                    (bytes[lineStart..<range.upperBound].firstIndex(of: UInt8(ascii: "\n"))
                        ?? (range.upperBound - 1)) + 1
                if isAtLineStart { output.append(contentsOf: indentation) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
                lineStart = lineEnd
            }
        }

        /// A value. Data is never indented line by line (the spec indents template lines only).
        private mutating func write(_ text: String, isEscaped: Bool) {
            guard !text.isEmpty else { return }
            if !indentation.isEmpty, isAtLineStart { output.append(contentsOf: indentation) }
            // Read in place (a copy to call `withUTF8` on would retain and release the string);
            // only a string without contiguous UTF-8 is copied.
            let written: Void? = text.utf8.withContiguousStorageIfAvailable {
                Self.append($0, isEscaped: isEscaped, to: &output)
            }
            if written == nil {
                var text = text
                text.withUTF8 { Self.append($0, isEscaped: isEscaped, to: &output) }
            }
        }

        private static func append(_ bytes: UnsafeBufferPointer<UInt8>, isEscaped: Bool, to output: inout [UInt8]) {
            if isEscaped { appendEscaped(bytes, to: &output) } else { output.append(contentsOf: bytes) }
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
