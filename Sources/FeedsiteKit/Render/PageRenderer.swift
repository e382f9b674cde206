import Foundation
import Mustache

/// Turns the site model into files: `[site-relative path: bytes]`. Pure: the same `Site`, templates
/// and `now` always give the same bytes, so a whole-site golden test is one comparison.
public struct PageRenderer: Sendable {
    public let templates: SiteTemplates
    /// Injected; not printed in pages (that would make every build differ).
    public let now: Date

    public init(templates: SiteTemplates, now: Date) {
        self.templates = templates
        self.now = now
    }

    /// The whole site at once (tests, small sites). The pipeline renders the same pieces in parallel
    /// and streams them to the writer: `renderShared` once, `renderFeed` per feed.
    ///
    /// - Parameters:
    ///   - records: this build's per-feed records, for the status page (`status/`).
    public func render(_ site: Site, records: [FeedRecord] = []) throws(TemplateError) -> [String: Data] {
        var files = try renderShared(site, records: records)
        for feed in site.feeds {
            files.merge(try renderFeed(feed, in: site)) { page, _ in page }
        }
        return files
    }

    /// Everything but the feed and item pages: assets, the index, the status page and the
    /// planet's own feeds.
    public func renderShared(_ site: Site, records: [FeedRecord]) throws(TemplateError) -> [String: Data] {
        var files = templates.assets
        let siteView = siteView(site)
        let index = IndexPage(
            site: siteView, root: "", pageTitle: site.configuration.title,
            items: site.items.prefix(site.configuration.indexItems).map { summary($0, root: "") },
            feeds: site.feeds.map {
                FeedLinkView(name: $0.name, url: "feeds/\($0.slug)/index.html", itemCount: $0.items.count)
            })
        files["index.html"] = try render("index", index)
        try renderStatus(site, records: records, siteView: siteView, into: &files)
        files.merge(PublishedFiles.render(site)) { page, _ in page }
        return files
    }

    /// One feed's page and the pages of its items.
    public func renderFeed(_ feed: SiteFeed, in site: Site) throws(TemplateError) -> [String: Data] {
        var files: [String: Data] = [:]
        let siteView = siteView(site)
        let root = "../../"
        let page = FeedPage(
            site: siteView, root: root, pageTitle: "\(feed.name) · \(site.configuration.title)",
            feed: FeedView(
                name: feed.name, staleNote: feed.staleNote, description: feed.description.map(Self.plainText),
                siteLink: feed.siteLink.flatMap(Self.externalLink),
                feedLink: feed.source.url.absoluteString, items: feed.items.map { summary($0, root: root) }))
        files["feeds/\(feed.slug)/index.html"] = try render("feed", page)

        for item in feed.items {
            let root = "../../../"
            let page = ItemPage(
                site: siteView, root: root, pageTitle: "\(item.title) · \(feed.name)",
                item: ItemView(
                    title: item.title, link: item.link.flatMap(Self.externalLink), feedName: feed.name,
                    feedURL: "\(root)feeds/\(feed.slug)/index.html",
                    authors: item.authors.isEmpty ? nil : item.authors.joined(separator: ", "),
                    date: item.date.map(Self.dateView), content: item.content, categories: item.categories,
                    hasCategories: !item.categories.isEmpty,
                    enclosures: item.enclosures.compactMap(Self.enclosureView)))
            files["items/\(feed.slug)/\(item.slug)/index.html"] = try render("item", page)
        }
        return files
    }

    private func siteView(_ site: Site) -> SiteView {
        SiteView(
            title: site.configuration.title,
            description: site.configuration.description.isEmpty ? nil : site.configuration.description,
            generator: "feedsite \(Feedsite.version)", hasFeeds: PublishedFiles.hasFeeds(site),
            noindex: site.configuration.noindex,
            buildTime: site.configuration.showBuildTime ? Self.buildTime(now) : nil)
    }

