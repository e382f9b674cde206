import Foundation

/// Turns a parsed HTML fragment into the closed `ContentBlock` world, element by element from an
/// allowlist. Anything not named here is either unwrapped (its children kept) or dropped with its
/// content; no tag name or attribute is ever copied.
///
/// Inline and block content are gathered as a flat stream of `Flow` items first, because feeds mix
/// them freely (`<a><div>…</div></a>`, text directly inside `<div>` next to `<p>`): the stream is
/// then cut into paragraphs wherever a block or a block boundary occurs, so nothing is lost and no
/// block ends up inside an inline.
struct ContentBuilder {
    /// Base for relative URLs (the item's link or `xml:base`), looked at once for all its URLs.
    let base: URLPolicy.Base

    init(baseURL: URL?) {
        base = URLPolicy.Base(baseURL)
    }

    /// Elements dropped together with everything inside them: they execute, embed foreign
    /// documents, collect input, or are document metadata rather than content.
    static let droppedElements: Set<String> = [
        "script", "style", "template", "iframe", "frame", "frameset", "object", "embed", "applet",
        "form", "input", "button", "select", "textarea", "option", "optgroup", "datalist", "output",
        "svg", "math", "canvas", "noembed", "noframes", "xmp", "plaintext", "meta", "link", "base",
        "title", "head", "audio", "video", "source", "track", "param", "dialog", "portal",
        "area", "map", "slot", "menu", "keygen", "progress", "meter", "col", "colgroup",
    ]

    /// Block-level containers whose children are kept but which end the current paragraph.
    private static let blockContainers: Set<String> = [
        "p", "div", "section", "article", "aside", "header", "footer", "main", "nav", "figure",
        "figcaption", "address", "details", "summary", "center", "dl", "dt", "dd", "hgroup", "li",
        "caption", "fieldset", "legend", "body", "html", "listing", "search", "tr", "td", "th",
        "thead", "tbody", "tfoot",
    ]

    /// One piece of content in document order before it is cut into paragraphs.
    enum Flow: Sendable, Hashable {
        case inline(ContentInline)
        case block(ContentBlock)
        /// The end or start of a block container: the current paragraph ends here.
        case boundary
    }

    /// The blocks for a whole fragment.
    func blocks(from nodes: [HTMLNode]) -> [ContentBlock] {
        Self.paragraphs(from: flow(nodes, insideLink: false))
    }

    /// Cuts a flow into blocks: consecutive inlines become one paragraph.
    static func paragraphs(from flow: [Flow]) -> [ContentBlock] {
        var blocks: [ContentBlock] = []
        forEachRun(in: flow) { inlines in
            blocks.append(.paragraph(inlines))
        } other: { item in
            if case .block(let block) = item { blocks.append(block) }
        }
        return blocks
    }

    /// Walks a flow as runs of consecutive inlines (`run`, once per run, never empty) and the
    /// blocks and boundaries between them (`other`, once each), in order.
    static func forEachRun(in flow: [Flow], run: ([ContentInline]) -> Void, other: (Flow) -> Void) {
        var inlines: [ContentInline] = []
        for item in flow {
            if case .inline(let inline) = item {
                inlines.append(inline)
                continue
            }
            if !inlines.isEmpty {
                run(inlines)
                inlines = []
            }
            other(item)
        }
        if !inlines.isEmpty { run(inlines) }
    }

    // MARK: - The allowlist walk

    func flow(_ nodes: [HTMLNode], insideLink: Bool) -> [Flow] {
        var result: [Flow] = []
        // Usually one entry per node; growing from empty reallocated several times per element.
        result.reserveCapacity(nodes.count + 2)
        appendFlow(nodes, insideLink: insideLink, to: &result)
        return result
    }

    /// What the walk does with an element, by name.
    private enum Role {
        /// Dropped with its content.
        case dropped
        /// Kept for its children, which it separates from what is around it (`p`, `div`, `li`…).
        case blockContainer
        case heading(level: Int)
        case blockQuote
        case list
        case pre
        case thematicBreak
        case table
        case lineBreak
        case image
        case code
        case emphasis
        case strong
        case strikethrough
        case link
        /// A player (`iframe`, `embed`, `object`, `video`, `audio`): a link to the media, else dropped.
        case embed
    }

