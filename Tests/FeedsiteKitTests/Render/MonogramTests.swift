import Foundation
import Testing

@testable import FeedsiteKit

/// Monograms: the picture feedsite draws for a feed that names no icon (`avatars/<slug>.svg`).
@Suite("Monograms")
struct MonogramTests {
    @Test(
        "the letter is the name's first letter or digit, whole and uppercased",
        arguments: [
            ("swift.org", "S"), ("  élan", "É"), ("9to5Mac", "9"), ("«Le Monde»", "L"), ("بی بی سی اردو", "ب"),
            ("日本語ブログ", "日"), ("—", "#"), ("", "#"), ("e\u{301}clair", "É"),
        ])
    func letters(name: String, letter: String) {
        #expect(Monogram.letter(of: name) == letter)
    }

    @Test("the SVG is 64 px, escapes the letter, and keeps a feed's colour from build to build")
    func svg() {
        let svg = Monogram.svg(name: "<b>", slug: "tags")
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64""#))
        #expect(svg.contains(">B</text>") && !svg.contains("<b>"))
        #expect(Monogram.svg(name: "«&»", slug: "x").contains(">#</text>"))
        #expect(Monogram.svg(name: "a", slug: "alpha") == Monogram.svg(name: "a", slug: "alpha"))
        #expect(Monogram.colours.contains(Monogram.colour(for: "alpha")))
        // Eight colours, spread over slugs: not every feed the same.
        #expect(Set((0..<40).map { Monogram.colour(for: "feed-\($0)") }).count >= 6)
    }

    @Test("a feed without an avatar gets its monogram on its pages; an icon URL is never hotlinked")
    func pages() throws {
        let site = try PaginationAndThemeTests.render()
        // `beta` names no image; `alpha` names https://alpha.example/icon.png, but no avatar was made
        // from it (that happens when the site is built: AvatarTests).
        #expect(site.files["avatars/beta.svg"]?.contains(">B</text>") == true)
        #expect(site.files["avatars/alpha.svg"]?.contains(">A</text>") == true)
        #expect(
            site.files["feeds/beta/index.html"]?.contains(
                #"<h1><img class="feed-icon" src="../../avatars/beta.svg" alt="" width="32" height="32"> "#) == true)
        #expect(
            site.files["items/beta/b0/index.html"]?.contains(
                #"<img class="feed-icon" src="../../../avatars/beta.svg" alt="" width="20" height="20">"#) == true)
        #expect(site.files["feeds/alpha/index.html"]?.contains(#"src="../../avatars/alpha.svg""#) == true)
        #expect(site.files.values.allSatisfy { !$0.contains("https://alpha.example/icon.png") })
    }
}
