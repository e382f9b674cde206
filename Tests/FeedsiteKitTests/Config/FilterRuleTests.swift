import FeedsitePattern
import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

@Suite("Filters: exclude and include")
struct FilterRuleTests {
    /// An item with the given fields; content is sanitised-looking HTML.
    static func item(
        title: String = "A post", content: String = "", authors: [String] = [], categories: [String] = [],
        link: String? = "https://blog.example/post"
    ) -> SiteItem {
        SiteItem(
            slug: "a-post", feedSlug: "blog", feedName: "Blog", title: title, link: link, authors: authors,
            date: nil, content: SanitisedHTML(html: content), excerpt: "", categories: categories, enclosures: [])
    }

    /// The site-level filter of a `feeds.yml` whose top level holds `rules`.
    static func filter(_ rules: String) throws -> ItemFilter {
        let (configuration, _) = try SiteConfiguration.parse(yaml: rules + "\nfeeds:\n  - https://example.com/feed\n")
        return configuration.filter
    }

    static func isKept(_ item: SiteItem, by filter: ItemFilter) -> Bool {
        let subject = FilterSubject(item, readsContent: filter.readsContent)
        return filter.verdict(subject, BoundedSearch()) == .passes
    }

    /// (rules, item, kept?): each read by hand.
    static let cases: [(rules: String, item: SiteItem, kept: Bool)] = [
        // A phrase: in the title or the content, any case, whitespace runs collapsed.
        ("exclude: [sponsored post]", item(title: "A Sponsored Post about VPNs"), false),
        ("exclude: [sponsored post]", item(content: "<p>This is a <em>sponsored\n  post</em>.</p>"), false),
        ("exclude: [sponsored post]", item(title: "Sponsored", content: "<p>post</p>"), true),
        ("exclude: ['  SPONSORED   post ']", item(title: "sponsored post"), false),
        // The phrase is looked for in the text, not in the markup.
        ("exclude: [strong]", item(content: "<p><strong>Bold</strong> claims</p>"), true),
        ("exclude: [AT&T]", item(content: "<p>AT&amp;T news</p>"), false),
        // Non-ASCII case folding.
        ("exclude: [ÉTÉ]", item(title: "Un été chaud"), false),
        // A field and a regular expression, searched anywhere, case-sensitive unless (?i).
        ("exclude: [{title: '^\\[Ad\\]'}]", item(title: "[Ad] Buy now"), false),
        ("exclude: [{title: '^\\[Ad\\]'}]", item(title: "Not an [Ad]"), true),
        ("exclude: [{title: 'swift'}]", item(title: "Swift 6"), true),
        ("exclude: [{title: '(?i)swift'}]", item(title: "Swift 6"), false),
        ("exclude: [{content: 'v\\d+\\.\\d+'}]", item(content: "<p>Released <code>v2.10</code></p>"), false),
        ("exclude: [{author: '^Bot$'}]", item(authors: ["Alice", "Bot"]), false),
        ("exclude: [{author: '^Bot$'}]", item(authors: ["Robot"]), true),
        ("exclude: [{category: '(?i)^podcast$'}]", item(categories: ["Tech", "Podcast"]), false),
        ("exclude: [{category: '(?i)^podcast$'}]", item(categories: ["Podcasting"]), true),
        ("exclude: [{link: '/sponsored/'}]", item(link: "https://blog.example/sponsored/vpn"), false),
        ("exclude: [{link: '.'}]", item(link: nil), true),
        // A rule on the title does not look at the content.
        ("exclude: [{title: 'secret'}]", item(title: "Hello", content: "<p>secret</p>"), true),
        // include: at least one must match; then exclude still applies.
        ("include: [swift, {category: '^Rust$'}]", item(title: "Swift news"), true),
        ("include: [swift, {category: '^Rust$'}]", item(title: "Go news", categories: ["Rust"]), true),
        ("include: [swift, {category: '^Rust$'}]", item(title: "Go news", categories: ["rust"]), false),
        ("include: [swift]\nexclude: [beta]", item(title: "Swift beta"), false),
        // A single rule without the list.
        ("exclude: sponsored", item(title: "Sponsored"), false),
    ]

    @Test("rules keep and drop items as a reader of feeds.yml expects", arguments: cases.indices)
    func table(_ index: Int) throws {
        let (rules, item, kept) = Self.cases[index]
        #expect(Self.isKept(item, by: try Self.filter(rules)) == kept, "\(rules) on \(item.title)")
    }

