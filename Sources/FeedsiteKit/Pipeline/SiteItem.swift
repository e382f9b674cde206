import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// One item, sanitised and ready to render.
package struct SiteItem: Sendable, Hashable, Codable {
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
    package var image: String?
    /// Words in the content's plain text, for the reading time (0 when unknown: state saved by an
    /// older feedsite).
    package var wordCount: Int

    package init(
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
