import FeedsiteParse
import FeedsiteShared
import Foundation

/// What every page of one render shares: the site, its layout fields, the time zone dates are
/// shown in, and the site's address (for absolute `og:url`s).
struct RenderContext: Sendable {
    let site: Site
    let siteView: SiteView
    /// `base_url` as a folder (`https://planet.example/`), when set.
    let siteURL: String?
    /// The zone pages show dates in and days are counted in (`timezone`).
    let timeZone: TimeZone
    /// Every item in index order: the front page first (`FrontPage`), then the rest by date.
    let indexItems: [SiteItem]
    /// The months with items, newest first (`archive/`).
    let archiveMonths: [ArchiveMonth]
    /// The tags of `feeds.yml`, with their feeds and items.
    let tags: Taxonomy
    /// The items' categories, with `category_pages: true`.
    let categories: Taxonomy?
    /// Each feed's tags (by feed slug), linked from the site root.
    private let feedTags: [String: [(name: String, path: String?)]]
    /// Each feed's language, and the `dir` its summaries take (by feed slug).
    private let languages: [String: (language: String, direction: String)]
    /// The interface strings of the site's `language`.
    let messages: MessageCatalogue

    init(site: Site, now: Date, hasSearch: Bool = false, messages: MessageCatalogue = .english) {
        let configuration = site.configuration
        self.site = site
        self.messages = messages
        let tags = Taxonomy(tagsOf: site)
        let categories = configuration.categoryPages ? Taxonomy(categoriesOf: site) : nil
        self.tags = tags
        self.categories = categories
        self.feedTags = Dictionary(
            site.feeds.map { feed in (feed.slug, feed.source.tags.map { ($0, tags.path(of: $0)) }) },
            uniquingKeysWith: { a, _ in a })
        var siteView = SiteView(
            title: configuration.title,
            description: configuration.description.isEmpty ? nil : configuration.description,
            generator: "feedsite \(Feedsite.version)", hasFeeds: PublishedFiles.hasFeeds(site),
            noindex: configuration.noindex,
            buildTime: configuration.showBuildTime ? PageRenderer.buildTime(now) : nil,
            language: configuration.language, timeZone: Self.zoneName(configuration.timeZone),
            hasTags: !tags.terms.isEmpty, hasCategories: !(categories?.terms.isEmpty ?? true), hasSearch: hasSearch,
            colophon: Self.colophon(configuration, now: now, messages: messages))
        // Right to left when the catalogue says so, or when the language's own catalogue (one the
        // user added without `direction`) is that of a right-to-left language.
        siteView.isRightToLeft =
            messages.isRightToLeft
            || (TextDirection.isRightToLeft(messages.language)
                && configuration.language.lowercased().hasPrefix(messages.language))
        self.siteView = siteView
        self.siteURL = configuration.baseURL.map(PublishedSite.folderURL)
        self.timeZone = configuration.timeZone
        self.archiveMonths = ArchiveMonth.months(site.items, timeZone: configuration.timeZone)
        self.indexItems = FrontPage.arrange(
            site.items, pageSize: configuration.pageSize, perFeed: configuration.frontPagePerFeed)
        self.languages = Dictionary(
            site.feeds.compactMap { feed in
                feed.language.map { (feed.slug, (language: $0, direction: TextDirection.attribute(forLanguage: $0))) }
            }, uniquingKeysWith: { a, _ in a })
    }

    /// The absolute URL of a page's folder (`https://planet.example/page/2/`), with a `base_url`.
    func absoluteURL(_ path: String) -> String? {
        siteURL.map { $0 + PagePaths.folder(path) }
    }

    /// The fields every page has (`layout.mustache`'s), for the page at `path`.
    func head(_ path: String, title: String, meta: PageMeta) -> PageHead {
        PageHead(site: siteView, root: PagePaths.root(of: path), pageTitle: title, meta: meta)
    }

