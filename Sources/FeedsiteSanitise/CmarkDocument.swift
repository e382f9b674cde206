internal import CCmarkGFM
import FeedsiteShared
import Foundation

/// The only file that touches cmark-gfm: builds brand-new cmark nodes from a `ContentBlock` tree
/// and renders them, and reads Markdown into that tree.
///
/// Rendering always uses `CMARK_OPT_DEFAULT` (cmark's safe mode) and never creates raw-HTML or
/// custom nodes, so the only markup in the output is what cmark itself writes for the node types
/// we chose; every piece of feed text goes into a node literal, which cmark escapes.
///
/// Ownership: a node made with `cmark_node_new…` is owned by this code until
/// `cmark_node_append_child` succeeds, after which its parent frees it. Every creation therefore
/// goes through `append(_:to:)`, which frees the node itself when the append is refused.
enum CmarkDocument {
    /// The result of one render.
    struct Rendering: Sendable, Hashable {
        var html: String
        var plainText: String
    }

    /// Renders `blocks` (already sanitised and normalised) to HTML and to plain text.
    ///
    /// - Parameter finishingHTML: makes the string from cmark's UTF-8 output while it is still in
    ///   cmark's buffer (the sanitiser adds attributes on the way, instead of copying twice).
    static func render(
        _ blocks: [ContentBlock],
        finishingHTML: (UnsafeBufferPointer<UInt8>) -> String = { String(decoding: $0, as: UTF8.self) }
    ) -> Rendering {
        guard !blocks.isEmpty else { return Rendering(html: "", plainText: "") }
        let extensions = Extensions.shared
        return Rendering(
            html: renderHTML(blocks, extensions: extensions, finishing: finishingHTML), plainText: PlainText.of(blocks))
    }

