import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise
@testable import FeedsiteShared

@Suite("URLPolicy")
struct URLPolicyTests {
    static let base = URL(string: "https://example.com/blog/post.html")

    @Test(
        "rejected",
        arguments: [
            "javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
            "java\nscript:alert(1)", "java\rscript:x", "\u{01}javascript:x", "java\u{01}script:x", "java\u{7F}script:x",
            "vbscript:x", "data:text/html,x", "data:image/png;base64,AAAA", "file:///etc/passwd", "ftp://e.example/",
            "https:evil.example", "https://", "", "   ", "http://[::1]/", "java\u{FFFD}script:x", "%6Aavascript:x",
            "\u{A0}javascript:x", "java\u{200B}script:x", "`x`onerror=fetch('http://e.example/')",
            "httpsx://e.example/", "httpx://e.example/", "htt://e.example/", "mailtoo:a@b.c", "https2://e.example/",
        ])
    func rejected(_ raw: String) {
        #expect(URLPolicy.resolve(raw, against: Self.base, for: .link) == nil)
        #expect(URLPolicy.resolve(raw, against: Self.base, for: .image) == nil)
    }

    @Test func mailtoOnlyForLinks() {
        #expect(URLPolicy.resolve("mailto:a@b.c", against: nil, for: .link) == "mailto:a@b.c")
        #expect(URLPolicy.resolve("mailto:a@b.c", against: nil, for: .image) == nil)
        #expect(URLPolicy.resolve("MailTo:a@b.c", against: nil, for: .link) == "mailto:a@b.c")
    }

    @Test(
        "resolved",
        arguments: [
            ("x.png", "https://example.com/blog/x.png"),
            ("/x", "https://example.com/x"),
            ("../x", "https://example.com/x"),
            ("//cdn.example/x", "https://cdn.example/x"),
            ("?q=1", "https://example.com/blog/post.html?q=1"),
            ("HTTP://Example.org/A", "http://Example.org/A"),
            ("hTTpS://Example.org/A", "https://Example.org/A"),
            ("a/./b/../c", "https://example.com/blog/a/c"),
            ("a/.b/c..d/.e", "https://example.com/blog/a/.b/c..d/.e"),
            ("\n https://e.example/a\tb \u{0}", "https://e.example/ab"),
            ("https:\\\\e.example\\x", "https://e.example/x"),
            ("a/b:c", "https://example.com/blog/a/b:c"),
            ("#x:y", "https://example.com/blog/post.html#x:y"),
        ])
    func resolved(_ raw: String, _ expected: String) {
        #expect(URLPolicy.resolve(raw, against: Self.base, for: .link) == expected)
    }

    @Test func relativeWithoutBase() {
        #expect(URLPolicy.resolve("x.png", against: nil, for: .image) == nil)
        #expect(URLPolicy.resolve("//cdn.example/x", against: nil, for: .image) == "https://cdn.example/x")
    }

    @Test func nonHTTPBaseDoesNotResolve() {
        #expect(URLPolicy.resolve("x", against: URL(string: "file:///tmp/"), for: .link) == nil)
    }

    static let parityBases = [
        "https://example.com/blog/post.html", "https://example.com", "https://example.com/",
        "http://a.example:8080/b/c/d;p?q",
        "https://blog1.example.org/2024/05/28/when-into-photo-you-0/", "HTTPS://Example.com/a/b/",
        "https://e.example/a?x=1#f",
    ]
    static let parityReferences = [
        "x.png", "/x", "../x", "../../../../x", "./x", ".", "..", "./", "../", "a/./b/../c", "/a/b/../../..",
        "//cdn.example/x",
        "?q=1", "#frag", "?q#f", "a/b:c", "#x:y", "../tags/stack/", "img/fig12.png", "../assets/diagram-9.svg",
        "/2024/05/28/post/", "g;x=1/../y", "a%20b", "a%2", "a b", "ü", "x?y?z", "x#y#z", "//user@host/x", "//[::1]/x",
        "//h:80/x", "//h:/x", "/a//b", "a/..", "a/.", "https://o.example/p", "HTTP://O.example:81/P?Q#F",
        "https://o.example", "https://o.example?x", "https://o.example#y", "http://o.example/a/../b",
    ]

    @Test("the feed parser's link resolution gives Foundation's absolute string for every pair of the grid")
    func feedLinksAgreeWithFoundation() throws {
        for baseText in Self.parityBases {
            let base = try #require(URL(string: baseText))
            for reference in Self.parityReferences {
                let expected = URL(string: reference, relativeTo: base)?.absoluteString ?? reference
                #expect(
                    FeedParser.FeedText.resolve(reference, against: base) == expected,
                    "\(reference) against \(baseText)")
            }
        }
        for reference in Self.parityReferences where reference.contains("://") {
            #expect(FeedParser.FeedText.resolve(reference, against: nil) == reference, "\(reference)")
        }
    }

    @Test("the byte-level resolver agrees with Foundation's URL wherever it answers")
    func simpleURLAgreesWithFoundation() throws {
        var answered = 0
        for baseText in Self.parityBases {
            let base = try #require(URL(string: baseText))
            for reference in Self.parityReferences {
                guard let fast = SimpleURL.resolve(reference, against: base) else { continue }
                answered += 1
                let slow = URL(string: reference, relativeTo: base)?.absoluteURL.absoluteString
                let lowered = slow.map { text in
                    text.firstIndex(of: ":").map { text[..<$0].lowercased() + text[$0...] } ?? text
                }
                #expect(fast == lowered, "\(reference) against \(baseText)")
            }
        }
        for reference in Self.parityReferences where reference.contains("://") {
            guard let fast = SimpleURL(reference) else { continue }
            answered += 1
            let slow = URL(string: reference)?.absoluteString
            #expect(fast.text.lowercased() == slow?.lowercased(), "\(reference)")
        }
        // Most of the grid takes the fast path (the rest must fall back, not be guessed).
        #expect(answered > 200)
        #expect(SimpleURL.resolve("a b", against: try #require(URL(string: Self.parityBases[0]))) == nil)
        #expect(SimpleURL("https://user@host/") == nil)
        #expect(SimpleURL("https://[::1]/") == nil)
    }
    @Test("dot segments are removed as RFC 3986 §5.2.4 does it, byte for byte like the Substring version")
    func dotSegmentsMatchTheReference() {
        let fixed = [
            "/a/b/c/./../../g", "mid/content=5/../6", "/../a", "/./", "/.", "/..", ".", "..", "../", "./",
            "a/..", "/a/b/..", "/a/b/.", "//..", "/a/.b/..c/", "/tags/../tags/swift", "", "/", "a",
        ]
        #expect(SimpleURL.removingDotSegments("/a/b/c/./../../g") == "/a/g")
        #expect(SimpleURL.removingDotSegments("mid/content=5/../6") == "mid/6")
        var generator = SystemRandomNumberGenerator()
        let pieces = ["/", ".", "..", "a", "bc", "./", "../", "/.", "/..", ".x", "é"]
        let random = (0..<20_000).map { _ in
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        for path in fixed + random {
            #expect(SimpleURL.removingDotSegments(path) == Self.referenceRemovingDotSegments(path), "\(path)")
        }
    }

    /// The `Substring` implementation it replaced.
    static func referenceRemovingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
