import Foundation

// View models: plain values read by the templates (`PageViews+Template.swift` answers the names).
// Every `String` is HTML-escaped, even by `{{{name}}}`; only `SanitisedHTML` is emitted verbatim,
// and only by `{{{name}}}` (the template test also checks the templates). URLs are relative to the
// page (`root` leads back to the site root) so the site works under any sub-path and from `file://`.
// The views templates reach by name (`{{item.title}}`, `{{site.title}}`, `{{#date}}`, a list's
// elements) are immutable final classes: each lookup hands the view to the renderer, and a class
// goes as one reference where a struct of more than three words was copied into a new existential
// box every time (boxing, copying and freeing were ~2 % of a cold build). Views that are built up
// by mutation (archive years, pages) stay structs.

/// Fields every page has, used by `layout.mustache`.
final class SiteView: Sendable {
    let title: String
    let description: String?
    let generator: String
    /// The site publishes `atom.xml`, `rss.xml` and `feed.json` (it has a `base_url`).
    let hasFeeds: Bool
    /// `noindex: true` in feeds.yml: pages ask search engines not to index them.
    let noindex: Bool
    /// `2026-11-21 06:38 UTC`, only with `show_build_time: true` (pages stay reproducible otherwise).
    let buildTime: String?
    /// `language` from feeds.yml (default `en`): `<html lang>`.
    let language: String
    /// The time zone dates are shown in (`Europe/Berlin`, `UTC`).
    let timeZone: String

    init(
        title: String, description: String? = nil, generator: String, hasFeeds: Bool = false, noindex: Bool = false,
        buildTime: String? = nil, language: String = SiteConfiguration.Defaults.language, timeZone: String = "UTC"
    ) {
        self.title = title
        self.description = description
        self.generator = generator
        self.hasFeeds = hasFeeds
        self.noindex = noindex
        self.buildTime = buildTime
        self.language = language
        self.timeZone = timeZone
    }
}

/// What a page puts in `<head>` beyond its title: sharing metadata and rel=prev/next.
final class PageMeta: Sendable {
    /// `website` for lists, `article` for item pages (Open Graph `og:type`).
    let kind: String
    /// The page's absolute URL (`og:url`); only with a `base_url`.
    let url: String?
    /// The original article (`<link rel="canonical">`), on item pages.
    let canonical: String?
    /// Plain text for `<meta name="description">` and `og:description`.
    let description: String?
    /// An http(s) image for `og:image`.
    let image: String?
    /// The previous page (`<link rel="prev">`), relative.
    let prev: String?
    /// The next page (`<link rel="next">`), relative.
    let next: String?

    init(
        kind: String = "website", url: String? = nil, canonical: String? = nil, description: String? = nil,
        image: String? = nil, prev: String? = nil, next: String? = nil
    ) {
        self.kind = kind
        self.url = url
        self.canonical = canonical
        self.description = description
        self.image = image
        self.prev = prev
        self.next = next
    }
}

/// A date as machines (`datetime`) and people read it, in the configured time zone.
final class DateView: Sendable {
    /// `2026-11-19T10:00:00Z` (always UTC)
    let iso: String
    /// `19 Nov 2026`
    let display: String
    /// `19 Nov 2026, 11:00 CET`
    let long: String

    init(
        iso: String, display: String, long: String
    ) {
        self.iso = iso
        self.display = display
        self.long = long
    }
}

/// An item in a list (index, feed page, archive).
final class ItemSummaryView: Sendable {
    let title: String
    /// The item's page on this site, relative to the current page.
    let url: String
    let feedName: String
    /// The feed's page on this site, relative to the current page.
    let feedURL: String
    let date: DateView?
    let excerpt: String?
    let authors: String?
    /// The feed's language, when it gives one (`lang` on the summary).
    let lang: String?

    init(
        title: String, url: String, feedName: String, feedURL: String, date: DateView? = nil, excerpt: String? = nil,
        authors: String? = nil, lang: String? = nil
    ) {
        self.title = title
        self.url = url
        self.feedName = feedName
        self.feedURL = feedURL
        self.date = date
        self.excerpt = excerpt
        self.authors = authors
        self.lang = lang
    }
}

