import Foundation
import Mustache
import Testing

@testable import FeedsiteKit

/// The view models answer template lookups through `MustacheParent` (fast) instead of `Mirror`;
/// a property missing from the switch would silently render as empty, so check them all.
@Suite("Page views")
struct PageViewsTests {
    static let date = DateView(iso: "2026-11-19T10:00:00Z", display: "19 Nov 2026")
    static let summary = ItemSummaryView(
        title: "t", url: "u", feedName: "f", feedURL: "fu", date: date, excerpt: "e", authors: "a")
    static let site = SiteView(title: "s", description: "d", generator: "g", buildTime: "b")
    static let status = FeedStatusView(
        name: "n", url: "u", page: "p", health: "ok", httpStatus: 200, bytes: 1, items: 2, newItems: 3,
        lastSuccess: "l", consecutiveFailures: 0, lastError: "x", warnings: ["w"], isStale: false)

    static var views: [any MustacheParent] {
        [
            site, date, summary, FeedLinkView(name: "feed name", url: "u", itemCount: 1),
            EnclosureView(url: "u", type: "t", size: "s", label: "l"),
            IndexPage(site: site, root: "", pageTitle: "p", items: [summary], feeds: []),
            FeedPage(
                site: site, root: "", pageTitle: "p",
                feed: FeedView(name: "n", staleNote: "s", description: "d", siteLink: "l", feedLink: "f", items: [])),
            FeedView(name: "n", staleNote: "s", description: "d", siteLink: "l", feedLink: "f", items: []),
            ItemPage(
                site: site, root: "", pageTitle: "p",
                item: ItemView(
                    title: "t", link: "l", feedName: "f", feedURL: "u", authors: "a", date: date, content: .empty,
                    categories: [], hasCategories: false, enclosures: [])),
            ItemView(
                title: "t", link: "l", feedName: "f", feedURL: "u", authors: "a", date: date, content: .empty,
                categories: [], hasCategories: false, enclosures: []),
            StatusPage(site: site, root: "", pageTitle: "p", summary: "s", feeds: [status]),
            status,
        ]
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
                let answer = view.child(named: label)
                #expect(answer != nil, "\(type(of: view)).\(label) is not answered")
                #expect(
                    String(reflecting: answer.flatMap(Self.unwrapped) as Any)
                        == String(reflecting: Self.unwrapped(value) as Any),
                    "\(type(of: view)).\(label) answers the wrong value")
            }
        }
    }
}