    /// An item in a list: the same on every page that lists it (its links are `SitePath`s).
    func summary(_ item: SiteItem) -> ItemSummaryView {
        let language = languages[item.feedSlug]
        return ItemSummaryView(
            title: item.title, url: SitePath(PagePaths.item(feedSlug: item.feedSlug, slug: item.slug)),
            feedName: item.feedName, feedURL: SitePath(PagePaths.feed(item.feedSlug)),
            date: item.date.map { dateView($0) }, excerpt: item.excerpt.isEmpty ? nil : item.excerpt,
            authors: item.authors.isEmpty ? nil : item.authors.joined(separator: ", "), lang: language?.language,
            dir: language?.direction ?? TextDirection.attribute(forLanguage: nil),
            thumbnail: item.image.flatMap(PageRenderer.httpURL),
            isVideo: item.link.flatMap(VideoSite.name) != nil, categories: categories(of: item))
    }

    /// An item's categories as written (blank and repeated ones left out), each linked to its page
    /// when there are category pages.
    func categories(of item: SiteItem) -> [TermView] {
        guard !item.categories.isEmpty else { return [] }
        // An item has at most `FeedParser.maxCategories` (30), usually one or two: repeats are found
        // by comparison.
        var seen: [String] = []
        var views: [TermView] = []
        for category in item.categories {
            let name = FeedParser.FeedText.collapseWhitespace(category)
            let key = Taxonomy.key(name)
            guard !name.isEmpty, !seen.contains(key) else { continue }
            seen.append(key)
            views.append(TermView(name: name, pageURL: categories?.path(of: name).map(SitePath.init)))
        }
        return views
    }

    /// A feed's tags, each linked to its page.
    func tags(ofFeed slug: String) -> [TermView] {
        (feedTags[slug] ?? []).map { TermView(name: $0.name, pageURL: $0.path.map(SitePath.init)) }
    }

    /// `datetime` in UTC; the display in the configured time zone and the site's language,
    /// without `DateFormatter` (whose output depends on the machine's locale): `19 Nov 2026`,
    /// `19 Nov 2026, 11:00 UTC+1` (`date` and `date_time` of the catalogue).
    func dateView(_ date: Date) -> DateView {
        let offset = timeZone.secondsFromGMT(for: date)
        let time = CivilTime(date, offset: offset) ?? CivilTime(date, in: timeZone)
        return DateView(
            iso: InternetDate.rfc3339(date), display: messages.date(time),
            long: messages.dateTime(time, zone: Self.offsetName(offset)))
    }

    /// The footer's line: the generator, the build time with `show_build_time`, the time zone.
    static func colophon(_ configuration: SiteConfiguration, now: Date, messages: MessageCatalogue) -> String {
        let generator = "feedsite \(Feedsite.version)"
        let zone = zoneName(configuration.timeZone)
        guard configuration.showBuildTime else {
            return messages.format("colophon", ["generator": generator, "zone": zone])
        }
        return messages.format(
            "colophon_built_on", ["generator": generator, "time": PageRenderer.buildTime(now), "zone": zone])
    }

    /// `Swift.org, page 2 of 3` (`page_heading`): a list's name on its later pages.
    func pageHeading(_ name: String, _ pagination: PaginationView) -> String {
        messages.format(
            "page_heading", ["name": name, "page": String(pagination.current), "pages": String(pagination.total)])
    }

    /// The zone's IANA name; `UTC` for the zero-offset zone (Foundation on Linux calls it `GMT`).
    static func zoneName(_ zone: TimeZone) -> String {
        ["GMT", "UTC", "Etc/UTC", "Etc/GMT"].contains(zone.identifier) ? "UTC" : zone.identifier
    }

    /// `UTC`, `UTC+1`, `UTC-3:30` for an offset in seconds east of UTC (abbreviations such as
    /// `CET` are not available the same way on every platform).
    static func offsetName(_ seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        let rest = minutes % 60
        return "UTC\(sign)\(hours)" + (rest == 0 ? "" : ":\(rest < 10 ? "0" : "")\(rest)")
    }
}
