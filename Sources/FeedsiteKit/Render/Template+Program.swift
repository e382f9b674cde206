extension Template {
    /// A template set compiled for rendering: every template's node tree flattened into one array
    /// of trivial instructions, with text as byte ranges into one buffer and names, partials and
    /// blocks as indices.
    ///
    /// Hand-written for a measurement (Benchmarks/RESULTS.md, 2026-11-26): walking the node trees
    /// retained and released every node's arrays, 5.5 % of a cold build's CPU samples. An
    /// instruction here holds no reference, and the program keeps its instructions, text and
    /// names in buffers of its own that a renderer reads through pointers, so walking a program
    /// retains nothing (−2 % CPU), nor does handing a name to a view model (`Template.NameView`:
    /// render stage −12 %, RESULTS.md 2026-11-26). `@unchecked Sendable`: nothing in it changes
    /// after `init`.
    final class Program: @unchecked Sendable {
        /// One instruction. A body (a section's, a block's default, an override's) is the
        /// `length` instructions that follow its header.
        enum Op: Sendable {
            /// `bytes[start..<end]`, copied to the output.
            case text(start: Int, end: Int)
            case variable(name: Int, isEscaped: Bool)
            case section(name: Int, length: Int, isInverted: Bool)
            /// `indentation` (here and below) is an index into `indentations`.
            case partial(template: Int, indentation: Int)
            /// A parent tag; its body is its `.override`s (and their bodies), nothing else.
            case parent(template: Int, length: Int, indentation: Int)
            /// `{{$block}}` inside a parent: the body replaces that block's default.
            case override(block: Int, length: Int)
            /// `{{$block}}` elsewhere: the body is the default.
            case block(block: Int, length: Int, indentation: Int)
        }

        let ops: UnsafeBufferPointer<Op>
        /// All literal text and indentation, back to back.
        let bytes: UnsafeBufferPointer<UInt8>
        /// The indentations of partials, parents and blocks, as ranges of `bytes`. The first is
        /// empty, and the only empty one: an instruction with indentation 0 has none.
        let indentations: UnsafeBufferPointer<Range<Int>>
        /// Each name's parts and keys, pointing into `nameParts` and `nameKeys`.
        let names: UnsafeBufferPointer<NameView>
        private let nameParts: UnsafeBufferPointer<String>
        private let nameKeys: UnsafeBufferPointer<TemplateKey?>
        /// Template names by index: every template of the set, then names used as a partial or
        /// parent that the set lacks (their range is nil: rendering one is a `.missingTemplate`).
        let templateNames: [String]
        let templateRanges: [Range<Int>?]
        let blockNames: [String]
        private let templateIndex: [String: Int]

        init(_ templates: [String: Template]) {
            var builder = Builder()
            for name in templates.keys.sorted() { _ = builder.index(ofTemplate: name) }
            for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
                let start = builder.ops.count
                builder.append(template.nodes)
                builder.templateRanges[builder.index(ofTemplate: name)] = start..<builder.ops.count
            }
            ops = Self.copy(builder.ops)
            bytes = Self.copy(builder.bytes)
            indentations = Self.copy(builder.indentations)
            nameParts = Self.copy(builder.names.flatMap(\.parts))
            nameKeys = Self.copy(builder.names.flatMap(\.keys))
            var views: [NameView] = []
            var start = 0
            for name in builder.names {
                let range = start..<(start + name.parts.count)
                views.append(
                    NameView(
                        parts: UnsafeBufferPointer(rebasing: nameParts[range]),
                        keys: UnsafeBufferPointer(rebasing: nameKeys[range])))
                start = range.upperBound
            }
            names = Self.copy(views)
            templateNames = builder.templateNames
            templateRanges = builder.templateRanges
            blockNames = builder.blockNames
            templateIndex = builder.templateIndex
        }

        deinit {
            let trivial = [
                UnsafeRawPointer(ops.baseAddress), UnsafeRawPointer(bytes.baseAddress),
                UnsafeRawPointer(indentations.baseAddress),
                UnsafeRawPointer(names.baseAddress),
                UnsafeRawPointer(nameKeys.baseAddress),
            ]
            for pointer in trivial {
                pointer.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
            }
            if let base = nameParts.baseAddress {
                UnsafeMutablePointer(mutating: base).deinitialize(count: nameParts.count)
                UnsafeMutablePointer(mutating: base).deallocate()
            }
        }

        /// A buffer of its own with `array`'s elements (one allocated even for none, so that
        /// `deinit` frees every buffer through its base address).
        private static func copy<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
            _ = buffer.initialize(from: array)
            return UnsafeBufferPointer(start: buffer.baseAddress, count: array.count)
        }

        /// The instructions of template `name`, nil when the set has none.
        func range(of name: String) -> Range<Int>? {
            templateIndex[name].flatMap { templateRanges[$0] }
        }

        /// The program as arrays while it is compiled.
        private struct Builder {
            var ops: [Op] = []
            var bytes: [UInt8] = []
            var indentations: [Range<Int>] = [0..<0]
            var names: [Name] = []
            var templateNames: [String] = []
            var templateRanges: [Range<Int>?] = []
            var blockNames: [String] = []
            var templateIndex: [String: Int] = [:]
            var blockIndex: [String: Int] = [:]

            mutating func index(ofTemplate name: String) -> Int {
                if let index = templateIndex[name] { return index }
                templateIndex[name] = templateNames.count
                templateNames.append(name)
                templateRanges.append(nil)
                return templateNames.count - 1
            }

            mutating func index(ofBlock name: String) -> Int {
                if let index = blockIndex[name] { return index }
                blockIndex[name] = blockNames.count
                blockNames.append(name)
                return blockNames.count - 1
            }

            mutating func bytes(_ text: [UInt8]) -> (start: Int, end: Int) {
                let start = bytes.count
                bytes.append(contentsOf: text)
                return (start, bytes.count)
            }

            /// The index of `indentation` in `indentations`: 0 for none.
            mutating func indentation(_ indentation: [UInt8]) -> Int {
                guard !indentation.isEmpty else { return 0 }
                let (start, end) = bytes(indentation)
                indentations.append(start..<end)
                return indentations.count - 1
            }

            mutating func name(_ name: Name) -> Int {
                names.append(name)
                return names.count - 1
            }

            mutating func append(_ nodes: [Node]) {
                for node in nodes {
                    switch node {
                    case .text(let text):
                        let (start, end) = bytes(text)
                        ops.append(.text(start: start, end: end))
                    case .variable(let variable, let isEscaped):
                        ops.append(.variable(name: name(variable), isEscaped: isEscaped))
                    case .section(let section, let children, let isInverted):
                        let nameIndex = name(section)
                        appendBody(children) { .section(name: nameIndex, length: $0, isInverted: isInverted) }
                    case .partial(let template, let indentation, _):
                        let target = index(ofTemplate: template)
                        ops.append(.partial(template: target, indentation: self.indentation(indentation)))
                    case .parent(let template, let blocks, let indentation, _):
                        let target = index(ofTemplate: template)
                        let indentation = self.indentation(indentation)
                        let header = ops.count
                        ops.append(.parent(template: target, length: 0, indentation: indentation))
                        for (block, children) in blocks.sorted(by: { $0.key < $1.key }) {
                            let blockIndex = index(ofBlock: block)
                            appendBody(children) { .override(block: blockIndex, length: $0) }
                        }
                        ops[header] = .parent(
                            template: target, length: ops.count - header - 1, indentation: indentation)
                    case .block(let block, let children, let indentation):
                        let blockIndex = index(ofBlock: block)
                        let indentation = self.indentation(indentation)
                        appendBody(children) { .block(block: blockIndex, length: $0, indentation: indentation) }
                    }
                }
            }

            /// A header instruction followed by `children`; `header` is given the body's length.
            mutating func appendBody(_ children: [Node], header: (Int) -> Op) {
                let position = ops.count
                ops.append(header(0))
                append(children)
                ops[position] = header(ops.count - position - 1)
            }
        }
    }
}
