/// The order of the index pages: the first page holds at most `front_page_per_feed` items of any
/// one feed, so a feed that posts fifteen items in an hour does not fill the front page; its other
/// items stay on later index pages (and on its own page), in date order.
enum FrontPage {
    /// `items` (newest first) reordered so that the first `pageSize` are the front page: the
    /// newest items, taking at most `perFeed` of each feed. When the other feeds have too few
    /// items to fill the page, it is filled with the newest of those held back, so the front page
    /// is never shorter than a page while there are items. Every page stays in date order; the
    /// pages after the first hold the rest in date order. `perFeed` 0: no limit.
    static func arrange(_ items: [SiteItem], pageSize: Int, perFeed: Int) -> [SiteItem] {
        let size = max(1, pageSize)
        guard perFeed > 0, items.count > size else { return items }
        var onPage = [Bool](repeating: false, count: items.count)
        var taken = 0
        var perFeedCount: [String: Int] = [:]
        for index in items.indices where taken < size {
            let count = perFeedCount[items[index].feedSlug, default: 0]
            guard count < perFeed else { continue }
            perFeedCount[items[index].feedSlug] = count + 1
            onPage[index] = true
            taken += 1
        }
        for index in items.indices where taken < size && !onPage[index] {
            onPage[index] = true
            taken += 1
        }
        var arranged: [SiteItem] = []
        arranged.reserveCapacity(items.count)
        for index in items.indices where onPage[index] { arranged.append(items[index]) }
        for index in items.indices where !onPage[index] { arranged.append(items[index]) }
        return arranged
    }
}
