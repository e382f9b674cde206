import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// The one picture an item is shown with in lists (and shared with, `og:image`): the feed's own
/// choice first (`media:thumbnail`, an image `media:content`, `itunes:image`, JSON Feed `image`,
/// in that order, picked by the parser), else an image enclosure, else the first image of the
/// item's sanitised content. None when there is none: no placeholder.
enum ItemImage {
    /// File name endings of images, for enclosures that give no type.
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif"]

    /// - Parameters:
    ///   - own: the feed's image for the item, unresolved.
    ///   - base: what relative URLs resolve against.
    static func choose(own: String?, enclosures: [Enclosure], content: SanitisedHTML, base: URL) -> String? {
        if let own, let url = URLPolicy.resolve(own, against: base, for: .image) { return url }
        for enclosure in enclosures where isImage(enclosure) {
            if let url = URLPolicy.resolve(enclosure.url, against: base, for: .image) { return url }
        }
        return firstImage(in: content)
    }

    static func isImage(_ enclosure: Enclosure) -> Bool {
        if let type = enclosure.type?.lowercased(), !type.isEmpty { return type.hasPrefix("image/") }
        let path = URL(string: enclosure.url)?.pathExtension.lowercased() ?? ""
        return imageExtensions.contains(path)
    }

    /// The `src` of the first `<img>` in sanitised HTML (which only cmark wrote: `<img … src="…"`,
    /// the URL already through the URL policy, escaped as cmark escapes attributes).
    static func firstImage(in content: SanitisedHTML) -> String? {
        let html = content.html
        guard let tag = html.range(of: "<img ") else { return nil }
        let rest = html[tag.upperBound...]
        guard let end = rest.firstIndex(of: ">"), let src = rest[..<end].range(of: " src=\"") else { return nil }
        let value = rest[src.upperBound...]
        guard let close = value.firstIndex(of: "\"") else { return nil }
        let url = value[..<close]
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        return url.hasPrefix("http://") || url.hasPrefix("https://") ? url : nil
    }
}
