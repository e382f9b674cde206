import Foundation

/// Where every page lives (DESIGN §5) and how pages link to each other.
///
/// Paths are site-relative and always end in `index.html`: links point at the file, not the
/// folder, so the site works from `file://` where no server maps a folder to its index.
enum PagePaths {
    /// Page `number` (1-based) of the index: `index.html`, `page/2/index.html`…
    static func index(page number: Int) -> String {
        number <= 1 ? "index.html" : "page/\(number)/index.html"
    }

    /// Page `number` (1-based) of a feed: `feeds/<slug>/index.html`, `feeds/<slug>/page/2/index.html`…
    static func feed(_ slug: String, page number: Int = 1) -> String {
        number <= 1 ? "feeds/\(slug)/index.html" : "feeds/\(slug)/page/\(number)/index.html"
    }

    /// `items/<feed-slug>/<item-slug>/index.html`
    static func item(feedSlug: String, slug: String) -> String {
        "items/\(feedSlug)/\(slug)/index.html"
    }

    /// `archive/index.html`: the list of months.
    static let archive = "archive/index.html"

    /// Page `number` of a month: `archive/2026/11/index.html`, `archive/2026/11/page/2/index.html`…
    static func archive(_ month: ArchiveMonth, page number: Int = 1) -> String {
        let folder = "archive/\(month.year)/\(month.month < 10 ? "0" : "")\(month.month)/"
        return number <= 1 ? folder + "index.html" : folder + "page/\(number)/index.html"
    }

    /// The way back to the site root from a page: `""`, `../../`…
    static func root(of page: String) -> String {
        // Folders are the non-empty components before the last.
        String(repeating: "../", count: max(page.split(separator: "/").count - 1, 0))
    }

    /// A link from `page` to the site path `target`.
    static func link(from page: String, to target: String) -> String {
        root(of: page) + target
    }

    /// The page's folder as the sitemap and `og:url` name it: `""`, `page/2/`.
    static func folder(_ page: String) -> String {
        page.hasSuffix("index.html") ? String(page.dropLast("index.html".count)) : page
    }

    /// Splits a list into pages of `size` (at least one page, possibly empty).
    static func pages<Element>(_ elements: [Element], size: Int) -> [ArraySlice<Element>] {
        let size = max(1, size)
        guard !elements.isEmpty else { return [elements[...]] }
        return stride(from: 0, to: elements.count, by: size).map {
            elements[$0..<min($0 + size, elements.count)]
        }
    }
}
