import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// `ItemIdentity` on items written by hand: which entries of one feed are one post, and under which
/// forms a post is recognised in another feed.
@Suite("Item identity")
struct ItemIdentityTests {
    static let day = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("an id is the key; a repeated id is the same post (nil), different ids are different posts")
    func ids() {
        let items = [
            FeedItem(id: "1", title: "One", link: "https://blog.example/one"),
            FeedItem(id: "2", title: "Two", link: "https://blog.example/"),
            FeedItem(id: "1", title: "One again", link: "https://blog.example/one"),
            FeedItem(id: "post-3", title: "Three"),
            FeedItem(id: "2", title: "Two again"),
        ]
        #expect(ItemIdentity.keys(of: items) == ["1", "2", nil, "post-3", nil])
    }

    @Test("of the entries repeating an id, the one updated last stands for the post; the first when dates do not tell")
    func repeatedIDsKeepTheLatest() {
        func entry(_ title: String, updated: Double?, published: Double? = nil) -> FeedItem {
            var item = FeedItem(id: "urn:x:1", title: title, link: "https://blog.example/1")
            item.updated = updated.map { Self.day.addingTimeInterval($0) }
            item.published = published.map { Self.day.addingTimeInterval($0) }
            return item
        }
        let revisions = [entry("Old", updated: 0), entry("New", updated: 60), entry("Middle", updated: 30)]
        #expect(ItemIdentity.keys(of: revisions) == [nil, "urn:x:1", nil])
        let undated = [entry("First", updated: nil), entry("Second", updated: 60), entry("Third", updated: nil)]
        #expect(ItemIdentity.keys(of: undated) == ["urn:x:1", nil, nil])
        let published = [entry("First", updated: nil, published: 0), entry("Second", updated: nil, published: 60)]
        #expect(ItemIdentity.keys(of: published) == [nil, "urn:x:1"])
    }

