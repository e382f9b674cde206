import Foundation
import Testing

@testable import FeedsiteKit

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
        ])
    func rejected(_ raw: String) {
        #expect(URLPolicy.resolve(raw, against: Self.base, for: .link) == nil)
        #expect(URLPolicy.resolve(raw, against: Self.base, for: .image) == nil)
    }

    @Test func mailtoOnlyForLinks() {
        #expect(URLPolicy.resolve("mailto:a@b.c", against: nil, for: .link) == "mailto:a@b.c")
        #expect(URLPolicy.resolve("mailto:a@b.c", against: nil, for: .image) == nil)
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
}
