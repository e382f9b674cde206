import Foundation
import Testing

@testable import FeedsiteKit

/// The view models answer template lookups with a switch (`TemplateObject`) instead of `Mirror`;
/// a property missing from the switch would silently render as empty, so check them all.
@Suite("Page views")
struct PageViewsTests {
    static let date = DateView(iso: "2026-11-19T10:00:00Z", display: "19 Nov 2026", long: "19 Nov 2026, 11:00 UTC+1")
    static let summary = ItemSummaryView(
        title: "t", url: "u", feedName: "f", feedURL: "fu", date: date, excerpt: "e", authors: "a", lang: "de")
    static let site = SiteView(
        title: "s", description: "d", generator: "g", hasFeeds: true, noindex: true, buildTime: "b", language: "en",
        timeZone: "Europe/Berlin")
    static let meta = PageMeta(
        kind: "article", url: "https://p.example/", canonical: "https://o.example/", description: "d",
        image: "https://i.example/i.png", prev: "p", next: "n")
    static let pagination = PaginationView(prev: "p", next: "n", current: 2, total: 3)
    static let duplicate = DuplicateView(title: "t", link: "l", feedName: "f", feedURL: "u")
    static let dropped = DroppedView(repeatedId: 1, duplicates: [duplicate], maxItems: 2, keepDays: 3, futureDate: 4)
    static let status = FeedStatusView(
        name: "n", url: "u", configuredURL: "c", page: "p", health: "ok", isFetched: true, note: "no", httpStatus: 200,
        bytes: 1, items: 2, read: 5, kept: 6, dropped: dropped, accounting: "a", newItems: 3, lastSuccess: "l",
        consecutiveFailures: 0, lastError: "x", warnings: ["w"], isStale: false)
    static let feed = FeedView(
        name: "n", staleNote: "s", description: "d", siteLink: "l", feedLink: "f", image: "i", items: [summary])
    static let item = ItemView(
        title: "t", link: "l", feedName: "f", feedURL: "u", feedImage: "fi", feedSiteLink: "fs", lang: "de",
        authors: "a", date: date, readingTime: "1 min read", content: .empty, categories: ["c"], hasCategories: true,
        enclosures: [enclosure], hasEnclosures: true, newer: ItemLinkView(title: "nt", url: "nu"),
        older: ItemLinkView(title: "ot", url: "ou"))
    static let enclosure = EnclosureView(url: "u", type: "t", size: "s", label: "l", isAudio: true, isVideo: false)
    static let month = ArchiveMonthLinkView(name: "November 2026", url: "u", itemCount: 3)
    static let year = ArchiveYearView(year: "2026", months: [month])

    static var views: [any TemplateObject] {
        [
            site, meta, date, summary, pagination, enclosure, feed, item, month, year, status, dropped, duplicate,
            FeedLinkView(name: "feed name", url: "u", itemCount: 1),
            ItemLinkView(title: "t", url: "u"),
            IndexPage(
                site: site, root: "", pageTitle: "p", meta: meta, heading: "h", isFirstPage: true, items: [summary],
                feeds: [], pagination: pagination),
            FeedPage(site: site, root: "", pageTitle: "p", meta: meta, feed: feed, pagination: pagination),
            ItemPage(site: site, root: "", pageTitle: "p", meta: meta, item: item),
            ArchiveIndexPage(site: site, root: "", pageTitle: "p", meta: meta, years: [year]),
            ArchiveMonthPage(
                site: site, root: "", pageTitle: "p", meta: meta, name: "n", items: [summary], archiveURL: "a",
                pagination: pagination, newerMonth: month, olderMonth: month, hasOtherMonths: true),
            StatusPage(site: site, root: "", pageTitle: "p", summary: "s", feeds: [status]),
        ]
    }

    /// A comparable description of a template value or of the property it came from.
    static func plain(_ value: TemplateValue) -> String {
        switch value {
        case .string(let text): "s:\(text)"
        case .html(let html): "s:\(html.html)"
        case .int(let number): "s:\(number)"
        case .bool(let flag): "s:\(flag)"
        case .list(let values): "[" + values.map(plain).joined(separator: ",") + "]"
        case .object(let object): "o:\(String(reflecting: object))"
        }
    }

    static func plain(_ value: Any) -> String {
        switch value {
        case let value as any TemplateValueConvertible: plain(value.templateValue)
        default: "?\(value)"
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
            for case let (label?, value) in Mirror(reflecting: view).children {
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
}
