import FeedsiteImage
import Foundation
import Testing

@testable import FeedsiteKit

/// Feed avatars end to end: icons chosen, downloaded from a fixture server on 127.0.0.1, shrunk,
/// published under `avatars/`, revalidated once a day with their validators, never requested for
/// local feeds or offline, and monograms where there is no icon or no libvips.
@Suite("Avatars", .enabled(if: AvatarImageTests.hasLibrary))
struct AvatarTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    /// An RSS feed with an optional image and home page (relative: resolved against the feed's URL).
    static func feed(_ title: String, image: String? = nil, link: String? = nil) -> Data {
        let image = image.map { "<image><url>\($0)</url><title>\(title)</title></image>" } ?? ""
        let link = link.map { "<link>\($0)</link>" } ?? ""
        return Data(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>\(link)\(image)
            <item><title>\(title) one</title><guid>\(title)-1</guid></item></channel></rss>
            """.utf8)
    }

    static func png(
        _ name: String, etag: String? = nil, headers: [(String, String)] = []
    ) throws
        -> FixtureServer.Route
    {
        FixtureServer.Route(
            headers: [("Content-Type", "image/png")] + headers, body: try AvatarImageTests.fixture(name), etag: etag)
    }

    static func html(_ body: String) -> FixtureServer.Route {
        FixtureServer.Route(headers: [("Content-Type", "text/html")], body: Data(body.utf8))
    }

    /// One build of `yaml` at `now`, with `library` as libvips.
    static func build(
        _ build: TestBuild, yaml: String, now: Date = start, offline: Bool = false,
        library: AvatarImage.Library = AvatarImageTests.library, timeoutSeconds: Int = 600
    ) async throws -> BuildReport {
        try Data(TestBuild.patient(yaml).utf8).write(to: build.config)
        var options = SiteGenerator.Options(
            configFile: build.config, outputDirectory: build.output,
            templatesDirectory: Fixtures.repositoryRoot.appendingPathComponent("Templates"),
            stateDirectory: build.work.appendingPathComponent("state"), concurrency: 4, timeoutSeconds: timeoutSeconds,
            offline: offline, now: now)
        options.imageLibrary = library
        return try await SiteGenerator(options: options).build()
    }

    static func yaml(_ feeds: [(URL, String)]) -> String {
        "title: Avatars\nbase_url: https://planet.example/\nretries: 0\nfeeds:\n"
            + feeds.map { "  - url: \($0.0)\n    name: \($0.1)\n" }.joined()
    }

    func data(_ build: TestBuild, _ path: String) -> Data? {
        try? Data(contentsOf: build.output.appendingPathComponent(path))
    }

    @Test("the feed's image, else the home page's <link rel=icon>, else /favicon.ico, else the monogram")
    func choiceOrder() async throws {
        let server = try await FixtureServer(routes: [
            "/alpha.xml": .feed(Self.feed("Alpha", image: "/alpha.png", link: "/alpha/")),
            "/alpha.png": try Self.png("big.png"),
            "/alpha/": Self.html(#"<link rel="icon" href="/never.png">"#),
            "/beta.xml": .feed(Self.feed("Beta", link: "/beta/")),
            "/beta/": Self.html(#"<html><head><link rel="icon" sizes="32x32" href="/beta-icon.png"></head>"#),
            "/beta-icon.png": try Self.png("wide.png"),
            "/gamma.xml": .feed(Self.feed("Gamma", link: "/gamma/")),
            "/gamma/": Self.html("<html><head><title>no icon</title></head></html>"),
            "/favicon.ico": FixtureServer.Route(
                headers: [("Content-Type", "image/x-icon")], body: try AvatarImageTests.fixture("bmp32.ico")),
        ])
        // A second host without any icon: the image is an SVG (refused), no home page, no favicon.
        let bare = try await FixtureServer(routes: [
            "/delta.xml": .feed(Self.feed("Delta", image: "/delta.svg", link: "/delta/")),
            "/delta.svg": FixtureServer.Route(
                headers: [("Content-Type", "image/svg+xml")],
                body: Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>"#.utf8)),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await Self.build(
            build,
            yaml: Self.yaml([
                (server.url("/alpha.xml"), "Alpha"), (server.url("/beta.xml"), "Beta"),
                (server.url("/gamma.xml"), "Gamma"), (bare.url("/delta.xml"), "Delta"),
            ]))
        try await server.shutdown()
        try await bare.shutdown()
        #expect(report.failedFeedCount == 0)
        let paths = server.requests.map(\.path)
        // The feed's image came first: its home page was never read.
        #expect(!paths.contains("/alpha/") && !paths.contains("/never.png"))
        #expect(paths.filter { $0 == "/beta-icon.png" }.count == 1)
        // 1500×1500 → 64×64; 400×100 → 64×16; the favicon's largest BMP (32×32) is not enlarged.
        for (slug, width, height) in [("alpha", 64, 64), ("beta", 64, 16), ("gamma", 32, 32)] {
            let avatar = try #require(data(build, "avatars/\(slug).webp"), "no avatar for \(slug)")
            #expect(avatar.count <= 16 * 1024)
            let size = try #require(AvatarImageTests.dimensions(avatar))
            #expect(size.width == width && size.height == height, "\(slug)")
            #expect(data(build, "avatars/\(slug).svg") == nil)
        }
        #expect(data(build, "avatars/delta.webp") == nil)
        #expect(String(decoding: data(build, "avatars/delta.svg") ?? Data(), as: UTF8.self).contains(">D</text>"))
        #expect(bare.requests.map(\.path).contains("/delta/"))
        #expect(bare.requests.map(\.path).contains("/favicon.ico"))
        // Pages show the self-hosted avatar; no feed icon is loaded from the feeds' hosts.
        let site = build.site
        #expect(site.files["feeds/alpha/index.html"]?.contains(#"src="../../avatars/alpha.webp""#) == true)
        #expect(site.files["items/alpha/alpha-one/index.html"]?.contains(#"src="../../../avatars/alpha.webp""#) == true)
        #expect(site.files["feeds/delta/index.html"]?.contains(#"src="../../avatars/delta.svg""#) == true)
        // Sharing metadata names the avatar, absolute; a monogram is not offered.
        #expect(
            site.files["feeds/alpha/index.html"]?.contains(
                #"<meta property="og:image" content="https://planet.example/avatars/alpha.webp">"#) == true)
        #expect(site.files["feeds/delta/index.html"]?.contains("og:image") == false)
        let iconURLs = [server.url("/alpha.png"), server.url("/beta-icon.png"), bare.url("/delta.svg")]
        // (As an attribute: the status page's note may name a refused icon in its text.)
        for (path, page) in site.files where path.hasSuffix(".html") {
            #expect(iconURLs.allSatisfy { !page.contains("\"\($0.absoluteString)") }, "\(path) links an icon's URL")
        }
        // The state remembers where each avatar came from.
        let state = try #require(report.records.first { $0.source.name == "Beta" }?.state.avatar)
        #expect(state.source == server.url("/beta-icon.png").absoluteString)
        #expect(state.file == "avatars/beta.webp" && state.checked == Self.start)
        // The status page and status.json say why Delta shows its monogram: its image (an SVG) was
        // refused, its home page and /favicon.ico gave nothing. The others have no note.
        let notes = try Self.avatarNotes(build)
        let delta = try #require(notes["Delta"] ?? nil, "no note for Delta")
        #expect(delta.hasPrefix("no avatar: "))
        #expect(delta.contains(bare.url("/delta.svg").absoluteString) && delta.contains("/favicon.ico"))
        #expect(notes["Alpha"] == .some(nil) && notes["Beta"] == .some(nil) && notes["Gamma"] == .some(nil))
        let statusPage = try #require(site.files["status/index.html"])
        #expect(statusPage.contains(#"<small class="avatar-note" lang="en" dir="ltr">no avatar: "#))
        #expect(statusPage.components(separatedBy: "avatar-note").count == 2)
    }

    /// Each feed's `avatarNote` in `status.json`, by name (nil: the feed has none).
    static func avatarNotes(_ build: TestBuild) throws -> [String: String?] {
        struct Status: Decodable {
            struct Feed: Decodable {
                var name: String
                var avatarNote: String?
            }
            var feeds: [Feed]
        }
        let data = try Data(contentsOf: build.output.appendingPathComponent("status/status.json"))
        return Dictionary(
            try JSONDecoder().decode(Status.self, from: data).feeds.map { ($0.name, $0.avatarNote) },
            uniquingKeysWith: { a, _ in a })
    }

    @Test("an icon over 1 MiB is named as too large for an icon, not for max_body_mb")
    func iconTooLarge() async throws {
        let server = try await FixtureServer(routes: [
            "/huge.xml": .feed(Self.feed("Huge", image: "/huge.png")),
            "/huge.png": FixtureServer.Route(
                headers: [("Content-Type", "image/png")], body: Data(count: (1 << 20) + 1)),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        _ = try await Self.build(build, yaml: Self.yaml([(server.url("/huge.xml"), "Huge")]))
        try await server.shutdown()
        let note = try #require(try Self.avatarNotes(build)["Huge"] ?? nil)
        #expect(
            note.contains(
                "\(server.url("/huge.png").absoluteString): the icon is larger than 1 MiB, the most an icon may be"),
            "\(note)")
        #expect(!note.contains("max_body_mb"))
    }

    @Test("an icon that cannot be asked for again keeps the avatar made before, and the status page says so")
    func revalidationFails() async throws {
        let icons = try await FixtureServer(routes: ["/icon.png": try Self.png("big.png")])
        let server = try await FixtureServer(routes: [
            "/feed.xml": .feed(Self.feed("Solo", image: icons.url("/icon.png").absoluteString))
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = Self.yaml([(server.url("/feed.xml"), "Solo")])
        _ = try await Self.build(build, yaml: yaml)
        let avatar = try #require(data(build, "avatars/solo.webp"))
        #expect(try Self.avatarNotes(build)["Solo"] == .some(nil))
        // The icon's server is gone; a day later the icon is due, and its request fails.
        try await icons.shutdown()
        let later = try await Self.build(build, yaml: yaml, now: Self.start.addingTimeInterval(25 * 3600))
        #expect(data(build, "avatars/solo.webp") == avatar)
        let note = try #require(try Self.avatarNotes(build)["Solo"] ?? nil, "no note after the failure")
        #expect(note.hasPrefix("kept the avatar made before: ") && note.contains(icons.url("/icon.png").absoluteString))
        #expect(later.records.first?.state.avatar?.note == note)
        #expect(build.site.files["status/index.html"]?.contains(note) == true)
        // An hour later the icon is not due: no request, and the note stays until one succeeds.
        _ = try await Self.build(build, yaml: yaml, now: Self.start.addingTimeInterval(26 * 3600))
        #expect(try Self.avatarNotes(build)["Solo"] == .some(note))
        // With avatars turned off there is nothing to explain.
        _ = try await Self.build(
            build, yaml: yaml.replacingOccurrences(of: "retries: 0\n", with: "retries: 0\navatars: false\n"),
            now: Self.start.addingTimeInterval(27 * 3600))
        #expect(try Self.avatarNotes(build)["Solo"] == .some(nil))
        try await server.shutdown()
    }

    @Test("a feed's icon is asked for as soon as the feed is read, while a slower feed is still being fetched")
    func iconsBeginBesideTheFetch() async throws {
        let server = try await FixtureServer(routes: [
            "/quick.xml": .feed(Self.feed("Quick", image: "/quick.png")),
            "/quick.png": try Self.png("big.png"),
            // Answers once the quick feed's icon has been asked for, or after ten minutes: a build
            // that asked for icons only after every feed was read would wait those out. (Two
            // minutes were not enough on a CI machine running the whole suite: the quick feed's
            // read waited that long for a core.)
            "/slow.xml": FixtureServer.Route(body: Self.feed("Slow"), heldUntilRequested: "/quick.png"),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        // Requests may take 15 minutes: however loaded the machine, no timeout decides this test.
        let report = try await Self.build(
            build,
            yaml: Self.yaml([(server.url("/slow.xml"), "Slow"), (server.url("/quick.xml"), "Quick")])
                + "read_timeout: 900\n", timeoutSeconds: 900)
        try await server.shutdown()
        #expect(server.releasedByRequest("/slow.xml") == true)
        #expect(report.failedFeedCount == 0)
        #expect(build.site.files["items/slow/slow-one/index.html"] != nil)
        let avatar = try #require(data(build, "avatars/quick.webp"))
        #expect(AvatarImageTests.dimensions(avatar).map { [$0.width, $0.height] } == [64, 64])
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/quick.png" }.count == 1)
        #expect(data(build, "avatars/slow.svg") != nil)
    }

    @Test("icons from one host are asked for at most its per-host limit at once, whatever --concurrency allows")
    func iconsKeepPerHost() async throws {
        let icons = try await FixtureServer(routes: [
            "/icon.png": FixtureServer.Route(
                headers: [("Content-Type", "image/png")], body: try AvatarImageTests.fixture("big.png"),
                delay: .milliseconds(150))
        ])
        let build = try TestBuild()
        defer { build.remove() }
        // The HTTP client allows 4 connections to a host; the host's limit is 1.
        let fetcher = AvatarFetcher(
            liveSite: build.output, library: AvatarImageTests.library, now: Self.start, concurrency: 4,
            perHostLimit: { _ in 1 })
        let (jobs, queue) = AsyncStream.makeStream(of: (Int, AvatarFetcher.Job).self)
        for index in 0..<6 {
            queue.yield(
                (
                    index,
                    AvatarFetcher.Job(
                        mayFetch: true, image: icons.url("/icon.png").absoluteString, siteLink: nil,
                        feedHost: "127.0.0.1", saved: nil, userAgent: "feedsite-test")
                ))
        }
        queue.finish()
        let runs = try await FeedFetcher.withFetcher(options: FeedFetcher.Options(concurrency: 4)) {
            await fetcher.avatars(for: jobs, count: 6, fetcher: $0)
        }
        try await icons.shutdown()
        #expect(runs.allSatisfy { $0?.image != nil })
        #expect(icons.requests.count == 6)
        #expect(icons.maxInFlight == 1)
    }

    @Test("an icon is asked for again only after 24 hours, with its validators; a 304 keeps the file")
    func revalidation() async throws {
        let lastModified = "Wed, 19 Nov 2026 10:00:00 GMT"
        let server = try await FixtureServer(routes: [
            "/feed.xml": FixtureServer.Route(
                headers: [("Content-Type", "application/rss+xml")], body: Self.feed("Solo", image: "/icon.png"),
                etag: "\"feed-1\""),
            "/icon.png": try Self.png("big.png", etag: "\"icon-1\"", headers: [("Last-Modified", lastModified)]),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = Self.yaml([(server.url("/feed.xml"), "Solo")])
        func iconRequests() -> [FixtureServer.Request] { server.requests.filter { $0.path == "/icon.png" } }

        _ = try await Self.build(build, yaml: yaml)
        #expect(iconRequests().count == 1)
        #expect(iconRequests().first?.header("If-None-Match") == nil)
        let first = build.inodes()
        #expect(first["avatars/solo.webp"] != nil)

        // The first 304 changes the status page (HTTP 304 instead of 200), not the avatar.
        _ = try await Self.build(build, yaml: yaml, now: Self.start.addingTimeInterval(60))
        #expect(iconRequests().count == 1)
        #expect(build.inodes()["avatars/solo.webp"] == first["avatars/solo.webp"])
        // An hour later: no request for the icon at all, and not one file rewritten.
        let settled = build.inodes()
        let warm = try await Self.build(build, yaml: yaml, now: Self.start.addingTimeInterval(3600))
        #expect(iconRequests().count == 1)
        #expect(warm.write?.changedFiles == 0)
        #expect(build.inodes() == settled)
        #expect(warm.records.first?.state.avatar?.checked == Self.start)

        // A day and an hour later: one conditional request; the 304 keeps the very same file.
        _ = try await Self.build(build, yaml: yaml, now: Self.start.addingTimeInterval(25 * 3600))
        #expect(iconRequests().count == 2)
        #expect(iconRequests().last?.header("If-None-Match") == "\"icon-1\"")
        #expect(iconRequests().last?.header("If-Modified-Since") == lastModified)
        #expect(build.inodes()["avatars/solo.webp"] == first["avatars/solo.webp"])

        // Offline, two days later: no request of any kind, the avatar still published as it was.
        let before = server.requests.count
        _ = try await Self.build(build, yaml: yaml, now: Self.start.addingTimeInterval(50 * 3600), offline: true)
        #expect(server.requests.count == before)
        #expect(build.inodes()["avatars/solo.webp"] == first["avatars/solo.webp"])
        #expect(build.site.files["feeds/solo/index.html"]?.contains(#"src="../../avatars/solo.webp""#) == true)
        try await server.shutdown()
    }

    @Test("a feed read from a local file never has its icon downloaded")
    func localFeed() async throws {
        let server = try await FixtureServer(routes: ["/icon.png": try Self.png("big.png")])
        let build = try TestBuild()
        defer { build.remove() }
        let file = build.work.appendingPathComponent("local.xml")
        try Self.feed("Local", image: server.url("/icon.png").absoluteString, link: server.url("/").absoluteString)
            .write(to: file)
        _ = try await Self.build(build, yaml: "title: Avatars\nfeeds:\n  - url: local.xml\n    name: Local\n")
        try await server.shutdown()
        #expect(server.requests.isEmpty)
        #expect(data(build, "avatars/local.svg") != nil)
        #expect(data(build, "avatars/local.webp") == nil)
    }

    @Test("without libvips: one warning for the build, monograms, and no icon downloaded")
    func withoutLibvips() async throws {
        let server = try await FixtureServer(routes: [
            "/a.xml": .feed(Self.feed("First", image: "/icon.png")),
            "/b.xml": .feed(Self.feed("Second", image: "/icon.png")),
            "/icon.png": try Self.png("big.png"),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await Self.build(
            build, yaml: Self.yaml([(server.url("/a.xml"), "First"), (server.url("/b.xml"), "Second")]),
            library: AvatarImage.Library(path: "/nonexistent/libvips.so.42"))
        try await server.shutdown()
        let warnings = report.diagnostics.filter { $0.message.contains("libvips") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.severity == .warning)
        #expect(
            warnings.first?.message.hasPrefix("avatars: libvips is not installed (/nonexistent/libvips.so.42") == true)
        #expect(warnings.first?.message.hasSuffix("install it: apt-get install libvips42") == true)
        #expect(report.failedFeedCount == 0)
        #expect(!server.requests.map(\.path).contains("/icon.png"))
        #expect(data(build, "avatars/first.svg") != nil && data(build, "avatars/second.svg") != nil)
        #expect(data(build, "avatars/first.webp") == nil)
    }

    @Test("avatars: false requests no icon, not even the home page's: every feed shows its monogram")
    func turnedOff() async throws {
        let server = try await FixtureServer(routes: [
            "/a.xml": .feed(Self.feed("First", image: "/icon.png")),
            "/b.xml": .feed(Self.feed("Second", link: "/home/")),
            "/home/": Self.html(#"<html><head><link rel="icon" href="/icon.png"></head></html>"#),
            "/icon.png": try Self.png("big.png"),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await Self.build(
            build,
            yaml: "avatars: false\n" + Self.yaml([(server.url("/a.xml"), "First"), (server.url("/b.xml"), "Second")]))
        try await server.shutdown()
        #expect(report.failedFeedCount == 0)
        #expect(server.requests.map(\.path).sorted() == ["/a.xml", "/b.xml"])
        #expect(data(build, "avatars/first.svg") != nil && data(build, "avatars/second.svg") != nil)
        #expect(data(build, "avatars/first.webp") == nil && data(build, "avatars/second.webp") == nil)
    }
}

/// A saved or restored state is hostile input: a damaged avatar record is dropped or repaired,
/// never costing the feed its items.
@Suite("Avatar state")
struct AvatarStateTests {
    @Test("bad avatar records are dropped or repaired; the feeds stay")
    func hostileRecords() throws {
        func feed(_ avatar: String, slug: String) -> String {
            #"{"channel":{"title":"T"},"health":{"consecutiveFailures":0},"items":[],"slug":"\#(slug)","avatar":\#(avatar)}"#
        }
        let json = """
            {"feeds":{
            "https://a.example/feed":\(feed(#"{"origin":"javascript:alert(1)","file":"avatars/a.webp"}"#, slug: "a")),
            "https://b.example/feed":\(feed(#"{"origin":"https://b.example/","source":"https://b.example/i.png","file":"../../etc/passwd","checked":"2999-01-01T00:00:00Z","etag":"a\nb","lastModified":"Wed, 19 Nov 2026 10:00:00 GMT"}"#, slug: "b")),
            "https://c.example/feed":\(feed(#""garbage""#, slug: "c")),
            "https://d.example/feed":\(feed(#"{"origin":"https://d.example/","source":"https://d.example/i.png","file":"avatars/d.png","checked":"2026-11-18T00:00:00Z","note":"\#(String(repeating: "x", count: 20_000))"}"#, slug: "d")),
            "https://f.example/feed":\(feed(#"{"origin":"https://f.example/","source":"https://f.example/i.png","file":"avatars/d.png","checked":"2026-11-18T00:00:00Z","etag":"\"1\""}"#, slug: "f")),
            "local.xml":\(feed(#"{"origin":"https://e.example/","file":"avatars/e.webp","checked":"2026-11-19T10:00:00Z"}"#, slug: "local"))
            },"items":{},"version":2}
            """
        let decoded = StateFile.decode(
            Data(json.utf8), origin: "state.json", trusted: false, now: AvatarTests.start)
        #expect(decoded.failure == nil)
        let feeds = decoded.state.feeds
        #expect(feeds.count == 6)
        #expect(feeds["https://a.example/feed"]?.avatar == nil)
        #expect(feeds["https://c.example/feed"]?.avatar == nil)
        // A local feed's icon is never downloaded: no record is kept for it.
        #expect(feeds["local.xml"]?.avatar == nil)
        let b = try #require(feeds["https://b.example/feed"]?.avatar)
        // Downloaded again at once and whole: a 304 would leave it without a file.
        #expect(b.file == nil && b.etag == nil && b.lastModified == nil && b.checked == AvatarState.never)
        // Another feed's icon (found in session 24: feed f showed feed d's icon for good).
        let f = try #require(feeds["https://f.example/feed"]?.avatar)
        #expect(f.file == nil && f.etag == nil && f.checked == AvatarState.never)
        let d = try #require(feeds["https://d.example/feed"]?.avatar)
        #expect(d.file == "avatars/d.png" && d.checked == Date(timeIntervalSince1970: 1_794_960_000))
        // A note (shown on the status page) is cut like any other text.
        #expect(d.note?.utf8.count == 8 << 10)
        #expect(decoded.warnings.contains { $0.contains("cut 'avatar.note'") })
        #expect(decoded.warnings.contains { $0.contains("dropped 'avatar.file'") })
    }
}

/// Which home pages a build asks for an icon: only those on the feed's own site.
@Suite("Avatar home pages")
struct AvatarSiteTests {
    @Test(
        "same host, or the same last two labels; never across sites or between IP addresses",
        arguments: [
            ("blog.example.com", "blog.example.com", true), ("www.example.com", "feeds.example.com", true),
            ("example.com", "blog.example.com", true), ("blog1.example.org", "127.0.0.1", false),
            ("example.com", "feedburner.com", false), ("10.0.0.1", "192.0.0.1", false),
            ("127.0.0.1", "127.0.0.1", true), ("", "example.com", false),
        ])
    func sameSite(page: String, feed: String, isSame: Bool) {
        #expect(AvatarFetcher.isSameSite(page, feed) == isSame)
    }
}
