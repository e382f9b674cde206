import Foundation

/// Turns untrusted item bodies into `SanitisedHTML` (DESIGN §4: a closed world).
///
/// Feed HTML is parsed as an HTML5 fragment (`HTMLFragment`), walked against an allowlist into a
/// small tree of known constructs (`ContentBuilder`), tidied (`ContentNormaliser`) and rendered by
/// cmark-gfm from brand-new nodes (`CmarkDocument`). Nothing from the input is passed through as
/// markup: text is escaped by cmark, and every URL goes through `URLPolicy`.
///
/// Sanitising is idempotent: feeding the output back in yields the same output.
public struct HTMLSanitiser: Sendable {
    /// Caps that keep hostile input from costing unbounded time, memory or stack.
    public struct Limits: Sendable {
        /// Longer input is cut (at a character boundary) and the prefix sanitised.
        public var maxInputBytes: Int
        /// Elements nested deeper than this are flattened to their text.
        public var maxDepth: Int

        public init(maxInputBytes: Int = 2_000_000, maxDepth: Int = 200) {
            self.maxInputBytes = maxInputBytes
            self.maxDepth = maxDepth
        }
    }

    public var limits: Limits

    public init(limits: Limits = .init()) {
        self.limits = limits
    }

    /// Sanitises an HTML body.
    ///
    /// - Parameters:
    ///   - html: the text after exactly one XML decode (so `&lt;p&gt;` in an RSS description has
    ///     already become `<p>`).
    ///   - baseURL: resolves relative `href`/`src`; without it relative URLs are dropped.
    public func sanitise(html: String, baseURL: URL?) -> SanitisedContent {
        let input = prepared(html)
        guard !input.isEmpty else { return .empty }
        let fragment = HTMLFragment(
            parsing: input, maxDepth: max(limits.maxDepth, 1), opaqueElements: ContentBuilder.droppedElements)
        let blocks = ContentBuilder(baseURL: baseURL).blocks(from: fragment.nodes)
        return render(ContentNormaliser.normalise(blocks))
    }

    /// Sanitises plain text or Markdown (Atom `type="text"`, JSON Feed `content_text`): parsed by
    /// cmark in safe mode, then held to the same allowlist and URL policy as HTML. Markup typed
    /// into the text shows as text.
    public func sanitise(plainText: String, baseURL: URL?) -> SanitisedContent {
        let input = prepared(plainText)
        guard !input.isEmpty else { return .empty }
        let blocks = CmarkDocument.parse(markdown: input, baseURL: baseURL, maxDepth: max(limits.maxDepth, 1))
        return render(ContentNormaliser.normalise(blocks))
    }

    /// A plain-text excerpt of at most `maxLength` characters (including the "…" added when the
    /// text is cut), with whitespace collapsed and the cut made at a word boundary when there is
    /// one in the second half of the allowance.
    public static func excerpt(_ plainText: String, maxLength: Int) -> String {
        let words = plainText.split(whereSeparator: { $0.isWhitespace })
        let collapsed = words.joined(separator: " ")
        guard maxLength > 0 else { return "" }
        guard collapsed.count > maxLength else { return collapsed }
        let budget = maxLength - 1
        var cut = String(collapsed.prefix(budget))
        let nextIndex = collapsed.index(collapsed.startIndex, offsetBy: budget)
        if !collapsed[nextIndex].isWhitespace, let lastSpace = cut.lastIndex(of: " "),
            cut.distance(from: cut.startIndex, to: lastSpace) >= budget / 2
        {
            cut = String(cut[..<lastSpace])
        }
        while let last = cut.last, last.isWhitespace || ",;:.-–—".contains(last) {
            cut.removeLast()
        }
        return cut + "…"
    }

    // MARK: - Helpers

    /// Caps the size at a Unicode scalar boundary and replaces NUL (C strings end there).
    private func prepared(_ text: String) -> String {
        var input = text
        let cap = max(limits.maxInputBytes, 0)
        if input.utf8.count > cap {
            var end = input.utf8.index(input.utf8.startIndex, offsetBy: cap)
            while end > input.startIndex, end.samePosition(in: input.unicodeScalars) == nil {
                end = input.utf8.index(before: end)
            }
            input = String(input.unicodeScalars[..<end])
        }
        if input.utf8.contains(0) {
            input = input.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
        }
        return input
    }

    /// Renders, then adds the attributes every published link and image carries.
    ///
    /// Exact string substitution is safe here: cmark escapes `<` in all text and attribute values,
    /// so `<a href="` and `<img src="` can only be the tags cmark itself wrote.
    private func render(_ blocks: [ContentBlock]) -> SanitisedContent {
        let rendering = CmarkDocument.render(blocks)
        let html = rendering.html
            .replacingOccurrences(of: "<a href=\"", with: "<a rel=\"nofollow ugc noopener\" href=\"")
            .replacingOccurrences(
                of: "<img src=\"",
                with: "<img loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\" src=\"")
        let plainText = rendering.plainText.trimmingCharacters(in: .whitespacesAndNewlines)
        return SanitisedContent(html: SanitisedHTML(html: html), plainText: plainText)
    }
}