    /// `status/index.html` and `status/status.json`: per-feed health for the maintainer.
    private func renderStatus(
        _ site: Site, records: [FeedRecord], siteView: SiteView, into files: inout [String: Data]
    ) throws(TemplateError) {
        let slugs = Dictionary(
            site.feeds.map { ($0.source.url.absoluteString, $0.slug) }, uniquingKeysWith: { a, _ in a })
        let rows = records.map { record -> FeedStatusView in
            let slug = slugs[record.source.url.absoluteString]
            let shown = site.feeds.first { $0.source.url == record.source.url }?.items.count ?? 0
            return FeedStatusView(
                name: record.displayName, url: record.source.url.absoluteString,
                page: slug.map { "../feeds/\($0)/index.html" },
                health: record.failure == nil ? "ok" : (shown > 0 ? "stale" : "failing"),
                httpStatus: record.run.status, bytes: record.run.bytes, items: shown, newItems: record.newItemCount,
                lastSuccess: record.state.health.lastSuccess.map(DayFormat.string),
                consecutiveFailures: record.state.health.consecutiveFailures, lastError: record.state.health.lastError,
                warnings: record.warnings, isStale: record.isStale)
        }
        let okCount = rows.filter { $0.health == "ok" }.count
        let page = StatusPage(
            site: siteView, root: "../", pageTitle: "Feed status · \(site.configuration.title)",
            summary: "\(okCount) of \(rows.count) feeds refreshed in the last build", feeds: rows)
        files["status/index.html"] = try render("status", page)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        files["status/status.json"] = (try? encoder.encode(["feeds": rows])) ?? Data()
    }

    static func buildTime(_ date: Date) -> String {
        let iso = dateView(date).iso
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }

    private func render(_ template: String, _ page: Any) throws(TemplateError) -> Data {
        guard let html = templates.library.render(page, withTemplate: template) else {
            throw TemplateError(file: "\(template).mustache", message: "template not found")
        }
        return Data(html.utf8)
    }

    private func summary(_ item: SiteItem, root: String) -> ItemSummaryView {
        ItemSummaryView(
            title: item.title, url: "\(root)items/\(item.feedSlug)/\(item.slug)/index.html", feedName: item.feedName,
            feedURL: "\(root)feeds/\(item.feedSlug)/index.html", date: item.date.map(Self.dateView),
            excerpt: item.excerpt.isEmpty ? nil : item.excerpt,
            authors: item.authors.isEmpty ? nil : item.authors.joined(separator: ", "))
    }

    /// Channel descriptions may hold markup; pages show them as text.
    static func plainText(_ text: String) -> String {
        HTMLSanitiser.excerpt(HTMLSanitiser().sanitise(html: text, baseURL: nil).plainText, maxLength: 500)
    }

    static func dateView(_ date: Date) -> DateView {
        let components = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = components.year ?? 1970
        let month = components.month ?? 1
        let day = components.day ?? 1
        func two(_ n: Int?) -> String { (n ?? 0) < 10 ? "0\(n ?? 0)" : "\(n ?? 0)" }
        let iso =
            "\(year)-\(two(month))-\(two(day))T\(two(components.hour)):\(two(components.minute)):\(two(components.second))Z"
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return DateView(iso: iso, display: "\(day) \(months[max(0, min(11, month - 1))]) \(year)")
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// Links to the outside world (original article, feed's web site) pass the sanitiser's URL
    /// policy like every href in content: a feed can put `javascript:` in `<link>` too.
    static func externalLink(_ raw: String) -> String? {
        URLPolicy.resolve(raw, against: nil, for: .link)
    }

    static func enclosureView(_ enclosure: Enclosure) -> EnclosureView? {
        guard let safe = URLPolicy.resolve(enclosure.url, against: nil, for: .image), let url = URL(string: safe)
        else { return nil }
        var size: String?
        if let length = enclosure.length, length > 0 {
            size =
                length >= 1_000_000
                ? String(format: "%.1f MB", Double(length) / 1_000_000)
                : "\(max(1, length / 1000)) kB"
        }
        let name = url.lastPathComponent
        return EnclosureView(
            url: url.absoluteString, type: enclosure.type, size: size,
            label: name.isEmpty || name == "/" ? (url.host ?? url.absoluteString) : name)
    }
}
