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
    /// Set when this run could not refresh the feed: "unchanged since 2026-11-19: HTTP 503".
    package var staleNote: String?
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
        staleNote: String? = nil, language: String? = nil, image: String? = nil, feedLink: String? = nil,
        avatar: SiteAvatar? = nil
    ) {
        self.avatar = avatar
        self.feedLink = feedLink ?? source.publicURL?.absoluteString
        self.staleNote = staleNote
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

/// A feed's avatar as the site publishes it: its path and its bytes (WebP or PNG, at most 64×64).
package struct SiteAvatar: Sendable, Hashable {
    /// `avatars/<feed-slug>.webp` (or `.png`).
    package var path: String
    package var data: Data

    package init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}
