import FeedsiteSanitise
import Foundation

// View models: plain values the templates read. Each property is a template variable, declared
// only here: the TemplateGlue build-tool plugin (`Plugins/TemplateGlue`) generates, at every build
// where a PageViews*.swift file changed, what `{{name}}` answers on each type and the schema the
// templates are checked against when they are loaded (`PageViews+Template.swift`, in
// `.build/plugins/outputs/`); a property it cannot read fails the build at its line.
// Every `String` is HTML-escaped, even by `{{{name}}}`; only `SanitisedHTML` is emitted verbatim,
// and only by `{{{name}}}`. URLs are relative to the page (`root` leads back to the site root) so
// the site works under any sub-path and from `file://`.

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
    /// `language` from feeds.yml (default `en`): `<html lang>`.
    var language: String = SiteConfiguration.Defaults.language
    /// The site's language is written right to left (`ar`, `he`…): `<html dir="rtl">`.
    var isRightToLeft: Bool = false
    /// The time zone dates are shown in (`Europe/Berlin`, `UTC`).
    var timeZone: String = "UTC"
    /// A feed in `feeds.yml` has `tags`: the site has `tags/index.html` (linked from the header).
    var hasTags: Bool = false
    /// `category_pages: true` and some item has a category: the site has `categories/index.html`.
    var hasCategories: Bool = false
    /// The site has `search/index.html` and its index: every page's header has a search form.
    var hasSearch: Bool = false
    /// The footer's line in the site's language: `Built with feedsite 1.0. Content belongs to its
    /// authors. Times are UTC.`
    var colophon: String = ""
}

/// What a page puts in `<head>` beyond its title: sharing metadata and rel=prev/next.
struct PageMeta {
    /// `website` for lists, `article` for item pages (Open Graph `og:type`).
    var kind: String = "website"
    /// The page's absolute URL (`og:url`); only with a `base_url`.
    var url: String?
    /// The original article (`<link rel="canonical">`), on item pages.
    var canonical: String?
    /// Plain text for `<meta name="description">` and `og:description`.
    var description: String?
    /// An absolute http(s) image for `og:image` (the feed's avatar on this site), when there is one.
    var image: String?
    /// The previous page (`<link rel="prev">`), relative.
    var prev: String?
    /// The next page (`<link rel="next">`), relative.
    var next: String?
    /// Feeds of this page besides the planet's own (a tag's `atom.xml`…), for `<link rel="alternate">`.
    var alternates: [AlternateView] = []
}

/// What every page but `status` and `404` gives `layout.mustache`. Its fields are the page's own
/// (`{{site.title}}`, `{{pageTitle}}`), not `{{head.…}}`: the template glue inlines them.
struct PageHead: TemplateFieldGroup {
    var site: SiteView
    /// The way back to the site's root from the page (`../../`).
    var root: String
    /// `<title>`.
    var pageTitle: String
    var meta: PageMeta
}

/// A date as machines (`datetime`) and people read it, in the configured time zone.
struct DateView {
    /// `2026-11-19T10:00:00Z` (always UTC)
    var iso: String
    /// `19 Nov 2026`
    var display: String
    /// `19 Nov 2026, 11:00 CET`
    var long: String
}

/// An item in a list (index, feed page, archive).
struct ItemSummaryView {
    var title: String
    /// The item's page on this site.
    var url: SitePath
    var feedName: String
    /// The feed's page on this site.
    var feedURL: SitePath
    var date: DateView?
    var excerpt: String?
    var authors: String?
    /// The feed's language, when it gives one (`lang` on the summary).
    var lang: String?
    /// `rtl` when the feed declares a right-to-left language, else `auto`: `dir` on the title and
    /// excerpt, so Urdu reads right to left beside English.
    var dir: String = "auto"
    /// The item's picture (http(s)), shown small beside it: `media:thumbnail`, an image
    /// `media:content`, `itunes:image`, an image enclosure, JSON Feed `image`, else the content's
    /// first image; nil when there is none.
    var thumbnail: String?
    /// The item links to a video page (YouTube, Vimeo, PeerTube): its thumbnail is the poster.
    var isVideo: Bool = false
    /// The item's own categories (linked with `category_pages: true`).
    var categories: [TermView] = []
    /// It has categories.
    var hasCategories: Bool { !categories.isEmpty }
}

/// One day's items in a list, under a heading: `<h2><time datetime="2026-11-24">Tuesday, 24
/// November 2026</time></h2>`. The day is counted in the site's `timezone`.
struct DayView {
    /// `2026-11-24`, for `<time datetime>`; nil for items without a date.
    var date: String?
    /// `Tuesday, 24 November 2026`; `Undated` for items without a date.
    var display: String
    var items: [ItemSummaryView]
}

