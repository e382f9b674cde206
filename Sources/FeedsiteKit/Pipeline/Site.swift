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
