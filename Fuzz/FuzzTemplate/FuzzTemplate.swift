import Foundation
import FuzzerDriver

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → a template set (`Template(parsing:)`, the load-time name check,
/// the compiled `Program`) → a page rendered with a view that has every kind of value.
/// The bytes are split at `\u{1}` into templates named `page`, `a`, `b`, `c`…, so partials,
/// parents and blocks refer to each other (`{{>a}}`, `{{<b}}{{$x}}…{{/x}}{{/b}}`).
/// Templates are the user's own files: a bad one is refused with a located error, a runaway one is
/// stopped (`Template.Renderer.limits`, smaller here); none may crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    let sources = String(decoding: bytes, as: UTF8.self).split(separator: "\u{1}", omittingEmptySubsequences: false)
    let names = ["page"] + (0..<25).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
    var templates: [String: Template] = [:]
    for (name, source) in zip(names, sources) {
        guard let template = try? Template(parsing: String(source)) else { return 0 }
        templates[name] = template
    }
    _ = Template.checkNames(templates, pageTypes: ["page": "IndexPage"])
    var renderer = Template.Renderer(templates: templates)
    // The build's limits take seconds to reach in a sanitised debug build (libFuzzer's timeout is 1 s).
    renderer.limits = (output: 1 << 20, steps: 100_000, operations: 10_000_000)
    try? renderer.render(
        "page", with: FuzzView.page.templateValue, globals: .object(TemplateGlobals(t: MessageCatalogue.english)),
        root: "../../")
    return 0
}

/// An index page with two items, a day, tags and pagination: strings with markup, optionals both
/// set and absent, Booleans, numbers, lists and nested objects.
enum FuzzView {
    static let date = DateView(iso: "2026-11-19T10:00:00Z", display: "19 Nov 2026", long: "19 Nov 2026, 11:00 UTC+1")
    static let term = TermView(name: "swift <&>", pageURL: SitePath("categories/swift/index.html"))
    static let first = ItemSummaryView(
        title: "<b>t</b> & \"q\"", url: SitePath("u&<"), feedName: "f", feedURL: SitePath("fu"), date: date,
        excerpt: "e", authors: "a",
        lang: "de", thumbnail: "https://i.example/t.jpg", isVideo: true, categories: [term])
    static let second = ItemSummaryView(title: "t2", url: SitePath("u2"), feedName: "f2", feedURL: SitePath("fu2"))
    static let site = SiteView(
        title: "s", description: nil, generator: "g", hasFeeds: true, noindex: false, buildTime: nil, language: "en",
        timeZone: "UTC", hasTags: true, hasCategories: false)
    static let page = IndexPage(
        head: PageHead(site: site, root: "../", pageTitle: "p", meta: PageMeta()), heading: "h", isFirstPage: true,
        items: [first, second],
        days: [DayView(date: "2026-11-19", display: "Thursday", items: [first, second])],
        feeds: [ListLinkView(name: "n", url: "u", itemCount: 3)],
        tags: [TermLinkView(name: "rust", url: "r", feedCount: 1, itemCount: 2, counts: "1 feed, 2 items")],
        pagination: PaginationView(prev: nil, next: "n", current: 1, total: 2))
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzTemplate` as the target.
@main
enum Main {
    static func main() {
        // The lazily made globals (the template schema, the catalogue, the view) are made once
        // here, before libFuzzer counts allocations per input: made during the first input they
        // look like that input's leak.
        let warmUp = Array("{{#items}}{{title}}{{/items}}{{t.newer}}".utf8)
        _ = fuzzTemplate(warmUp, warmUp.count)
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTemplate(data, size) })
    }
}