/// A link to a page of items, with how many it lists: a feed's page (the index's sidebar, a term's
/// feeds) or an archive month's.
struct ListLinkView {
    /// The feed's name; `November 2026`.
    var name: String
    var url: String
    var itemCount: Int
}

/// Prev/next navigation between the pages of a list. "Newer" is `prev`: lists run newest first.
struct PaginationView {
    /// The newer page, relative; nil on the first page.
    var prev: String?
    /// The older page, relative; nil on the last page.
    var next: String?
    /// 1-based.
    var current: Int
    var total: Int
    /// `Page 2 of 5`, in the site's language.
    var label: String = ""
    /// More than one page: the navigation is shown.
    var isNeeded: Bool { total > 1 }
}

struct EnclosureView {
    var url: String
    var type: String?
    /// `12.3 MB`
    var size: String?
    /// The file name or host, for the link text.
    var label: String
    /// An http(s) `audio/*` enclosure: the page shows an `<audio controls>` player.
    var isAudio: Bool
    /// An http(s) `video/*` enclosure: the page shows a `<video controls>` player.
    var isVideo: Bool
    /// `Download episode.mp3`, in the site's language.
    var download: String = ""
}

/// A video item's poster linking to where it plays.
struct VideoView {
    /// The video's page.
    var url: String
    /// The poster image (http(s)); nil when the feed gives none (then only the link is shown).
    var poster: String?
    /// `Watch on YouTube`, in the site's language.
    var label: String
}

struct IndexPage {
    var head: PageHead
    /// `Latest items` on the first page, `Page 2 of 5` on the others (the h1).
    var heading: String
    /// Whether this is the first page (which shows the site description and the feed list).
    var isFirstPage: Bool
    var items: [ItemSummaryView]
    /// The same items under day headings.
    var days: [DayView]
    var feeds: [ListLinkView]
    /// Every tag, on the first page (empty on the others and when no feed has tags).
    var tags: [TermLinkView] = []
    var pagination: PaginationView
}

struct FeedPage {
    var head: PageHead
    var feed: FeedView
    var pagination: PaginationView
}

struct FeedView {
    var name: String
    /// "unchanged since 2026-11-19: HTTP 503" when this build could not refresh the feed.
    var staleNote: String?
    /// The sentence shown then, in the site's language: `Not refreshed in the last build (…);
    /// showing the items saved before.`
    var staleBanner: String?
    var description: String?
    var siteLink: String?
    /// The feed's address (http(s)); nil for a local feed file that names none.
    var feedLink: String?
    /// The feed's avatar (`avatars/<slug>.webp`) when it has one; nil when it shows its monogram.
    var image: SitePath?
    /// The feed's icon as shown: its image, else its monogram (`avatars/<slug>.svg`).
    var avatar: SitePath
    /// `rtl` when the feed declares a right-to-left language, else `auto` (its name and description).
    var dir: String = "auto"
    var items: [ItemSummaryView]
    /// The same items under day headings.
    var days: [DayView]
    /// The feed's tags from `feeds.yml`, linked to their pages.
    var tags: [TermView] = []
    /// It has tags.
    var hasTags: Bool { !tags.isEmpty }
}

struct ItemPage {
    var head: PageHead
    var item: ItemView
}

/// A link to another item (prev/next within a feed).
struct ItemLinkView {
    var title: String
    var url: String
}

struct ItemView {
    var title: String
    /// The original article.
    var link: String?
    var feedName: String
    var feedURL: SitePath
    /// The feed's avatar (`avatars/<slug>.webp`) when it has one; nil when it shows its monogram.
    var feedImage: SitePath?
    /// The feed's icon as shown: its image, else its monogram (`avatars/<slug>.svg`).
    var feedAvatar: SitePath
    /// The feed's web site.
    var feedSiteLink: String?
    /// The feed's language (`lang` on the article).
    var lang: String?
    /// `rtl` when the feed declares a right-to-left language, else `auto` (`dir` on the title and content).
    var dir: String = "auto"
    var authors: String?
    var date: DateView?
    /// `4 min read`; nil when the word count is unknown.
    var readingTime: String?
    var content: SanitisedHTML
    var categories: [String]
    var hasCategories: Bool
    /// The same categories, each linked to its page with `category_pages: true`.
    var categoryLinks: [TermView] = []
    /// The feed's tags from `feeds.yml`, linked to their pages.
    var tags: [TermView] = []
    /// It has tags.
    var hasTags: Bool { !tags.isEmpty }
    var enclosures: [EnclosureView]
    var hasEnclosures: Bool
    /// The video this item is (its link is a YouTube, Vimeo or PeerTube page): its poster, linking there.
    var video: VideoView?
    /// The next newer item of the same feed.
    var newer: ItemLinkView?
    /// The next older item of the same feed.
    var older: ItemLinkView?
    /// `More from <feed>` (the label of the newer/older navigation), in the site's language.
    var moreFrom: String = ""
}

