import Foundation

/// What feedsite remembers between builds, per feed (keyed by the URL in `feeds.yml`): the HTTP
/// validators, the last good items (already sanitised, so a re-render needs no network), when each
/// item was first seen, and the feed's health. Saved in the state directory and published in the
/// site (`status/state.json`) so a fresh CI runner can pick up where the last one left off.
///
/// The types are plain `Codable` values: `StateFile` decides how they are laid out on disk, so a
/// field added here is saved, published and restored without further work.
package struct SiteState: Sendable, Hashable, Codable {
    /// The format `StateStore` writes. Version 1 (one object per feed, items inside) is still read;
    /// version 2 keeps every feed's items apart from its validators and health, so a build where
    /// every feed answered 304 decodes almost nothing. A newer file is kept aside, never overwritten.
    package static let currentVersion = 2

    package var version: Int = SiteState.currentVersion
    /// Feed URL (as written in `feeds.yml`) → what is known about it.
    package var feeds: [String: FeedState] = [:]
}

/// Everything remembered about one feed.
package struct FeedState: Sendable, Hashable, Codable {
    /// `ETag` of the last 200 response, sent back as `If-None-Match`.
    package var etag: String?
    /// `Last-Modified` of the last 200 response, sent back as `If-Modified-Since`.
    package var lastModified: String?
    /// The URL the feed was last read from, after redirects.
    package var finalURL: String?
    /// When the URL in `feeds.yml` is a web page: the feed it links to, read directly from then on
    /// (until `feeds.yml` names it).
    package var discoveredURL: String?
    /// The channel as last read.
    package var channel = ChannelInfo()
    /// `feeds/<slug>/`, kept once assigned so the feed's URLs never change.
    package var slug: String?
    /// The items to publish: the feed's current ones and older ones kept for `keep_days`.
    package var items: [StoredItem] = []
    package var health = FeedHealth()
    /// The feed's icon, as downloaded and published under `avatars/`; nil until one was tried.
    package var avatar: AvatarState?

    /// `discoveredURL`, when it is on the host of `page` (the `feeds.yml` URL it was found on). The
    /// saved state is anyone's file, so it cannot send a feed's requests to another host (an
    /// internal one); a page whose feed lives elsewhere is read again each build, and gives it.
    package func discoveredURL(onHostOf page: URL) -> URL? {
        guard let discovered = discoveredURL.flatMap(URL.init(string:)), let host = discovered.host?.lowercased(),
            host == page.host?.lowercased(), discovered.port == page.port
        else { return nil }
        return discovered
    }
}

/// A channel's own fields, as the site shows them.
package struct ChannelInfo: Sendable, Hashable, Codable {
    package var title = ""
    package var description: String?
    package var siteLink: String?
    /// The channel's language as a BCP 47 tag (`en-US`), when it gives a valid one.
    package var language: String?
    /// The channel's image or icon (an http(s) URL), shown next to its name.
    package var image: String?
    /// The address the feed gives itself (`atom:link rel="self"`, an http(s) URL): what the site
    /// links as the feed when it is read from a local file.
    package var feedLink: String?
}

/// One remembered item.
package struct StoredItem: Sendable, Hashable, Codable {
    /// The item's identity within its feed across runs (`ItemIdentity.keys`: its id, else its link,
    /// else link, title and date).
    package var key: String
    /// When feedsite first saw the item: the date of items that have none.
    package var firstSeen: Date
    /// Whether the item was in the feed the last time the feed was read.
    package var isInFeed: Bool
    /// The item as published (slug and feed fields are filled in when the site is assembled).
    package var item: SiteItem
}

/// How a feed has been doing, for the status page and the stale marks.
package struct FeedHealth: Sendable, Hashable, Codable {
    /// The UTC day (midnight) the feed was last read successfully (a 200 that parsed, or a 304).
    package var lastSuccess: Date?
    /// Failed runs in a row (0 when the last run succeeded), at most `maxConsecutiveFailures`.
    package var consecutiveFailures = 0
    /// Why the last failed run failed.
    package var lastError: String?
    /// The HTTP status of the last response other than a 304 (which confirms it), nil when none
    /// arrived; shown again by a build that does not fetch.
    package var lastStatus: Int?

    /// Where `consecutiveFailures` stops counting (hourly builds for a century stay below it), so
    /// adding one can never overflow, whatever a restored state said.
    package static let maxConsecutiveFailures = 1_000_000
}
