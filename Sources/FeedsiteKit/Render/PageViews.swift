import Foundation
import Mustache

// View models: plain structs read by the Mustache templates through reflection. Every `String`
// is HTML-escaped by `{{name}}`; only `SanitisedHTML` may be emitted with `{{{name}}}` (the
// template test enforces that). URLs are relative to the page (`root` leads back to the site root)
// so the site works under any sub-path and from `file://`.

extension SanitisedHTML: MustacheCustomRenderable {
    /// What `{{{content}}}` emits: the sanitiser's output, verbatim.
    public var renderText: String { html }
    public var isNull: Bool { html.isEmpty }
}

/// Fields every page has, used by `layout.mustache`.
struct SiteView {
    var title: String
    var description: String?
    var generator: String
    /// The site publishes `atom.xml`, `rss.xml` and `feed.json` (it has a `base_url`).
    var hasFeeds: Bool = false
    /// `noindex: true` in feeds.yml: pages ask search engines not to index them.
    var noindex: Bool = false
    /// `2026-11-21 06:38 UTC`, only with `show_build_time: true` (pages stay reproducible otherwise).
    var buildTime: String?
}

/// A date as machines (`datetime`) and people read it.
struct DateView {
    /// `2026-11-19T10:00:00Z`
    var iso: String
    /// `19 Nov 2026`
    var display: String
}

/// An item in a list (index, feed page).
struct ItemSummaryView {
    var title: String
    /// The item's page on this site, relative to the current page.
    var url: String
    var feedName: String
    /// The feed's page on this site, relative to the current page.
    var feedURL: String
    var date: DateView?
    var excerpt: String?
    var authors: String?
}

/// A link to a feed's page (index sidebar).
struct FeedLinkView {
    var name: String
    var url: String
    var itemCount: Int
}

struct EnclosureView {
    var url: String
    var type: String?
    /// `12.3 MB`
    var size: String?
    /// The file name or host, for the link text.
    var label: String
}

struct IndexPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var items: [ItemSummaryView]
    var feeds: [FeedLinkView]
}

struct FeedPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var feed: FeedView
}

struct FeedView {
    var name: String
    /// "unchanged since 2026-11-19: HTTP 503" when this build could not refresh the feed.
    var staleNote: String?
    var description: String?
    var siteLink: String?
    var feedLink: String
    var items: [ItemSummaryView]
}

struct ItemPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var item: ItemView
}

struct ItemView {
    var title: String
    /// The original article.
    var link: String?
    var feedName: String
    var feedURL: String
    var authors: String?
    var date: DateView?
    var content: SanitisedHTML
    var categories: [String]
    var hasCategories: Bool
    var enclosures: [EnclosureView]
}

struct StatusPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    /// "5 of 6 feeds refreshed in the last build"
    var summary: String
    var feeds: [FeedStatusView]
}

/// One row of the status page; the same facts as `status/status.json`.
struct FeedStatusView: Encodable {
    var name: String
    var url: String
    /// The feed's page on this site.
    var page: String?
    /// `ok`, `stale` (showing older items) or `failing` (nothing to show).
    var health: String
    var httpStatus: Int?
    var bytes: Int?
    var items: Int
    var newItems: Int
    var lastSuccess: String?
    var consecutiveFailures: Int
    var lastError: String?
    var warnings: [String]
    var isStale: Bool

    enum CodingKeys: String, CodingKey {
        case name, url, health, httpStatus, bytes, items, newItems, lastSuccess, consecutiveFailures, lastError
        case warnings, isStale = "stale"
    }
}
