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
        // Byte searches: Foundation's go through UTF-16, for every item, most of which have no picture.
        let source = html.withUTF8 { bytes -> String? in
            guard let tag = ByteScan.firstIndex(of: imageTag, in: bytes, from: 0) else { return nil }
            let attributes = tag + imageTag.count
            guard let end = ByteScan.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: attributes, to: bytes.count),
                let src = ByteScan.firstIndex(
                    of: sourceAttribute, in: UnsafeBufferPointer(rebasing: bytes[..<end]), from: attributes)
            else { return nil }
            let value = src + sourceAttribute.count
            guard let close = ByteScan.firstIndex(of: UInt8(ascii: "\""), in: bytes, from: value, to: bytes.count)
            else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[value..<close]), as: UTF8.self)
        }
        guard var url = source else { return nil }
        if url.utf8.contains(UInt8(ascii: "&")) {
            url = url.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        return url.hasPrefix("http://") || url.hasPrefix("https://") ? url : nil
    }

    private static let imageTag = Array("<img ".utf8)
    private static let sourceAttribute = Array(" src=\"".utf8)
}