    /// Every element name with a role of its own, looked up once per element (a `Set` per
    /// question and a `switch` over strings cost several hashes and comparisons each). Names not
    /// here are unwrapped: only their children count.
    private static let roles = [String: Role](elementNames: [
        .dropped: Array(droppedElements), .blockContainer: Array(blockContainers),
        .heading(level: 1): ["h1"], .heading(level: 2): ["h2"], .heading(level: 3): ["h3"],
        .heading(level: 4): ["h4"], .heading(level: 5): ["h5"], .heading(level: 6): ["h6"],
        .blockQuote: ["blockquote"], .list: ["ul", "ol"], .pre: ["pre"], .thematicBreak: ["hr"], .table: ["table"],
        .lineBreak: ["br"], .image: ["img", "image"], .code: ["code", "kbd", "samp", "tt"],
        .emphasis: ["em", "i", "cite", "dfn", "var"], .strong: ["strong", "b"], .strikethrough: ["del", "s", "strike"],
        .link: ["a"], .embed: ["iframe", "embed", "object", "video", "audio"],
    ])

    /// Appends in place: transparent containers nest deeply, and returning arrays would copy
    /// everything below each level once per level.
    private func appendFlow(_ nodes: [HTMLNode], insideLink: Bool, to result: inout [Flow]) {
        for node in nodes {
            switch node {
            case .text(let text):
                result.append(.inline(.text(text)))
            case .element(let element):
                appendFlow(element, insideLink: insideLink, to: &result)
            }
        }
    }

    private func appendFlow(_ element: HTMLElement, insideLink: Bool, to result: inout [Flow]) {
        guard element.isHTML else { return }
        guard let role = Self.roles[element.name] else {
            appendFlow(element.children, insideLink: insideLink, to: &result)
            return
        }
        switch role {
        case .dropped:
            return
        case .blockContainer:
            result.append(.boundary)
            appendFlow(element.children, insideLink: insideLink, to: &result)
            result.append(.boundary)
        case .heading(let level):
            let content = flow(element.children, insideLink: insideLink)
            result.append(.boundary)
            Self.lift(content, into: &result) { .heading(level: level, $0) }
            result.append(.boundary)
        case .blockQuote:
            result.append(.block(.blockQuote(Self.paragraphs(from: flow(element.children, insideLink: insideLink)))))
        case .list:
            result.append(.block(list(element, insideLink: insideLink)))
        case .pre:
            result.append(.block(codeBlock(element)))
        case .thematicBreak:
            result.append(.block(.thematicBreak))
        case .table:
            result += table(element, insideLink: insideLink)
        case .lineBreak:
            result.append(.inline(.lineBreak))
        case .image:
            if let image = image(element) { result.append(.inline(image)) }
        case .code:
            result.append(.inline(.code(Self.textContent(of: element.children))))
        case .emphasis:
            wrap(element, insideLink: insideLink, into: &result) { .emphasis($0) }
        case .strong:
            wrap(element, insideLink: insideLink, into: &result) { .strong($0) }
        case .strikethrough:
            wrap(element, insideLink: insideLink, into: &result) { .strikethrough($0) }
        case .link:
            // Nested links are invalid HTML and ambiguous to click: the inner one is unwrapped.
            guard !insideLink, let href = element[attribute: "href"],
                let destination = URLPolicy.resolve(href, against: base, for: .link)
            else {
                appendFlow(element.children, insideLink: insideLink, to: &result)
                return
            }
            let title = element[attribute: "title"] ?? ""
            wrap(element, insideLink: true, into: &result) { .link(destination: destination, title: title, $0) }
        case .embed:
            if let embed = embedLink(element) {
                result += [.boundary, .block(.paragraph([embed])), .boundary]
            }
        }
    }

    /// Wraps each run of inlines in `make`; blocks inside (`<b><p>…</p></b>`) keep their place,
    /// with their own text wrapped too so the formatting is not silently lost.
    private func wrap(
        _ element: HTMLElement, insideLink: Bool, into result: inout [Flow],
        _ make: @escaping ([ContentInline]) -> ContentInline
    ) {
        Self.forEachRun(in: flow(element.children, insideLink: insideLink)) { run in
            result.append(.inline(make(run)))
        } other: { item in
            if case .block(let block) = item {
                result.append(.block(Self.wrapInlines(of: block, make)))
            } else {
                result.append(item)
            }
        }
    }

