import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// One item, sanitised and ready to render.
///
/// Its fields live in one shared, copy-on-write box: an item is held by the state, the site, its
/// feed, the front page's and its month's lists, so a copy is one reference, not thirteen (the
/// copies were 3 % of a cold build's CPU samples, and 20 MB at its peak; Benchmarks/RESULTS.md).
package struct SiteItem: Sendable, Hashable, Codable {
    /// The fields; `Storage` is only ever changed through a uniquely referenced box.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private struct Fields: Hashable {
        var slug: String
        var feedSlug: String
        var feedName: String
        var title: String
        var link: String?
        var authors: [String]
        var date: Date?
        var content: SanitisedHTML
        var excerpt: String
        var categories: [String]
        var enclosures: [Enclosure]
        var image: String?
        var wordCount: Int
    }

    private var storage: Storage

    /// The box to change: this item's own (a shared one is copied first).
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// `items/<feedSlug>/<slug>/`; `slug` is unique within its feed and stable across runs.
    package var slug: String {
        get { storage.fields.slug }
        set { unique().fields.slug = newValue }
    }
    package var feedSlug: String {
        get { storage.fields.feedSlug }
        set { unique().fields.feedSlug = newValue }
    }
    package var feedName: String {
        get { storage.fields.feedName }
        set { unique().fields.feedName = newValue }
    }
    /// Plain text.
    package var title: String {
        get { storage.fields.title }
        set { unique().fields.title = newValue }
    }
    /// The original article.
    package var link: String? {
        get { storage.fields.link }
        set { unique().fields.link = newValue }
    }
    /// Display names (or e-mail addresses when a feed gives no name).
    package var authors: [String] {
        get { storage.fields.authors }
        set { unique().fields.authors = newValue }
    }
    /// `published`, else `updated`.
    package var date: Date? {
        get { storage.fields.date }
        set { unique().fields.date = newValue }
    }
    package var content: SanitisedHTML {
        get { storage.fields.content }
        set { unique().fields.content = newValue }
    }
    /// Plain text, cut at a word boundary.
    package var excerpt: String {
        get { storage.fields.excerpt }
        set { unique().fields.excerpt = newValue }
    }
    package var categories: [String] {
        get { storage.fields.categories }
        set { unique().fields.categories = newValue }
    }
    package var enclosures: [Enclosure] {
        get { storage.fields.enclosures }
        set { unique().fields.enclosures = newValue }
    }
    /// The item's own image (http(s) URL), for sharing previews.
    package var image: String? {
        get { storage.fields.image }
        set { unique().fields.image = newValue }
    }
    /// Words in the content's plain text, for the reading time (0 when unknown: state saved by an
    /// older feedsite).
    package var wordCount: Int {
        get { storage.fields.wordCount }
        set { unique().fields.wordCount = newValue }
    }

    package init(
        slug: String, feedSlug: String, feedName: String, title: String, link: String?, authors: [String],
        date: Date?, content: SanitisedHTML, excerpt: String, categories: [String], enclosures: [Enclosure],
        image: String? = nil, wordCount: Int = 0
    ) {
        storage = Storage(
            Fields(
                slug: slug, feedSlug: feedSlug, feedName: feedName, title: title, link: link, authors: authors,
                date: date, content: content, excerpt: excerpt, categories: categories, enclosures: enclosures,
                image: image, wordCount: wordCount))
    }

    package static func == (a: SiteItem, b: SiteItem) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}

extension SiteItem {
    enum CodingKeys: String, CodingKey {
        case slug, feedSlug, feedName, title, link, authors, date, content, excerpt, categories, enclosures, image
        case wordCount
    }

    /// Decodes state saved before `image` and `wordCount` existed (they default to nil and 0).
    package init(from decoder: any Decoder) throws {
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

    package func encode(to encoder: any Encoder) throws {
        let storage = storage
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storage.fields.slug, forKey: .slug)
        try container.encode(storage.fields.feedSlug, forKey: .feedSlug)
        try container.encode(storage.fields.feedName, forKey: .feedName)
        try container.encode(storage.fields.title, forKey: .title)
        try container.encodeIfPresent(storage.fields.link, forKey: .link)
        try container.encode(storage.fields.authors, forKey: .authors)
        try container.encodeIfPresent(storage.fields.date, forKey: .date)
        try container.encode(storage.fields.content, forKey: .content)
        try container.encode(storage.fields.excerpt, forKey: .excerpt)
        try container.encode(storage.fields.categories, forKey: .categories)
        try container.encode(storage.fields.enclosures, forKey: .enclosures)
        try container.encodeIfPresent(storage.fields.image, forKey: .image)
        try container.encode(storage.fields.wordCount, forKey: .wordCount)
    }
}
