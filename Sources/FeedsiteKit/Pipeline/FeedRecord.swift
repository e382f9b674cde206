import FeedsiteShared
import Foundation

/// One feed after this run's outcome was merged into what was remembered: what the site shows
/// for it and what the status page says about it.
package struct FeedRecord: Sendable, Hashable {
    package var source: FeedSource
    /// The remembered state after this run.
    package var state: FeedState
    package var run: FeedRun
    /// True when this run did not refresh the feed and older items are shown instead.
    package var isStale: Bool
    /// Items this run saw for the first time.
    package var newItemCount: Int
    /// Why this run failed the feed (nil when it did not).
    package var failure: FeedFailure?
    /// Parse warnings from this run.
    package var warnings: [String]
    /// Items that had left the feed and passed `keep_days`, removed this run.
    package var expiredCount: Int = 0
    /// Added to `feeds.yml` while builds did not fetch: nothing is known about it yet, so it has
    /// no page, no slug and no health until it is fetched.
    package var isPending: Bool = false
    /// The saved item count when the items themselves were not loaded (a build that changed
    /// nothing skips them); nil once `state.items` holds them.
    var unloadedItemCount: Int?

    /// Items kept for the feed.
    package var itemCount: Int { unloadedItemCount ?? state.items.count }

    /// Why a stale feed shows the items saved before; nil for a feed that is not stale.
    package var stale: StaleNote? {
        guard isStale else { return nil }
        return StaleNote(
            lastSuccess: state.health.lastSuccess,
            reason: failure?.description ?? state.health.lastError ?? "the last fetch failed")
    }

    /// The name from `feeds.yml`, else the channel's title, else the host.
    package var displayName: String { givenName ?? source.url.host ?? source.url.absoluteString }

    /// The name from `feeds.yml`, else the channel's title; nil until the feed has one.
    var givenName: String? {
        if let name = source.name, !name.isEmpty { return name }
        return state.channel.title.isEmpty ? nil : state.channel.title
    }

    /// `feed 'Swift.org' (https://…)`: the feed in diagnostics, by its title once it is known.
    package var label: String {
        "feed '\(displayName)' (\(source.url.absoluteString))"
    }

    /// The avatar to publish: this run's image under the name the merge gave it; nil: the monogram.
    package var avatar: SiteAvatar? {
        guard let image = run.avatar?.image, let path = state.avatar?.file else { return nil }
        return SiteAvatar(path: path, data: image.data)
    }

    /// Whether this build fetched the feed (`--offline` and `serve`'s re-renders do not).
    package var isFetched: Bool { run.outcome != .skipped }

    /// The feed read for the `feeds.yml` entry: its URL, or the feed its web page links to.
    package var feedURL: URL {
        if case .fresh = run.outcome { return run.discoveredURL ?? source.url }
        return run.discoveredURL ?? state.discoveredURL(onHostOf: source.url) ?? source.url
    }

    /// The feed's address to publish (feed page, status page, `opml.xml`): `feedURL`; for a local
    /// file, the address the feed gives itself, if any (a path would be a broken link on the site).
    package var publishedFeedURL: URL? {
        source.isLocal ? state.channel.feedLink.flatMap(URL.init(string:)) : feedURL
    }

    /// `ok`, `stale` (failing, older items shown), `failing` (nothing to show) or `pending` (not
    /// fetched yet). A build that did not fetch keeps the health of the last one that did.
    package var health: String {
        if isPending { return "pending" }
        let isFailing = failure != nil || (!isFetched && state.health.consecutiveFailures > 0)
        guard isFailing else { return "ok" }
        return itemCount == 0 ? "failing" : "stale"
    }

    /// The HTTP status of this run's last response; for a feed not fetched, the last one known.
    package var httpStatus: Int? {
        isFetched ? run.status : state.health.lastStatus
    }

    /// For each record that reads the same feed as another (a web page and the feed it links to,
    /// both in `feeds.yml`), the index of the record that shows it: the entry naming the feed
    /// itself, else the first.
    static func sameFeeds(_ records: [FeedRecord]) -> [Int: Int] {
        let candidates = records.indices.filter { !records[$0].isPending }
        let direct = candidates.filter { records[$0].feedURL == records[$0].source.url }
        let viaPage = candidates.filter { records[$0].feedURL != records[$0].source.url }
        var owner: [String: Int] = [:]
        var same: [Int: Int] = [:]
        for index in direct + viaPage {
            let identity = requestedIdentity(records[index].feedURL)
            if let shownBy = owner[identity] {
                same[index] = shownBy
            } else {
                owner[identity] = index
            }
        }
        return same
    }

    /// A feed's address as it is requested, normalised (`URL.sameFeedKey`, then as posts' links
    /// are): the fragment is never sent, so `/feed.xml#a` is `/feed.xml`, and `HTTP://`, `:80` or
    /// `/./` reach the same feed (`Site.normalisedIdentity` keeps fragments: they tell posts on one
    /// page apart).
    static func requestedIdentity(_ url: URL) -> String {
        Site.normalisedIdentity(url.sameFeedKey)
    }
}
