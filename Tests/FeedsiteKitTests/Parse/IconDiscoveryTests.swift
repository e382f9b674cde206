import FeedsiteParse
import Foundation
import Testing

/// `FeedParser.discoverIconLinks`: the icons a home page names, best for a 64-pixel avatar first.
@Suite("Icon discovery")
struct IconDiscoveryTests {
    let base = URL(string: "https://blog.example/")

    func icons(_ html: String) -> [String] {
        FeedParser.discoverIconLinks(inHTML: Data(html.utf8), baseURL: base).map(\.absoluteString)
    }

    @Test("the smallest declared size of at least 64 first, then larger, then smaller, then unknown")
    func order() {
        let html = """
            <link rel="icon" href="/unknown.ico">
            <link rel="icon" sizes="16x16 32x32" href="/small.png">
            <link rel=apple-touch-icon href=/touch.png>
            <LINK REL="Shortcut Icon" sizes="96x96" href="/96.png">
            <link rel="icon" sizes="64x64" href="/64.png">
            """
        #expect(
            icons(html) == [
                "https://blog.example/64.png", "https://blog.example/96.png", "https://blog.example/touch.png",
                "https://blog.example/small.png", "https://blog.example/unknown.ico",
            ])
    }

    @Test("SVG icons, other schemes, commented-out and non-icon links are left out; <base> resolves")
    func leftOut() {
        let html = """
            <base href="https://cdn.example/assets/">
            <!-- <link rel="icon" href="/commented.png"> -->
            <link rel="icon" type="image/svg+xml" href="icon.svg">
            <link rel="icon" href="logo.SVG">
            <link rel="mask-icon" href="mask.png">
            <link rel="icon" href="data:image/png;base64,AAAA">
            <link rel="stylesheet" href="style.css">
            <link rel="icon" href="icon.png">
            """
        #expect(icons(html) == ["https://cdn.example/assets/icon.png"])
        #expect(icons("<p>no head at all") == [])
    }

    @Test("feed discovery still finds feeds through the shared scan")
    func feedsUnchanged() {
        let html = #"<link rel="icon" href="/i.png"><link rel="alternate" type="application/rss+xml" href="/feed">"#
        #expect(
            FeedParser.discoverFeedLinks(inHTML: Data(html.utf8), baseURL: base).map(\.absoluteString) == [
                "https://blog.example/feed"
            ])
    }
}
