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
