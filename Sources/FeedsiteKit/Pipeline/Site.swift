import Foundation

/// The whole site as data: what Render turns into pages. Built by `Site.assemble` from the
/// feeds read this run; sorted and slugged so the same input always gives the same site.
public struct Site: Sendable, Hashable {
    public var configuration: SiteConfiguration
    /// The feeds that have a page, in `feeds.yml` order: all but those not fetched yet and those
    /// that read the same feed as an earlier entry.
    public var feeds: [SiteFeed]
    /// Every item of every feed, newest first.
    public var items: [SiteItem]
    /// One per `feeds.yml` entry, in its order: the feed read for it and what became of its items.
    public var accounts: [FeedAccount]

    public init(configuration: SiteConfiguration, feeds: [SiteFeed], items: [SiteItem], accounts: [FeedAccount] = []) {
        self.configuration = configuration
        self.feeds = feeds
        self.items = items
        self.accounts = accounts
    }
}

/// One channel as the site shows it.
public struct SiteFeed: Sendable, Hashable {
    public var source: FeedSource
    /// `feeds/<slug>/`, unique across the site.
    public var slug: String
    /// The name from `feeds.yml`, else the channel's title, else the host.
    public var name: String
    /// The channel's description as plain text.
    public var description: String?
    /// The web site the feed belongs to.
    public var siteLink: String?
    /// Newest first.
    public var items: [SiteItem]
    /// Set when this run could not refresh the feed: "unchanged since 2026-11-19: HTTP 503".
    public var staleNote: String?
    /// The channel's language (BCP 47), for the `lang` of its items.
    public var language: String?
    /// The channel's image or icon (http(s) URL).
    public var image: String?
    /// The feed's address to publish (`FeedRecord.publishedFeedURL`; by default the source's
    /// public URL); nil for a local file that names none.
    public var feedLink: String?

    public init(
        source: FeedSource, slug: String, name: String, description: String?, siteLink: String?, items: [SiteItem],
        staleNote: String? = nil, language: String? = nil, image: String? = nil, feedLink: String? = nil
    ) {
        self.feedLink = feedLink ?? source.publicURL?.absoluteString
        self.staleNote = staleNote
        self.language = language
        self.image = image
        self.source = source
        self.slug = slug
        self.name = name
        self.description = description
        self.siteLink = siteLink
        self.items = items
    }
}

/// One item, sanitised and ready to render.
public struct SiteItem: Sendable, Hashable, Codable {
    /// `items/<feedSlug>/<slug>/`; `slug` is unique within its feed and stable across runs.
    public var slug: String
    public var feedSlug: String
    public var feedName: String
    /// Plain text.
    public var title: String
    /// The original article.
    public var link: String?
    /// Display names (or e-mail addresses when a feed gives no name).
    public var authors: [String]
    /// `published`, else `updated`.
    public var date: Date?
    public var content: SanitisedHTML
    /// Plain text, cut at a word boundary.
    public var excerpt: String
    public var categories: [String]
    public var enclosures: [Enclosure]
    /// The item's own image (http(s) URL), for sharing previews.
    public var image: String?
    /// Words in the content's plain text, for the reading time (0 when unknown: state saved by an
    /// older feedsite).
    public var wordCount: Int

    public init(
        slug: String, feedSlug: String, feedName: String, title: String, link: String?, authors: [String],
        date: Date?, content: SanitisedHTML, excerpt: String, categories: [String], enclosures: [Enclosure],
        image: String? = nil, wordCount: Int = 0
    ) {
        self.image = image
        self.wordCount = wordCount
        self.slug = slug
        self.feedSlug = feedSlug
        self.feedName = feedName
        self.title = title
        self.link = link
        self.authors = authors
        self.date = date
        self.content = content
        self.excerpt = excerpt
        self.categories = categories
        self.enclosures = enclosures
    }
}

extension SiteItem {
    enum CodingKeys: String, CodingKey {
        case slug, feedSlug, feedName, title, link, authors, date, content, excerpt, categories, enclosures, image
        case wordCount
    }

