import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

#if canImport(Glibc)
    import Glibc
#endif

/// Local feed files (a path or a `file:` URL in `feeds.yml`): configuration, reading with change
/// detection, and whole builds.
@Suite("Local feed sources", .serialized)
struct LocalFeedTests {
    static let userAgent = FeedFetcher.Options.userAgent(baseURL: nil)

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func read(
        _ url: URL, etag: String? = nil, lastModified: String? = nil, maxBodyBytes: Int = 10_000_000
    )
        async throws -> Result<FetchResponse, FetchError>
    {
        try await FeedFetcher.withFetcher(options: .init(policy: FetchPolicy(maxBodyBytes: maxBodyBytes))) {
            fetcher in
            await fetcher.fetch(
                FetchRequest(url: url, etag: etag, lastModified: lastModified, userAgent: userAgent))
        }
    }

    static func setModified(_ file: URL, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
    }

    // MARK: - feeds.yml

    @Test("'url' may be a path relative to feeds.yml's folder, an absolute path or a file: URL")
    func configuration() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = """
            feeds:
              - url: feeds/a.xml
              - url: ./feeds/x/../b.xml
              - url: file://\(folder.path)/c%20d.xml
              - url: \(folder.path)/e.xml
              - url: https://example.com/feed
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml, directory: folder)
        #expect(warnings.isEmpty)
        let feeds = configuration.feeds
        #expect(feeds.map(\.isLocal) == [true, true, true, true, false])
        // A relative path stays relative in the name (the state key), resolved against the folder.
        #expect(feeds[0].url.absoluteString == "feeds/a.xml")
        #expect(feeds[0].location.path == folder.path + "/feeds/a.xml")
        #expect(feeds[1].url.absoluteString == "feeds/b.xml")
        #expect(feeds[1].location.path == folder.path + "/feeds/b.xml")
        #expect(feeds[2].location.path == folder.path + "/c d.xml")
        #expect(feeds[3].location.path == folder.path + "/e.xml")
        #expect(feeds[4].location == URL(string: "https://example.com/feed"))
        // Nothing local is published as a link.
        #expect(feeds.map { $0.publicURL?.absoluteString } == [nil, nil, nil, nil, "https://example.com/feed"])
    }

    static let errorCases: [(String, [String])] = [
        (
            "feeds:\n  - url: ftp://example.com/feed\n",
            [
                "feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"ftp://example.com/feed\""
            ]
        ),
        (
            "feeds:\n  - url: file://server/share/feed.xml\n",
            [
                "feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"file://server/share/feed.xml\"; a file: URL looks like file:///path/to/feed.xml"
            ]
        ),
        (
            "feeds:\n  - url: file:feed.xml\n",
            [
                "feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"file:feed.xml\"; a file: URL looks like file:///path/to/feed.xml"
            ]
        ),
        (
            "feeds:\n  - url: \"\"\n",
            ["feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"\""]
        ),
        (
            "feeds:\n  - url: /srv/feeds/a.xml\n  - url: file:///srv/feeds/./a.xml\n",
            ["feeds.yml:3:10: error: duplicate feed file /srv/feeds/a.xml (first listed on line 2); remove one of them"]
        ),
    ]

    @Test("bad feed locations are errors at file:line:col", arguments: errorCases)
    func configurationErrors(yaml: String, expected: [String]) {
        do {
            _ = try SiteConfiguration.parse(yaml: yaml, directory: URL(fileURLWithPath: "/srv"))
            Issue.record("expected an error for \(yaml)")
        } catch {
            #expect(error.diagnostics.map(\.description) == expected)
        }
    }

    @Test("a relative path that looks like a host and names no file gets a did-you-mean warning")
    func forgottenScheme() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (configuration, warnings) = try SiteConfiguration.parse(
            yaml: "feeds:\n  - url: example.com/feed.xml\n", directory: folder)
        #expect(configuration.feeds.first?.isLocal == true)
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:2:10: warning: 'url' \"example.com/feed.xml\" is read as a path relative to feeds.yml and there is no such file; for a web feed write \"https://example.com/feed.xml\""
            ])
    }

    // MARK: - Reading

    @Test("a local file is read with validators; unchanged it is 'not modified', by stamp or by content")
    func changeDetection() async throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("feed.xml")
        try Data("<rss version=\"2.0\"><channel><title>One</title></channel></rss>".utf8).write(to: file)

        // Just written: read, with a content digest but no time stamp (too recent to trust).
        guard case .success(.fetched(let fresh)) = try await Self.read(file) else {
            Issue.record("expected the file's bytes")
            return
        }
        #expect(fresh.info.status == 200)
        #expect(fresh.finalURL == file)
        #expect(fresh.body.count == 62)
        let digest = try #require(fresh.etag)
        #expect(fresh.lastModified == nil)

        // Same bytes: not modified, by content.
        guard case .success(.notModified(let info)) = try await Self.read(file, etag: digest) else {
            Issue.record("expected not modified")
            return
        }
        #expect(info.status == 304)

        // Settled (modified long ago): a stamp of time and size, which alone answers "not modified".
        let past = Date(timeIntervalSince1970: 1_700_000_000.25)
        try Self.setModified(file, past)
        guard case .success(.fetched(let settled)) = try await Self.read(file) else {
            Issue.record("expected the file's bytes")
            return
        }
        #expect(settled.lastModified == "mtime 1700000000.250000000 size 62")
        guard case .success(.notModified) = try await Self.read(file, lastModified: settled.lastModified) else {
            Issue.record("expected not modified by stamp")
            return
        }

        // Touched, same bytes: the stamp differs, the digest does not.
        try Self.setModified(file, Date(timeIntervalSince1970: 1_700_000_100))
        guard
            case .success(.notModified) = try await Self.read(
                file, etag: digest, lastModified: settled.lastModified)
        else {
            Issue.record("expected not modified by content")
            return
        }

        // Changed (same size): read again.
        try Data("<rss version=\"2.0\"><channel><title>Two</title></channel></rss>".utf8).write(to: file)
        guard
            case .success(.fetched(let changed)) = try await Self.read(
                file, etag: digest, lastModified: settled.lastModified)
        else {
            Issue.record("expected the changed bytes")
            return
        }
        #expect(String(decoding: changed.body, as: UTF8.self).contains("Two"))
        #expect(changed.etag != digest)
    }

    @Test("missing files, directories, FIFOs, devices and oversized files are refused with the path named")
    func refusals() async throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("gone.xml")
        let missingResult = try await Self.read(missing)
        #expect(throws: FetchError.localFile(path: missing.path, problem: .missing)) { try missingResult.get() }
        #expect(
            FetchError.localFile(path: missing.path, problem: .missing).description
                == "cannot read \(missing.path): no such file")

        let directoryResult = try await Self.read(folder)
        #expect(throws: FetchError.localFile(path: folder.path, problem: .directory)) { try directoryResult.get() }

        // A FIFO with no writer: opening it for reading would block forever.
        let fifo = folder.appendingPathComponent("pipe.xml")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let start = ContinuousClock.now
        let fifoResult = try await Self.read(fifo)
        // Not a timing test: a read that blocked on the FIFO would never return. The bound only
        // has to be far above a refusal on a loaded machine (27 s seen with CI running alongside).
        #expect(ContinuousClock.now - start < .seconds(120))
        #expect(throws: FetchError.localFile(path: fifo.path, problem: .notRegularFile(kind: "named pipe (FIFO)"))) {
            try fifoResult.get()
        }
        #expect(
            FetchError.localFile(path: fifo.path, problem: .notRegularFile(kind: "named pipe (FIFO)")).description
                == "refusing to read \(fifo.path): it is a named pipe (FIFO), not a regular file")

        let device = URL(fileURLWithPath: "/dev/zero")
        let deviceResult = try await Self.read(device)
        #expect(throws: FetchError.localFile(path: "/dev/zero", problem: .notRegularFile(kind: "device"))) {
            try deviceResult.get()
        }

        let big = folder.appendingPathComponent("big.xml")
        try Data(repeating: UInt8(ascii: "a"), count: 2_000).write(to: big)
        let bigResult = try await Self.read(big, maxBodyBytes: 1_000)
        #expect(throws: FetchError.tooLarge(limitBytes: 1_000)) { try bigResult.get() }
    }

    // MARK: - Builds

    @Test("a build reads local feeds relative to feeds.yml; unchanged they are 304; missing they fail, items kept")
    func build() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let feeds = build.work.appendingPathComponent("snapshots")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let jekyll = feeds.appendingPathComponent("jekyll.xml")
        try Fixtures.data("real-feeds/jekyll-atom.xml").write(to: jekyll)
        try Fixtures.data("real-feeds/substack-rss2.xml").write(to: feeds.appendingPathComponent("substack.xml"))
        // The test runs in the package folder: only resolution against feeds.yml's folder finds these.
        let yaml = """
            title: Local
            deny_private_networks: true
            feeds:
              - url: snapshots/jekyll.xml
              - url: file://\(feeds.path)/substack.xml
            """

        let first = try await build.run(yaml: yaml)
        #expect(first.records.map(\.failure) == [nil, nil])
        #expect(first.records.map(\.run.status) == [200, 200])
        #expect(first.itemCount == 11)

        let second = try await build.run(yaml: yaml)
        #expect(second.records.map(\.run.outcome) == [.notModified, .notModified])
        #expect(second.records.map(\.run.status) == [304, 304])
        #expect(second.itemCount == 11)
        // A local feed's saved state (its file: URL, its stamp and digest validators) loads as it
        // was saved: no repair, no copy kept aside, and the next unchanged build is skipped.
        #expect(second.diagnostics.filter { $0.message.contains("state.json") }.isEmpty, "\(second.diagnostics)")
        let unchanged = try await build.run(yaml: yaml)
        #expect(unchanged.diagnostics.filter { $0.message.contains("state.json") }.isEmpty)
        #expect(unchanged.write?.changedFiles == 0)
        #expect(unchanged.timings.contains { $0.stage.contains("skipped") }, "\(unchanged.timings.map(\.stage))")
        let kept = try FileManager.default.contentsOfDirectory(atPath: build.work.appendingPathComponent("state").path)
        #expect(!kept.contains { $0.contains("damaged") || $0.contains("unreadable") }, "\(kept)")

        try FileManager.default.removeItem(at: jekyll)
        let third = try await build.run(yaml: yaml)
        let failed = try #require(third.records.first)
        #expect(failed.failure == .fetch(.localFile(path: jekyll.path, problem: .missing)))
        #expect(failed.failure?.description == "cannot read \(jekyll.path): no such file")
        #expect(failed.isStale)
        #expect(third.itemCount == 11)
        #expect(third.diagnostics.map(\.description).contains { $0.contains("cannot read \(jekyll.path)") })
    }

    @Test("--offline uses no network but still reads local feed files: an edited file's new post is shown")
    func offlineReadsLocalFiles() async throws {
        func rss(_ titles: [String], host: String = "local.example") -> Data {
            let items = titles.enumerated().map { index, title in
                "<item><title>\(title)</title><link>https://\(host)/\(index)</link>"
                    + "<pubDate>Mon, 16 Nov 2026 1\(index):00:00 GMT</pubDate></item>"
            }
            return Data(
                "<rss version=\"2.0\"><channel><title>Local</title><link>https://local.example/</link>\(items.joined())</channel></rss>"
                    .utf8)
        }
        let server = try await FixtureServer(routes: ["/feed": .feed(rss(["Remote post"], host: "remote.example"))])
        let build = try TestBuild()
        defer { build.remove() }
        let local = build.work.appendingPathComponent("local.xml")
        try rss(["First"]).write(to: local)
        let yaml = "title: Offline\nretries: 0\nfeeds:\n  - url: local.xml\n  - url: \(server.url("/feed"))\n"
        let first = try await build.run(yaml: yaml)
        #expect(first.itemCount == 2)
        let requests = server.requests.count
        // The file gains a post; the build is offline.
        try rss(["First", "Second"]).write(to: local)
        let offline = try await build.run(yaml: yaml, offline: true)
        #expect(server.requests.count == requests)
        #expect(offline.records.map(\.isFetched) == [true, false])
        #expect(offline.itemCount == 3)
        #expect(build.site.itemPages.contains { $0.contains("second") }, "\(build.site.itemPages)")
        try await server.shutdown()
    }

    @Test("a FIFO named as a feed fails that feed at once; the build goes on")
    func fifoInBuild() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let fifo = build.work.appendingPathComponent("pipe.xml")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        try Fixtures.data("real-feeds/substack-rss2.xml").write(to: build.work.appendingPathComponent("ok.xml"))
        let report = try await build.run(yaml: "feeds:\n  - url: pipe.xml\n  - url: ok.xml\n")
        #expect(
            report.records.first?.failure
                == .fetch(.localFile(path: fifo.path, problem: .notRegularFile(kind: "named pipe (FIFO)"))))
        #expect(
            report.records.first?.failure?.description
                == "refusing to read \(fifo.path): it is a named pipe (FIFO), not a regular file")
        #expect(report.records.last?.failure == nil)
    }

    @Test("a local feed publishes the address it gives itself (or none) and resolves its relative links against it")
    func localFeedAddresses() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        // Read by hand: the first names itself with atom:link rel="self" and has a root-relative
        // item link and image; the second names no address of its own.
        let named = """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Named</title>
            <link>https://named.example/</link>
            <atom:link rel="self" type="application/rss+xml" href="https://named.example/feed.xml"/>
            <item><title>One</title><guid>https://named.example/one</guid><link>/posts/one</link>
            <description>&lt;p&gt;See &lt;a href="/about"&gt;about&lt;/a&gt;.&lt;/p&gt;</description></item>
            </channel></rss>
            """
        let anonymous = """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>Anonymous</title>
            <item><title>Two</title><guid>two</guid><link>/posts/two</link></item>
            </channel></rss>
            """
        try Data(named.utf8).write(to: build.work.appendingPathComponent("named.xml"))
        try Data(anonymous.utf8).write(to: build.work.appendingPathComponent("anonymous.xml"))
        let report = try await build.run(
            yaml: "title: T\nbase_url: https://planet.example/\nfeeds:\n  - url: named.xml\n  - url: anonymous.xml\n")
        #expect(report.records.map(\.failure) == [nil, nil])
        let site = build.site
        // No page links a feed's path: it would be a broken link on the published site.
        #expect(site.brokenRelativeLinks().isEmpty, "\(site.brokenRelativeLinks())")
        #expect(
            !site.files.contains { path, text in
                path.hasSuffix(".html") && (text.contains("href=\"named.xml\"") || text.contains("anonymous.xml\""))
            })
        let namedPage = try #require(site.files["feeds/named/index.html"])
        #expect(namedPage.contains("<a href=\"https://named.example/feed.xml\" rel=\"noopener\">Feed</a>"))
        let anonymousPage = try #require(site.files["feeds/anonymous/index.html"])
        #expect(!anonymousPage.contains(">Feed</a>"))
        // The status page shows both paths; only the named feed's address is a link.
        let status = try #require(site.files["status/index.html"])
        #expect(status.contains("<a href=\"https://named.example/feed.xml\" rel=\"noopener\">named.xml</a>"))
        #expect(status.contains("<small>anonymous.xml</small>"))
        // opml.xml lists the feed under its address and leaves out the one without.
        let opml = try #require(site.files["opml.xml"])
        #expect(opml.contains("xmlUrl=\"https://named.example/feed.xml\""))
        #expect(!opml.contains("Anonymous"))
        // Relative links resolve against the feed's own address, as if it had been fetched from there.
        let item = try #require(site.files.first { $0.key.hasPrefix("items/named/") }?.value)
        #expect(item.contains("https://named.example/posts/one"))
        #expect(item.contains("href=\"https://named.example/about\""))
    }
}