    /// Pushes an inline wrapper down into every run of text inside a block (`<a href><p>…</p></a>`,
    /// `<b><ul>…</ul></b>`): paragraphs, headings, the blocks of quotes and list items, and table
    /// cells. Code blocks and rules have no inlines and are left as they are.
    private static func wrapInlines(
        of block: ContentBlock, _ make: @escaping ([ContentInline]) -> ContentInline
    ) -> ContentBlock {
        switch block {
        case .paragraph(let inlines):
            return .paragraph([make(inlines)])
        case .heading(let level, let inlines):
            return .heading(level: level, [make(inlines)])
        case .blockQuote(let blocks):
            return .blockQuote(blocks.map { wrapInlines(of: $0, make) })
        case .list(var list):
            list.items = list.items.map { item in item.map { wrapInlines(of: $0, make) } }
            return .list(list)
        case .table(var table):
            let cell = { (inlines: [ContentInline]) in inlines.isEmpty ? inlines : [make(inlines)] }
            table.header = table.header.map { $0.map(cell) }
            table.rows = table.rows.map { $0.map(cell) }
            return .table(table)
        case .codeBlock, .thematicBreak:
            return block
        }
    }

    /// Turns runs of inlines into blocks made by `make` (headings), passing blocks through.
    private static func lift(
        _ content: [Flow], into result: inout [Flow], _ make: ([ContentInline]) -> ContentBlock
    ) {
        var run: [ContentInline] = []
        for item in content {
            switch item {
            case .inline(let inline):
                run.append(inline)
            case .block, .boundary:
                if !run.isEmpty {
                    result.append(.block(make(run)))
                    run = []
                }
                if case .block = item { result.append(item) }
            }
        }
        if !run.isEmpty { result.append(.block(make(run))) }
    }

    // MARK: - Lists

    private func list(_ element: HTMLElement, insideLink: Bool) -> ContentBlock {
        var items: [[ContentBlock]] = []
        var hasExplicitParagraph = false
        for child in element.children {
            if case .element(let item) = child, item.isHTML, item.name == "li" {
                hasExplicitParagraph =
                    hasExplicitParagraph
                    || item.children.contains {
                        if case .element(let inner) = $0 { return inner.name == "p" }
                        return false
                    }
                items.append(Self.paragraphs(from: flow(item.children, insideLink: insideLink)))
            } else {
                // Whitespace between items is formatting, not content.
                if case .text(let text) = child, text.unicodeScalars.allSatisfy(ContentNormaliser.isWhitespace) {
                    continue
                }
                // Stray content between items belongs to the item before it (or starts one).
                let blocks = Self.paragraphs(from: flow([child], insideLink: insideLink))
                guard !blocks.isEmpty else { continue }
                if items.isEmpty {
                    items.append(blocks)
                } else {
                    items[items.count - 1] += blocks
                }
            }
        }
        let isOrdered = element.name == "ol"
        let start = element[attribute: "start"].flatMap { Int(HTMLSanitiser.trimmed($0)) } ?? 1
        return .list(
            ContentList(
                isOrdered: isOrdered,
                // CommonMark list numbers have at most nine digits.
                start: min(max(start, 0), 999_999_999),
                isTight: !hasExplicitParagraph,
                items: items))
    }

    // MARK: - Code

    /// `<pre>` keeps its text and line breaks exactly; highlighter markup (`<span class="k">`)
    /// is reduced to its text.
    private func codeBlock(_ element: HTMLElement) -> ContentBlock {
        var language = Self.language(fromClass: element[attribute: "class"])
        for child in element.children {
            if case .element(let code) = child, code.name == "code", language == nil {
                language = Self.language(fromClass: code[attribute: "class"])
            }
        }
        return .codeBlock(language: language, code: Self.textContent(of: element.children, preformatted: true))
    }

