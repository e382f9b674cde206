import Foundation

// View models of tags (from `feeds.yml`) and categories (from the items); see PageViews.swift for
// the rules every view follows.

/// A tag or category named on a page: on an item, a feed, a summary.
struct TermView {
    var name: String
    /// Its page, when it has one (categories have pages only with `category_pages: true`).
    /// Not `url`: a section on an absent `url` would find the summary's own `url` further out.
    var pageURL: SitePath?
}

/// A tag or category in a list of them: `tags/index.html`, the index's sidebar.
struct TermLinkView {
    var name: String
    /// Its page, relative.
    var url: String
    /// Feeds listed under it (for a category: feeds that have items in it).
    var feedCount: Int
    var itemCount: Int
    /// `1 feed, 14 items`, in the site's language.
    var counts: String
}

/// A feed of the site offered for subscription (`<link rel="alternate">` and a visible link).
struct AlternateView {
    /// `application/atom+xml`, `application/rss+xml`, `application/feed+json`.
    var type: String
    /// `Planet: rust (Atom)`.
    var title: String
    /// `Atom`, `RSS`, `JSON Feed`.
    var label: String
    /// Relative to the page.
    var url: String
}

/// `tags/index.html` and `categories/index.html`: every term with its counts, by name.
struct TermIndexPage {
    var head: PageHead
    /// `Tags` or `Categories` (the h1).
    var heading: String
    /// Whether these are the items' own categories (else tags from `feeds.yml`).
    var isCategories: Bool
    var terms: [TermLinkView]
}

/// `tags/<tag>/index.html` (and `…/page/2/index.html`…), likewise under `categories/`: the
/// term's items, newest first, `page_size` per page, under day headings.
struct TermPage {
    var head: PageHead
    /// The tag or category as written.
    var name: String
    /// `Tag` or `Category`.
    var kind: String
    /// Whether this is one of the items' own categories (else a tag from `feeds.yml`).
    var isCategory: Bool
    /// The list of every tag (or category), relative.
    var indexURL: String
    /// The feeds listed under it (for a category: those with items in it), in `feeds.yml` order.
    var feeds: [ListLinkView]
    var items: [ItemSummaryView]
    /// The same items under day headings.
    var days: [DayView]
    var pagination: PaginationView
    /// The tag's own `atom.xml`, `rss.xml` and `feed.json` (published with a `base_url`; none for
    /// categories).
    var alternates: [AlternateView]
}