    @Test("the reason names the rule and its line")
    func reasons() throws {
        let yaml = """
            title: Reasons
            include:
              - swift
            exclude:
              - beta
              - title: '^\\[Ad\\]'
            feeds:
              - https://example.com/feed
            """
        let (configuration, _) = try SiteConfiguration.parse(yaml: yaml)
        let filter = configuration.filter
        func reason(_ item: SiteItem) -> FilterReason? {
            guard case .leftOut(let reason) = filter.verdict(FilterSubject(item, readsContent: true), BoundedSearch())
            else { return nil }
            return reason
        }
        #expect(reason(Self.item(title: "Go news")) == FilterReason(summary: "matched no include rule", line: 2))
        #expect(reason(Self.item(title: "Swift beta")) == FilterReason(summary: "exclude \"beta\"", line: 5))
        #expect(
            reason(Self.item(title: "[Ad] Swift")) == FilterReason(summary: #"exclude title ~ /^\[Ad\]/"#, line: 6))
        #expect(reason(Self.item(title: "Swift 6")) == nil)
    }

    @Test("per-feed rules are read with their lines; the site's apply to every feed")
    func perFeed() throws {
        let yaml = """
            exclude: [weekly roundup]
            feeds:
              - url: https://a.example/feed
                exclude:
                  - category: ^Podcast$
                include: [release]
              - url: https://b.example/feed
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(warnings.isEmpty)
        #expect(configuration.filter.exclude.map(\.summary) == ["exclude \"weekly roundup\""])
        let first = configuration.feeds[0].filter
        #expect(first.exclude.map(\.summary) == ["exclude category ~ /^Podcast$/"])
        #expect(first.exclude.map(\.line) == [5])
        #expect(first.include.map(\.summary) == ["include \"release\""])
        #expect(first.includeLine == 6)
        #expect(configuration.feeds[1].filter.isEmpty)
    }

    /// Each bad rule and the exact diagnostic it must produce.
    static let errorCases: [(yaml: String, expected: String)] = [
        (
            "exclude:\n  - title: '(abc'\n",
            "feeds.yml:2:12: error: 'exclude' rule: \"(abc\" is not a valid regular expression for 'title': expected ')'"
        ),
        (
            "include:\n  - link: 'a{2,1}'\n",
            "feeds.yml:2:11: error: 'include' rule: \"a{2,1}\" is not a valid regular expression for 'link': "
                + "range lower bound '2' must be less than or equal to upper bound '1'"
        ),
        (
            "exclude:\n  - titel: x\n",
            "feeds.yml:2:5: error: 'exclude' rule: unknown field \"titel\"; the fields are title, content, author, "
                + "category, link; did you mean 'title'?"
        ),
        (
            "exclude:\n  - {title: a, content: b}\n",
            "feeds.yml:2:5: error: 'exclude' rule must name one field, got 2 (title, content); write one rule per field"
        ),
        (
            "exclude:\n  - ''\n",
            "feeds.yml:2:5: error: 'exclude' rule is empty: write a phrase, or a field (title, content, author, category, link) and a regular expression"
        ),
        (
            "exclude:\n  - title: ''\n",
            "feeds.yml:2:12: error: 'exclude' rule: the regular expression for 'title' is empty (it would match every item)"
        ),
        (
            "exclude: []\n",
            "feeds.yml:1:10: error: 'exclude' is empty: list rules such as '- sponsored' or '- title: ^Ad:'"
        ),
        (
            "exclude:\n  - title: [a, b]\n",
            "feeds.yml:2:12: error: 'exclude' rule: 'title' must be a regular expression (one line of text)"
        ),
    ]

    @Test("a bad rule is a configuration error at its line and column", arguments: errorCases.indices)
    func errors(_ index: Int) {
        let (yaml, expected) = Self.errorCases[index]
        do {
            _ = try SiteConfiguration.parse(yaml: yaml + "feeds:\n  - https://example.com/feed\n")
            Issue.record("no error for \(yaml)")
        } catch {
            #expect(error.diagnostics.map(\.description) == [expected])
        }
    }

    @Test("a bad rule in a feed entry is reported with the others, at its own line")
    func feedErrors() {
        let yaml = """
            feeds:
              - url: https://a.example/feed
                include:
                  - content: '[unclosed'
              - url: https://b.example/feed
                exclude: [{author: '*'}]
            """
        do {
            _ = try SiteConfiguration.parse(yaml: yaml)
            Issue.record("no error")
        } catch {
            let lines = error.diagnostics.map(\.description)
            #expect(lines.count == 2)
            #expect(
                lines.first?.hasPrefix("feeds.yml:4:18: error: 'include' rule: \"[unclosed\" is not a valid") == true)
            #expect(lines.last?.hasPrefix("feeds.yml:6:24: error: 'exclude' rule: \"*\" is not a valid") == true)
        }
    }

    @Test("the configuration reflects rules the same way every time (the build fingerprint)")
    func stableReflection() throws {
        let first = String(reflecting: try Self.filter("exclude: [{title: '^a'}]"))
        let second = String(reflecting: try Self.filter("exclude: [{title: '^a'}]"))
        #expect(first == second)
        #expect(first.contains("exclude title ~ /^a/"))
        #expect(!first.contains("0x"))
    }
}
