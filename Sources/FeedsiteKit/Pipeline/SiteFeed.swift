import FeedsiteShared
import Foundation

/// One channel as the site shows it.
package struct SiteFeed: Sendable, Hashable {
    package var source: FeedSource
    /// `feeds/<slug>/`, unique across the site.
    package var slug: String
    /// The name from `feeds.yml`, else the channel's title, else the host.
    package var name: String
    /// The channel's description as plain text.
    package var description: String?
    /// The web site the feed belongs to.
    package var siteLink: String?
    /// Newest first.
    package var items: [SiteItem]
    /// Set when this run could not refresh the feed.
    package var stale: StaleNote?
    /// The channel's language (BCP 47), for the `lang` of its items.
    package var language: String?
    /// The channel's image or icon (http(s) URL).
    package var image: String?
    /// The feed's address to publish (`FeedRecord.publishedFeedURL`; by default the source's
    /// public URL); nil for a local file that names none.
    package var feedLink: String?
    /// The feed's avatar (`avatars/<slug>.webp`) and its bytes; nil: its monogram.
    package var avatar: SiteAvatar?

    package init(
        source: FeedSource, slug: String, name: String, description: String?, siteLink: String?, items: [SiteItem],
        stale: StaleNote? = nil, language: String? = nil, image: String? = nil, feedLink: String? = nil,
        avatar: SiteAvatar? = nil
    ) {
        self.avatar = avatar
        self.feedLink = feedLink ?? source.publicURL?.absoluteString
        self.stale = stale
        self.language = language
        self.image = image
        self.source = source
        self.slug = slug
        self.name = name
        self.description = description
        self.siteLink = siteLink
        self.items = items
    }
}

/// Why a feed shows the items saved before: when it was last refreshed, and why not since.
package struct StaleNote: Sendable, Hashable, CustomStringConvertible {
    package var lastSuccess: Date?
    /// The last failure, in English like every diagnostic: `HTTP 503`.
    package var reason: String

    /// `unchanged since 2026-11-19: HTTP 503` (the terminal's and `status.json`'s wording).
    package var description: String {
        "\(lastSuccess.map { "unchanged since \(DayFormat.string($0))" } ?? "not refreshed"): \(reason)"
    }
}

/// A feed's avatar as the site publishes it: its path and its bytes (WebP or PNG, at most 64×64).
package struct SiteAvatar: Sendable, Hashable {
    /// `avatars/<feed-slug>.webp` (or `.png`).
    package var path: String
    package var data: Data
}
