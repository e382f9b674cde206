import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// The files a site publishes besides its pages: the planet's own feeds (`atom.xml`, `rss.xml`,
/// `feed.json`), its subscription list (`opml.xml`), `sitemap.xml` and `robots.txt`.
///
/// Pure, like `PageRenderer`: the same `Site` always gives the same bytes (no clock is read; the
/// feeds' `updated` date is the newest item's). `PageRenderer.render` merges the result into the
/// pages it renders.
///
/// Feeds and the sitemap need absolute URLs (feed readers and crawlers fetch them out of context,
/// and both formats require absolute links), so they are only published when `feeds.yml` sets
/// `base_url`; without it the site still works from any folder or `file://`, but has no address to
/// put in them. `opml.xml` (which lists the feeds' own URLs) and `robots.txt` are always published.
public enum PublishedFiles {
    /// Every extra file, keyed by its site path (`atom.xml`, `robots.txt`…).
    public static func render(_ site: Site) -> [String: Data] {
        var files: [String: Data] = [:]
        files["opml.xml"] = Data(SubscriptionList.opml(site).utf8)
        guard let published = PublishedSite(site) else {
            files["robots.txt"] = Data(Sitemap.robots(sitemapURL: nil, noindex: site.configuration.noindex).utf8)
            return files
        }
        files["atom.xml"] = Data(SyndicationFeeds.atom(published).utf8)
        files["rss.xml"] = Data(SyndicationFeeds.rss(published).utf8)
        files["feed.json"] = SyndicationFeeds.jsonFeed(published)
        files["sitemap.xml"] = Data(Sitemap.xml(published.sitemapPages, siteURL: published.siteURL).utf8)
        files["robots.txt"] = Data(
            Sitemap.robots(sitemapURL: published.url("sitemap.xml"), noindex: site.configuration.noindex).utf8)
        return files
    }

    /// Whether `render` publishes the planet's feeds (the layout's autodiscovery links need them).
    public static func hasFeeds(_ site: Site) -> Bool {
        site.configuration.baseURL != nil
    }
}

/// A site with a `base_url`, seen from outside: absolute URLs and the entries its feeds publish.
struct PublishedSite {
    let site: Site
    /// `base_url` as a folder: always ends in `/`, without query or fragment.
    let siteURL: String
    /// The newest `feed_items` items, newest first.
    let entries: [PublishedEntry]
    /// The newest item date (feeds need one even when no item has a date: then the Unix epoch,
    /// which keeps the output deterministic).
    let updated: Date

    init?(_ site: Site) {
        guard let baseURL = site.configuration.baseURL else { return nil }
        self.site = site
        self.siteURL = Self.folderURL(baseURL)
        let feedsBySlug = Dictionary(site.feeds.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        let siteURL = self.siteURL
        self.entries = site.items.prefix(max(0, site.configuration.feedItems)).map { item in
            PublishedEntry(item: item, feed: feedsBySlug[item.feedSlug], siteURL: siteURL)
        }
        self.updated = site.items.compactMap(\.date).max() ?? Date(timeIntervalSince1970: 0)
    }

    /// An absolute URL for a site path (`atom.xml`, `feeds/swift-org/`).
    func url(_ path: String) -> String {
        siteURL + path
    }

    /// Every page, as the sitemap lists it: each index page, each feed page, the archive, each
    /// item page; with the date of the newest item shown there. Slugs are ASCII, so paths need no
    /// percent-encoding.
    var sitemapPages: [Sitemap.Page] {
        let size = site.configuration.pageSize
        func newest(_ items: some Sequence<SiteItem>) -> Date? { items.compactMap(\.date).max() }
        var pages: [Sitemap.Page] = []
        for (offset, items) in PagePaths.pages(site.items, size: size).enumerated() {
            pages.append(
                Sitemap.Page(path: PagePaths.folder(PagePaths.index(page: offset + 1)), lastModified: newest(items)))
        }
        for feed in site.feeds {
            for (offset, items) in PagePaths.pages(feed.items, size: size).enumerated() {
                pages.append(
                    Sitemap.Page(
                        path: PagePaths.folder(PagePaths.feed(feed.slug, page: offset + 1)), lastModified: newest(items)
                    ))
            }
        }
        pages.append(Sitemap.Page(path: PagePaths.folder(PagePaths.archive), lastModified: newest(site.items)))
        for month in ArchiveMonth.months(site.items, timeZone: site.configuration.timeZone) {
            for (offset, items) in PagePaths.pages(month.items, size: size).enumerated() {
                pages.append(
                    Sitemap.Page(
                        path: PagePaths.folder(PagePaths.archive(month, page: offset + 1)), lastModified: newest(items))
                )
            }
        }
        for feed in site.feeds {
            for item in feed.items {
                pages.append(
                    Sitemap.Page(
                        path: PagePaths.folder(PagePaths.item(feedSlug: feed.slug, slug: item.slug)),
                        lastModified: item.date))
            }
        }
        return pages
    }

    static func folderURL(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        var text = components?.string ?? url.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        return text
    }
}

/// One item as the planet's feeds publish it.
struct PublishedEntry {
    let item: SiteItem
    /// The feed it came from (absent only if the model is inconsistent).
    let feed: SiteFeed?
    /// Our page for the item: also its stable id in every feed format.
    let url: String
    /// The original article, when it passes the URL policy.
    let originalLink: String?
    /// Attachments with URLs that pass the URL policy.
    let enclosures: [Enclosure]

    init(item: SiteItem, feed: SiteFeed?, siteURL: String) {
        self.item = item
        self.feed = feed
        self.url = "\(siteURL)items/\(item.feedSlug)/\(item.slug)/"
        self.originalLink = item.link.flatMap { URLPolicy.resolve($0, against: nil, for: .link) }
        self.enclosures = item.enclosures.compactMap { enclosure in
            URLPolicy.resolve(enclosure.url, against: nil, for: .image).map {
                Enclosure(url: $0, length: enclosure.length, type: enclosure.type)
            }
        }
    }

    /// Authors as names; the feed's name when the item names none (Atom requires an author).
    var authorNames: [String] {
        item.authors.isEmpty ? [item.feedName] : item.authors
    }

    /// The source feed's own address (none for a local feed file that names none).
    var sourceFeedURL: String? {
        feed?.feedLink
    }
}
