import FeedsiteParse
import Foundation

/// The tags of a site (from `feeds.yml`: a feed's tags apply to all its items) or its categories
/// (from the items themselves): each term with its feeds and items, ready to be paged.
///
/// Terms are told apart without regard to case or runs of spaces (`Swift`, `swift` and ` swift `
/// are one term, shown as first written); slugs come from `Slug.assign`, so they depend only on the
/// set of names.
struct Taxonomy: Sendable {
    enum Kind: Sendable {
        case tags
        case categories

        /// The site folder of its pages.
        var folder: String {
            switch self {
            case .tags: "tags"
            case .categories: "categories"
            }
        }
    }

    struct Term: Sendable {
        /// As first written (in `feeds.yml` order for tags, item order for categories).
        var name: String
        var slug: String
        /// Slugs of the feeds listed under the term, in `feeds.yml` order.
        var feedSlugs: [String]
        /// Positions in `Site.items` (newest first).
        var items: [Int]
    }

    let kind: Kind
    /// By name, ignoring case (then by slug).
    let terms: [Term]
    /// Term key (`key(_:)`) → slug.
    private let slugs: [String: String]

    /// Longer category names (a feed's whole keyword soup in one string) get no page.
    static let maxNameLength = 200

    /// The most categories that get pages: those on the most items (ties: the first met). The
    /// others are shown unlinked. Past it, feeds of items with made-up categories would add a page
    /// (and a line of the categories index) for each.
    static let maxCategoryPages = 2_000

    /// The names `item`'s categories are counted under: spaces collapsed, blank and over-long ones
    /// left out (a repeated one is counted once, by `Builder.add`'s key).
    static func categoryNames(of item: SiteItem) -> [String] {
        item.categories.map(FeedParser.FeedText.collapseWhitespace).filter {
            !$0.isEmpty && $0.count <= maxNameLength
        }
    }

    /// How many categories the items of `site` have (as `init(categoriesOf:)` tells them apart),
    /// when more than `maxCategoryPages`: a warning for the build.
    static func categoryPagesWarning(_ site: Site) -> String? {
        var keys: Set<String> = []
        for item in site.items {
            for name in categoryNames(of: item) { keys.insert(key(name)) }
        }
        guard keys.count > maxCategoryPages else { return nil }
        return "category_pages: the items have \(keys.count) categories; the \(maxCategoryPages) on the most items"
            + " have pages, the other \(keys.count - maxCategoryPages) are shown without a link"
    }

    /// How terms are compared: spaces collapsed, lowercased.
    static func key(_ name: String) -> String {
        FeedParser.FeedText.collapseWhitespace(name).lowercased()
    }

    /// The site folder of `name`'s first page (`tags/rust/index.html`); nil when it has none.
    func path(of name: String, page: Int = 1) -> String? {
        slugs[Self.key(name)].map { Self.path(kind, slug: $0, page: page) }
    }

    /// `tags/<slug>/index.html`, `tags/<slug>/page/2/index.html`…
    static func path(_ kind: Kind, slug: String, page: Int = 1) -> String {
        page <= 1 ? "\(kind.folder)/\(slug)/index.html" : "\(kind.folder)/\(slug)/page/\(page)/index.html"
    }

    /// `tags/index.html`, `categories/index.html`.
    var indexPath: String { "\(kind.folder)/index.html" }

    /// The tags of `feeds.yml`: a feed's tags name all its items.
    init(tagsOf site: Site) {
        var builder = Builder()
        var tagsOfFeed: [String: [String]] = [:]
        for feed in site.feeds {
            for tag in feed.source.tags {
                let key = builder.add(tag, feed: feed.slug)
                tagsOfFeed[feed.slug, default: []].append(key)
            }
        }
        for (position, item) in site.items.enumerated() {
            for key in tagsOfFeed[item.feedSlug] ?? [] {
                builder.items[key, default: []].append(position)
            }
        }
        self.init(kind: .tags, builder)
    }

    /// The items' own categories (each item counted once per category).
    init(categoriesOf site: Site) {
        var builder = Builder()
        for (position, item) in site.items.enumerated() {
            var seen: Set<String> = []
            for name in Self.categoryNames(of: item) {
                let key = builder.add(name, feed: item.feedSlug)
                if seen.insert(key).inserted { builder.items[key, default: []].append(position) }
            }
        }
        if builder.order.count > Self.maxCategoryPages {
            // The categories on the most items (ties: the first met), kept in the order met.
            let counts = builder.order.map { builder.items[$0]?.count ?? 0 }
            let kept = builder.order.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
            builder.order = kept.prefix(Self.maxCategoryPages).sorted().map { builder.order[$0] }
        }
        // Feeds in `feeds.yml` order, as for tags (they were met in item order).
        let order = Dictionary(site.feeds.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { a, _ in a })
        for key in builder.order {
            builder.feeds[key]?.sort { order[$0, default: .max] < order[$1, default: .max] }
        }
        self.init(kind: .categories, builder)
    }

    private init(kind: Kind, _ builder: Builder) {
        self.kind = kind
        let slugs = Slug.assign(
            builder.order.map { ($0, builder.names[$0] ?? $0) }, fallback: kind == .tags ? "tag" : "category")
        self.slugs = slugs
        self.terms = builder.order.map { key in
            Term(
                name: builder.names[key] ?? key, slug: slugs[key] ?? key, feedSlugs: builder.feeds[key] ?? [],
                items: builder.items[key] ?? [])
        }
        .sorted { ($0.name.lowercased(), $0.slug) < ($1.name.lowercased(), $1.slug) }
    }

    /// Terms as they are met.
    private struct Builder {
        var order: [String] = []
        var names: [String: String] = [:]
        var feeds: [String: [String]] = [:]
        var feedSets: [String: Set<String>] = [:]
        var items: [String: [Int]] = [:]

        /// Records `name` (and that `feed` has it); returns its key.
        mutating func add(_ name: String, feed: String) -> String {
            let key = Taxonomy.key(name)
            if names[key] == nil {
                names[key] = FeedParser.FeedText.collapseWhitespace(name)
                order.append(key)
            }
            if feedSets[key, default: []].insert(feed).inserted {
                feeds[key, default: []].append(feed)
            }
            return key
        }
    }
}