    @Test("entries sharing an id but linking to different pages are each a post, known by its link")
    func sharedIDWithDifferentLinks() {
        let items = [
            FeedItem(id: "https://same.example/", title: "Post 1", link: "https://same.example/post-1"),
            FeedItem(id: "https://same.example/", title: "Post 2", link: "https://same.example/post-2"),
            FeedItem(id: "https://same.example/", title: "Post 2 again", link: "https://same.example/post-2"),
            FeedItem(id: "https://same.example/", title: "No link"),
            FeedItem(id: "7", title: "Seven", link: "https://same.example/post-7"),
        ]
        #expect(ItemIdentity.ids(of: items) == [nil, nil, nil, nil, "7"])
        let keys = ItemIdentity.keys(of: items)
        #expect(keys[0] == "https://same.example/post-1")
        // Two id-less entries with one link: told apart by title and date, as entries without id are.
        #expect(keys[1] == "https://same.example/post-2\nPost 2\n")
        #expect(keys[2] == "https://same.example/post-2\nPost 2 again\n")
        #expect(keys[3] == "\nNo link\n")
        #expect(keys[4] == "7")
        #expect(
            ReadFeed.sharedIDWarnings(items, ids: ItemIdentity.ids(of: items)) == [
                "items 1, 2, 3, 4 share the id 'https://same.example/' but link to different pages: each is shown as"
                    + " its own post, known by its link; each post needs an id of its own — tell the feed's owner"
            ])
    }

    @Test("a key longer than the state's bound is cut to its start and a digest: stable, distinct, savable")
    func longKeys() {
        let long = String(repeating: "x", count: 17_000)
        let items = [
            FeedItem(id: long, title: "A"),
            FeedItem(id: long + "y", title: "B"),
            FeedItem(title: "C", link: "https://blog.example/" + long),
            FeedItem(id: "short", title: "D"),
        ]
        let keys = ItemIdentity.keys(of: items).map { $0 ?? "" }
        #expect(keys == ItemIdentity.keys(of: items).map { $0 ?? "" })
        #expect(Set(keys).count == 4)
        #expect(keys[3] == "short")
        for key in keys.prefix(3) {
            #expect(key.utf8.count <= StateLimits.urlBytes)
            #expect(key.utf8.count < 300)
        }
        #expect(keys[0].hasPrefix(String(repeating: "x", count: 256) + "\n#"))
        #expect(ItemIdentity.bounded("é" + long).hasPrefix("é" + String(repeating: "x", count: 254) + "\n#"))
    }

    @Test("a post whose id is longer than the state's bound stays on the site after the next build")
    func longIDSurvivesTheState() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let id = String(repeating: "g", count: 17_000)
        let feed = """
            <rss version="2.0"><channel><title>Long ids</title><link>https://blog.example/</link>
            <item><title>Long id</title><link>https://blog.example/1</link><guid isPermaLink="false">\(id)</guid></item>
            <item><title>Short id</title><link>https://blog.example/2</link><guid>2</guid></item>
            </channel></rss>
            """
        try Data(feed.utf8).write(to: build.work.appendingPathComponent("feed.xml"))
        let yaml = "title: t\nsearch: false\nfeeds:\n  - feed.xml\n"
        let first = try await build.run(yaml: yaml)
        #expect(build.site.itemPages.count == 2)
        let second = try await build.run(yaml: yaml)
        #expect(build.site.itemPages.count == 2)
        for report in [first, second] {
            #expect(!report.diagnostics.contains { $0.message.contains("state") }, "\(report.diagnostics)")
        }
    }

    @Test("without an id: the link with its fragment tells entries apart")
    func fragments() {
        let items = [
            FeedItem(title: "Morning", link: "http://scripting.example/2017/06/26.html#a080605"),
            FeedItem(title: "Noon", link: "http://scripting.example/2017/06/26.html#a030658"),
            FeedItem(title: "Evening", link: "http://scripting.example/2017/06/26.html"),
        ]
        #expect(
            ItemIdentity.keys(of: items) == [
                "http://scripting.example/2017/06/26.html#a080605", "http://scripting.example/2017/06/26.html#a030658",
                "http://scripting.example/2017/06/26.html",
            ])
    }

    @Test("without an id: a shared link, then title and date, then order tell entries apart")
    func sharedLinks() {
        let items = [
            FeedItem(title: "A", link: "https://x.example/day", published: Self.day),
            FeedItem(title: "B", link: "https://x.example/day", published: Self.day),
            FeedItem(title: "B", link: "https://x.example/day", published: Self.day),
            FeedItem(title: "C", link: "https://x.example/other"),
        ]
        #expect(
            ItemIdentity.keys(of: items) == [
                "https://x.example/day\nA\n1795000000", "https://x.example/day\nB\n1795000000\n1",
                "https://x.example/day\nB\n1795000000\n2", "https://x.example/other",
            ])
    }

    @Test("a link that is the feed document itself (a resolved href=\"\") is no link")
    func feedItself() throws {
        let feed = try #require(URL(string: "https://a.example/feed.atom"))
        #expect(ItemIdentity.link(of: FeedItem(link: "https://a.example/feed.atom"), feedURL: feed) == nil)
        #expect(ItemIdentity.link(of: FeedItem(link: ""), feedURL: feed) == nil)
        #expect(ItemIdentity.link(of: FeedItem(link: "post/1"), feedURL: feed) == "https://a.example/post/1")
    }

    @Test("an empty or blank link is no link; an item's id wins over another item's link")
    func emptyLinks() {
        let items = [
            FeedItem(title: "Untitled", link: ""),
            FeedItem(title: "Untitled", link: "  "),
            FeedItem(title: "Other"),
            FeedItem(id: "https://x.example/p", title: "P"),
            FeedItem(title: "Q", link: "https://x.example/p"),
        ]
        #expect(
            ItemIdentity.keys(of: items) == [
                "\nUntitled\n\n1", "\nUntitled\n\n2", "\nOther\n", "https://x.example/p", "https://x.example/p\nQ\n",
            ])
        #expect(ItemIdentity.link(of: items[0]) == nil)
        #expect(ItemIdentity.link(of: items[1]) == nil)
        #expect(ItemIdentity.id(of: FeedItem(id: " \n")) == nil)
    }

    @Test("the former key is the link, else title#position (how saved state was keyed)")
    func formerKeys() {
        #expect(
            ItemIdentity.formerKey(of: FeedItem(title: "T", link: "https://x.example/a#b"), position: 4)
                == "https://x.example/a#b")
        #expect(ItemIdentity.formerKey(of: FeedItem(title: "T", link: ""), position: 4) == "T#4")
        #expect(ItemIdentity.formerKey(of: FeedItem(title: ""), position: 0) == "#0")
    }

    @Test(
        "across feeds only absolute http(s) links and ids unique by form count",
        arguments: [
            ("1", nil),
            ("post-2", nil),
            ("6f1e4b2c-51d0-4c4e-9c1a-1a2b3c4d5e6f", nil),
            ("tag:blog.example,2026:post-1", "tag:blog.example,2026:post-1"),
            ("urn:uuid:6f1e4b2c-51d0-4c4e-9c1a-1a2b3c4d5e6f", "urn:uuid:6f1e4b2c-51d0-4c4e-9c1a-1a2b3c4d5e6f"),
            ("https://www.blog.example/2026/11/post/", "//blog.example/2026/11/post"),
            ("http://blog.example/2026/11/post?utm_source=rss", "//blog.example/2026/11/post"),
            ("https://blog.example/26.html#a080605", "//blog.example/26.html#a080605"),
            ("https://blog.example/a/#", "//blog.example/a"),
            ("urn:", nil),
            ("https://x.example/a\nTitle\n", nil),
            ("/relative/post", nil),
        ] as [(String, String?)])
    func globalIDs(id: String, identity: String?) {
        #expect(ItemIdentity.globalIdentity(ofID: id) == identity)
    }

    @Test("a link's fragment is part of the post; scheme, www., trailing slash and utm_* are not")
    func linkIdentities() {
        let a = ItemIdentity.globalIdentities(key: "1", link: "https://www.scripting.example/26.html#a1")
        let b = ItemIdentity.globalIdentities(key: "2", link: "http://scripting.example/26.html#a2")
        let c = ItemIdentity.globalIdentities(key: "x", link: "http://scripting.example/26.html?utm_medium=feed#a1")
        #expect(a == ["//scripting.example/26.html#a1"])
        #expect(b == ["//scripting.example/26.html#a2"])
        #expect(c == a)
        // A mailto link and a bare id give nothing to match on across feeds.
        #expect(ItemIdentity.globalIdentities(key: "7", link: "mailto:a@b.example").isEmpty)
        // A link to the feed's own home page names no post in particular.
        #expect(
            ItemIdentity.globalIdentities(key: "3", link: "https://www.site.example/", homePage: "//site.example")
                .isEmpty)
        // An id unique by form and a link: both.
        #expect(
            ItemIdentity.globalIdentities(key: "tag:b.example,2026:1", link: "https://b.example/1")
                == ["//b.example/1", "tag:b.example,2026:1"])
    }

    @Test("the URLComponents path keeps the fragment as the fast path does")
    func fragmentParity() {
        for value in [
            "https://x.example/a#frag", "https://www.x.example/a/#f-1.2_3~", "https://x.example/?p=1#c",
            "https://x.example/a#", "https://x.example/a/#",
        ] {
            let fast = Site.plainIdentity(value)
            #expect(fast != nil, "\(value)")
            #expect(fast == Site.componentsIdentity(value), "\(value)")
        }
        // Fragments the fast path does not answer still keep their fragment.
        #expect(Site.normalisedIdentity("https://x.example/a#f%20g") == "//x.example/a#f%20g")
        #expect(Site.normalisedIdentity("https://x.example:8080/a#f") == "//x.example:8080/a#f")
    }
}
