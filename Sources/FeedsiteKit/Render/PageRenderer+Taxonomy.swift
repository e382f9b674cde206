import FeedsiteParse
import Foundation

extension PageRenderer {
    /// The template of `tags/index.html` and `categories/index.html`.
    static let termIndexTemplate = "tags"
    /// The template of a tag's or category's pages.
    static let termTemplate = "tag"

    /// `tags/index.html`, each tag's pages and (with a `base_url`) its `atom.xml`, `rss.xml` and
    /// `feed.json`; with `category_pages: true`, the same pages under `categories/` (without feeds).
    /// A theme without the `tags` and `tag` templates gets none of these pages.
    func renderTaxonomies(_ context: RenderContext, into files: inout [String: Data]) throws(TemplateError) {
        guard templates.templates[Self.termIndexTemplate] != nil, templates.templates[Self.termTemplate] != nil
        else { return }
        let published = PublishedSite(context.site)
        for taxonomy in [context.tags] + (context.categories.map { [$0] } ?? []) where !taxonomy.terms.isEmpty {
            try renderTermIndex(taxonomy, context, into: &files)
            for term in taxonomy.terms {
                try renderTerm(term, of: taxonomy, context, published: published, into: &files)
            }
        }
    }

    /// Every term of `taxonomy` with its counts, linked from `path`.
    func termLinks(
        _ taxonomy: Taxonomy, from path: String, _ messages: MessageCatalogue = .english
    ) -> [TermLinkView] {
        taxonomy.terms.map {
            let feeds = messages.format("feed_count", count: $0.feedSlugs.count)
            let items = messages.format("item_count", count: $0.items.count)
            return TermLinkView(
                name: $0.name, url: PagePaths.link(from: path, to: Taxonomy.path(taxonomy.kind, slug: $0.slug)),
                feedCount: $0.feedSlugs.count, itemCount: $0.items.count,
                counts: messages.format("term_counts", ["feeds": feeds, "items": items]))
        }
    }

    private func renderTermIndex(
        _ taxonomy: Taxonomy, _ context: RenderContext, into files: inout [String: Data]
    ) throws(TemplateError) {
        let path = taxonomy.indexPath
        let isCategories = taxonomy.kind == .categories
        let heading = context.messages.format(isCategories ? "categories" : "tags")
        let page = TermIndexPage(
            head: context.head(
                path, title: "\(heading) · \(context.site.configuration.title)",
                meta: PageMeta(url: context.absoluteURL(path))),
            heading: heading, isCategories: isCategories,
            terms: termLinks(taxonomy, from: path, context.messages))
        files[path] = try templates.render(
            Self.termIndexTemplate, page, root: PagePaths.root(of: path), messages: context.messages)
    }

    private func renderTerm(
        _ term: Taxonomy.Term, of taxonomy: Taxonomy, _ context: RenderContext, published: PublishedSite?,
        into files: inout [String: Data]
    ) throws(TemplateError) {
        let site = context.site
        let title = site.configuration.title
        let messages = context.messages
        let kind = messages.format(taxonomy.kind == .tags ? "tag" : "category")
        let folder = PagePaths.folder(Taxonomy.path(taxonomy.kind, slug: term.slug))
        let items = term.items.map { site.items[$0] }
        // A tag's own feeds, beside its first page (categories have none: there can be thousands).
        var feedFiles: [(file: String, type: String, label: String)] = []
        if taxonomy.kind == .tags, let published {
            let channel = published.channel(
                title: "\(title): \(term.name)",
                description: messages.format("tag_feed_description", ["kind": kind, "name": term.name, "site": title]),
                folder: folder,
                items: items)
            files[folder + "atom.xml"] = Data(SyndicationFeeds.atom(channel).utf8)
            files[folder + "rss.xml"] = Data(SyndicationFeeds.rss(channel).utf8)
            files[folder + "feed.json"] = SyndicationFeeds.jsonFeed(channel)
            feedFiles = [
                ("atom.xml", "application/atom+xml", "Atom"), ("rss.xml", "application/rss+xml", "RSS"),
                ("feed.json", "application/feed+json", "JSON Feed"),
            ]
        }
        let feedsBySlug = Dictionary(site.feeds.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let pages = PagePaths.pages(items, size: site.configuration.pageSize)
        for (offset, pageItems) in pages.enumerated() {
            let number = offset + 1
            let path = Taxonomy.path(taxonomy.kind, slug: term.slug, page: number)
            let pagination = Self.pagination(number, of: pages.count, from: path, messages) {
                Taxonomy.path(taxonomy.kind, slug: term.slug, page: $0)
            }
            let alternates = feedFiles.map {
                AlternateView(
                    type: $0.type, title: "\(title): \(term.name) (\($0.label))", label: $0.label,
                    url: PagePaths.link(from: path, to: folder + $0.file))
            }
            let summaries = pageItems.map { context.summary($0) }
            let heading = number == 1 ? term.name : context.pageHeading(term.name, pagination)
            let page = TermPage(
                head: context.head(
                    path, title: "\(kind): \(heading) · \(title)",
                    meta: PageMeta(
                        url: context.absoluteURL(path), prev: pagination.prev, next: pagination.next,
                        alternates: alternates)),
                name: term.name, kind: kind, isCategory: taxonomy.kind == .categories,
                indexURL: PagePaths.link(from: path, to: taxonomy.indexPath),
                feeds: term.feedSlugs.compactMap { feedsBySlug[$0] }.map {
                    ListLinkView(
                        name: $0.name, url: PagePaths.link(from: path, to: PagePaths.feed($0.slug)),
                        itemCount: $0.items.count)
                },
                items: summaries, days: context.days(pageItems, summaries), pagination: pagination,
                alternates: alternates)
            files[path] = try templates.render(
                Self.termTemplate, page, root: PagePaths.root(of: path), messages: messages)
        }
    }
}
