import Foundation

extension Site {
    /// The model stage: names and slugs every feed and item, and sorts items newest first.
    ///
    /// Pure and deterministic: feeds keep `feeds.yml` order; items are ordered by date (newest
    /// first), then by feed order, then by their position in the feed; undated items come last.
    public static func assemble(configuration: SiteConfiguration, feeds readFeeds: [ReadFeed]) -> Site {
        let feedSlugs = Slug.assign(
            readFeeds.map { (key: $0.source.url.absoluteString, text: displayName(of: $0)) }, fallback: "feed")
        var feeds: [SiteFeed] = []
        var all: [(item: SiteItem, feedIndex: Int, position: Int)] = []
        for (feedIndex, read) in readFeeds.enumerated() {
            let name = displayName(of: read)
            let feedSlug = feedSlugs[read.source.url.absoluteString] ?? "feed-\(feedIndex + 1)"
            // `ReadFeed` carries each item's stable key in `slug` until it is turned into a slug here.
            let itemSlugs = Slug.assign(read.items.map { (key: $0.slug, text: $0.title) }, fallback: "item")
            var items: [SiteItem] = []
            for (position, var item) in read.items.enumerated() {
                item.slug = itemSlugs[item.slug] ?? "item-\(position + 1)"
                item.feedSlug = feedSlug
                item.feedName = name
                items.append(item)
                all.append((item, feedIndex, position))
            }
            items = sortedNewestFirst(items.enumerated().map { ($0.element, 0, $0.offset) })
            feeds.append(
                SiteFeed(
                    source: read.source, slug: feedSlug, name: name, description: read.description,
                    siteLink: read.siteLink, items: items))
        }
        return Site(configuration: configuration, feeds: feeds, items: sortedNewestFirst(all))
    }

    static func displayName(of feed: ReadFeed) -> String {
        if let name = feed.source.name, !name.isEmpty { return name }
        if !feed.channelTitle.isEmpty { return feed.channelTitle }
        return feed.source.url.host ?? feed.source.url.absoluteString
    }

    private static func sortedNewestFirst(_ entries: [(item: SiteItem, feedIndex: Int, position: Int)]) -> [SiteItem] {
        entries.sorted { a, b in
            switch (a.item.date, b.item.date) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (a.feedIndex, a.position) < (b.feedIndex, b.position)
            }
        }.map(\.item)
    }
}
