import Foundation

/// One parsed channel: the universal model every format (RSS, Atom, JSON Feed) is read into.
///
/// Field names are stable: they are what `feedsite parse --json` prints (DESIGN §2). Text values are
/// after exactly one XML decode and are *raw*: nothing here is sanitised. URLs are absolute strings,
/// already resolved against `xml:base` and the feed's own URL.
public struct Feed: Sendable, Hashable, Codable {
    /// The syntax family the document was written in.
    public enum Format: String, Sendable, Hashable, Codable {
        case rss
        case atom
        case json
    }

    public var format: Format
    /// The format's version as declared or detected: "2.0", "0.91", "1.0" (RDF), "1.0"/"0.3" (Atom), "1.1"…
    public var version: String
    public var title: String
    public var description: String?
    /// The web site the feed belongs to.
    public var link: String?
    /// The feed's own URL (Atom/RSS `atom:link rel="self"`, JSON Feed `feed_url`).
    public var feedLink: String?
    public var language: String?
    public var copyright: String?
    public var generator: String?
    public var updated: Date?
    public var published: Date?
    public var authors: [Person]
    /// Who publishes the channel (RSS `webMaster`, `dc:publisher`), when the feed says.
    public var publisher: Person?
    public var image: FeedImage?
    public var categories: [String]
    public var items: [FeedItem]
    /// Non-fatal problems met while reading ("line 12: repaired undefined entity &nbsp;").
    public var warnings: [String]

    public init(
        format: Format,
        version: String,
        title: String = "",
        description: String? = nil,
        link: String? = nil,
        feedLink: String? = nil,
        language: String? = nil,
        copyright: String? = nil,
        generator: String? = nil,
        updated: Date? = nil,
        published: Date? = nil,
        authors: [Person] = [],
        publisher: Person? = nil,
        image: FeedImage? = nil,
        categories: [String] = [],
        items: [FeedItem] = [],
        warnings: [String] = []
    ) {
        self.format = format
        self.version = version
        self.title = title
        self.description = description
        self.link = link
        self.feedLink = feedLink
        self.language = language
        self.copyright = copyright
        self.generator = generator
        self.updated = updated
        self.published = published
        self.authors = authors
        self.publisher = publisher
        self.image = image
        self.categories = categories
        self.items = items
        self.warnings = warnings
    }
}

/// One entry of a feed.
public struct FeedItem: Sendable, Hashable, Codable {
    /// Whether a text value is HTML markup or plain text (Atom `type="text"`, JSON Feed `content_text`).
    public enum TextKind: String, Sendable, Hashable, Codable {
        case html
        case text
    }

    /// `guid` / Atom `id` / JSON Feed `id`; empty when the feed gives none.
    public var id: String
    /// Plain text: markup stripped, entities decoded once.
    public var title: String
    /// True when the feed gave no title and `title` was derived from the content's first words.
    public var isTitleDerived: Bool
    public var link: String?
    public var description: String?
    public var descriptionKind: TextKind
    public var content: String?
    public var contentKind: TextKind
    /// The base URL relative references inside `description`/`content` resolve against (the
    /// `xml:base` in scope for the content element), when the feed declared one.
    public var contentBase: String?
    public var published: Date?
    public var updated: Date?
    public var authors: [Person]
    public var categories: [String]
    public var image: FeedImage?
    public var enclosures: [Enclosure]

    public init(
        id: String = "",
        title: String = "",
        isTitleDerived: Bool = false,
        link: String? = nil,
        description: String? = nil,
        descriptionKind: TextKind = .html,
        content: String? = nil,
        contentKind: TextKind = .html,
        contentBase: String? = nil,
        published: Date? = nil,
        updated: Date? = nil,
        authors: [Person] = [],
        categories: [String] = [],
        image: FeedImage? = nil,
        enclosures: [Enclosure] = []
    ) {
        self.id = id
        self.title = title
        self.isTitleDerived = isTitleDerived
        self.link = link
        self.description = description
        self.descriptionKind = descriptionKind
        self.content = content
        self.contentKind = contentKind
        self.contentBase = contentBase
        self.published = published
        self.updated = updated
        self.authors = authors
        self.categories = categories
        self.image = image
        self.enclosures = enclosures
    }
}

/// An author or contributor.
public struct Person: Sendable, Hashable, Codable {
    public var name: String?
    public var email: String?
    public var uri: String?

    public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
        self.name = name
        self.email = email
        self.uri = uri
    }
}

/// A channel or item image (RSS `image`, `itunes:image`, `media:thumbnail`, Atom `logo`/`icon`).
public struct FeedImage: Sendable, Hashable, Codable {
    public var url: String
    public var title: String?
    /// The page the image links to (RSS `image/link`), when the feed says.
    public var link: String?

    public init(url: String, title: String? = nil, link: String? = nil) {
        self.url = url
        self.title = title
        self.link = link
    }
}

/// A media file attached to an item (podcast audio, video…).
public struct Enclosure: Sendable, Hashable, Codable {
    public var url: String
    /// Size in bytes, when the feed states it.
    public var length: Int?
    /// MIME type, when the feed states it.
    public var type: String?

    public init(url: String, length: Int? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }
}
