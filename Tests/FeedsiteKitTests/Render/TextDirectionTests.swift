import Foundation
import Testing

@testable import FeedsiteKit

/// Right-to-left text: `<html dir="rtl">` for an Arabic or Hebrew site, `dir` on every title,
/// excerpt and content from a feed (`rtl` when its declared language is written right to left,
/// else `auto`), and names isolated with `<bdi>` in mixed metadata lines.
@Suite("Text direction")
struct TextDirectionTests {
    @Test(
        "right-to-left languages by primary subtag",
        arguments: [
            ("ur", true), ("ur-PK", true), ("he", true), ("iw", true), ("ar-EG", true), ("fa", true), ("yi", true),
            ("en", false), ("de-CH", false), ("ja", false), ("", false),
        ])
    func languages(tag: String, isRightToLeft: Bool) {
        #expect(TextDirection.isRightToLeft(tag) == isRightToLeft)
        #expect(TextDirection.attribute(forLanguage: tag) == (isRightToLeft ? "rtl" : "auto"))
    }

    @Test("language: ar and he set <html dir=\"rtl\">; other languages set none")
    func siteDirection() throws {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        for (language, isRightToLeft) in [("ar", true), ("he-IL", true), ("de", false), ("en", false)] {
            let pages = try MessageCatalogueTests.render(
                PaginationAndThemeTests.site(language: language), templates: templates)
            for page in ["index.html", "items/alpha/a1/index.html", "status/index.html", "404.html"] {
                let html = pages[page] ?? ""
                #expect(
                    html.contains(#"<html lang="\#(language)" dir="rtl">"#) == isRightToLeft, "\(language) \(page)")
                #expect(html.contains(#"<html lang="\#(language)">"#) == !isRightToLeft, "\(language) \(page)")
            }
        }
    }

    @Test("a user's catalogue for Persian makes the site right to left without saying so")
    func addedRightToLeftLanguage() throws {
        let folder = try MessageCatalogueTests.temporaryTemplates(["strings/fa.yml": "latest_items: آخرین نوشته‌ها\n"])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let templates = try SiteTemplates.load(overriding: folder, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let pages = try MessageCatalogueTests.render(PaginationAndThemeTests.site(language: "fa"), templates: templates)
        #expect(pages["index.html"]?.contains(#"<html lang="fa" dir="rtl">"#) == true)
        // Without a catalogue the pages are English, and left to right.
        let english = try MessageCatalogueTests.render(
            PaginationAndThemeTests.site(language: "ur"),
            templates: SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml")))
        #expect(english["index.html"]?.contains(#"<html lang="ur">"#) == true)
    }

    @Test(
        "the Urdu capture beside an English feed: rtl on its titles, excerpts and content, auto elsewhere, names in <bdi>"
    )
    func urduBesideEnglish() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let urdu = Fixtures.url("real-feeds/urdu-rtl-utf8.xml").path
        let english = Fixtures.url("real-feeds/hugo-rss2.xml").path
        _ = try await build.run(
            yaml:
                "title: Mixed\nsearch: false\nfeeds:\n  - url: \(urdu)\n    name: بی بی سی اردو\n  - url: \(english)\n",
            offline: false)
        let site = build.site
        let index = site.files["index.html"] ?? ""
        #expect(index.contains(#"<html lang="en">"#))
        // The Urdu feed declares `ur`: its summaries are right to left, with their language.
        #expect(
            index.contains(
                #"<h3 lang="ur" dir="rtl"><a href="items/"#))
        #expect(index.contains(#"<p class="excerpt" lang="ur" dir="rtl">"#))
        // The feed's name is isolated in the metadata line, so the date does not join it.
        #expect(index.contains("><bdi>بی بی سی اردو</bdi></a>"))
        let urduItem = try #require(
            site.files.first { $0.key.hasPrefix("items/") && $0.value.contains(#"<h1 lang="ur" dir="rtl">"#) })
        #expect(urduItem.value.contains(#"<div class="content" lang="ur" dir="rtl">"#))
        // Every English title is `auto` (its first strong character decides).
        let englishTitles = index.components(separatedBy: "<h3").dropFirst().filter { !$0.contains(#"lang="ur""#) }
        #expect(!englishTitles.isEmpty)
        #expect(englishTitles.allSatisfy { $0.hasPrefix(#" dir="auto">"#) || $0.contains(#" dir="auto">"#) })
    }
}
