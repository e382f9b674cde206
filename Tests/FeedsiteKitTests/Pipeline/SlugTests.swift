import Testing

@testable import FeedsiteKit

@Suite("Slugs")
struct SlugTests {
    @Test(
        "titles become readable ASCII slugs",
        arguments: [
            ("Hello, World!", "hello-world"),
            ("  Swift 6.3 — what's new?  ", "swift-6-3-what-s-new"),
            ("Über straße café", "uber-strasse-cafe"),
            ("日本語のタイトル", ""),
            ("---", ""),
            ("A", "a"),
        ])
    func make(title: String, slug: String) {
        #expect(Slug.make(title) == slug)
    }

    @Test(
        "accents, case and width are folded; ß is ss; other scalars are dashes",
        arguments: [
            ("Swift 6.3 Released", "swift-6-3-released"),
            ("ÀÉÎÕÜ àéîõü Çç Ññ", "aeiou-aeiou-cc-nn"),
            ("Ａｂｃ １２３", "abc-123"),
            ("e\u{301}te\u{301}", "ete"),
            ("Grüße aus Köln", "grusse-aus-koln"),
        ])
    func folding(title: String, slug: String) {
        #expect(Slug.make(title) == slug)
    }

    @Test("long titles are cut at a word boundary")
    func longTitle() {
        let slug = Slug.make(String(repeating: "word ", count: 40))
        #expect(slug.count <= 60)
        #expect(!slug.hasSuffix("-"))
        #expect(slug.hasSuffix("word"))
    }

    @Test("hash is stable (the same on every run and machine)")
    func stableHash() {
        #expect(Slug.hash("https://example.com/post/1") == Slug.hash("https://example.com/post/1"))
        #expect(Slug.hash("https://example.com/post/1") != Slug.hash("https://example.com/post/2"))
        #expect(Slug.hash("x").count <= 6)
    }

    @Test("colliding and empty slugs get a hash of their key, unique ones stay plain")
    func assign() {
        let slugs = Slug.assign(
            [
                (key: "id-1", text: "Weekly notes"), (key: "id-2", text: "Weekly notes"),
                (key: "id-3", text: "Release 1.0"), (key: "id-4", text: "日本"),
            ], fallback: "item")
        #expect(slugs["id-3"] == "release-1-0")
        #expect(slugs["id-1"] == "weekly-notes-" + Slug.hash("id-1"))
        #expect(slugs["id-2"] == "weekly-notes-" + Slug.hash("id-2"))
        #expect(slugs["id-4"] == "item-" + Slug.hash("id-4"))
        #expect(Set(slugs.values).count == 4)
    }

    @Test("the same items in another order get the same slugs")
    func orderIndependent() {
        let entries = [(key: "a", text: "Same"), (key: "b", text: "Same"), (key: "c", text: "Other")]
        #expect(Slug.assign(entries, fallback: "item") == Slug.assign(entries.reversed(), fallback: "item"))
    }
}