/// A link to a feed's page (index sidebar).
final class FeedLinkView: Sendable {
    let name: String
    let url: String
    let itemCount: Int

    init(
        name: String, url: String, itemCount: Int
    ) {
        self.name = name
        self.url = url
        self.itemCount = itemCount
    }
}

/// Prev/next navigation between the pages of a list. "Newer" is `prev`: lists run newest first.
final class PaginationView: Sendable {
    /// The newer page, relative; nil on the first page.
    let prev: String?
    /// The older page, relative; nil on the last page.
    let next: String?
    /// 1-based.
    let current: Int
    let total: Int
    /// More than one page: the navigation is shown.
    let isNeeded: Bool

    init(prev: String?, next: String?, current: Int, total: Int) {
        self.prev = prev
        self.next = next
        self.current = current
        self.total = total
        self.isNeeded = total > 1
    }
}

final class EnclosureView: Sendable {
    let url: String
    let type: String?
    /// `12.3 MB`
    let size: String?
    /// The file name or host, for the link text.
    let label: String
    /// An http(s) `audio/*` enclosure: the page shows an `<audio controls>` player.
    let isAudio: Bool
    /// An http(s) `video/*` enclosure: the page shows a `<video controls>` player.
    let isVideo: Bool

    init(
        url: String, type: String? = nil, size: String? = nil, label: String, isAudio: Bool, isVideo: Bool
    ) {
        self.url = url
        self.type = type
        self.size = size
        self.label = label
        self.isAudio = isAudio
        self.isVideo = isVideo
    }
}

struct IndexPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var meta: PageMeta
    /// `Latest items` on the first page, `Page 2 of 5` on the others (the h1).
    var heading: String
    /// Whether this is the first page (which shows the site description and the feed list).
    var isFirstPage: Bool
    var items: [ItemSummaryView]
    var feeds: [FeedLinkView]
    var pagination: PaginationView
}

struct FeedPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var meta: PageMeta
    var feed: FeedView
    var pagination: PaginationView
}

final class FeedView: Sendable {
    let name: String
    /// "unchanged since 2026-11-19: HTTP 503" when this build could not refresh the feed.
    let staleNote: String?
    let description: String?
    let siteLink: String?
    let feedLink: String
    /// The channel's image (http(s)), shown as its icon.
    let image: String?
    let items: [ItemSummaryView]

    init(
        name: String, staleNote: String? = nil, description: String? = nil, siteLink: String? = nil, feedLink: String,
        image: String? = nil, items: [ItemSummaryView]
    ) {
        self.name = name
        self.staleNote = staleNote
        self.description = description
        self.siteLink = siteLink
        self.feedLink = feedLink
        self.image = image
        self.items = items
    }
}

struct ItemPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var meta: PageMeta
    var item: ItemView
}

/// A link to another item (prev/next within a feed).
final class ItemLinkView: Sendable {
    let title: String
    let url: String

    init(
        title: String, url: String
    ) {
        self.title = title
        self.url = url
    }
}

final class ItemView: Sendable {
    let title: String
    /// The original article.
    let link: String?
    let feedName: String
    let feedURL: String
    /// The feed's image (http(s)), shown as its icon next to its name.
    let feedImage: String?
    /// The feed's web site.
    let feedSiteLink: String?
    /// The feed's language (`lang` on the article).
    let lang: String?
    let authors: String?
    let date: DateView?
    /// `4 min read`; nil when the word count is unknown.
    let readingTime: String?
    let content: SanitisedHTML
    let categories: [String]
    let hasCategories: Bool
    let enclosures: [EnclosureView]
    let hasEnclosures: Bool
    /// The next newer item of the same feed.
    let newer: ItemLinkView?
    /// The next older item of the same feed.
    let older: ItemLinkView?

    init(
        title: String, link: String? = nil, feedName: String, feedURL: String, feedImage: String? = nil,
        feedSiteLink: String? = nil, lang: String? = nil, authors: String? = nil, date: DateView? = nil,
        readingTime: String? = nil, content: SanitisedHTML, categories: [String], hasCategories: Bool,
        enclosures: [EnclosureView], hasEnclosures: Bool, newer: ItemLinkView? = nil, older: ItemLinkView? = nil
    ) {
        self.title = title
        self.link = link
        self.feedName = feedName
        self.feedURL = feedURL
        self.feedImage = feedImage
        self.feedSiteLink = feedSiteLink
        self.lang = lang
        self.authors = authors
        self.date = date
        self.readingTime = readingTime
        self.content = content
        self.categories = categories
        self.hasCategories = hasCategories
        self.enclosures = enclosures
        self.hasEnclosures = hasEnclosures
        self.newer = newer
        self.older = older
    }
}

