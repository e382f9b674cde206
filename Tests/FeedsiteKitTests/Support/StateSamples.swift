import Foundation

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise
@testable import FeedsiteShared

/// Valid states to save, load and tamper with: every value already passes `StateValidator`, so a
/// state that goes through a file comes back equal.
enum StateSamples {
    static let day: TimeInterval = 86_400
    /// 2026-11-18T11:06:40Z, the `now` of most builds in the tests.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func item(_ index: Int, feed: Int = 0, contentBytes: Int = 0, isInFeed: Bool = true) -> StoredItem {
        // As the sanitiser writes it, so sanitising it again (a restore) changes nothing.
        var content = "<p>Post \(index) of feed \(feed).</p>\n"
        if contentBytes > content.utf8.count {
            let words = Array(repeating: "word", count: (contentBytes - 8) / 5).joined(separator: " ")
            content = "<p>\(words)</p>\n"
        }
        return StoredItem(
            key: "https://blog\(feed).example/posts/\(index)",
            firstSeen: now.addingTimeInterval(-Double(index) * 3600), isInFeed: isInFeed,
            item: SiteItem(
                slug: "post-\(index)", feedSlug: "blog-\(feed)", feedName: "Blog \(feed)", title: "Post \(index)",
                link: "https://blog\(feed).example/posts/\(index)", authors: ["Author \(feed)"],
                date: now.addingTimeInterval(-Double(index) * 7200), content: SanitisedHTML(html: content),
                excerpt: "Post \(index) of feed \(feed).", categories: ["news"],
                enclosures: index % 5 == 0
                    ? [
                        Enclosure(
                            url: "https://blog\(feed).example/\(index).mp3", length: 1000 * index, type: "audio/mpeg")
                    ]
                    : [],
                image: nil, wordCount: 5))
    }

    static func feed(_ number: Int, items: Int, contentBytes: Int = 0) -> FeedState {
        FeedState(
            etag: "\"v\(number)\"", lastModified: "Wed, 18 Nov 2026 10:00:00 GMT",
            finalURL: "https://blog\(number).example/feed.xml",
            channel: ChannelInfo(
                title: "Blog \(number)", description: "About \(number)", siteLink: "https://blog\(number).example/",
                language: "en"),
            slug: "blog-\(number)",
            items: (0..<items).map { item($0, feed: number, contentBytes: contentBytes, isInFeed: $0 < items - 1) },
            health: FeedHealth(lastSuccess: DayFormat.startOfDay(now), consecutiveFailures: 0))
    }

    /// `feeds` feeds keyed `https://blogN.example/feed.xml`, each with `items` items.
    static func state(feeds: Int, items: Int, contentBytes: Int = 0) -> SiteState {
        var state = SiteState()
        for number in 0..<feeds {
            state.feeds["https://blog\(number).example/feed.xml"] = feed(
                number, items: items, contentBytes: contentBytes)
        }
        return state
    }

    /// An RSS document with `count` items: `title`, link `http://x.example/<prefix><n>`.
    static func rss(items count: Int, prefix: String = "p", title: String = "Many") -> Data {
        var xml = "<rss version=\"2.0\"><channel><title>\(title)</title><link>http://x.example/</link>"
        for number in 0..<count {
            xml += "<item><title>Item \(number)</title><link>http://x.example/\(prefix)\(number)</link>"
            xml += "<description>Body of \(number).</description></item>"
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    static func temporaryFolder(_ name: String = "state") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-\(name)-\(UUID().uuidString)")
    }

    /// The names in `folder`, sorted.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The files in a state folder that hold state: all but the build lock, which a build takes
    /// before it reads anything and which stays (it holds nothing).
    static func stateNames(in folder: URL) -> [String] {
        names(in: folder).filter { $0 != StateLock.fileName }
    }
}
