import FeedsiteParse
import FeedsiteSanitise
import FeedsiteShared
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
        var html = content.html
        // A byte search: Foundation's `range(of:)` goes through UTF-16 over the whole content, for
        // every item, most of which have no picture.
        let needle = Array("<img ".utf8)
        let offset = html.withUTF8 { ByteScan.firstIndex(of: needle, in: $0, from: 0) }
        guard let offset else { return nil }
        let restText = html[html.utf8.index(html.utf8.startIndex, offsetBy: offset + needle.count)...]
        guard let end = restText.firstIndex(of: ">"), let src = restText[..<end].range(of: " src=\"") else {
            return nil
        }
        let value = restText[src.upperBound...]
        guard let close = value.firstIndex(of: "\"") else { return nil }
        let url = value[..<close]
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        return url.hasPrefix("http://") || url.hasPrefix("https://") ? url : nil
    }
}
