import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// One item, sanitised and ready to render: its `Fields`, read and changed as its own properties
/// (`item.title`, `item.slug = …`).
///
/// The fields live in one shared, copy-on-write box: an item is held by the state, the site, its
/// feed, the front page's and its month's lists, so a copy is one reference, not thirteen (the
/// copies were 4 % of a cold build's CPU and 14 MiB of its peak memory; Benchmarks/RESULTS.md).
@dynamicMemberLookup
package struct SiteItem: Sendable, Hashable, Codable {
    package struct Fields: Sendable, Hashable {
        /// `items/<feedSlug>/<slug>/`; `slug` is unique within its feed and stable across runs.
        package var slug: String
        package var feedSlug: String
        package var feedName: String
        /// Plain text.
        package var title: String
        /// The original article.
        package var link: String?
        /// Display names (or e-mail addresses when a feed gives no name).
        package var authors: [String]
        /// `published`, else `updated`.
        package var date: Date?
        package var content: SanitisedHTML
        /// Plain text, cut at a word boundary.
        package var excerpt: String
        package var categories: [String]
        package var enclosures: [Enclosure]
        /// The item's own image (http(s) URL), for sharing previews.
        package var image: String? = nil
        /// Words in the content's plain text, for the reading time (0 when unknown: state saved by
        /// an older feedsite).
        package var wordCount: Int = 0
    }

    /// The box; only ever changed while this item holds the only reference to it.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    package subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.fields[keyPath: field] }
        set {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            storage.fields[keyPath: field] = newValue
        }
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

    package init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }
}

extension SiteItem.Fields: Codable {
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
}
