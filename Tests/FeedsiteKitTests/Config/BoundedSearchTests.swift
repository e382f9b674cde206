import FeedsitePattern
import Testing

/// The `exclude:`/`include:` patterns' search gives up on backtracking instead of hanging a build.
@Suite("Filters: a pattern's search is bounded")
struct BoundedSearchTests {
    /// 40 `a`s then `!`: `(a+)+$` tries every way to split the `a`s (2⁴⁰) before failing.
    static let catastrophic = String(repeating: "a", count: 40) + "!"

    @Test("a pattern that backtracks exponentially gives up; the same pattern still decides easy text")
    func givesUp() {
        let search = BoundedSearch()
        #expect(search.search("(a+)+$", in: Self.catastrophic) == .gaveUp)
        #expect(search.search("(a+)+$", in: "ends in aaa") == .match)
        #expect(search.search("(a+)+$", in: "no such ending!") == .noMatch)
    }

    @Test("an ordinary pattern searches 5 MB of text to its end within the budget")
    func largeText() {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet"]
        var text = ""
        var index = 0
        while text.utf8.count < 5_000_000 {
            text += words[index % words.count] + " "
            index += 1
        }
        let search = BoundedSearch()
        #expect(search.search(#"(?i)\bsponsor\w*"#, in: text) == .noMatch)
        #expect(search.search(#"(?i)\bsponsor\w*"#, in: text + "Sponsored") == .match)
    }

    @Test("a pattern that gave up 4 times in a build is not tried again; other patterns are")
    func spent() {
        let shared = BoundedSearch.GaveUp()
        let first = BoundedSearch(sharing: shared)
        let second = BoundedSearch(sharing: shared)
        for _ in 0..<2 {
            #expect(first.search("(a+)+$", in: Self.catastrophic) == .gaveUp)
            #expect(second.search("(a+)+$", in: Self.catastrophic) == .gaveUp)
        }
        // Spent: even text it would match is no longer searched.
        #expect(first.search("(a+)+$", in: "aaa") == .gaveUp)
        #expect(BoundedSearch(sharing: shared).search("(a+)+$", in: "aaa") == .gaveUp)
        #expect(first.search("^aaa$", in: "aaa") == .match)
        // A search of its own has its own count.
        #expect(BoundedSearch().search("(a+)+$", in: "aaa") == .match)
    }

    @Test("ICU's own compiler decides what compiles")
    func compiles() {
        #expect(BoundedSearch.compiles(#"^\[Ad\]"#))
        #expect(BoundedSearch.compiles("(?i)swift"))
        #expect(!BoundedSearch.compiles("(unclosed"))
        #expect(!BoundedSearch.compiles("a{2,1}"))
    }
}