    private static func renderHTML(
        _ blocks: [ContentBlock], extensions: Extensions?, finishing: (UnsafeBufferPointer<UInt8>) -> String
    ) -> String {
        guard let document = cmark_node_new(CMARK_NODE_DOCUMENT) else { return "" }
        defer { cmark_node_free(document) }
        let builder = NodeBuilder(extensions: extensions, isPlainText: false)
        builder.appendBlocks(blocks, to: document)

        let memory = cmark_get_default_mem_allocator()
        var list: UnsafeMutablePointer<cmark_llist>?
        if let extensions {
            list = cmark_llist_append(memory, list, UnsafeMutableRawPointer(extensions.table))
            list = cmark_llist_append(memory, list, UnsafeMutableRawPointer(extensions.strikethrough))
        }
        // The list cells are ours; the extensions they point to belong to cmark's registry.
        defer { cmark_llist_free(memory, list) }
        guard let rendered = cmark_render_html(document, CMARK_OPT_DEFAULT, list) else { return "" }
        defer { free(rendered) }
        return rendered.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            finishing(UnsafeBufferPointer(start: bytes, count: strlen(rendered)))
        }
    }

    // MARK: - Extensions

    /// The GFM table and strikethrough extensions and the node types they registered.
    ///
    /// The node types are C globals (`CMARK_NODE_TABLE`…) that Swift 6 refuses to read as shared
    /// mutable state, so they are discovered once from a tiny document parsed with the extensions
    /// attached: the types cmark gives those nodes are by definition the right ones.
    struct Extensions {
        let table: OpaquePointer
        let strikethrough: OpaquePointer
        let types: ExtensionNodeTypes

        /// Registering the core extensions is not thread-safe and must happen exactly once; a
        /// `static let` initialiser runs once, atomically.
        static var shared: Extensions? {
            guard let types = discoveredTypes,
                let table = cmark_find_syntax_extension("table"),
                let strikethrough = cmark_find_syntax_extension("strikethrough")
            else { return nil }
            return Extensions(table: table, strikethrough: strikethrough, types: types)
        }

        private static let discoveredTypes: ExtensionNodeTypes? = {
            cmark_gfm_core_extensions_ensure_registered()
            guard let table = cmark_find_syntax_extension("table"),
                let strikethrough = cmark_find_syntax_extension("strikethrough"),
                let parser = cmark_parser_new(CMARK_OPT_DEFAULT)
            else { return nil }
            defer { cmark_parser_free(parser) }
            cmark_parser_attach_syntax_extension(parser, table)
            cmark_parser_attach_syntax_extension(parser, strikethrough)
            let sample = "| a |\n| - |\n| b |\n\n~~c~~\n"
            cmark_parser_feed(parser, sample, sample.utf8.count)
            guard let document = cmark_parser_finish(parser) else { return nil }
            defer { cmark_node_free(document) }
            guard let tableNode = cmark_node_first_child(document),
                let row = cmark_node_first_child(tableNode),
                let cell = cmark_node_first_child(row),
                let paragraph = cmark_node_next(tableNode),
                let strike = cmark_node_first_child(paragraph),
                String(cString: cmark_node_get_type_string(tableNode)) == "table",
                String(cString: cmark_node_get_type_string(cell)) == "table_cell",
                String(cString: cmark_node_get_type_string(strike)) == "strikethrough"
            else { return nil }
            return ExtensionNodeTypes(
                table: cmark_node_get_type(tableNode).rawValue,
                row: cmark_node_get_type(row).rawValue,
                cell: cmark_node_get_type(cell).rawValue,
                strikethrough: cmark_node_get_type(strike).rawValue)
        }()
    }

    /// Raw values of the extension node types (plain integers, so the cache is `Sendable`).
    struct ExtensionNodeTypes: Sendable {
        let table: UInt32
        let row: UInt32
        let cell: UInt32
        let strikethrough: UInt32
    }

    // MARK: - Building nodes

    /// Appends new nodes for a `ContentBlock` tree. Recursion follows the tree, whose depth the
    /// sanitiser has already capped.
    struct NodeBuilder {
        let extensions: Extensions?
        /// Spell tables, strikethrough and images as paragraphs and plain inlines, for cmark's
        /// plain-text renderer (the reference `PlainTextTests` compares `PlainText` with).
        let isPlainText: Bool

        /// Creates a node, lets `configure` fill it, and hands it to `parent`. Returns false (and
        /// frees the node, whose ownership did not transfer) when cmark refuses the containment.
        ///
        /// - Parameter allocatesData: let the extension allocate its data for the node. cmark-gfm
        ///   0.29.0.gfm.6's table extension allocates some for every cell and never frees it (its
        ///   `opaque_free` skips cells: 24 bytes a cell, found by the sanitiser's fuzz target);
        ///   its HTML renderer never reads it, so cells are made without it and only then given
        ///   their extension.
        @discardableResult
        func append(
            _ type: cmark_node_type, syntaxExtension: OpaquePointer? = nil, allocatesData: Bool = true,
            to parent: OpaquePointer, configure: (OpaquePointer) -> Void = { _ in }
        ) -> Bool {
            let created: OpaquePointer?
            if let syntaxExtension, allocatesData {
                created = cmark_node_new_with_ext(type, syntaxExtension)
            } else {
                created = cmark_node_new(type)
                if let created, let syntaxExtension { cmark_node_set_syntax_extension(created, syntaxExtension) }
            }
            guard let node = created else { return false }
            configure(node)
            guard cmark_node_append_child(parent, node) != 0 else {
                cmark_node_free(node)
                return false
            }
            return true
        }

        func appendBlocks(_ blocks: [ContentBlock], to parent: OpaquePointer) {
            for block in blocks {
                appendBlock(block, to: parent)
            }
        }

        private func appendBlock(_ block: ContentBlock, to parent: OpaquePointer) {
            switch block {
            case .paragraph(let inlines):
                appendParagraph(inlines, to: parent)
            case .heading(let level, let inlines):
                append(CMARK_NODE_HEADING, to: parent) { node in
                    cmark_node_set_heading_level(node, Int32(level))
                    appendInlines(inlines, to: node)
                }
            case .blockQuote(let blocks):
                append(CMARK_NODE_BLOCK_QUOTE, to: parent) { appendBlocks(blocks, to: $0) }
            case .list(let list):
                append(CMARK_NODE_LIST, to: parent) { node in
                    cmark_node_set_list_type(node, list.isOrdered ? CMARK_ORDERED_LIST : CMARK_BULLET_LIST)
                    if list.isOrdered {
                        cmark_node_set_list_delim(node, CMARK_PERIOD_DELIM)
                        cmark_node_set_list_start(node, Int32(list.start))
                    }
                    cmark_node_set_list_tight(node, list.isTight ? 1 : 0)
                    for item in list.items {
                        append(CMARK_NODE_ITEM, to: node) { appendBlocks(item, to: $0) }
                    }
                }
            case .codeBlock(let language, let code):
                append(CMARK_NODE_CODE_BLOCK, to: parent) { node in
                    cmark_node_set_literal(node, Self.withoutNUL(code + "\n"))
                    if let language { cmark_node_set_fence_info(node, Self.withoutNUL(language)) }
                }
            case .thematicBreak:
                append(CMARK_NODE_THEMATIC_BREAK, to: parent)
            case .table(let table):
                appendTable(table, to: parent)
            }
        }

        /// Inlines in a paragraph; used wherever blocks hold text.
        private func appendParagraph(_ inlines: [ContentInline], to parent: OpaquePointer) {
            append(CMARK_NODE_PARAGRAPH, to: parent) { appendInlines(inlines, to: $0) }
        }

        private func appendTable(_ table: ContentTable, to parent: OpaquePointer) {
            let columns = min(table.columnCount, Int(UInt16.max))
            let rows = (table.header.map { [$0] } ?? []) + table.rows
            guard !isPlainText, let extensions, columns > 0 else {
                // Without the extension (or for plain text) each row becomes a paragraph.
                for row in rows {
                    appendParagraph(Array(row.filter { !$0.isEmpty }.joined(separator: [.text(" ")])), to: parent)
                }
                return
            }
            let types = extensions.types
            append(cmark_node_type(rawValue: types.table), syntaxExtension: extensions.table, to: parent) { node in
                // cmark-gfm's renderer reads exactly `columns` alignments and cells per row: both
                // must be set before rendering, or it reads past the end of its arrays.
                cmark_gfm_extensions_set_table_columns(node, UInt16(columns))
                var alignments: [UInt8] = (0..<columns).map { index in
                    switch index < table.alignments.count ? table.alignments[index] : .none {
                    case .none: 0
                    case .left: UInt8(ascii: "l")
                    case .center: UInt8(ascii: "c")
                    case .right: UInt8(ascii: "r")
                    }
                }
                cmark_gfm_extensions_set_table_alignments(node, UInt16(columns), &alignments)
                for (index, row) in rows.enumerated() {
                    let isHeader = index == 0 && table.header != nil
                    append(cmark_node_type(rawValue: types.row), syntaxExtension: extensions.table, to: node) {
                        rowNode in
                        cmark_gfm_extensions_set_table_row_is_header(rowNode, isHeader ? 1 : 0)
                        let padded =
                            Array(row.prefix(columns)) + Array(repeating: [], count: max(0, columns - row.count))
                        for cell in padded {
                            append(
                                cmark_node_type(rawValue: types.cell), syntaxExtension: extensions.table,
                                allocatesData: false, to: rowNode
                            ) {
                                appendInlines(cell, to: $0)
                            }
                        }
                    }
                }
            }
        }

        private func appendInlines(_ inlines: [ContentInline], to parent: OpaquePointer) {
            for inline in inlines {
                appendInline(inline, to: parent)
            }
        }

        private func appendInline(_ inline: ContentInline, to parent: OpaquePointer) {
            switch inline {
            case .text(let text):
                appendText(text, to: parent)
            case .code(let code):
                append(CMARK_NODE_CODE, to: parent) { cmark_node_set_literal($0, Self.withoutNUL(code)) }
            case .emphasis(let children):
                append(CMARK_NODE_EMPH, to: parent) { appendInlines(children, to: $0) }
            case .strong(let children):
                append(CMARK_NODE_STRONG, to: parent) { appendInlines(children, to: $0) }
            case .strikethrough(let children):
                guard !isPlainText, let extensions else {
                    appendInlines(children, to: parent)
                    return
                }
                append(
                    cmark_node_type(rawValue: extensions.types.strikethrough),
                    syntaxExtension: extensions.strikethrough,
                    to: parent
                ) { appendInlines(children, to: $0) }
            case .link(let destination, let title, let children):
                append(CMARK_NODE_LINK, to: parent) { node in
                    cmark_node_set_url(node, Self.withoutNUL(destination))
                    cmark_node_set_title(node, Self.withoutNUL(title))
                    appendInlines(children, to: node)
                }
            case .image(let source, let title, let alt):
                if isPlainText {
                    appendText(alt, to: parent)
                    return
                }
                append(CMARK_NODE_IMAGE, to: parent) { node in
                    cmark_node_set_url(node, Self.withoutNUL(source))
                    cmark_node_set_title(node, Self.withoutNUL(title))
                    // cmark renders an image's children as its `alt` text.
                    appendText(alt, to: node)
                }
            case .lineBreak:
                // Refused inside table cells; a space keeps the words apart there.
                if !append(CMARK_NODE_LINEBREAK, to: parent) {
                    appendText(" ", to: parent)
                }
            }
        }

        private func appendText(_ text: String, to parent: OpaquePointer) {
            guard !text.isEmpty else { return }
            append(CMARK_NODE_TEXT, to: parent) { cmark_node_set_literal($0, Self.withoutNUL(text)) }
        }

        /// `cmark_node_set_literal` takes a C string and would silently stop at a NUL.
        static func withoutNUL(_ text: String) -> String {
            // `contains` on the UTF-8 view walks it generically; `memchr` reads many bytes a step.
            let hasNUL =
                text.utf8.withContiguousStorageIfAvailable {
                    ByteScan.firstIndex(of: 0, in: $0, from: 0, to: $0.count) != nil
                } ?? text.utf8.contains(0)
            guard hasNUL else { return text }
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                scalars.append(scalar == "\u{0}" ? "\u{FFFD}" : scalar)
            }
            return String(scalars)
        }
    }
}
