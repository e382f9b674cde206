import Foundation

/// One feed after fetch → parse → sanitise: everything the site needs from it, with the raw
/// HTML already dropped (only sanitised content travels further).
public struct ReadFeed: Sendable, Hashable {
    public var source: FeedSource
    public var channelTitle: String
    public var description: String?
    public var siteLink: String?
    /// Items in feed order, already sanitised; `slug`/`feedSlug`/`feedName` are filled in by `Site.assemble`.
    public var items: [SiteItem]
    /// Parse warnings, as the parser wrote them (printed after `feed 'Name' (url): `).
    public var warnings: [String]
    /// Advice about the `feeds.yml` entry itself (printed after `feeds.yml:LINE: `), such as
    /// "… is a web page; its feed is … — use that".
    public var notices: [String] = []

    public init(
        source: FeedSource, channelTitle: String, description: String?, siteLink: String?, items: [SiteItem],
        warnings: [String]
    ) {
        self.source = source
        self.channelTitle = channelTitle
        self.description = description
        self.siteLink = siteLink
        self.items = items
        self.warnings = warnings
    }

    /// Sanitises every item of a parsed feed. Pure: no I/O.
    ///
    /// - Parameters:
    ///   - feed: the parsed feed (raw values).
    ///   - finalURL: the URL the feed was fetched from after redirects, the last base for relative URLs.
    public init(source: FeedSource, feed: Feed, finalURL: URL, sanitiser: HTMLSanitiser, excerptLength: Int) {
        var items: [SiteItem] = []
        items.reserveCapacity(feed.items.count)
        for (position, item) in feed.items.enumerated() {
            let base = item.contentBase.flatMap(URL.init(string:)) ?? item.link.flatMap(URL.init(string:)) ?? finalURL
            let body: SanitisedContent
            if let content = item.content, !content.isEmpty {
                body =
                    item.contentKind == .html
                    ? sanitiser.sanitise(html: content, baseURL: base)
                    : sanitiser.sanitise(plainText: content, baseURL: base)
            } else if let description = item.description, !description.isEmpty {
                body =
                    item.descriptionKind == .html
                    ? sanitiser.sanitise(html: description, baseURL: base)
                    : sanitiser.sanitise(plainText: description, baseURL: base)
            } else {
                body = sanitiser.sanitise(plainText: "", baseURL: base)
            }
            let title = item.title.isEmpty ? "Untitled item \(position + 1)" : item.title
            items.append(
                SiteItem(
                    slug: ReadFeed.itemKey(item, position: position), feedSlug: "", feedName: "", title: title,
                    link: item.link, authors: item.authors.compactMap { $0.name ?? $0.email },
                    date: item.published ?? item.updated, content: body.html,
                    excerpt: HTMLSanitiser.excerpt(body.plainText, maxLength: excerptLength),
                    categories: item.categories, enclosures: item.enclosures))
        }
        self.init(
            source: source, channelTitle: feed.title, description: feed.description, siteLink: feed.link,
            items: items, warnings: feed.warnings)
    }

    /// The identity an item's slug is derived from: its id, else its link, else its title and
    /// position (a feed that gives neither id nor link cannot have stable URLs for its items).
    static func itemKey(_ item: FeedItem, position: Int) -> String {
        if !item.id.isEmpty { return item.id }
        if let link = item.link, !link.isEmpty { return link }
        return "\(item.title)#\(position)"
    }
}
