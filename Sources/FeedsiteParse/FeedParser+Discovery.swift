import FeedsiteShared
import Foundation

extension FeedParser {
    /// Feed autodiscovery: the feeds an HTML page advertises with
    /// `<link rel="alternate" type="application/rss+xml" href="…">` (also Atom and JSON Feed types),
    /// in document order, as absolute URLs.
    ///
    /// Used when a configured URL turns out to be a web page (`FeedParseError.isHTMLPage`): the
    /// pipeline fetches the first feed found and tells the user to configure it directly.
    ///
    /// Read by the tolerant scan of `links(inHTML:baseURL:)`.
    package static func discoverFeedLinks(inHTML data: Data, baseURL: URL?) -> [URL] {
        var found: [URL] = []
        for link in links(inHTML: data, baseURL: baseURL) {
            let type = link.type?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard link.rels.contains("alternate"), let type, feedMediaTypes.contains(type), !found.contains(link.url)
            else { continue }
            found.append(link.url)
        }
        return found
    }

    /// The icons an HTML page names (`<link rel="icon">`, `rel="shortcut icon"`,
    /// `rel="apple-touch-icon"`), best for a 64-pixel avatar first: the smallest declared size of
    /// at least 64, then larger ones, then smaller ones, then those of unknown size (an
    /// `apple-touch-icon` without `sizes` counts as 180, its usual size). SVG icons are left out
    /// (the image decoder refuses SVG), and so are other than http(s) URLs.
    package static func discoverIconLinks(inHTML data: Data, baseURL: URL?) -> [URL] {
        var found: [(url: URL, size: Int?, position: Int)] = []
        for link in links(inHTML: data, baseURL: baseURL) {
            let isTouchIcon =
                link.rels.contains("apple-touch-icon") || link.rels.contains("apple-touch-icon-precomposed")
            guard link.rels.contains("icon") || isTouchIcon,
                ["http", "https"].contains(link.url.scheme?.lowercased() ?? ""),
                !(link.type ?? "").lowercased().contains("svg"), !link.url.path.lowercased().hasSuffix(".svg"),
                !found.contains(where: { $0.url == link.url })
            else { continue }
            // `sizes="16x16 32x32"`: the largest; `any` (a scalable icon) and nonsense count as unknown.
            let declared = (link.sizes ?? "").lowercased().split(whereSeparator: \.isWhitespace).compactMap { size in
                size.split(separator: "x").first.flatMap { Int($0) }.flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil }
            }.max()
            found.append((link.url, declared ?? (isTouchIcon ? 180 : nil), found.count))
        }
        func rank(_ size: Int?) -> (Int, Int) {
            guard let size else { return (3, 0) }
            return size >= 64 ? (size == 64 ? 0 : 1, size) : (2, -size)
        }
        return found.sorted { left, right in
            let (a, b) = (rank(left.size), rank(right.size))
            return (a.0, a.1, left.position) < (b.0, b.1, right.position)
        }.map(\.url)
    }

    /// A `<link>` tag of a page: its `rel` tokens (lowercased), `type`, `sizes`, and `href`
    /// resolved.
    private struct LinkTag {
        var rels: [Substring]
        var type: String?
        var sizes: String?
        var url: URL
    }

    /// The page's `<link>` tags with an `href`, in document order. This is a tolerant scan of
    /// `<link>` tags, not an HTML parser: pages that serve HTML where a feed was expected are often
    /// broken, and only these few attributes matter. Attributes may come in any order, quoted with
    /// `"` or `'` or unquoted, in any case; `rel` may hold several tokens. Tags inside comments are
    /// ignored. Relative `href`s resolve against the page's `<base href>` when it has one, else
    /// against `baseURL` (the page's final URL).
    private static func links(inHTML data: Data, baseURL: URL?) -> [LinkTag] {
        let bytes = [UInt8](data)
        var base = baseURL
        var found: [LinkTag] = []
        var i = 0
        while let open = bytes[i...].firstIndex(of: UInt8(ascii: "<")) {
            if matches(bytes, at: open, "<!--") {
                i = (find(bytes, "-->", from: open + 4) ?? bytes.count) + 3
                if i >= bytes.count { break }
                continue
            }
            i = open + 1
            guard let name = tagName(bytes, at: open + 1), name == "link" || name == "base" else { continue }
            let attributes = tagAttributes(bytes, from: open + 1 + name.utf8.count)
            i = attributes.end
            guard let href = attributes.values["href"].map(decodeAttributeEntities), !href.isEmpty else { continue }
            if name == "base" {
                // Only the first <base> counts (HTML's rule); it must itself resolve to an absolute URL.
                if base == baseURL, let resolved = FeedText.resolveBase(href, against: baseURL) { base = resolved }
                continue
            }
            guard let url = FeedText.resolveBase(href, against: base) else { continue }
            found.append(
                LinkTag(
                    rels: (attributes.values["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace),
                    type: attributes.values["type"], sizes: attributes.values["sizes"], url: url))
        }
        return found
    }

    /// The media types that mark a `<link rel="alternate">` as a feed.
    static let feedMediaTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/feed+json", "application/json",
    ]

    /// The lowercased element name starting at `start` (just after `<`), or nil for `</x>`, `<!x>`, text.
    private static func tagName(_ bytes: [UInt8], at start: Int) -> String? {
        var end = start
        while end < bytes.count, (bytes[end] | 0x20) >= UInt8(ascii: "a"), (bytes[end] | 0x20) <= UInt8(ascii: "z") {
            end += 1
        }
        guard end > start, end < bytes.count,
            isXMLSpace(bytes[end]) || bytes[end] == UInt8(ascii: "/") || bytes[end] == UInt8(ascii: ">")
        else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
    }

    /// The attributes of a tag whose name ends at `start`, up to its `>`; names lowercased, first
    /// occurrence wins. `end` is just after the tag.
    private static func tagAttributes(_ bytes: [UInt8], from start: Int) -> (values: [String: String], end: Int) {
        var values: [String: String] = [:]
        var i = start
        func isNameByte(_ byte: UInt8) -> Bool {
            !isXMLSpace(byte) && byte != UInt8(ascii: "=") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/")
                && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
        }
        while i < bytes.count {
            while i < bytes.count, isXMLSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") { i += 1 }
            guard i < bytes.count, bytes[i] != UInt8(ascii: ">") else { return (values, i + 1) }
            let nameStart = i
            while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
            guard i > nameStart else {
                i += 1  // a stray quote: skip it rather than loop forever
                continue
            }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            while i < bytes.count, isXMLSpace(bytes[i]) { i += 1 }
            var value = ""
            if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                i += 1
                while i < bytes.count, isXMLSpace(bytes[i]) { i += 1 }
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    let quote = bytes[i]
                    let valueStart = i + 1
                    // A value cut off by the end of the page is incomplete: don't use it.
                    guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else {
                        return (values, bytes.count)
                    }
                    value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
                    i = valueEnd + 1
                } else {
                    let valueStart = i
                    while i < bytes.count, !isXMLSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    value = String(decoding: bytes[valueStart..<i], as: UTF8.self)
                }
            }
            if values[name] == nil { values[name] = value }
        }
        return (values, bytes.count)
    }

    /// `&amp;` and friends in an attribute value (`href="/feed?a=1&amp;b=2"`).
    private static func decodeAttributeEntities(_ value: String) -> String {
        value.contains("&") ? FeedText.decodeEntities(value).trimmingWhitespace : value
    }
}
