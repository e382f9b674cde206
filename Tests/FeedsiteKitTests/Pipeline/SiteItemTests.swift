import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// `SiteItem` keeps its fields in a shared box: it must still behave as a value.
@Suite("Site item")
struct SiteItemTests {
    static func item(slug: String = "post", link: String? = nil) -> SiteItem {
        SiteItem(
            slug: slug, feedSlug: "blog", feedName: "Blog", title: "Post", link: link, authors: ["Ada"],
            date: Date(timeIntervalSince1970: 86_400), content: SanitisedHTML(html: "<p>Hi</p>"), excerpt: "Hi",
            categories: ["news"], enclosures: [])
    }

    @Test("a copy changed is a new item; the original and its other copies keep their fields")
    func copiesAreIndependent() {
        let original = Self.item()
        var copy = original
        let another = original
        copy.slug = "renamed"
        copy.title = "Other"
        #expect(original.slug == "post" && original.title == "Post")
        #expect(another.slug == "post" && another == original)
        #expect(copy.slug == "renamed" && copy.title == "Other" && copy != original)
        copy.slug = "post"
        copy.title = "Post"
        #expect(copy == original && copy.hashValue == original.hashValue)
        #expect(Set([original, another, copy]).count == 1)
    }

    @Test("it is saved as one object of its fields, absent optionals left out, and read back equal")
    func codable() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let json = String(decoding: try encoder.encode(Self.item()), as: UTF8.self)
        #expect(
            json
                == #"{"authors":["Ada"],"categories":["news"],"content":{"html":"<p>Hi</p>"},"date":"1970-01-02T00:00:00Z","#
                + #""enclosures":[],"excerpt":"Hi","feedName":"Blog","feedSlug":"blog","slug":"post","title":"Post","#
                + #""wordCount":0}"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[SanitisedHTML.isTrustedKey] = true
        let linked = Self.item(link: "https://blog.example/post")
        #expect(try decoder.decode(SiteItem.self, from: encoder.encode(linked)) == linked)
    }
}
