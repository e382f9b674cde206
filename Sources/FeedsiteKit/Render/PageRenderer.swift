import FeedsiteParse
import FeedsiteSanitise
import FeedsiteShared
import Foundation

/// Turns the site model into files: `[site-relative path: bytes]`. Pure: the same `Site`, templates
/// and `now` always give the same bytes, so a whole-site golden test is one comparison.
package struct PageRenderer: Sendable {
    package let templates: SiteTemplates
    /// Injected; not printed in pages (that would make every build differ).
    package let now: Date
    /// The build publishes a search index (Pagefind is there and `search` is on): pages get the
    /// search form and `search/index.html` is rendered.
    package let hasSearch: Bool

    package init(templates: SiteTemplates, now: Date, hasSearch: Bool = false) {
        self.templates = templates
        self.now = now
        self.hasSearch = hasSearch
    }

    /// - Parameters:
    ///   - records: this build's per-feed records, for the status page (`status/`).
    package func render(_ site: Site, records: [FeedRecord] = []) throws(TemplateError) -> [String: Data] {
        let context = context(for: site)
        var files = try renderShared(context, records: records)
        for feed in site.feeds {
            files.merge(try renderFeed(feed, in: context)) { page, _ in page }
        }
        return files
    }

    /// Everything but the feed and item pages: assets, the index and its pages, the archive, the
    /// status page and the planet's own feeds (all of `sharedJobs`, rendered one after another).
    private func renderShared(_ context: RenderContext, records: [FeedRecord]) throws(TemplateError) -> [String: Data] {
        var files: [String: Data] = [:]
        for job in sharedJobs(context) {
            files.merge(try render(job, in: context, records: records)) { page, _ in page }
        }
        return files
    }

    /// A part of the shared pages that renders on its own. The pipeline renders these and
    /// `renderFeed` per feed in parallel, streaming each result to the writer: one job per about
    /// 100 index or archive pages keeps a large planet's index and archive (1,200 pages of 30 kB
    /// each at 30,000 items) from being held in memory at once.
    package enum SharedJob: Sendable, Hashable {
        /// Assets, `status/`, `404.html`, the planet's feeds, OPML, sitemap, robots.txt.
        case assetsStatusAndPublished
        /// Index pages with these 1-based numbers.
        case index(ClosedRange<Int>)
        /// The pages of these months (`RenderContext.archiveMonths` indices); the job with the
        /// first month also renders `archive/index.html`.
        case archive(Range<Int>)
        /// `tags/…` (with each tag's feeds) and `categories/…`.
        case taxonomies
    }

    /// The most pages a job renders (unless one month has more).
    static let pagesPerJob = 100

    /// The jobs that together render the shared pages.
    package func sharedJobs(_ site: Site) -> [SharedJob] {
        sharedJobs(context(for: site))
    }

    func sharedJobs(_ context: RenderContext) -> [SharedJob] {
        let size = context.site.configuration.pageSize
        let pageCount = PagePaths.pages(context.indexItems, size: size).count
        let chunks = stride(from: 1, through: pageCount, by: Self.pagesPerJob).map {
            SharedJob.index($0...min($0 + Self.pagesPerJob - 1, pageCount))
        }
        var archive: [SharedJob] = []
        var start = 0
        var pages = 0
        for (index, month) in context.archiveMonths.enumerated() {
            let monthPages = PagePaths.pages(month.items, size: size).count
            if pages > 0 && pages + monthPages > Self.pagesPerJob {
                archive.append(.archive(start..<index))
                (start, pages) = (index, 0)
            }
            pages += monthPages
        }
        archive.append(.archive(start..<context.archiveMonths.count))
        return [.assetsStatusAndPublished, .taxonomies] + archive + chunks
    }

    /// What every page of one site shares; made once per build (it indexes every feed), then
    /// passed to each job.
    func context(for site: Site) -> RenderContext {
        RenderContext(
            site: site, now: now, hasSearch: hasSearch, messages: templates.catalogue(for: site.configuration.language))
    }

    func render(
        _ job: SharedJob, in context: RenderContext, records: [FeedRecord]
    ) throws(TemplateError) -> [String: Data] {
        var files: [String: Data] = [:]
        let site = context.site
        switch job {
        case .assetsStatusAndPublished:
            files = templates.assets
            if !hasSearch { files[Self.searchScript] = nil }
            try renderSearch(context, into: &files)
            try renderStatus(context, records: records, into: &files)
            try renderNotFound(context, into: &files)
            files.merge(PublishedFiles.render(site)) { page, _ in page }
        case .index(let numbers):
            try renderIndex(context, pages: numbers, into: &files)
        case .archive(let months):
            try renderArchive(context, months: months, into: &files)
        case .taxonomies:
            try renderTaxonomies(context, into: &files)
        }
        return files
    }

    /// One feed's pages and the pages of its items.
    func renderFeed(_ feed: SiteFeed, in context: RenderContext) throws(TemplateError) -> [String: Data] {
        var files = try feedPages(feed, context)
        let shared = FeedParts(feed, context)
        for position in feed.items.indices {
            try renderItem(at: position, of: feed, shared, context, into: &files)
        }
        return files
    }

    /// One feed's pages and the pages of its items, handed to `write` a part at a time: whenever
    /// the pages held pass `heldBytes`, and at the end. A theme may make every item page tens of
    /// megabytes; a feed's pages are not all held at once.
    func renderFeed(
        _ feed: SiteFeed, in context: RenderContext, heldBytes: Int = 64 << 20,
        write: ([String: Data]) async throws -> Void
    ) async throws {
        var files = try feedPages(feed, context)
        var held = files.values.reduce(0) { $0 + $1.count }
        let shared = FeedParts(feed, context)
        for position in feed.items.indices {
            held += try renderItem(at: position, of: feed, shared, context, into: &files)
            if held > heldBytes {
                try await write(files)
                files = [:]
                held = 0
            }
        }
        if !files.isEmpty { try await write(files) }
    }

    /// A feed's avatar (or monogram) and its own pages.
    private func feedPages(_ feed: SiteFeed, _ context: RenderContext) throws(TemplateError) -> [String: Data] {
        var files: [String: Data] = [:]
        if let avatar = feed.avatar {
            files[avatar.path] = avatar.data
        } else {
            files[Monogram.path(feedSlug: feed.slug)] = Data(Monogram.svg(name: feed.name, slug: feed.slug).utf8)
        }
        try renderFeed(feed, context, into: &files)
        return files
    }

    /// What every item page of a feed shows of the feed, made once per feed.
    private struct FeedParts {
        var url: SitePath
        var image: SitePath?
        var avatar: SitePath
        var sharingAvatar: String?
        var siteLink: String?
        var tags: [TermView]
        var moreFrom: String

        init(_ feed: SiteFeed, _ context: RenderContext) {
            url = SitePath(PagePaths.feed(feed.slug))
            image = PageRenderer.ownAvatar(of: feed)
            avatar = PageRenderer.avatar(of: feed)
            sharingAvatar = PageRenderer.sharingAvatar(of: feed, context)
            siteLink = feed.siteLink.flatMap(PageRenderer.externalLink)
            tags = context.tags(ofFeed: feed.slug)
            moreFrom = context.messages.format("more_from", ["feed": feed.name])
        }
    }

    /// `items/<feed-slug>/<item-slug>/index.html`, with links to its newer and older neighbours;
    /// its size.
    @discardableResult
    private func renderItem(
        at position: Int, of feed: SiteFeed, _ shared: FeedParts, _ context: RenderContext,
        into files: inout [String: Data]
    ) throws(TemplateError) -> Int {
        let item = feed.items[position]
        let path = PagePaths.item(feedSlug: feed.slug, slug: item.slug)
        func neighbour(_ index: Int) -> ItemLinkView? {
            guard feed.items.indices.contains(index) else { return nil }
            let other = feed.items[index]
            return ItemLinkView(
                title: other.title,
                url: PagePaths.link(from: path, to: PagePaths.item(feedSlug: feed.slug, slug: other.slug)))
        }
        let newer = neighbour(position - 1)
        let older = neighbour(position + 1)
        let link = item.link.flatMap(Self.externalLink)
        let messages = context.messages
        let enclosures = item.enclosures.compactMap { Self.enclosureView($0, messages: messages) }
        let meta = PageMeta(
            kind: "article", url: context.absoluteURL(path), canonical: link,
            description: item.excerpt.isEmpty ? nil : item.excerpt,
            image: item.image.flatMap(Self.httpURL) ?? shared.sharingAvatar,
            prev: newer?.url, next: older?.url)
        let page = ItemPage(
            head: context.head(path, title: "\(item.title) · \(feed.name)", meta: meta),
            item: ItemView(
                title: item.title, link: link, feedName: feed.name,
                feedURL: shared.url, feedImage: shared.image, feedAvatar: shared.avatar,
                feedSiteLink: shared.siteLink,
                lang: feed.language, dir: TextDirection.attribute(forLanguage: feed.language),
                authors: item.authors.isEmpty ? nil : item.authors.joined(separator: ", "),
                date: item.date.map { context.dateView($0) },
                readingTime: Self.readingTime(words: item.wordCount, messages: messages),
                content: item.content.withAlignmentClasses, categories: item.categories,
                hasCategories: !item.categories.isEmpty, categoryLinks: context.categories(of: item),
                tags: shared.tags, enclosures: enclosures,
                hasEnclosures: !enclosures.isEmpty,
                video: link.flatMap { link in
                    VideoSite.name(of: link).map {
                        VideoView(
                            url: link, poster: item.image.flatMap(Self.httpURL),
                            label: messages.format("watch_on", ["site": $0]))
                    }
                }, newer: newer, older: older,
                moreFrom: shared.moreFrom))
        let data = try render("item", page, at: path, context)
        files[path] = data
        return data.count
    }

    /// `index.html`, `page/2/index.html`…: every item, newest first, `page_size` per page; only the
    /// pages numbered `numbers`.
    private func renderIndex(
        _ context: RenderContext, pages numbers: ClosedRange<Int>, into files: inout [String: Data]
    ) throws(TemplateError) {
        let site = context.site
        let pages = PagePaths.pages(context.indexItems, size: site.configuration.pageSize)
        for (offset, items) in pages.enumerated() where numbers.contains(offset + 1) {
            let number = offset + 1
            let path = PagePaths.index(page: number)
            let pagination = Self.pagination(number, of: pages.count, from: path, context.messages) {
                PagePaths.index(page: $0)
            }
            let title = site.configuration.title
            let summaries = items.map { context.summary($0) }
            let page = IndexPage(
                head: context.head(
                    path, title: number == 1 ? title : "\(pagination.label) · \(title)",
                    meta: PageMeta(
                        url: context.absoluteURL(path), description: context.siteView.description,
                        prev: pagination.prev, next: pagination.next)),
                heading: number == 1 ? title : context.pageHeading(title, pagination), isFirstPage: number == 1,
                items: summaries, days: context.days(items, summaries),
                // The feed list is on the first page only, so the index costs pages + feeds, not
                // pages × feeds.
                feeds: number > 1
                    ? []
                    : site.feeds.map {
                        ListLinkView(
                            name: $0.name, url: PagePaths.link(from: path, to: PagePaths.feed($0.slug)),
                            itemCount: $0.items.count)
                    },
                tags: number > 1 ? [] : termLinks(context.tags, from: path, context.messages),
                pagination: pagination)
            files[path] = try render("index", page, at: path, context)
        }
    }

    /// `feeds/<slug>/index.html`, `feeds/<slug>/page/2/index.html`…
    private func renderFeed(
        _ feed: SiteFeed, _ context: RenderContext, into files: inout [String: Data]
    ) throws(TemplateError) {
        let pages = PagePaths.pages(feed.items, size: context.site.configuration.pageSize)
        for (offset, items) in pages.enumerated() {
            let number = offset + 1
            let path = PagePaths.feed(feed.slug, page: number)
            let pagination = Self.pagination(number, of: pages.count, from: path, context.messages) {
                PagePaths.feed(feed.slug, page: $0)
            }
            // Already plain text, cut to length, when the feed was read (ReadFeed).
            let description = feed.description
            let summaries = items.map { context.summary($0) }
            let page = FeedPage(
                head: context.head(
                    path,
                    title: number == 1
                        ? "\(feed.name) · \(context.site.configuration.title)"
                        : "\(context.pageHeading(feed.name, pagination)) · \(context.site.configuration.title)",
                    meta: PageMeta(
                        url: context.absoluteURL(path), description: description,
                        image: Self.sharingAvatar(of: feed, context), prev: pagination.prev, next: pagination.next)),
                feed: FeedView(
                    name: feed.name, staleNote: feed.stale?.description,
                    staleBanner: feed.stale.map {
                        context.messages.format("stale_banner", ["note": $0.worded(context.messages)])
                    },
                    description: description,
                    siteLink: feed.siteLink.flatMap(Self.externalLink), feedLink: feed.feedLink,
                    image: Self.ownAvatar(of: feed), avatar: Self.avatar(of: feed),
                    dir: TextDirection.attribute(forLanguage: feed.language),
                    items: summaries, days: context.days(items, summaries),
                    tags: context.tags(ofFeed: feed.slug)),
                pagination: pagination)
            files[path] = try render("feed", page, at: path, context)
        }
    }

    /// `archive/YYYY/MM/index.html` (a month's items) for `range`'s months, and with the first
    /// month `archive/index.html` (the months with counts).
    private func renderArchive(
        _ context: RenderContext, months range: Range<Int>, into files: inout [String: Data]
    ) throws(TemplateError) {
        let site = context.site
        let months = context.archiveMonths
        let messages = context.messages
        if range.lowerBound == 0 {
            let indexPath = PagePaths.archive
            var years: [ArchiveYearView] = []
            for month in months {
                let link = ListLinkView(
                    name: month.name(messages), url: PagePaths.link(from: indexPath, to: PagePaths.archive(month)),
                    itemCount: month.items.count)
                if years.last?.year == "\(month.year)" {
                    years[years.count - 1].months.append(link)
                } else {
                    years.append(ArchiveYearView(year: "\(month.year)", months: [link]))
                }
            }
            files[indexPath] = try render(
                "archive-index",
                ArchiveIndexPage(
                    head: context.head(
                        indexPath, title: "\(messages.format("archive")) · \(site.configuration.title)",
                        meta: PageMeta(url: context.absoluteURL(indexPath))),
                    years: years), at: indexPath, context)
        }
        for position in range.clamped(to: months.indices) {
            let month = months[position]
            let newer = position > 0 ? months[position - 1] : nil
            let older = position + 1 < months.count ? months[position + 1] : nil
            // A month is paginated like the index: at 10,000 feeds one month held thousands of
            // items (8 MB pages, and most of the render time).
            let pages = PagePaths.pages(month.items, size: site.configuration.pageSize)
            for (offset, items) in pages.enumerated() {
                let number = offset + 1
                let path = PagePaths.archive(month, page: number)
                let pagination = Self.pagination(number, of: pages.count, from: path, messages) {
                    PagePaths.archive(month, page: $0)
                }
                func monthLink(_ other: ArchiveMonth?) -> ListLinkView? {
                    other.map {
                        ListLinkView(
                            name: $0.name(messages), url: PagePaths.link(from: path, to: PagePaths.archive($0)),
                            itemCount: $0.items.count)
                    }
                }
                let name = month.name(messages)
                let title = number == 1 ? name : context.pageHeading(name, pagination)
                let summaries = items.map { context.summary($0) }
                let page = ArchiveMonthPage(
                    head: context.head(
                        path, title: "\(title) · \(site.configuration.title)",
                        meta: PageMeta(
                            url: context.absoluteURL(path),
                            prev: pagination.prev ?? (number == 1 ? monthLink(newer)?.url : nil),
                            next: pagination.next ?? (number == pages.count ? monthLink(older)?.url : nil))),
                    name: name, items: summaries, days: context.days(items, summaries),
                    archiveURL: PagePaths.link(from: path, to: PagePaths.archive), pagination: pagination,
                    newerMonth: monthLink(newer), olderMonth: monthLink(older), hasOtherMonths: months.count > 1)
                files[path] = try render("archive", page, at: path, context)
            }
        }
    }

    /// Prev/next links for page `number` of `total`, relative to `path`.
    static func pagination(
        _ number: Int, of total: Int, from path: String, _ messages: MessageCatalogue = .english,
        page: (Int) -> String
    ) -> PaginationView {
        PaginationView(
            prev: number > 1 ? PagePaths.link(from: path, to: page(number - 1)) : nil,
            next: number < total ? PagePaths.link(from: path, to: page(number + 1)) : nil, current: number,
            total: total, label: messages.format("page_of", ["page": String(number), "pages": String(total)]))
    }

    /// `4 min read` at 200 words a minute, rounded up, in the catalogue's language (`reading_time`,
    /// by plural form); nil when the count is unknown (0).
    static func readingTime(words: Int, messages: MessageCatalogue = .english) -> String? {
        guard words > 0 else { return nil }
        return messages.format("reading_time", count: (words + 199) / 200)
    }

    /// `status/index.html` and `status/status.json`: per-feed health for the maintainer, and what
    /// became of every item read (shown, or dropped and why).
    private func renderStatus(
        _ context: RenderContext, records: [FeedRecord], into files: inout [String: Data]
    ) throws(TemplateError) {
        let site = context.site
        let messages = context.messages
        // One lookup table each, not a search per feed: linear at 10,000 feeds.
        let feeds = Dictionary(site.feeds.map { ($0.source.url, $0) }, uniquingKeysWith: { a, _ in a })
        let accounts = Dictionary(site.accounts.map { ($0.source, $0) }, uniquingKeysWith: { a, _ in a })
        // The page in the site's language; `status.json` in English (its `note`), like the terminal.
        var englishNotes: [String?] = []
        englishNotes.reserveCapacity(records.count)
        let rows = records.map { record -> FeedStatusView in
            let feed = feeds[record.source.url]
            var account = accounts[record.source.url] ?? FeedAccount(source: record.source.url, feedURL: record.feedURL)
            if accounts[record.source.url] == nil { account.shown = feed?.items.count ?? 0 }
            englishNotes.append(Self.statusNote(record, account, messages: .english))
            return FeedStatusView(
                name: record.displayName, url: record.feedURL.absoluteString,
                link: record.publishedFeedURL?.absoluteString,
                configuredURL: record.feedURL == record.source.url ? nil : record.source.url.absoluteString,
                page: feed.map { "../feeds/\($0.slug)/index.html" }, health: record.health,
                healthLabel: messages.text("health_\(record.health)") ?? record.health,
                isFetched: record.isFetched, note: Self.statusNote(record, account, messages: messages),
                httpStatus: record.httpStatus, bytes: record.run.bytes,
                items: account.shown, read: account.read, kept: account.kept,
                dropped: DroppedView(
                    filtered: account.filteredCount, repeatedId: account.repeated,
                    duplicates: account.duplicates.map {
                        DuplicateView(title: $0.title, link: $0.link, feedName: $0.feedName, feedURL: $0.feedURL)
                    }, maxItems: account.overMaxItems, keepDays: account.expired, futureDate: account.future),
                filtered: account.filteredCount,
                filteredBy: account.filtered.map { FilteredView(rule: $0.rule, line: $0.line, count: $0.count) },
                accounting: account.localisedSummary(messages), newItems: record.newItemCount,
                lastSuccess: record.state.health.lastSuccess.map(DayFormat.string),
                lastSuccessLabel: record.state.health.lastSuccess.flatMap { CivilTime($0) }.map { messages.date($0) },
                consecutiveFailures: record.state.health.consecutiveFailures, lastError: record.state.health.lastError,
                warnings: record.warnings,
                avatarNote: site.configuration.avatars ? record.state.avatar?.note : nil, isStale: record.isStale)
        }
        let page = StatusPage(
            site: context.siteView, root: "../",
            pageTitle: "\(messages.format("feed_status")) · \(site.configuration.title)",
            summary: Self.statusSummary(records, messages: messages), feeds: rows)
        files["status/index.html"] = try render("status", page, at: "status/index.html", context)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var machineRows = rows
        for index in machineRows.indices { machineRows[index].note = englishNotes[index] }
        files["status/status.json"] = (try? encoder.encode(["feeds": machineRows])) ?? Data()
    }

    /// "not fetched yet", "reads the same feed as 'X'; its items are shown there", "not fetched in
    /// this build" (`status_not_fetched_yet`, `status_same_feed`, `status_not_fetched`), or nil.
    static func statusNote(_ record: FeedRecord, _ account: FeedAccount, messages: MessageCatalogue) -> String? {
        if record.isPending { return messages.format("status_not_fetched_yet") }
        if let same = account.sameFeedAs {
            return messages.format("status_same_feed", ["feed": messages.format("quoted", ["text": same])])
        }
        return record.isFetched ? nil : messages.format("status_not_fetched")
    }

    /// The status page's lead: how many feeds this build refreshed, and that the others were
    /// rendered from saved state (their health is the last fetch's).
    static func statusSummary(_ records: [FeedRecord], messages: MessageCatalogue = .english) -> String {
        let fetched = records.filter(\.isFetched)
        let ok = fetched.filter { $0.failure == nil }.count
        if fetched.isEmpty && !records.isEmpty {
            return messages.format("status_none")
        }
        // Each phrase is counted by the number its noun follows: `status_some` by the feeds
        // fetched, `status_rest` by the others, `status_all` by all feeds.
        if fetched.count < records.count {
            let rest = records.count - fetched.count
            let others = messages.format("status_rest", count: rest)
            return messages.format(
                "status_some", count: fetched.count,
                ["ok": String(ok), "others": others, "fetched": String(fetched.count), "rest": String(rest)])
        }
        return messages.format("status_all", count: records.count, ["ok": String(ok), "total": String(records.count)])
    }

    static func buildTime(_ date: Date) -> String {
        let iso = InternetDate.rfc3339(date)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }

    private func render(
        _ template: String, _ page: some TemplateObject, at path: String, _ context: RenderContext
    ) throws(TemplateError) -> Data {
        try templates.render(template, page, root: PagePaths.root(of: path), messages: context.messages)
    }

    /// Links to the outside world (original article, feed's web site) pass the sanitiser's URL
    /// policy like every href in content: a feed can put `javascript:` in `<link>` too.
    static func externalLink(_ raw: String) -> String? {
        URLPolicy.resolve(raw, against: nil, for: .link)
    }

    /// A feed's icon as pages show it: its avatar (`avatars/<slug>.webp`, made from its icon at
    /// build time), else its monogram. Never the icon's own URL: nothing in a page loads from
    /// another host for a feed's icon.
    static func avatar(of feed: SiteFeed) -> SitePath {
        SitePath(feed.avatar?.path ?? Monogram.path(feedSlug: feed.slug))
    }

    /// The feed's avatar made from its icon, nil when it shows its monogram.
    static func ownAvatar(of feed: SiteFeed) -> SitePath? {
        feed.avatar.map { SitePath($0.path) }
    }

    /// The feed's avatar as an absolute URL for sharing metadata (`og:image`), nil without
    /// `base_url` or an avatar (sharing sites do not show SVG monograms).
    static func sharingAvatar(of feed: SiteFeed, _ context: RenderContext) -> String? {
        feed.avatar.flatMap { context.absoluteURL($0.path) }
    }

    /// An http(s) URL as it is, else nil (sharing metadata and players need web URLs).
    static func httpURL(_ raw: String) -> String? {
        guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return raw
    }

    /// Media types by file name ending, for enclosures that give none.
    static let mediaTypes: [String: String] = [
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg", "oga": "audio/ogg",
        "opus": "audio/ogg", "wav": "audio/wav", "flac": "audio/flac",
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    ]

    static func enclosureView(_ enclosure: Enclosure, messages: MessageCatalogue = .english) -> EnclosureView? {
        // Flash and torrent files are never offered: no browser plays them.
        guard !VideoSite.isUnplayable(type: enclosure.type, url: enclosure.url) else { return nil }
        guard let safe = URLPolicy.resolve(enclosure.url, against: nil, for: .image), let url = URL(string: safe)
        else { return nil }
        var size: String?
        if let length = enclosure.length, length > 0 {
            size =
                length >= 1_000_000
                ? String(format: "%.1f MB", Double(length) / 1_000_000)
                    .replacingOccurrences(of: ".", with: messages.text("decimal_separator") ?? ".")
                : "\(max(1, length / 1000)) kB"
        }
        let name = url.lastPathComponent
        // A file without a type (some podcast feeds give only the URL and length) is typed by its
        // name's ending, so an episode still gets its player.
        let type =
            enclosure.type.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.mediaTypes[url.pathExtension.lowercased()] ?? ""
        let isWeb = httpURL(url.absoluteString) != nil
        let label = name.isEmpty || name == "/" ? (url.host ?? url.absoluteString) : name
        return EnclosureView(
            url: url.absoluteString, type: enclosure.type, size: size, label: label,
            isAudio: isWeb && type.hasPrefix("audio/"), isVideo: isWeb && type.hasPrefix("video/"),
            download: messages.format("download", ["file": label]))
    }
}
