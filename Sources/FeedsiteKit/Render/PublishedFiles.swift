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
package enum PublishedFiles {
    /// Every extra file, keyed by its site path (`atom.xml`, `robots.txt`…).
    package static func render(_ site: Site) -> [String: Data] {
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
    package static func hasFeeds(_ site: Site) -> Bool {
        site.configuration.baseURL != nil
    }
}

/// A site with a `base_url`, seen from outside: absolute URLs and the entries its feeds publish.
/// The same shape serves a tag's own feeds (`channel(…)`), which live in the tag's folder.
struct PublishedSite {
    let site: Site
    /// `base_url` as a folder: always ends in `/`, without query or fragment.
    let siteURL: String
    /// The feeds' title and description: the site's, or the site's and a tag's.
    private(set) var title: String
    private(set) var description: String
    /// The page the feeds stand for (their Atom id and `alternate` link): the site, or a tag's page.
    private(set) var homeURL: String
    /// The folder of the feed files (`atom.xml`…) relative to the site root: `""`, `tags/rust/`.
    private(set) var folder = ""
    /// The newest `feed_items` items, newest first.
    private(set) var entries: [PublishedEntry]
    /// The newest item date (feeds need one even when no item has a date: then the Unix epoch,
    /// which keeps the output deterministic).
    private(set) var updated: Date

    init?(_ site: Site) {
        guard let baseURL = site.configuration.baseURL else { return nil }
        self.site = site
        self.siteURL = Self.folderURL(baseURL)
        self.title = site.configuration.title
        self.description = site.configuration.description
        self.homeURL = siteURL
        self.entries = []
        self.updated = Date(timeIntervalSince1970: 0)
        (entries, updated) = published(site.items)
    }

    /// The newest `feed_items` of `items` (newest first) as entries, and the newest date.
    private func published(_ items: some Collection<SiteItem>) -> ([PublishedEntry], Date) {
        let feedsBySlug = Dictionary(site.feeds.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        let entries = items.prefix(max(0, site.configuration.feedItems)).map { item in
            PublishedEntry(item: item, feed: feedsBySlug[item.feedSlug], siteURL: siteURL)
        }
        return (entries, items.lazy.compactMap(\.date).max() ?? Date(timeIntervalSince1970: 0))
    }

    /// The feeds of a part of the site (a tag): `items` newest first, published in `folder`
    /// (`tags/rust/`), whose page is their home.
    func channel(title: String, description: String, folder: String, items: some Collection<SiteItem>) -> Self {
        var channel = self
        channel.title = title
        channel.description = description
        channel.folder = folder
        channel.homeURL = siteURL + folder
        (channel.entries, channel.updated) = published(items)
        return channel
    }

    /// An absolute URL for a site path (`atom.xml`, `feeds/swift-org/`).
    func url(_ path: String) -> String {
        siteURL + path
    }

    /// The absolute URL of one of this channel's feed files (`atom.xml`, `rss.xml`, `feed.json`).
    func feedURL(_ file: String) -> String {
        siteURL + folder + file
    }

    /// Every page, as the sitemap lists it: each index page, each feed page, the archive, each tag
    /// and category page, each item page; with the date of the newest item shown there. Slugs are ASCII, so paths need no
    /// percent-encoding.
    var sitemapPages: [Sitemap.Page] {
        let size = site.configuration.pageSize
        func newest(_ items: some Sequence<SiteItem>) -> Date? { items.compactMap(\.date).max() }
        var pages: [Sitemap.Page] = []
        let index = FrontPage.arrange(site.items, pageSize: size, perFeed: site.configuration.frontPagePerFeed)
        for (offset, items) in PagePaths.pages(index, size: size).enumerated() {
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
        var taxonomies = [Taxonomy(tagsOf: site)]
        if site.configuration.categoryPages { taxonomies.append(Taxonomy(categoriesOf: site)) }
        for taxonomy in taxonomies where !taxonomy.terms.isEmpty {
            pages.append(Sitemap.Page(path: PagePaths.folder(taxonomy.indexPath), lastModified: newest(site.items)))
            for term in taxonomy.terms {
                let items = term.items.map { site.items[$0] }
                for (offset, pageItems) in PagePaths.pages(items, size: size).enumerated() {
                    pages.append(
                        Sitemap.Page(
                            path: PagePaths.folder(Taxonomy.path(taxonomy.kind, slug: term.slug, page: offset + 1)),
                            lastModified: newest(pageItems)))
                }
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
