import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// The view models' template glue (`PageViews+Template.swift`, generated from their properties at
/// build time by the TemplateGlue plugin; `TemplateGlueTests` tests the generator itself): check
/// that every property is answered with its own value, and that the schema the templates are
/// checked against says what each property holds.
@Suite("Page views")
struct PageViewsTests {
    static let date = DateView(iso: "2026-11-19T10:00:00Z", display: "19 Nov 2026", long: "19 Nov 2026, 11:00 UTC+1")
    static let summary = ItemSummaryView(
        title: "t", url: SitePath("u"), feedName: "f", feedURL: SitePath("fu"), date: date, excerpt: "e", authors: "a",
        lang: "de",
        thumbnail: "https://i.example/t.jpg", isVideo: true,
        categories: [term])
    static let term = TermView(name: "swift", pageURL: SitePath("categories/swift/index.html"))
    static let termLink = TermLinkView(
        name: "rust", url: "tags/rust/index.html", feedCount: 2, itemCount: 9, counts: "2 feeds, 9 items")
    static let alternate = AlternateView(
        type: "application/atom+xml", title: "P: rust (Atom)", label: "Atom", url: "tags/rust/atom.xml")
    static let site = SiteView(
        title: "s", description: "d", generator: "g", hasFeeds: true, noindex: true, buildTime: "b", language: "en",
        timeZone: "Europe/Berlin", hasTags: true, hasCategories: true)
    static let meta = PageMeta(
        kind: "article", url: "https://p.example/", canonical: "https://o.example/", description: "d",
        image: "https://i.example/i.png", prev: "p", next: "n", alternates: [alternate])
    static let pagination = PaginationView(prev: "p", next: "n", current: 2, total: 3)
    static let duplicate = DuplicateView(title: "t", link: "l", feedName: "f", feedURL: "u")
    static let dropped = DroppedView(
        filtered: 7, repeatedId: 1, duplicates: [duplicate], maxItems: 2, keepDays: 3, futureDate: 4)
    static let filtered = FilteredView(rule: "exclude \"x\"", line: 9, count: 7)
    static let status = FeedStatusView(
        name: "n", url: "u", link: "k", configuredURL: "c", page: "p", health: "ok", isFetched: true, note: "no",
        httpStatus: 200,
        bytes: 1, items: 2, read: 5, kept: 6, dropped: dropped, filtered: 7, filteredBy: [filtered], accounting: "a",
        newItems: 3, lastSuccess: "l", lastSuccessLabel: "ls",
        consecutiveFailures: 0, lastError: "x", warnings: ["w"], avatarNote: "av", isStale: false)
    static let feed = FeedView(
        name: "n", staleNote: "s", staleBanner: "b", description: "d", siteLink: "l", feedLink: "f",
        image: SitePath("i"),
        avatar: SitePath("a"), items: [summary],
        days: [day], tags: [term])
    static let day = DayView(date: "2026-11-19", display: "Thursday, 19 November 2026", items: [summary])
    static let item = ItemView(
        title: "t", link: "l", feedName: "f", feedURL: SitePath("u"), feedImage: SitePath("fi"),
        feedAvatar: SitePath("fa"), feedSiteLink: "fs", lang: "de",
        authors: "a", date: date, readingTime: "1 min read", content: .empty, categories: ["c"], hasCategories: true,
        categoryLinks: [term], tags: [term], enclosures: [enclosure], hasEnclosures: true, video: video,
        newer: ItemLinkView(title: "nt", url: "nu"),
        older: ItemLinkView(title: "ot", url: "ou"))
    static let enclosure = EnclosureView(url: "u", type: "t", size: "s", label: "l", isAudio: true, isVideo: false)
    static let video = VideoView(url: "https://v.example/w/abc", poster: "https://v.example/p.jpg", label: "Watch")
    static let month = ListLinkView(name: "November 2026", url: "u", itemCount: 3)
    static let year = ArchiveYearView(year: "2026", months: [month])

