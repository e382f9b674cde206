import Foundation

/// The whole site as data: what Render turns into pages. Built by `Site.assemble` from the
/// feeds read this run; sorted and slugged so the same input always gives the same site.
package struct Site: Sendable, Hashable {
    package var configuration: SiteConfiguration
    /// The feeds that have a page, in `feeds.yml` order: all but those not fetched yet and those
    /// that read the same feed as an earlier entry.
    package var feeds: [SiteFeed]
    /// Every item of every feed, newest first.
    package var items: [SiteItem]
    /// One per `feeds.yml` entry, in its order: the feed read for it and what became of its items.
    package var accounts: [FeedAccount]

    package init(configuration: SiteConfiguration, feeds: [SiteFeed], items: [SiteItem], accounts: [FeedAccount] = []) {
        self.configuration = configuration
        self.feeds = feeds
        self.items = items
        self.accounts = accounts
    }
}