    /// `language-swift` / `lang-swift` → `swift`, keeping only `[A-Za-z0-9_+-]` so the class
    /// attribute cmark writes can never carry anything else.
    static func language(fromClass classAttribute: String?) -> String? {
        guard let classAttribute else { return nil }
        for token in classAttribute.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            for prefix in ["language-", "lang-"] where token.lowercased().hasPrefix(prefix) {
                let name = String(
                    token.dropFirst(prefix.count).unicodeScalars.filter(isLanguageScalar).map(Character.init))
                if !name.isEmpty { return String(name.prefix(40)) }
            }
        }
        return nil
    }

    private static func isLanguageScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "+", "-": true
        default: false
        }
    }

    /// Visible text of a subtree (for inline code, table fallbacks and, `preformatted`, a `<pre>`'s
    /// code). A `<br>` is a space, or in preformatted text a newline, where block elements also
    /// start and end on a line of their own.
    static func textContent(of nodes: [HTMLNode], preformatted: Bool = false) -> String {
        var text = ""
        for node in nodes {
            switch node {
            case .text(let string):
                text += string
            case .element(let element):
                guard element.isHTML, !droppedElements.contains(element.name) else { continue }
                if element.name == "br" {
                    text += preformatted ? "\n" : " "
                } else if preformatted, blockContainers.contains(element.name) {
                    if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
                    text += textContent(of: element.children, preformatted: true)
                    if !text.hasSuffix("\n") { text += "\n" }
                } else {
                    text += textContent(of: element.children, preformatted: preformatted)
                }
            }
        }
        return text
    }

    // MARK: - Images

    /// Lazy-loading placeholders that stand in `src` while the real URL waits elsewhere.
    private static let placeholderNames: Set<String> = [
        "blank.gif", "spacer.gif", "pixel.gif", "transparent.gif", "1x1.gif", "clear.gif", "empty.gif",
        "blank.png", "transparent.png", "1x1.png", "placeholder.png", "placeholder.gif", "placeholder.svg",
        "lazy.gif", "loading.gif",
    ]

    private func image(_ element: HTMLElement) -> ContentInline? {
        // Emoji drawn as images (WordPress's `wp-smiley`, Twemoji) are text: as an image, without
        // the page's CSS, a 72×72 glyph would sit in the middle of a sentence.
        if let alt = element[attribute: "alt"], !alt.isEmpty, Self.isInlineGlyph(element) {
            return .text(alt)
        }
        // 1×1 images are tracking pixels: they show nothing and report the reader.
        let style = element[attribute: "style"]
        let width = (element[attribute: "width"] ?? Self.styleValue("width", in: style)).flatMap(Self.pixels)
        let height = (element[attribute: "height"] ?? Self.styleValue("height", in: style)).flatMap(Self.pixels)
        let sizes = [width, height].compactMap { $0 }
        if !sizes.isEmpty, sizes.allSatisfy({ $0 <= 1 }) || sizes.contains(0) {
            return nil
        }
        var source: String?
        if let src = element[attribute: "src"], !Self.isPlaceholder(src) {
            source = URLPolicy.resolve(src, against: base, for: .image)
        }
        if source == nil {
            let candidates =
                ["data-src", "data-lazy-src", "data-original", "data-lazy"].compactMap { element[attribute: $0] }
                + ["srcset", "data-srcset", "data-lazy-srcset"].compactMap {
                    element[attribute: $0].flatMap(Self.largestCandidate)
                }
            source = candidates.lazy.compactMap { URLPolicy.resolve($0, against: base, for: .image) }.first
        }
        guard let source else {
            // A source that may not be shown (a `data:` URL, a relative one without a base): what a
            // browser shows when an image cannot load, its alt text, stays. An `img` with no source
            // at all is no picture of anything; it goes with its attributes.
            guard let src = element[attribute: "src"], !HTMLSanitiser.trimmed(src).isEmpty,
                let alt = element[attribute: "alt"], !HTMLSanitiser.trimmed(alt).isEmpty
            else { return nil }
            return .text(alt)
        }
        return .image(source: source, title: element[attribute: "title"] ?? "", alt: element[attribute: "alt"] ?? "")
    }

    /// An image standing for a character: an emoji class, or a height of about one line.
    private static func isInlineGlyph(_ element: HTMLElement) -> Bool {
        let classes = (element[attribute: "class"] ?? "").lowercased()
        if classes.contains("emoji") || classes.contains("wp-smiley") { return true }
        guard let height = styleValue("height", in: element[attribute: "style"]), height.hasSuffix("em"),
            let ems = Double(HTMLSanitiser.trimmed(height.dropLast(2)))
        else { return false }
        return ems <= 1.5
    }

    /// The value of one declaration of an inline `style` attribute, lowercased and trimmed. Used
    /// only to read sizes and alignment; the style itself is never published.
    static func styleValue(_ property: String, in style: String?) -> String? {
        guard let style else { return nil }
        for declaration in style.split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1)
            guard parts.count == 2,
                HTMLSanitiser.trimmed(parts[0]).lowercased() == property
            else { continue }
            return HTMLSanitiser.trimmed(parts[1]).lowercased()
        }
        return nil
    }

    private static func pixels(_ value: String) -> Int? {
        Int(HTMLSanitiser.trimmed(value.hasSuffix("px") ? value.dropLast(2) : value[...]))
    }

    private static func isPlaceholder(_ src: String) -> Bool {
        let trimmed = HTMLSanitiser.trimmed(src).lowercased()
        if trimmed.isEmpty || trimmed.hasPrefix("data:") || trimmed == "about:blank" { return true }
        let path = trimmed.split(separator: "?").first.map(String.init) ?? trimmed
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return placeholderNames.contains(last)
    }

    /// The URL of the widest (or highest-density) candidate of a `srcset`.
    static func largestCandidate(_ srcset: String) -> String? {
        var best: (url: String, size: Double)?
        for (url, descriptor) in srcsetCandidates(srcset) {
            var size = 1.0
            if let last = descriptor.last, last == "w" || last == "x", let number = Double(descriptor.dropLast()) {
                // `w` and `x` descriptors are not mixed in a valid srcset, so one scale suffices.
                size = number
            }
            if best == nil || size > (best?.size ?? 0) {
                best = (url, size)
            }
        }
        return best?.url
    }

    /// Splits a `srcset` the way the HTML standard does: a URL runs to the next whitespace (so
    /// commas inside it, as in Cloudinary's `w_100,h_100`, stay), trailing commas end a candidate
    /// without descriptors, and otherwise descriptors run to the next comma outside parentheses.
    /// Returns each URL with its first descriptor, lowercased ("" when there is none).
    static func srcsetCandidates(_ srcset: String) -> [(url: String, descriptor: String)] {
        let scalars = Array(srcset.unicodeScalars)
        let isSpace = { (scalar: Unicode.Scalar) in ContentNormaliser.isWhitespace(scalar) }
        var candidates: [(url: String, descriptor: String)] = []
        var index = 0
        while index < scalars.count {
            while index < scalars.count, isSpace(scalars[index]) || scalars[index] == "," { index += 1 }
            guard index < scalars.count else { break }
            var url = String.UnicodeScalarView()
            while index < scalars.count, !isSpace(scalars[index]) {
                url.append(scalars[index])
                index += 1
            }
            var descriptors = String.UnicodeScalarView()
            if url.last == "," {
                while url.last == "," { url.removeLast() }
            } else {
                var depth = 0
                while index < scalars.count {
                    let scalar = scalars[index]
                    if scalar == "(" { depth += 1 }
                    if scalar == ")" { depth = max(depth - 1, 0) }
                    if scalar == ",", depth == 0 { break }
                    descriptors.append(scalar)
                    index += 1
                }
            }
            let first = String(descriptors).split(whereSeparator: \.isWhitespace).first.map { $0.lowercased() } ?? ""
            if !url.isEmpty { candidates.append((String(url), first)) }
        }
        return candidates
    }

    // MARK: - Embeds

    /// Players are dropped, but a reader should still learn there was one and where to find it:
    /// YouTube and Vimeo frames, and `<video>`/`<audio>` with an allowed source, become a
    /// paragraph linking to the media ("Video on youtube.com", "Audio on example.com").
    private func embedLink(_ element: HTMLElement) -> ContentInline? {
        switch element.name {
        case "iframe", "embed", "object":
            guard let src = element[attribute: "src"] ?? element[attribute: "data"] ?? element[attribute: "data-src"],
                let resolved = URLPolicy.resolve(src, against: base, for: .link)
            else { return nil }
            return videoPageLink(resolved) ?? providerLink(resolved)
        case "video", "audio":
            let sources =
                [element[attribute: "src"]]
                + element.children.map { node -> String? in
                    guard case .element(let source) = node, source.isHTML, source.name == "source" else { return nil }
                    return source[attribute: "src"]
                }
            guard
                let resolved = sources.lazy.compactMap({ $0 })
                    .compactMap({ URLPolicy.resolve($0, against: self.base, for: .link) }).first,
                let host = URL(string: resolved)?.host?.lowercased()
            else { return nil }
            if let page = videoPageLink(resolved) { return page }
            let kind = element.name == "video" ? "Video" : "Audio"
            return .link(destination: resolved, title: "", [.text("\(kind) on \(Self.displayHost(host))")])
        default:
            return nil
        }
    }

    /// The watch page of a YouTube or Vimeo player URL, as a link naming the site.
    private func videoPageLink(_ resolved: String) -> ContentInline? {
        guard let url = URL(string: resolved), let host = url.host?.lowercased() else { return nil }
        let id = url.pathComponents.last ?? ""
        let isID = !id.isEmpty && id.unicodeScalars.allSatisfy { Self.isLanguageScalar($0) }
        if host.hasSuffix("youtube.com") || host.hasSuffix("youtube-nocookie.com") || host == "youtu.be" {
            let page = isID && url.path.contains("/embed/") ? "https://www.youtube.com/watch?v=\(id)" : resolved
            return .link(destination: page, title: "", [.text("Video on youtube.com")])
        }
        if host.hasSuffix("vimeo.com") {
            // Unlisted videos carry their access hash as `?h=`; the page URL takes it as a path.
            let hash =
                URLComponents(string: resolved)?.queryItems?.first { $0.name == "h" }?.value
                .flatMap { $0.unicodeScalars.allSatisfy(Self.isLanguageScalar) ? "/" + $0 : nil } ?? ""
            let page = isID && host == "player.vimeo.com" ? "https://vimeo.com/\(id)\(hash)" : resolved
            return .link(destination: page, title: "", [.text("Video on vimeo.com")])
        }
        return nil
    }

    /// Players of other well-known media hosts, linked as they are (the player URL plays the
    /// media). Unknown frames are dropped: they are as often ads and trackers as content.
    private func providerLink(_ resolved: String) -> ContentInline? {
        guard let url = URL(string: resolved), let host = url.host?.lowercased() else { return nil }
        let site = Self.displayHost(host)
        func isHost(_ domain: String) -> Bool { host == domain || host.hasSuffix("." + domain) }
        let kind: String
        if isHost("blogger.com") && url.path.hasPrefix("/video.g") || isHost("dailymotion.com")
            || isHost("twitch.tv") || isHost("ted.com") || isHost("wistia.net")
        {
            kind = "Video"
        } else if isHost("soundcloud.com") || isHost("spotify.com") || isHost("bandcamp.com") {
            kind = "Audio"
        } else {
            return nil
        }
        let name = site.split(separator: ".").suffix(2).joined(separator: ".")
        return .link(destination: resolved, title: "", [.text("\(kind) on \(name)")])
    }

    /// `www.example.com` → `example.com`: the name readers know the site by.
    private static func displayHost(_ host: String) -> String {
        host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    // MARK: - Tables

    /// `<caption>` becomes a paragraph before the table; cells are flattened to inline content.
    private func table(_ element: HTMLElement, insideLink: Bool) -> [Flow] {
        var before: [Flow] = []
        var rows: [(cells: [HTMLElement], inHead: Bool)] = []
        func collectRow(_ row: HTMLElement, inHead: Bool) {
            let cells = row.children.compactMap { node -> HTMLElement? in
                guard case .element(let cell) = node, cell.isHTML, cell.name == "td" || cell.name == "th" else {
                    return nil
                }
                return cell
            }
            if !cells.isEmpty { rows.append((cells, inHead)) }
        }
        for child in element.children {
            guard case .element(let section) = child, section.isHTML else { continue }
            switch section.name {
            case "caption":
                before += [.boundary] + flow(section.children, insideLink: insideLink) + [.boundary]
            case "thead", "tbody", "tfoot":
                for case .element(let row) in section.children where row.name == "tr" {
                    collectRow(row, inHead: section.name == "thead")
                }
            case "tr":
                collectRow(section, inHead: false)
            default:
                continue
            }
        }
        guard let first = rows.first else { return before }
        // Layout tables (newsletters build whole posts from them) are not data: a single column,
        // an explicit presentation role or a table nested in a cell. Their cells become blocks.
        // So do tables too wide, or too large once every row is padded to the widest, for cmark-gfm
        // (`maxTableColumns`, `maxTableCells`).
        let role = element[attribute: "role"].map { HTMLSanitiser.trimmed($0).lowercased() }
        let width = rows.lazy.map(\.cells.count).max() ?? 0
        if rows.allSatisfy({ $0.cells.count == 1 }) || role == "presentation" || role == "none"
            || width > Self.maxTableColumns || width * rows.count > Self.maxTableCells
            || rows.contains(where: { $0.cells.contains { Self.containsTable($0.children) } })
        {
            var blocks = before
            for row in rows {
                for cell in row.cells {
                    blocks += [.boundary] + flow(cell.children, insideLink: insideLink) + [.boundary]
                }
            }
            return blocks
        }
        // cmark-gfm supports one header row, and only as the first row.
        let hasHeader = first.inHead || first.cells.allSatisfy { $0.name == "th" }
        let alignments: [ContentTable.Alignment] = first.cells.map { cell -> ContentTable.Alignment in
            let align = cell[attribute: "align"] ?? Self.styleValue("text-align", in: cell[attribute: "style"])
            switch align.map({ HTMLSanitiser.trimmed($0).lowercased() }) {
            case "left": return .left
            case "center": return .center
            case "right": return .right
            default: return .none
            }
        }
        let cells = rows.map { row in row.cells.map { cell(flow($0.children, insideLink: insideLink)) } }
        let table = ContentTable(
            alignments: alignments,
            header: hasHeader ? cells[0] : nil,
            rows: hasHeader ? Array(cells.dropFirst()) : cells)
        return before + [.block(.table(table))]
    }

    /// The widest table kept as a table. cmark-gfm 0.29.0.gfm.6 renders each cell in time
    /// proportional to its row's width: one row of 146,000 cells took 4.9 s.
    static let maxTableColumns = 64
    /// The most cells a table kept as a table has once every row is padded to the widest, as
    /// cmark-gfm needs: one row of 20,000 cells above 2,000 rows of one (128 KB of HTML) made 40
    /// million cells and ran out of 7.6 GB.
    static let maxTableCells = 100_000

    /// Whether a subtree holds a `<table>` (iteratively: the subtree may be deep).
    private static func containsTable(_ nodes: [HTMLNode]) -> Bool {
        var stack = nodes
        while let node = stack.popLast() {
            guard case .element(let element) = node, element.isHTML else { continue }
            if element.name == "table" { return true }
            stack += element.children
        }
        return false
    }

    /// A cell's blocks joined into one line of inlines.
    private func cell(_ content: [Flow]) -> [ContentInline] {
        var inlines: [ContentInline] = []
        for item in content {
            switch item {
            case .inline(let inline):
                inlines.append(inline)
            case .block(let block):
                inlines.append(.text(" "))
                inlines += Self.flattened(block)
                inlines.append(.text(" "))
            case .boundary:
                inlines.append(.text(" "))
            }
        }
        return inlines
    }

    /// The inline content of a block, for places that only hold inlines (table cells).
    static func flattened(_ block: ContentBlock) -> [ContentInline] {
        func join(_ parts: [[ContentInline]]) -> [ContentInline] {
            parts.flatMap { [.text(" ")] + $0 }
        }
        switch block {
        case .paragraph(let inlines), .heading(_, let inlines):
            return inlines
        case .blockQuote(let blocks):
            return join(blocks.map(flattened))
        case .list(let list):
            return join(list.items.flatMap { $0.map(flattened) })
        case .codeBlock(_, let code):
            return [.code(code)]
        case .thematicBreak:
            return []
        case .table(let table):
            return join(((table.header.map { [$0] } ?? []) + table.rows).flatMap { $0 })
        }
    }
}
