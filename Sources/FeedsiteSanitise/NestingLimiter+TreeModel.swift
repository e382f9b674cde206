extension NestingLimiter {
    /// Gumbo 0.10's tree construction for a fragment in a `<div>`, reduced to what decides how deep
    /// its tree gets: the stack of open elements (each with a bound on its depth in the tree), the
    /// list of active formatting elements and the insertion mode. Each rule mirrors the one in
    /// gumbo's `parser.c` (including its quirks: no breaking out of foreign content in a fragment,
    /// one tag for all unknown names), so the depth it reports bounds the depth gumbo builds;
    /// `effectiveDepth` also counts the formatting elements gumbo would reconstruct, so it only
    /// grows through start tags, by at most `weight`.
    ///
    /// The stack is not the tree: gumbo removes elements from the middle of the stack (`</form>`,
    /// a second `<a>`) while their descendants stay where they are, and the adoption agency moves
    /// subtrees. So every entry carries `depth`, at least the tree depth of its element and of
    /// every element below it on the stack, and new elements go one below the current node's.
    struct TreeModel {
        enum Namespace: UInt8 {
            case html, svg, mathML
        }

        struct Entry {
            var tag: Tag
            var namespace: Namespace
            /// Listed in `formatting`.
            var isActiveFormatting = false
            /// SVG `foreignObject`/`desc`/`title`, MathML `annotation-xml` with an HTML encoding.
            var isHTMLIntegrationPoint = false
            var id: Int32
            /// At least the depth in the tree of this element and of every element below it on
            /// the stack (the root is 0).
            var depth: Int = 0
            /// Case-insensitive name hash (foreign end tags match by name).
            var nameHash: UInt64
            var attributesHash: UInt64
        }

        /// One entry of the list of active formatting elements (`id` is -1 for a marker).
        struct Formatting {
            var id: Int32
            var tag: Tag
            var attributesHash: UInt64
            var isOnStack: Bool

            var isMarker: Bool { id < 0 }
            static let marker = Formatting(id: -1, tag: .unknown, attributesHash: 0, isOnStack: false)
        }

        enum Mode {
            case body, table, tableBody, row, cell, caption, columnGroup, select, selectInTable, template
        }

        /// What a start tag's content is, for the tokenizer.
        enum ContentKind {
            case normal
            /// Text up to `</name`.
            case rawText([UInt8])
            /// Everything to the end of the input is text.
            case plainText
        }

        /// `stack[0]` is the fragment's root (`html`); the context `div` is not on the stack.
        private(set) var stack: [Entry]
        private(set) var formatting: [Formatting] = []
        private var mode: Mode = .body
        private var templateModes: [Mode] = []
        /// Listed formatting elements that are not open (gumbo reconstructs them before text).
        private(set) var offStack = 0
        /// Formatting elements reconstructed so far (each is a new element in gumbo's tree).
        private(set) var reconstructed = 0
        /// The form element pointer (an entry id), set while a `<form>` is open.
        private var formElement: Int32?
        private var nextID: Int32 = 1

        init() {
            stack = [Entry(tag: .html, namespace: .html, id: 0, nameHash: 0, attributesHash: 0)]
        }

        /// The deepest an element inserted now could sit: the current node's depth, plus the listed
        /// formatting elements that are not open (reconstructed before the next text).
        var effectiveDepth: Int { stack[stack.count - 1].depth + offStack }

        /// The depth of an element inserted under the current node.
        private var nextDepth: Int { stack[stack.count - 1].depth + 1 }

        var isCurrentNodeForeign: Bool { stack[stack.count - 1].namespace != .html }

        // MARK: - Dispatch

        /// Whether gumbo handles a start tag (or, with nil, character data) by the HTML rules
        /// rather than those for foreign content (`handle_token`).
        private func isHTMLContent(startTag token: TagToken?) -> Bool {
            let current = stack[stack.count - 1]
            switch current.namespace {
            case .html:
                return true
            case .mathML:
                if Self.isMathMLTextIntegrationPoint(current) {
                    guard let token else { return true }
                    if token.tag != .mglyph && token.tag != .malignmark { return true }
                }
                if current.tag == .annotationXML, token?.tag == .svg { return true }
            case .svg:
                break
            }
            return current.isHTMLIntegrationPoint
        }

        private static func isMathMLTextIntegrationPoint(_ entry: Entry) -> Bool {
            entry.namespace == .mathML
                && (entry.tag == .mi || entry.tag == .mo || entry.tag == .mn || entry.tag == .ms || entry.tag == .mtext)
        }

        /// The most a start tag can add to `effectiveDepth`: elements it inserts and leaves open,
        /// implied ones included (`<td>` in a table implies `tbody` and `tr`).
        func weight(of token: TagToken) -> Int {
            if !isHTMLContent(startTag: token) { return token.isSelfClosing ? 0 : 1 }
            // `<isindex>` builds a `form` holding a `label` holding an `input`, all closed at once.
            if token.tag == .isindex { return 2 }
            if token.tag.isVoid { return 0 }
            if token.tag == .td || token.tag == .th { return 3 }
            if token.tag == .tr { return 2 }
            if (token.tag == .svg || token.tag == .math) && token.isSelfClosing { return 0 }
            return 1
        }

        /// How the tokenizer reads what follows a start tag.
        func contentKind(of token: TagToken) -> ContentKind {
            guard isHTMLContent(startTag: token) else { return .normal }
            let tag = token.tag
            switch mode {
            case .select, .selectInTable:
                if tag == .script { return .rawText(Array(tag.name.utf8)) }
                if tag == .textarea, hasInSelectScope(.select) { return .rawText(Array(tag.name.utf8)) }
                return .normal
            case .columnGroup where stack[stack.count - 1].tag != .colgroup:
                // Ignored there.
                return .normal
            default:
                break
            }
            if tag == .plaintext { return .plainText }
            if tag == .script || tag == .style || tag == .title || tag == .noframes || tag == .textarea
                || tag == .xmp || tag == .iframe || tag == .noembed
            {
                return .rawText(Array(tag.name.utf8))
            }
            return .normal
        }

        mutating func startTag(_ token: TagToken) {
            if isHTMLContent(startTag: token) {
                htmlStartTag(token)
            } else {
                let namespace = stack[stack.count - 1].namespace
                insertForeign(token, namespace: namespace)
            }
        }

        /// Returns whether any element was closed.
        @discardableResult
        mutating func endTag(_ tag: Tag, nameHash: UInt64) -> Bool {
            let before = stack.count
            if stack[stack.count - 1].namespace == .html {
                htmlEndTag(tag)
            } else {
                foreignEndTag(tag, nameHash: nameHash)
            }
            return stack.count < before
        }

        /// The end tag of a raw-text element `tag` (the text insertion mode pops it).
        mutating func endOfRawText(_ tag: Tag) {
            if isCurrent(tag) { pop() }
        }

        mutating func text(hasNonWhitespace: Bool) {
            guard isHTMLContent(startTag: nil) else { return }
            switch mode {
            case .body, .cell, .caption, .template:
                reconstructFormatting()
            case .table, .tableBody, .row:
                if hasNonWhitespace { reconstructFormatting() }
            case .columnGroup:
                guard hasNonWhitespace, stack[stack.count - 1].tag == .colgroup else { return }
                pop()
                mode = .table
                reconstructFormatting()
            case .select, .selectInTable:
                break
            }
        }

        // MARK: - Start tags

        private mutating func htmlStartTag(_ token: TagToken) {
            let tag = token.tag
            switch mode {
            case .body:
                inBody(token)
            case .table:
                inTable(token)
            case .tableBody:
                if tag == .tr {
                    clearStack(toContext: [.tbody, .tfoot, .thead])
                    insert(token)
                    mode = .row
                } else if tag == .td || tag == .th {
                    clearStack(toContext: [.tbody, .tfoot, .thead])
                    insertImplied(.tr)
                    mode = .row
                    htmlStartTag(token)
                } else if tag == .caption || tag == .col || tag == .colgroup || Tag.tableSections.contains(tag) {
                    guard hasInTableScope(.tbody) || hasInTableScope(.thead) || hasInTableScope(.tfoot) else { return }
                    clearStack(toContext: [.tbody, .tfoot, .thead])
                    pop()
                    mode = .table
                    htmlStartTag(token)
                } else {
                    inTable(token)
                }
            case .row:
                if Tag.cells.contains(tag) {
                    clearStack(toContext: [.tr])
                    insert(token)
                    mode = .cell
                    formatting.append(.marker)
                } else if tag == .caption || tag == .col || tag == .colgroup || Tag.tableSections.contains(tag)
                    || tag == .tr
                {
                    guard hasInTableScope(.tr) else { return }
                    clearStack(toContext: [.tr])
                    pop()
                    mode = .tableBody
                    htmlStartTag(token)
                } else {
                    inTable(token)
                }
            case .cell:
                if Tag.tableStructure.contains(tag) {
                    guard hasInTableScope(.th) || hasInTableScope(.td) else { return }
                    closeCurrentCell()
                    htmlStartTag(token)
                } else {
                    inBody(token)
                }
            case .caption:
                if Tag.tableStructure.contains(tag) {
                    guard hasInTableScope(.caption) else { return }
                    popUntil(.caption)
                    clearFormattingToMarker()
                    mode = .table
                    htmlStartTag(token)
                } else {
                    inBody(token)
                }
            case .columnGroup:
                if tag == .html { return }
                if tag == .col { return }
                if tag == .template {
                    inHead(token)
                    return
                }
                guard stack[stack.count - 1].tag == .colgroup else { return }
                pop()
                mode = .table
                htmlStartTag(token)
            case .select, .selectInTable:
                inSelect(token)
            case .template:
                inTemplate(token)
            }
        }

        private mutating func inBody(_ token: TagToken) {
            let tag = token.tag
            if tag == .html || tag == .body || tag == .frameset { return }
            if Tag.headStarts.contains(tag) {
                inHead(token)
                return
            }
            if Tag.pClosingBlocks.contains(tag) {
                closeParagraphInButtonScope()
                insert(token)
            } else if Tag.headings.contains(tag) {
                closeParagraphInButtonScope()
                if Tag.headings.contains(stack[stack.count - 1].tag), stack[stack.count - 1].namespace == .html {
                    pop()
                }
                insert(token)
            } else if tag == .pre || tag == .listing {
                closeParagraphInButtonScope()
                insert(token)
            } else if tag == .form {
                if formElement != nil, !hasOpenElement(.template) { return }
                closeParagraphInButtonScope()
                insert(token)
                if !hasOpenElement(.template) { formElement = stack[stack.count - 1].id }
            } else if tag == .li || tag == .dd || tag == .dt {
                closeListItem(isListItem: tag == .li)
                closeParagraphInButtonScope()
                insert(token)
            } else if tag == .plaintext {
                closeParagraphInButtonScope()
                insert(token)
            } else if tag == .button {
                if hasInScope(.button) {
                    implicitlyClose(.button)
                    inBody(token)
                    return
                }
                reconstructFormatting()
                insert(token)
            } else if tag == .a {
                if lastFormattingIndex(of: .a) != nil {
                    adoptionAgency(.a)
                    if let remaining = lastFormattingIndex(of: .a) {
                        let id = formatting[remaining].id
                        removeFormatting(at: remaining)
                        if let position = stack.lastIndex(where: { $0.id == id }) { removeFromStack(at: position) }
                    }
                }
                reconstructFormatting()
                insert(token)
                addFormatting()
            } else if Tag.formatting.contains(tag) {
                reconstructFormatting()
                insert(token)
                addFormatting()
            } else if tag == .nobr {
                reconstructFormatting()
                if hasInScope(.nobr) {
                    adoptionAgency(.nobr)
                    reconstructFormatting()
                }
                insert(token)
                addFormatting()
            } else if tag == .applet || tag == .marquee || tag == .object {
                reconstructFormatting()
                insert(token)
                formatting.append(.marker)
            } else if tag == .table {
                closeParagraphInButtonScope()
                insert(token)
                mode = .table
            } else if tag == .hr {
                closeParagraphInButtonScope()
            } else if tag == .isindex {
                if formElement != nil, !hasOpenElement(.template) { return }
                closeParagraphInButtonScope()
            } else if tag.isVoid {
                // `param`, `source` and `track` do not reconstruct; the others do.
                if tag != .param && tag != .source && tag != .track { reconstructFormatting() }
            } else if tag == .textarea || tag == .iframe || tag == .noembed {
                insert(token)
            } else if tag == .xmp {
                closeParagraphInButtonScope()
                reconstructFormatting()
                insert(token)
            } else if tag == .select {
                reconstructFormatting()
                insert(token)
                switch mode {
                case .table, .caption, .tableBody, .row, .cell: mode = .selectInTable
                default: mode = .select
                }
            } else if tag == .option || tag == .optgroup {
                if isCurrent(.option) { pop() }
                reconstructFormatting()
                insert(token)
            } else if tag == .rb || tag == .rp || tag == .rt || tag == .rtc {
                if hasInScope(.ruby) { generateImpliedEndTags(except: tag == .rt || tag == .rp ? .rtc : nil) }
                insert(token)
            } else if tag == .math || tag == .svg {
                reconstructFormatting()
                insertForeign(token, namespace: tag == .math ? .mathML : .svg)
            } else if Tag.ignoredInBody.contains(tag) {
                return
            } else {
                reconstructFormatting()
                insert(token)
            }
        }

        private mutating func inHead(_ token: TagToken) {
            let tag = token.tag
            if tag == .template {
                insert(token)
                formatting.append(.marker)
                mode = .template
                templateModes.append(.template)
            } else if tag == .script || tag == .style || tag == .title || tag == .noframes {
                insert(token)
            }
            // `base`, `link`, `meta`…: inserted and popped at once.
        }

        private mutating func inTable(_ token: TagToken) {
            let tag = token.tag
            if tag == .caption {
                clearStack(toContext: [.table])
                formatting.append(.marker)
                insert(token)
                mode = .caption
            } else if tag == .colgroup {
                clearStack(toContext: [.table])
                insert(token)
                mode = .columnGroup
            } else if tag == .col {
                clearStack(toContext: [.table])
                insertImplied(.colgroup)
                mode = .columnGroup
            } else if Tag.tableSections.contains(tag) || tag == .td || tag == .th || tag == .tr {
                clearStack(toContext: [.table])
                mode = .tableBody
                if Tag.tableSections.contains(tag) {
                    insert(token)
                } else {
                    insertImplied(.tbody)
                    htmlStartTag(token)
                }
            } else if tag == .table {
                if closeTable() { htmlStartTag(token) }
            } else if tag == .style || tag == .script || tag == .template {
                inHead(token)
            } else if tag == .input {
                return
            } else if tag == .form {
                if formElement != nil || hasOpenElement(.template) { return }
                // Inserted and popped at once, yet it becomes the form element pointer.
                formElement = nextID
                nextID += 1
            } else {
                // Foster-parented by the "in body" rules: the stack changes as in body.
                inBody(token)
            }
        }

        private mutating func inSelect(_ token: TagToken) {
            let tag = token.tag
            if mode == .selectInTable, Tag.tableStructure.contains(tag) || tag == .table {
                popUntil(.select)
                resetInsertionMode()
                htmlStartTag(token)
                return
            }
            if tag == .option {
                if isCurrent(.option) { pop() }
                insert(token)
            } else if tag == .optgroup {
                if isCurrent(.option) { pop() }
                if isCurrent(.optgroup) { pop() }
                insert(token)
            } else if tag == .select {
                guard hasInSelectScope(.select) else { return }
                popUntil(.select)
                resetInsertionMode()
            } else if tag == .input || tag == .keygen || tag == .textarea {
                guard hasInSelectScope(.select) else { return }
                popUntil(.select)
                resetInsertionMode()
                htmlStartTag(token)
            } else if tag == .script || tag == .template {
                inHead(token)
            }
        }

        private mutating func inTemplate(_ token: TagToken) {
            let tag = token.tag
            if Tag.headStarts.contains(tag) {
                inHead(token)
                return
            }
            let next: Mode
            if tag == .caption || tag == .colgroup || Tag.tableSections.contains(tag) {
                next = .table
            } else if tag == .col {
                next = .columnGroup
            } else if tag == .tr {
                next = .tableBody
            } else if Tag.cells.contains(tag) {
                next = .row
            } else {
                next = .body
            }
            if !templateModes.isEmpty { templateModes.removeLast() }
            templateModes.append(next)
            mode = next
            htmlStartTag(token)
        }

        // MARK: - End tags

        private mutating func htmlEndTag(_ tag: Tag) {
            switch mode {
            case .body, .template:
                if mode == .template, tag != .template { return }
                inBodyEnd(tag)
            case .table:
                inTableEnd(tag)
            case .tableBody:
                if Tag.tableSections.contains(tag) {
                    guard hasInTableScope(tag) else { return }
                    clearStack(toContext: [.tbody, .tfoot, .thead])
                    pop()
                    mode = .table
                } else if tag == .table {
                    guard hasInTableScope(.tbody) || hasInTableScope(.thead) || hasInTableScope(.tfoot) else { return }
                    clearStack(toContext: [.tbody, .tfoot, .thead])
                    pop()
                    mode = .table
                    htmlEndTag(tag)
                } else if tag == .body || tag == .caption || tag == .col || tag == .colgroup || tag == .html
                    || tag == .td || tag == .th || tag == .tr
                {
                    return
                } else {
                    inTableEnd(tag)
                }
            case .row:
                if tag == .tr {
                    guard hasInTableScope(.tr) else { return }
                    clearStack(toContext: [.tr])
                    pop()
                    mode = .tableBody
                } else if tag == .table {
                    guard hasInTableScope(.tr) else { return }
                    clearStack(toContext: [.tr])
                    pop()
                    mode = .tableBody
                    htmlEndTag(tag)
                } else if Tag.tableSections.contains(tag) {
                    guard hasInTableScope(tag), hasInTableScope(.tr) else { return }
                    clearStack(toContext: [.tr])
                    pop()
                    mode = .tableBody
                    htmlEndTag(tag)
                } else if tag == .body || tag == .caption || tag == .col || tag == .colgroup || tag == .html
                    || tag == .td || tag == .th
                {
                    return
                } else {
                    inTableEnd(tag)
                }
            case .cell:
                if Tag.cells.contains(tag) {
                    guard hasInTableScope(tag) else { return }
                    closeCell(tag)
                } else if tag == .body || tag == .caption || tag == .col || tag == .colgroup || tag == .html {
                    return
                } else if tag == .table || Tag.tableSections.contains(tag) || tag == .tr {
                    guard hasInTableScope(tag) else { return }
                    closeCurrentCell()
                    htmlEndTag(tag)
                } else {
                    inBodyEnd(tag)
                }
            case .caption:
                if tag == .caption || tag == .table {
                    guard hasInTableScope(.caption) else { return }
                    if tag == .caption { generateImpliedEndTags(except: nil) }
                    popUntil(.caption)
                    clearFormattingToMarker()
                    mode = .table
                    if tag == .table { htmlEndTag(tag) }
                } else if tag == .body || tag == .col || tag == .colgroup || tag == .html
                    || Tag.tableSections.contains(tag) || Tag.cells.contains(tag) || tag == .tr
                {
                    return
                } else {
                    inBodyEnd(tag)
                }
            case .columnGroup:
                if tag == .colgroup {
                    guard isCurrent(.colgroup) else { return }
                    pop()
                    mode = .table
                } else if tag == .col {
                    return
                } else if tag == .template {
                    inBodyEnd(tag)
                } else {
                    guard isCurrent(.colgroup) else { return }
                    pop()
                    mode = .table
                    htmlEndTag(tag)
                }
            case .select, .selectInTable:
                if mode == .selectInTable, Tag.tableStructure.contains(tag) || tag == .table {
                    guard hasInTableScope(tag) else { return }
                    popUntil(.select)
                    resetInsertionMode()
                    htmlEndTag(tag)
                    return
                }
                if tag == .optgroup {
                    if isCurrent(.option), stack.count >= 2, stack[stack.count - 2].tag == .optgroup,
                        stack[stack.count - 2].namespace == .html
                    {
                        pop()
                    }
                    if isCurrent(.optgroup) { pop() }
                } else if tag == .option {
                    if isCurrent(.option) { pop() }
                } else if tag == .select {
                    guard hasInSelectScope(.select) else { return }
                    popUntil(.select)
                    resetInsertionMode()
                } else if tag == .template {
                    inBodyEnd(tag)
                }
            }
        }

        private mutating func inTableEnd(_ tag: Tag) {
            if tag == .table {
                _ = closeTable()
            } else if tag == .body || tag == .caption || tag == .col || tag == .colgroup || tag == .html
                || Tag.tableSections.contains(tag) || Tag.cells.contains(tag) || tag == .tr
            {
                return
            } else {
                inBodyEnd(tag)
            }
        }

        private mutating func inBodyEnd(_ tag: Tag) {
            if tag == .template {
                guard hasOpenElement(.template) else { return }
                generateImpliedEndTagsThoroughly()
                popUntil(.template)
                clearFormattingToMarker()
                if !templateModes.isEmpty { templateModes.removeLast() }
                resetInsertionMode()
            } else if tag == .body || tag == .html {
                // No `body` in a fragment's stack: ignored.
                return
            } else if Tag.scopedBlockEnds.contains(tag) {
                guard hasInScope(tag) else { return }
                implicitlyClose(tag)
            } else if tag == .form {
                if hasOpenElement(.template) {
                    guard hasInScope(.form) else { return }
                    generateImpliedEndTags(except: nil)
                    guard isCurrent(.form) else { return }
                    popUntil(.form)
                } else {
                    let node = formElement
                    formElement = nil
                    guard let node, hasNodeInScope(node) else { return }
                    generateImpliedEndTags(except: nil)
                    if let index = stack.lastIndex(where: { $0.id == node }) { removeFromStack(at: index) }
                }
            } else if tag == .p {
                if hasInButtonScope(.p) { implicitlyClose(.p) }
                // Otherwise an empty `p` is inserted and closed at once.
            } else if tag == .li {
                guard hasInScope(.li, extraBoundaries: [.html: [Tag.ol, Tag.ul]]) else { return }
                implicitlyClose(.li)
            } else if tag == .dd || tag == .dt {
                guard hasInScope(tag) else { return }
                implicitlyClose(tag)
            } else if Tag.headings.contains(tag) {
                guard indexInScope(where: { Tag.headings.contains($0.tag) && $0.namespace == .html }) != nil
                else { return }
                generateImpliedEndTags(except: nil)
                while stack.count > 1 {
                    let popped = stack[stack.count - 1]
                    pop()
                    if Tag.headings.contains(popped.tag), popped.namespace == .html { break }
                }
            } else if Tag.adoptionAgencySubjects.contains(tag) {
                adoptionAgency(tag)
            } else if tag == .applet || tag == .marquee || tag == .object {
                guard hasInTableScope(tag) else { return }
                implicitlyClose(tag)
                clearFormattingToMarker()
            } else if tag == .br {
                reconstructFormatting()
            } else {
                // "Any other end tag".
                for index in stride(from: stack.count - 1, through: 1, by: -1) {
                    let node = stack[index]
                    if node.namespace == .html, node.tag == tag {
                        generateImpliedEndTags(except: tag)
                        while stack.count > index { pop() }
                        return
                    }
                    if Self.isSpecial(node) { return }
                }
            }
        }

        /// An end tag while the current node is foreign: closes the nearest foreign element of
        /// that name, unless an HTML element comes first, which hands the tag to the HTML rules.
        private mutating func foreignEndTag(_ tag: Tag, nameHash: UInt64) {
            var index = stack.count - 1
            var node = stack[index]
            while index > 0 {
                if node.nameHash == nameHash {
                    while stack.count > index { pop() }
                    return
                }
                index -= 1
                node = stack[index]
                if node.namespace == .html { break }
            }
            htmlEndTag(tag)
        }

        // MARK: - Stack operations

        private mutating func insert(_ token: TagToken) {
            stack.append(
                Entry(
                    tag: token.tag, namespace: .html, id: nextID, depth: nextDepth, nameHash: token.nameHash,
                    attributesHash: token.attributesHash))
            nextID += 1
        }

        private mutating func insertImplied(_ tag: Tag) {
            stack.append(
                Entry(
                    tag: tag, namespace: .html, id: nextID, depth: nextDepth,
                    nameHash: NestingLimiter.hash(lowercasing: tag.name), attributesHash: 0))
            nextID += 1
        }

        private mutating func insertForeign(_ token: TagToken, namespace: Namespace) {
            var entry = Entry(
                tag: token.tag, namespace: namespace, id: nextID, depth: nextDepth, nameHash: token.nameHash,
                attributesHash: 0)
            nextID += 1
            switch namespace {
            case .svg:
                entry.isHTMLIntegrationPoint =
                    token.tag == .foreignObject || token.tag == .desc || token.tag == .title
            case .mathML:
                entry.isHTMLIntegrationPoint = token.tag == .annotationXML && token.hasSignificantAttribute
            case .html:
                break
            }
            if token.isSelfClosing { return }
            stack.append(entry)
        }

        private mutating func pop() {
            guard stack.count > 1 else { return }
            let entry = stack.removeLast()
            if entry.isActiveFormatting { markOffStack(entry.id) }
        }

        private mutating func removeFromStack(at index: Int) {
            guard index > 0 else { return }
            let entry = stack.remove(at: index)
            if entry.isActiveFormatting { markOffStack(entry.id) }
        }

        private mutating func markOffStack(_ id: Int32) {
            if let index = formatting.lastIndex(where: { $0.id == id }) {
                formatting[index].isOnStack = false
                offStack += 1
            }
        }

        private func isCurrent(_ tag: Tag) -> Bool {
            let current = stack[stack.count - 1]
            return current.tag == tag && current.namespace == .html
        }

        private mutating func popUntil(_ tag: Tag) {
            while stack.count > 1 {
                let isTarget = isCurrent(tag)
                pop()
                if isTarget { return }
            }
        }

        /// `implicitly_close_tags`: implied end tags (but not `tag`'s), then up to `tag`.
        private mutating func implicitlyClose(_ tag: Tag) {
            generateImpliedEndTags(except: tag)
            popUntil(tag)
        }

        private mutating func generateImpliedEndTags(except tag: Tag?) {
            while stack.count > 1 {
                let current = stack[stack.count - 1]
                guard current.namespace == .html, Tag.impliedEnds.contains(current.tag), current.tag != tag else {
                    return
                }
                pop()
            }
        }

        private mutating func generateImpliedEndTagsThoroughly() {
            while stack.count > 1 {
                let current = stack[stack.count - 1]
                guard current.namespace == .html, Tag.thoroughlyImpliedEnds.contains(current.tag) else { return }
                pop()
            }
        }

        private mutating func closeParagraphInButtonScope() {
            if hasInButtonScope(.p) { implicitlyClose(.p) }
        }

        /// `<li>` closes an open `li`, `<dd>`/`<dt>` an open `dd` or `dt`, unless a special element
        /// other than `address`, `div` and `p` comes first.
        private mutating func closeListItem(isListItem: Bool) {
            for index in stride(from: stack.count - 1, through: 0, by: -1) {
                let node = stack[index]
                let matches =
                    node.namespace == .html && (isListItem ? node.tag == .li : (node.tag == .dd || node.tag == .dt))
                if matches {
                    implicitlyClose(node.tag)
                    return
                }
                if Self.isSpecial(node),
                    !(node.namespace == .html && (node.tag == .address || node.tag == .div || node.tag == .p))
                {
                    return
                }
            }
        }

        private mutating func clearStack(toContext tags: [Tag]) {
            while stack.count > 1 {
                let current = stack[stack.count - 1]
                if current.namespace == .html, current.tag == .template || tags.contains(current.tag) { return }
                pop()
            }
        }

        private mutating func closeTable() -> Bool {
            guard hasInTableScope(.table) else { return false }
            popUntil(.table)
            resetInsertionMode()
            return true
        }

        private mutating func closeCell(_ tag: Tag) {
            generateImpliedEndTags(except: nil)
            popUntil(tag)
            clearFormattingToMarker()
            mode = .row
        }

        private mutating func closeCurrentCell() {
            closeCell(hasInTableScope(.td) ? .td : .th)
        }

        /// `reset_insertion_mode_appropriately` (gumbo 0.10 switches on the tag whatever its namespace).
        private mutating func resetInsertionMode() {
            for index in stride(from: stack.count - 1, through: 0, by: -1) {
                let isLast = index == 0
                // The root stands for the context element, a `div`.
                let tag = isLast ? Tag.div : stack[index].tag
                switch tag {
                case .select:
                    for ancestor in stride(from: index, to: 0, by: -1) {
                        if stack[ancestor].tag == .template, stack[ancestor].namespace == .html {
                            mode = .select
                            return
                        }
                        if stack[ancestor].tag == .table, stack[ancestor].namespace == .html {
                            mode = .selectInTable
                            return
                        }
                    }
                    mode = .select
                    return
                case .td, .th:
                    mode = .cell
                    return
                case .tr:
                    mode = .row
                    return
                case .tbody, .thead, .tfoot:
                    mode = .tableBody
                    return
                case .caption:
                    mode = .caption
                    return
                case .colgroup:
                    mode = .columnGroup
                    return
                case .table:
                    mode = .table
                    return
                case .template:
                    mode = templateModes.last ?? .body
                    return
                case .body:
                    mode = .body
                    return
                default:
                    if isLast {
                        mode = .body
                        return
                    }
                }
            }
            mode = .body
        }

        // MARK: - Scopes

        private static func isSpecial(_ entry: Entry) -> Bool {
            switch entry.namespace {
            case .html: Tag.specialHTML.contains(entry.tag)
            case .mathML: Tag.specialMathML.contains(entry.tag)
            case .svg: Tag.specialSVG.contains(entry.tag)
            }
        }

        private static func isScopeBoundary(_ entry: Entry) -> Bool {
            switch entry.namespace {
            case .html: Tag.scopeHTML.contains(entry.tag)
            case .mathML: Tag.scopeMathML.contains(entry.tag)
            case .svg: Tag.scopeSVG.contains(entry.tag)
            }
        }

        /// The index of the nearest open element matching `predicate` before a scope boundary.
        private func indexInScope(
            extraBoundaries: [Namespace: [Tag]] = [:], where predicate: (Entry) -> Bool
        ) -> Int? {
            for index in stride(from: stack.count - 1, through: 0, by: -1) {
                let node = stack[index]
                if predicate(node) { return index }
                if Self.isScopeBoundary(node) || extraBoundaries[node.namespace]?.contains(node.tag) == true {
                    return nil
                }
            }
            return nil
        }

        private func hasInScope(_ tag: Tag, extraBoundaries: [Namespace: [Tag]] = [:]) -> Bool {
            indexInScope(extraBoundaries: extraBoundaries) { $0.tag == tag && $0.namespace == .html } != nil
        }

        private func hasInButtonScope(_ tag: Tag) -> Bool {
            hasInScope(tag, extraBoundaries: [.html: [Tag.button]])
        }

        private func hasInTableScope(_ tag: Tag) -> Bool {
            for index in stride(from: stack.count - 1, through: 0, by: -1) {
                let node = stack[index]
                if node.tag == tag, node.namespace == .html { return true }
                if node.namespace == .html, node.tag == .html || node.tag == .table || node.tag == .template {
                    return false
                }
            }
            return false
        }

        /// Every element but `optgroup` and `option` bounds the select scope.
        private func hasInSelectScope(_ tag: Tag) -> Bool {
            for index in stride(from: stack.count - 1, through: 0, by: -1) {
                let node = stack[index]
                if node.tag == tag, node.namespace == .html { return true }
                if !(node.namespace == .html && (node.tag == .optgroup || node.tag == .option)) { return false }
            }
            return false
        }

        private func hasOpenElement(_ tag: Tag) -> Bool {
            stack.contains { $0.tag == tag && $0.namespace == .html }
        }

        private func hasNodeInScope(_ id: Int32) -> Bool {
            for index in stride(from: stack.count - 1, through: 0, by: -1) {
                let node = stack[index]
                if node.id == id { return true }
                if Self.isScopeBoundary(node) { return false }
            }
            return false
        }

        // MARK: - Active formatting elements

        private func lastFormattingIndex(of tag: Tag) -> Int? {
            for index in stride(from: formatting.count - 1, through: 0, by: -1) {
                if formatting[index].isMarker { return nil }
                if formatting[index].tag == tag { return index }
            }
            return nil
        }

        /// Lists the current node, first removing the earliest of three identical entries (Noah's Ark).
        private mutating func addFormatting() {
            let current = stack[stack.count - 1]
            var identical = 0
            var earliest = formatting.count
            for index in stride(from: formatting.count - 1, through: 0, by: -1) {
                let entry = formatting[index]
                if entry.isMarker { break }
                if entry.tag == current.tag, entry.attributesHash == current.attributesHash {
                    identical += 1
                    earliest = index
                }
            }
            if identical >= 3 { removeFormatting(at: earliest) }
            formatting.append(
                Formatting(id: current.id, tag: current.tag, attributesHash: current.attributesHash, isOnStack: true))
            stack[stack.count - 1].isActiveFormatting = true
        }

        private mutating func removeFormatting(at index: Int) {
            let entry = formatting.remove(at: index)
            if entry.isMarker { return }
            if entry.isOnStack {
                if let position = stack.lastIndex(where: { $0.id == entry.id }) {
                    stack[position].isActiveFormatting = false
                }
            } else {
                offStack -= 1
            }
        }

        private mutating func clearFormattingToMarker() {
            while let last = formatting.last {
                removeFormatting(at: formatting.count - 1)
                if last.isMarker { return }
            }
        }

        /// Reopens listed formatting elements that were closed, from the first one after the last
        /// marker or open entry.
        private mutating func reconstructFormatting() {
            guard let last = formatting.last, !last.isMarker, !last.isOnStack else { return }
            var index = formatting.count - 1
            while index > 0, !formatting[index - 1].isMarker, !formatting[index - 1].isOnStack {
                index -= 1
            }
            for position in index..<formatting.count {
                let entry = formatting[position]
                stack.append(
                    Entry(
                        tag: entry.tag, namespace: .html, isActiveFormatting: true, id: nextID, depth: nextDepth,
                        nameHash: NestingLimiter.hash(lowercasing: entry.tag.name), attributesHash: entry.attributesHash
                    ))
                formatting[position].id = nextID
                formatting[position].isOnStack = true
                nextID += 1
                offStack -= 1
                reconstructed += 1
            }
        }

        /// The adoption agency algorithm as gumbo 0.10 runs it, on the stack and the list only.
        private mutating func adoptionAgency(_ subject: Tag) {
            let current = stack[stack.count - 1]
            if current.namespace == .html, current.tag == subject, !current.isActiveFormatting {
                pop()
                return
            }
            for _ in 0..<8 {
                guard let listIndex = lastFormattingIndex(of: subject) else { return }
                let formattingElement = formatting[listIndex]
                guard formattingElement.isOnStack,
                    let stackIndex = stack.lastIndex(where: { $0.id == formattingElement.id })
                else {
                    removeFormatting(at: listIndex)
                    return
                }
                guard hasInScope(formattingElement.tag) else { return }
                guard let furthestIndex = stack[(stackIndex + 1)...].firstIndex(where: Self.isSpecial) else {
                    while stack.count > stackIndex { pop() }
                    if let remaining = formatting.lastIndex(where: { $0.id == formattingElement.id }) {
                        removeFormatting(at: remaining)
                    }
                    return
                }
                let furthestID = stack[furthestIndex].id
                let furthestOldDepth = stack[furthestIndex].depth
                /// Entries cloned into the chain that will hold the furthest block.
                var chain: Set<Int32> = []
                var bookmark = listIndex + 1
                var nodeID = furthestID
                var lastNodeIsFurthest = true
                var savedIndex = furthestIndex
                var counter = 0
                while true {
                    counter += 1
                    var nodeIndex = stack.lastIndex(where: { $0.id == nodeID }) ?? savedIndex
                    nodeIndex -= 1
                    savedIndex = nodeIndex
                    guard nodeIndex > 0 else { break }
                    let node = stack[nodeIndex]
                    nodeID = node.id
                    if node.id == formattingElement.id { break }
                    let nodeListIndex =
                        node.isActiveFormatting ? formatting.lastIndex(where: { $0.id == node.id }) : nil
                    if counter > 3, let nodeListIndex {
                        removeFormatting(at: nodeListIndex)
                        if nodeListIndex < bookmark { bookmark -= 1 }
                        continue
                    }
                    guard let nodeListIndex else {
                        removeFromStack(at: nodeIndex)
                        continue
                    }
                    // Cloned in place, in the list and on the stack.
                    let clone = nextID
                    nextID += 1
                    formatting[nodeListIndex].id = clone
                    stack[nodeIndex].id = clone
                    chain.insert(clone)
                    nodeID = clone
                    if lastNodeIsFurthest { bookmark = nodeListIndex + 1 }
                    lastNodeIsFurthest = false
                }
                // Depths: the furthest block now hangs from the common ancestor through the chain
                // of clones (elements the loop left on the stack keep theirs), and its children
                // from the formatting element's clone below it.
                if let formattingIndex = stack.lastIndex(where: { $0.id == formattingElement.id }),
                    let furthest = stack.lastIndex(where: { $0.id == furthestID })
                {
                    var running = stack[formattingIndex - 1].depth
                    for index in (formattingIndex + 1)..<furthest {
                        let depth = chain.contains(stack[index].id) ? running + 1 : stack[index].depth
                        running = max(running, depth)
                        stack[index].depth = running
                    }
                    stack[furthest].depth = running + 1
                    let shift = stack[furthest].depth + 1 - furthestOldDepth
                    if shift > 0 {
                        for index in (furthest + 1)..<stack.count { stack[index].depth += shift }
                    }
                }
                // The formatting element's clone goes into the list at the bookmark and onto the
                // stack just above the furthest block; the element itself leaves both.
                let clone = Entry(
                    tag: formattingElement.tag, namespace: .html, isActiveFormatting: true, id: nextID,
                    depth: (stack.last(where: { $0.id == furthestID })?.depth ?? nextDepth) + 1,
                    nameHash: NestingLimiter.hash(lowercasing: formattingElement.tag.name),
                    attributesHash: formattingElement.attributesHash)
                nextID += 1
                if let oldListIndex = formatting.lastIndex(where: { $0.id == formattingElement.id }) {
                    if oldListIndex < bookmark { bookmark -= 1 }
                    formatting.remove(at: oldListIndex)
                }
                bookmark = min(max(bookmark, 0), formatting.count)
                formatting.insert(
                    Formatting(
                        id: clone.id, tag: clone.tag, attributesHash: clone.attributesHash, isOnStack: true),
                    at: bookmark)
                if let oldStackIndex = stack.lastIndex(where: { $0.id == formattingElement.id }) {
                    stack.remove(at: oldStackIndex)
                }
                if let furthest = stack.lastIndex(where: { $0.id == furthestID }) {
                    stack.insert(clone, at: furthest + 1)
                } else {
                    stack.append(clone)
                }
            }
        }
    }
}
