import Foundation

/// One parsed channel: the universal model every format (RSS, Atom, JSON Feed) is read into.
///
/// Field names are stable: they are what `feedsite parse --json` prints (DESIGN §2). Text values are
/// after exactly one XML decode and are *raw*: nothing here is sanitised. URLs are absolute strings,
/// already resolved against `xml:base` and the feed's own URL.
package struct Feed: Sendable, Hashable, Codable {
    /// The syntax family the document was written in.
    package enum Format: String, Sendable, Hashable, Codable {
        case rss
        case atom
        case json
    }

    package var format: Format
    /// The format's version as declared or detected: "2.0", "0.91", "1.0" (RDF), "1.0"/"0.3" (Atom), "1.1"…
    package var version: String
    package var title: String = ""
    package var description: String?
    /// The web site the feed belongs to.
    package var link: String?
    /// The feed's own URL (Atom/RSS `atom:link rel="self"`, JSON Feed `feed_url`).
    package var feedLink: String?
    package var language: String?
    package var copyright: String?
    package var generator: String?
    package var updated: Date?
    package var published: Date?
    package var authors: [Person] = []
    /// Who publishes the channel (RSS `webMaster`, `dc:publisher`), when the feed says.
    package var publisher: Person?
    package var image: FeedImage?
    package var categories: [String] = []
    package var items: [FeedItem] = []
    /// Non-fatal problems met while reading ("line 12: repaired undefined entity &nbsp;").
    package var warnings: [String] = []
}

/// One entry of a feed.
package struct FeedItem: Sendable, Hashable, Codable {
    /// Whether a text value is HTML markup or plain text (Atom `type="text"`, JSON Feed `content_text`).
    package enum TextKind: String, Sendable, Hashable, Codable {
        case html
        case text
    }

    /// `guid` / Atom `id` / JSON Feed `id`; empty when the feed gives none.
    package var id: String = ""
    /// Plain text: markup stripped, entities decoded once.
    package var title: String = ""
    /// True when the feed gave no title and `title` was derived from the content's first words.
    package var isTitleDerived: Bool = false
    package var link: String?
    package var description: String?
    package var descriptionKind: TextKind = .html
    package var content: String?
    package var contentKind: TextKind = .html
    /// The base URL relative references inside `description`/`content` resolve against (the
    /// `xml:base` in scope for the content element), when the feed declared one.
    package var contentBase: String?
    package var published: Date?
    package var updated: Date?
    package var authors: [Person] = []
    package var categories: [String] = []
    package var image: FeedImage?
    package var enclosures: [Enclosure] = []
}

/// An author or contributor.
package struct Person: Sendable, Hashable, Codable {
    package var name: String?
    package var email: String?
    package var uri: String?
}

/// A channel or item image (RSS `image`, `itunes:image`, `media:thumbnail`, Atom `logo`/`icon`).
package struct FeedImage: Sendable, Hashable, Codable {
    package var url: String
    package var title: String?
    /// The page the image links to (RSS `image/link`), when the feed says.
    package var link: String?
}

/// A media file attached to an item (podcast audio, video…).
package struct Enclosure: Sendable, Hashable, Codable {
    package var url: String
    /// Size in bytes, when the feed states it.
    package var length: Int?
    /// MIME type, when the feed states it.
    package var type: String?

    package init(url: String, length: Int? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }
}