/// `archive/index.html`: every month that has items.
struct ArchiveIndexPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var meta: PageMeta
    var years: [ArchiveYearView]
}

struct ArchiveYearView {
    var year: String
    var months: [ArchiveMonthLinkView]
}

struct ArchiveMonthLinkView {
    /// `November 2026`
    var name: String
    var url: String
    var itemCount: Int
}

/// `archive/2026/11/index.html` (and `…/page/2/index.html`…): one month's items, newest first.
struct ArchiveMonthPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    var meta: PageMeta
    /// `November 2026`
    var name: String
    var items: [ItemSummaryView]
    /// The archive's index page, relative.
    var archiveURL: String
    /// The pages of this month (`page_size` items each), like the index's.
    var pagination: PaginationView
    /// The next newer month that has items (its first page).
    var newerMonth: ArchiveMonthLinkView?
    /// The next older month that has items (its first page).
    var olderMonth: ArchiveMonthLinkView?
    /// There is a newer or an older month: the month navigation is shown.
    var hasOtherMonths: Bool
}

struct StatusPage {
    var site: SiteView
    var root: String
    var pageTitle: String
    /// "5 of 6 feeds refreshed in the last build"; "Rendered from saved state: …" when the build
    /// fetched nothing.
    var summary: String
    var feeds: [FeedStatusView]
}

/// One row of the status page; the same facts as `status/status.json`.
struct FeedStatusView: Encodable {
    var name: String
    /// The feed read: the URL in `feeds.yml`, or the feed the web page there links to.
    var url: String
    /// The URL in `feeds.yml` when it is a web page (`url` is then its feed).
    var configuredURL: String?
    /// The feed's page on this site.
    var page: String?
    /// `ok`, `stale` (showing older items), `failing` (nothing to show) or `pending` (not fetched
    /// yet). A build that does not fetch keeps the health of the last one that did.
    var health: String
    /// Whether this build fetched the feed.
    var isFetched: Bool
    /// "not fetched in this build", "not fetched yet", "reads the same feed as 'X'".
    var note: String?
    /// This build's HTTP status; the last known one when the feed was not fetched.
    var httpStatus: Int?
    var bytes: Int?
    /// Items shown.
    var items: Int
    /// Entries in the feed as last read.
    var read: Int
    /// Items no longer in the feed, kept from earlier builds.
    var kept: Int
    /// What was read or kept and is not shown, by reason.
    var dropped: DroppedView
    /// `read 25, shown 23; dropped: 2 duplicates of posts in 'First'`.
    var accounting: String
    var newItems: Int
    var lastSuccess: String?
    var consecutiveFailures: Int
    var lastError: String?
    var warnings: [String]
    var isStale: Bool

    enum CodingKeys: String, CodingKey {
        case name, url, configuredURL, health, isFetched = "fetched", note, httpStatus, bytes, items, read, kept
        case dropped, newItems, lastSuccess, consecutiveFailures, lastError, warnings, isStale = "stale"
    }
}

/// A feed's items that were read or kept and are not shown, by reason (`read + kept = items +
/// repeatedId + duplicates + maxItems + futureDate`; `keepDays` left the archive this build).
struct DroppedView: Encodable {
    /// Entries that repeated an earlier entry's id in the same document (the same post again).
    var repeatedId: Int
    /// Posts another feed shows.
    var duplicates: [DuplicateView]
    /// Beyond the feed's `max_items` newest.
    var maxItems: Int
    /// No longer in the feed and older than `keep_days`: removed this build.
    var keepDays: Int
    /// Dated in the future under `future_dates: drop`.
    var futureDate: Int
}

/// An item not shown because another feed shows the same post.
struct DuplicateView: Encodable {
    var title: String
    var link: String?
    /// The feed that shows it.
    var feedName: String
    var feedURL: String
}