/// `archive/index.html`: every month that has items.
struct ArchiveIndexPage {
    var head: PageHead
    var years: [ArchiveYearView]
}

struct ArchiveYearView {
    var year: String
    var months: [ListLinkView]
}

/// `archive/2026/11/index.html` (and `…/page/2/index.html`…): one month's items, newest first.
struct ArchiveMonthPage {
    var head: PageHead
    /// `November 2026`
    var name: String
    var items: [ItemSummaryView]
    /// The same items under day headings.
    var days: [DayView]
    /// The archive's index page, relative.
    var archiveURL: String
    /// The pages of this month (`page_size` items each), like the index's.
    var pagination: PaginationView
    /// The next newer month that has items (its first page).
    var newerMonth: ListLinkView?
    /// The next older month that has items (its first page).
    var olderMonth: ListLinkView?
    /// There is a newer or an older month: the month navigation is shown.
    var hasOtherMonths: Bool
}

/// `404.html`: the page static hosts (GitHub Pages, Netlify, Cloudflare Pages, nginx with
/// `error_page`) serve for any missing URL, at whatever depth it was asked for.
struct NotFoundPage {
    var site: SiteView
    /// Path-absolute: the site's path on its host (`/`, or `/planet/` for a `base_url` of
    /// `https://example.org/planet/`), because the same file answers `/a/b/c/missing`, where a
    /// relative link would resolve against the missing URL's folder.
    var root: String
    var pageTitle: String
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
    /// The feed read: the URL in `feeds.yml`, or the feed the web page there links to (a local
    /// feed's path as `feeds.yml` names it).
    var url: String
    /// `url` when it is an address on the web (a link on the status page); a local feed's own
    /// http(s) address, if it names one; else nil.
    var link: String?
    /// The URL in `feeds.yml` when it is a web page (`url` is then its feed).
    var configuredURL: String?
    /// The feed's page on this site.
    var page: String?
    /// `ok`, `stale` (showing older items), `failing` (nothing to show) or `pending` (not fetched
    /// yet). A build that does not fetch keeps the health of the last one that did.
    var health: String
    /// `health` in the site's language (the page's; `status.json` keeps `health`).
    var healthLabel: String = ""
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
    /// Items the `exclude:`/`include:` rules left out (also in `dropped`).
    var filtered: Int
    /// The same items per rule, with the rule's line in `feeds.yml`.
    var filteredBy: [FilteredView]
    /// `read 25, shown 23; dropped: 2 duplicates of posts in 'First'`.
    var accounting: String
    var newItems: Int
    var lastSuccess: String?
    /// `lastSuccess` in the site's language (`20 Nov 2026`; the page's, not `status.json`'s).
    var lastSuccessLabel: String?
    var consecutiveFailures: Int
    var lastError: String?
    var warnings: [String]
    /// Why the feed shows its monogram or an icon made before (`no avatar: …`, `kept the avatar
    /// made before: …`), until an icon is taken again; never an error of the feed.
    var avatarNote: String?
    var isStale: Bool

    enum CodingKeys: String, CodingKey {
        case name, url, configuredURL, health, isFetched = "fetched", note, httpStatus, bytes, items, read, kept
        case dropped, filtered, filteredBy, newItems, lastSuccess, consecutiveFailures, lastError, warnings
        case avatarNote, isStale = "stale"
    }
}

/// A feed's items that were read or kept and are not shown, by reason (`read + kept = items +
/// repeatedId + filtered + duplicates + maxItems + futureDate`; `keepDays` left the archive this build).
struct DroppedView: Encodable {
    /// Left out by the `exclude:`/`include:` rules.
    var filtered: Int
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

/// Items one filter rule left out.
struct FilteredView: Encodable {
    /// `exclude "sponsored"`, `exclude title ~ /^Ad:/`, `matched no include rule`.
    var rule: String
    /// The rule's line in `feeds.yml` (for `matched no include rule`, the `include:` key's).
    var line: Int?
    var count: Int
}

/// An item not shown because another feed shows the same post.
struct DuplicateView: Encodable {
    var title: String
    var link: String?
    /// The feed that shows it.
    var feedName: String
    var feedURL: String
}