    static var views: [any TemplateObject] {
        [
            site, meta, date, summary, pagination, enclosure, feed, item, month, year, status, dropped, duplicate,
            filtered, day, term, termLink, alternate, video,
            TermIndexPage(
                head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), heading: "Tags", isCategories: false,
                terms: [termLink]),
            TermPage(
                head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), name: "rust", kind: "Tag",
                isCategory: false,
                indexURL: "i", feeds: [ListLinkView(name: "feed name", url: "u", itemCount: 1)], items: [summary],
                days: [day], pagination: pagination, alternates: [alternate]),
            ItemLinkView(title: "t", url: "u"),
            IndexPage(
                head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), heading: "h", isFirstPage: true,
                items: [summary],
                days: [day], feeds: [ListLinkView(name: "feed name", url: "u", itemCount: 1)], tags: [termLink],
                pagination: pagination),
            FeedPage(
                head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), feed: feed, pagination: pagination),
            ItemPage(head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), item: item),
            ArchiveIndexPage(head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), years: [year]),
            ArchiveMonthPage(
                head: PageHead(site: site, root: "", pageTitle: "p", meta: meta), name: "n", items: [summary],
                days: [day],
                archiveURL: "a",
                pagination: pagination, newerMonth: month, olderMonth: month, hasOtherMonths: true),
            StatusPage(site: site, root: "", pageTitle: "p", summary: "s", feeds: [status]),
            NotFoundPage(site: site, root: "/", pageTitle: "p"),
            SearchPage(
                head: PageHead(site: site, root: "../", pageTitle: "p", meta: meta), label: "l", scriptMessages: "{}"),
        ]
    }

    /// A comparable description of a template value or of the property it came from.
    static func plain(_ value: TemplateValue) -> String {
        switch value {
        case .string(let text): "s:\(text)"
        case .link(let path): "s:\(path)"
        case .html(let html): "s:\(html.html)"
        case .int(let number): "s:\(number)"
        case .bool(let flag): "s:\(flag)"
        case .list(let values): "[" + values.map(plain).joined(separator: ",") + "]"
        case .object(let object): "o:\(String(reflecting: object))"
        case .nothing: "nothing"
        }
    }

    static func plain(_ value: Any) -> String {
        switch value {
        case let value as any TemplateValueConvertible: plain(value.templateValue)
        default: "?\(value)"
        }
    }

    /// A view's fields as its templates see them: its stored properties, with a field group's
    /// (`PageHead`) in the group's place.
    static func fields(of view: Any) -> [(String, Any)] {
        Mirror(reflecting: view).children.flatMap { child -> [(String, Any)] in
            guard let label = child.label else { return [] }
            return child.value is any TemplateFieldGroup ? fields(of: child.value) : [(label, child.value)]
        }
    }

    /// The value inside an `Optional` (as `Any`), or the value itself.
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }

    @Test("every stored property of every view model is answered by child(named:)")
    func everyPropertyAnswered() {
        for view in Self.views {
            for (label, value) in Self.fields(of: view) {
                // The answer must be the property itself, not merely something (a switch case that
                // returned the parameter instead of the property once rendered "name" everywhere).
                let answer = view.value(named: label)
                #expect(answer != nil, "\(type(of: view)).\(label) is not answered")
                #expect(
                    answer.map(Self.plain) == Self.unwrapped(value).map(Self.plain),
                    "\(type(of: view)).\(label) answers the wrong value")
            }
        }
    }

    /// What the schema would say for a property holding `value` (arrays and optionals must not be empty).
    static func kind(of value: Any) -> TemplateSchema.Kind? {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional: return mirror.children.first.flatMap { kind(of: $0.value) }.map { .optional($0) }
        case .collection: return mirror.children.first.flatMap { kind(of: $0.value) }.map { .list($0) }
        default: break
        }
        switch value {
        case is String, is SitePath: return .string
        case is Int: return .int
        case is Bool: return .bool
        case is SanitisedHTML: return .html
        default: return mirror.displayStyle == .struct ? .object(String(describing: type(of: value))) : nil
        }
    }

    @Test("the schema gives each property's kind, and only the properties")
    func schemaMatchesTheTypes() {
        for view in Self.views {
            let type = String(describing: type(of: view))
            let properties = Self.fields(of: view)
            let schema = TemplateSchema.viewTypes[type] ?? [:]
            for (label, value) in properties {
                #expect(schema[label] == Self.kind(of: value), "\(type).\(label)")
            }
            // Computed properties are fields too (`PaginationView.isNeeded`).
            let computed = Set(schema.keys).subtracting(properties.map(\.0))
            #expect(computed.allSatisfy { view.value(named: $0) != nil }, "\(type): \(computed.sorted())")
        }
        #expect(Set(Self.views.map { String(describing: type(of: $0)) }) == Set(TemplateSchema.viewTypes.keys))
    }

    @Test("dotted names go through the fields' own types; a rest that leads nowhere stops the lookup")
    func dottedNames() {
        let page = IndexPage(
            head: PageHead(site: Self.site, root: "", pageTitle: "p", meta: PageMeta()), heading: "h",
            isFirstPage: true,
            items: [Self.summary], days: [], feeds: [], pagination: Self.pagination)
        func lookup(_ name: String) -> String? {
            page.value(Template.Name(parts: name.split(separator: ".").map(String.init)), at: 0).map(Self.plain)
        }
        #expect(lookup("site.title") == "s:s")
        #expect(lookup("pagination.current") == "s:2")
        #expect(lookup("pagination.isNeeded") == "s:true")
        // Found first parts whose rest is missing, nil or not an object: `.nothing`, not `nil`
        // (`nil` would send the lookup on to outer contexts).
        #expect(lookup("site.bogus") == "nothing")
        #expect(lookup("meta.description") == "nothing")
        #expect(lookup("root.length") == "nothing")
        #expect(lookup("items.title") == "nothing")
        // Absent first parts: `nil`.
        #expect(lookup("bogus") == nil)
        #expect(lookup("bogus.title") == nil)
        let item = ItemView(
            title: "t", feedName: "f", feedURL: SitePath("u"), feedAvatar: SitePath("fa"), content: .empty,
            categories: [], hasCategories: false,
            enclosures: [], hasEnclosures: false)
        #expect(item.value(named: "newer") == nil)
        #expect(item.value(Template.Name(parts: ["newer", "title"]), at: 0) == nil)
    }
}

extension TemplateObject {
    /// The value of a plain `name`, as a template's `{{name}}` would look it up.
    func value(named name: String) -> TemplateValue? { value(Template.Name(parts: [name]), at: 0) }
}
