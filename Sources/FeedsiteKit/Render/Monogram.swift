/// A feed's monogram: the first letter of its name on a coloured square, an SVG feedsite draws
/// itself (`avatars/<feed-slug>.svg`) for a feed that names no icon, so every feed has a picture
/// and none is loaded from another host for it.
enum Monogram {
    /// Dark enough for white text at 4.5:1 or more (WCAG AA for text of any size).
    static let colours = ["#1a5fb4", "#26734d", "#a51d2d", "#613583", "#865e3c", "#0b6e69", "#c01c5d", "#3d3846"]

    /// The site path of a feed's monogram.
    static func path(feedSlug: String) -> String { "avatars/\(feedSlug).svg" }

    /// The letter shown: the name's first letter or digit (a grapheme, so `É` and `ع` stay whole),
    /// uppercased; `#` for a name without one.
    static func letter(of name: String) -> String {
        guard let first = name.first(where: { $0.isLetter || $0.isNumber }) else { return "#" }
        return String(first).uppercased()
    }

    /// A colour that stays the same for the same feed (FNV-1a of its slug).
    static func colour(for slug: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in slug.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return colours[Int(hash % UInt32(colours.count))]
    }

    /// The SVG: 64×64, the letter centred in white on the feed's colour.
    static func svg(name: String, slug: String) -> String {
        let letter = XMLEscaping.text(letter(of: name))
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">\
            <rect width="64" height="64" rx="12" fill="\(colour(for: slug))"/>\
            <text x="32" y="32" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="34" \
            font-weight="600" fill="#fff">\(letter)</text></svg>

            """
    }
}