    /// Decodes state saved before `image` and `wordCount` existed (they default to nil and 0).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            slug: try container.decode(String.self, forKey: .slug),
            feedSlug: try container.decode(String.self, forKey: .feedSlug),
            feedName: try container.decode(String.self, forKey: .feedName),
            title: try container.decode(String.self, forKey: .title),
            link: try container.decodeIfPresent(String.self, forKey: .link),
            authors: try container.decode([String].self, forKey: .authors),
            date: try container.decodeIfPresent(Date.self, forKey: .date),
            content: try container.decode(SanitisedHTML.self, forKey: .content),
            excerpt: try container.decode(String.self, forKey: .excerpt),
            categories: try container.decode([String].self, forKey: .categories),
            enclosures: try container.decode([Enclosure].self, forKey: .enclosures),
            image: try container.decodeIfPresent(String.self, forKey: .image),
            wordCount: try container.decodeIfPresent(Int.self, forKey: .wordCount) ?? 0)
    }

    /// Words in plain text: runs of letters or digits (CJK text without spaces counts as few
    /// long words, so its reading time is underestimated).
    static func wordCount(_ text: String) -> Int {
        var text = text
        // Over the UTF-8 bytes: ASCII answered directly, other scalars decoded by hand and looked
        // up (the scalar view and the property lookup were 2 % of a cold build).
        return text.withUTF8 { bytes in
            var count = 0
            var inWord = false
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count, let base = bytes.baseAddress {
                    let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if chunk & 0x8080_8080_8080_8080 == 0 {
                        // Eight ASCII bytes at once: a high bit per letter or digit, then the
                        // ones not preceded by another (the previous byte's bit shifted in).
                        let wordBytes = Self.asciiWordBytes(chunk)
                        count += (wordBytes & ~(wordBytes << 8 | (inWord ? 0x80 : 0))).nonzeroBitCount
                        inWord = wordBytes >> 63 != 0
                        index += 8
                        continue
                    }
                }
                let byte = bytes[index]
                let isWordScalar: Bool
                if byte < 0x80 {
                    let folded = byte | 0x20
                    isWordScalar =
                        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                        || (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
                    index += 1
                } else {
                    // A Swift string is valid UTF-8: the lead byte gives the length.
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for offset in 1..<length where index + offset < bytes.count {
                        value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
                    }
                    index += length
                    isWordScalar =
                        value < 0x1_0000
                        ? basicPlaneAlphabetic[Int(value >> 6)] & (1 << (value & 63)) != 0
                        : Unicode.Scalar(value)?.properties.isAlphabetic ?? false
                }
                if isWordScalar && !inWord { count += 1 }
                inWord = isWordScalar
            }
            return count
        }
    }

    /// The high bit of each byte of `chunk` (all ASCII) that is a letter or a digit: "greater than"
    /// per byte is `(byte + 0x7F - n) & 0x80`, exact for bytes and bounds below 0x80.
    private static func asciiWordBytes(_ chunk: UInt64) -> UInt64 {
        func greater(_ value: UInt64, than bound: UInt64) -> UInt64 {
            (value &+ (0x7F - bound) &* 0x0101_0101_0101_0101) & 0x8080_8080_8080_8080
        }
        let digit = greater(chunk, than: 0x2F) & ~greater(chunk, than: 0x39)
        let folded = chunk | 0x2020_2020_2020_2020  // `A`…`Z` → `a`…`z` (and nothing else into that range)
        let letter = greater(folded, than: 0x60) & ~greater(folded, than: 0x7A)
        return digit | letter
    }

    /// `isAlphabetic` for every scalar of the Basic Multilingual Plane (one bit each, 8 KB), made
    /// once from the same property: the lookup per scalar was most of `wordCount`'s cost on
    /// European text and typographic punctuation (`—`, `’`, `…`). An immutable constant, not a cache.
    private static let basicPlaneAlphabetic: [UInt64] = (0..<1024).map { word in
        var bits: UInt64 = 0
        for bit in 0..<64 where Unicode.Scalar(UInt32(word * 64 + bit))?.properties.isAlphabetic ?? false {
            bits |= 1 << UInt64(bit)
        }
        return bits
    }

    /// `wordCount` over Unicode scalars, as it was first written: the reference its tests compare with.
    static func referenceWordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let isWordScalar =
                switch scalar.value {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
                case 0..<0x80: false
                default: scalar.properties.isAlphabetic
                }
            if isWordScalar && !inWord { count += 1 }
            inWord = isWordScalar
        }
        return count
    }
}
