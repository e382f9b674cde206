import Foundation

/// Everything `feeds.yml` says, with every default in one place (`SiteConfiguration.Defaults`).
public struct SiteConfiguration: Sendable, Hashable {
    /// The site's title, shown in every page header.
    public var title: String
    /// A line under the title on the index page.
    public var description: String
    /// Where the site is published. Pages link relatively and do not need it; it is used for the
    /// User-Agent and for the absolute URLs in the planet's own feeds and sitemap, which are only
    /// published when it is set.
    public var baseURL: URL?
    /// How many of the newest items the index page lists.
    public var indexItems: Int
    /// Length, in characters, of the plain-text excerpts on the index and feed pages.
    public var excerptLength: Int
    /// How many of the newest items the planet's own feeds (`atom.xml`, `rss.xml`, `feed.json`) carry.
    public var feedItems: Int
    /// Asks search engines not to index the site: `robots.txt` disallows everything and pages get
    /// `<meta name="robots" content="noindex">`.
    public var noindex: Bool
    /// The feeds, in `feeds.yml` order (the order decides ties, e.g. which feed keeps a duplicate).
    public var feeds: [FeedSource]

    /// The defaults, in one place; the README's `feeds.yml` reference lists the same values.
    public enum Defaults {
        public static let title = "feedsite"
        public static let description = ""
        public static let indexItems = 50
        public static let excerptLength = 280
        public static let feedItems = 50
        public static let noindex = false
    }

    public init(
        title: String = Defaults.title,
        description: String = Defaults.description,
        baseURL: URL? = nil,
        indexItems: Int = Defaults.indexItems,
        excerptLength: Int = Defaults.excerptLength,
        feedItems: Int = Defaults.feedItems,
        noindex: Bool = Defaults.noindex,
        feeds: [FeedSource]
    ) {
        self.title = title
        self.description = description
        self.baseURL = baseURL
        self.indexItems = indexItems
        self.excerptLength = excerptLength
        self.feedItems = feedItems
        self.noindex = noindex
        self.feeds = feeds
    }
}

/// One `feeds:` entry.
public struct FeedSource: Sendable, Hashable {
    /// The http(s) URL the feed is fetched from.
    public var url: URL
    /// The display name from `feeds.yml`; when absent, the channel's own title is used.
    public var name: String?
    /// The line of this entry in `feeds.yml`, so warnings about the feed can point at it.
    public var line: Int?

    public init(url: URL, name: String? = nil, line: Int? = nil) {
        self.url = url
        self.name = name
        self.line = line
    }
}
