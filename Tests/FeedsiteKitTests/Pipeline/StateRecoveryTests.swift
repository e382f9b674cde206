import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import FeedsiteKit

/// Issue 23: saved and restored state are untrusted input: validated a record at a time, never a
/// reason to crash, to lose the rest of the history, or to publish a state without it.
@Suite("State recovery", .serialized)
struct StateRecoveryTests {
    static let now = StateSamples.now
    static let day = StateSamples.day

    /// Builds in `build`'s folder with the given options.
    static func run(
        _ build: TestBuild, yaml: String, state: URL? = nil, restore: String? = nil, allowFresh: Bool = false,
        limit: Int? = nil, now: Date = now, policy: FailurePolicy = .allFailed
    ) async throws -> BuildReport {
        try Data(TestBuild.patient(yaml).utf8).write(to: build.config)
        var options = SiteGenerator.Options(
            configFile: build.config, outputDirectory: build.output,
            templatesDirectory: Fixtures.repositoryRoot.appendingPathComponent("Templates"),
            stateDirectory: state ?? build.work.appendingPathComponent("state"), restoreState: restore,
            allowFreshState: allowFresh, concurrency: 8, failurePolicy: policy, now: now)
        if let limit { options.stateSizeLimit = limit }
        options.fetchesAvatars = false
        return try await SiteGenerator(options: options).build()
    }

    /// A port on 127.0.0.1 where nothing listens (a server that is down).
    static func closedPort() async throws -> Int {
        let server = try await FixtureServer(routes: [:])
        let port = server.port
        try await server.shutdown()
        return port
    }

    /// A published state of `items` items for the feed at `url`, `contentBytes` of HTML each.
    static func published(url: String, items: Int, contentBytes: Int) -> Data {
        var feed = StateSamples.feed(0, items: items, contentBytes: contentBytes)
        feed.etag = "\"v1\""
        // Validators go only to the URL that issued them: the one the state is restored for.
        feed.finalURL = url
        feed.items = feed.items.map { stored in
            var stored = stored
            stored.isInFeed = true
            return stored
        }
        return StateStore.encode(SiteState(feeds: [url: feed]))
    }

    // MARK: Poisoned values

    @Test("a restored state with Int.max counts and ../ slugs builds, and so does every build after it")
    func poisonedRestore() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await FixtureServer(routes: [
            "/down": .status(.internalServerError), "/ok": .feed(StateSamples.rss(items: 2)),
        ])
        let down = server.url("/down").absoluteString
        // Version 1, as today's feedsite publishes it.
        let poisoned = """
            {"feeds":{"\(down)":{"channel":{"title":"Down feed"},"slug":"../escape","items":[
            {"key":"k","firstSeen":"2026-11-01T00:00:00Z","isInFeed":true,"item":{"slug":"../../outside","feedSlug":"../x",
            "feedName":"D","title":"Poisoned post","authors":[],"content":{"html":"<p>text</p>"},"excerpt":"text",
            "categories":[],"enclosures":[{"url":"https://d.example/a.mp3","length":9223372036854775807}],
            "wordCount":9223372036854775807}}],
            "health":{"consecutiveFailures":9223372036854775807,"lastSuccess":"2026-11-01T00:00:00Z"}}},"version":1}
            """
        let file = build.work.appendingPathComponent("poisoned.json")
        try Data(poisoned.utf8).write(to: file)
        let yaml = "title: Poison\nretries: 0\nfeeds:\n  - url: \(down)\n  - url: \(server.url("/ok"))\n"
        let first = try await Self.run(build, yaml: yaml, restore: file.path)
        let page = "items/down-feed/poisoned-post/index.html"
        #expect(build.site.files[page]?.contains("500000 min read") == true)
        #expect(build.site.files["status/status.json"]?.contains("1000000") == true)
        #expect(first.diagnostics.contains { $0.message.contains("clamped 'wordCount'") })
        #expect(
            first.diagnostics.contains {
                $0.message.contains("re-derived slugs that are not slugs (\"../../outside\")")
            })
        // The state saved from it is clean: the next builds (the feed still failing) do not trap either.
        let second = try await Self.run(build, yaml: yaml, now: Self.now + Self.day)
        let third = try await Self.run(build, yaml: yaml, now: Self.now + 2 * Self.day)
        #expect(second.itemCount == 3)
        #expect(third.itemCount == 3)
        #expect(!third.diagnostics.contains { $0.message.contains("clamped") })
        #expect(build.site.files[page] != nil)
        #expect(build.site.files["status/status.json"]?.contains("1000000") == true)
        #expect(
            StateSamples.names(in: build.work).filter {
                !["Site", ".Site.previous", "state", "feeds.yml", "poisoned.json"].contains($0)
            }
                == [])
        try await server.shutdown()
    }

    /// A folder read as "NSCocoaErrorDomain error 256"; a FIFO as "You don't have permission" (or
    /// it blocked); `/dev/zero` read until the limit.
    @Test(
        "a restore path that is a folder or no regular file is refused in words; a link to a state file is followed",
        .timeLimit(.minutes(10)))
    func restorePathKinds() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await Self.feedServer()
        let yaml = "title: Paths\nfeeds:\n  - url: \(server.url("/feed"))\n"
        let fifo = build.work.appendingPathComponent("state.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let folder = build.work.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, expected) in [
            (folder.path, "\(folder.path) is a folder; give the path of a published status/state.json"),
            (fifo.path, "\(fifo.path) is not a regular file; give the path of a published status/state.json"),
        ] {
            do {
                _ = try await Self.run(build, yaml: yaml, restore: path)
                Issue.record("the build should have failed")
            } catch BuildError.stateNotRestored(_, let reason, _) {
                #expect(reason == expected)
            }
        }
        // A file the system cannot read: in its words, not "NSCocoaErrorDomain error 256".
        if FileManager.default.fileExists(atPath: "/proc/self/mem") {
            do {
                _ = try await Self.run(build, yaml: yaml, restore: "/proc/self/mem")
                Issue.record("the build should have failed")
            } catch BuildError.stateNotRestored(_, let reason, _) {
                #expect(reason == "cannot read /proc/self/mem: Input/output error", "\(reason)")
            }
        }
        let file = build.work.appendingPathComponent("published.json")
        try Self.published(url: server.url("/feed").absoluteString, items: 3, contentBytes: 100).write(to: file)
        let link = build.work.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let report = try await Self.run(build, yaml: yaml, restore: link.path)
        #expect(report.itemCount == 3)
        try await server.shutdown()
    }

    /// It said "the server's response is not valid HTTP/1.1 … tell the feed's owner".
    @Test("a state download the server cuts off is refused in words that say so")
    func restoreCutOff() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let feeds = try await Self.feedServer()
        let state = Self.published(url: feeds.url("/feed").absoluteString, items: 3, contentBytes: 100)
        var route = FixtureServer.Route.feed(state, contentType: "application/json")
        route.closeAfter = 100
        let server = try await FixtureServer(routes: ["/status/state.json": route])
        let yaml = "title: Cut\nretries: 0\nfeeds:\n  - url: \(feeds.url("/feed"))\n"
        do {
            _ = try await Self.run(build, yaml: yaml, restore: server.url("/status/state.json").absoluteString)
            Issue.record("the build should have failed")
        } catch BuildError.stateNotRestored(_, let reason, _) {
            #expect(
                reason == "the server closed the connection after 100 bytes of the state of its \(state.count) "
                    + "(its Content-Length), before its end; the download is not used", "\(reason)")
        }
        try await server.shutdown()
        try await feeds.shutdown()
    }

    @Test("a state address whose redirects loop, or go on past 5, fails in words, as a feed's do")
    func restoreRedirects() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let feeds = try await Self.feedServer()
        func redirect(_ to: String) -> FixtureServer.Route {
            FixtureServer.Route(status: .found, headers: [("Location", to)])
        }
        var routes = ["/loop-a": redirect("/loop-b"), "/loop-b": redirect("/loop-a")]
        for hop in 0..<7 { routes["/hop\(hop)"] = redirect("/hop\(hop + 1)") }
        let server = try await FixtureServer(routes: routes)
        let yaml = "title: Redirects\nretries: 0\nfeeds:\n  - url: \(feeds.url("/feed"))\n"
        // In the words a feed's redirects fail in (`RedirectChain`, shared).
        for (path, expected) in [
            ("/loop-a", "redirect loop: \(server.url("/loop-a").absoluteString) redirects back to itself"),
            ("/hop0", "more than 5 redirects"),
        ] {
            do {
                _ = try await Self.run(build, yaml: yaml, restore: server.url(path).absoluteString)
                Issue.record("the build should have failed")
            } catch BuildError.stateNotRestored(_, let reason, _) {
                #expect(reason == expected)
            }
        }
        try await server.shutdown()
        try await feeds.shutdown()
    }

    // MARK: Damaged local state

    @Test("one wrong-typed field among 2,000 saved items costs that item: 1,999 pages stay, the original is kept")
    func wrongTypedItem() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        var route = FixtureServer.Route.feed(StateSamples.rss(items: 2_000))
        route.etag = "\"v1\""
        let server = try await FixtureServer(routes: ["/many": route])
        let yaml = "title: Many\nmax_items: 5000\nfeeds:\n  - url: \(server.url("/many"))\n    name: Many\n"
        let cold = try await Self.run(build, yaml: yaml)
        #expect(cold.itemCount == 2_000)
        #expect(build.site.itemPages.count == 2_000)
        let stateFile = build.work.appendingPathComponent("state/state.json")
        var text = try String(contentsOf: stateFile, encoding: .utf8)
        let field = try #require(text.range(of: #""wordCount":"#))
        let value = try #require(text[field.upperBound...].firstIndex(of: "}"))
        text.replaceSubrange(field.upperBound..<value, with: #""many""#)
        try Data(text.utf8).write(to: stateFile)

        let warm = try await Self.run(build, yaml: yaml, now: Self.now + 3600)
        #expect(warm.records.first?.run.outcome == .notModified)
        #expect(warm.itemCount == 1_999)
        #expect(build.site.itemPages.count == 1_999)
        #expect(build.site.files["items/many/item-0/index.html"] == nil)
        #expect(build.site.files["items/many/item-1999/index.html"] != nil)
        #expect(
            warm.diagnostics.contains {
                $0.message.contains(
                    "skipped 1 unreadable item, kept the rest — item 0 (key \"http://x.example/p0\"): 'item.wordCount' is not a number"
                )
            })
        let kept = build.work.appendingPathComponent("state/state.json.damaged-2026-11-18")
        #expect(try Data(contentsOf: kept) == Data(text.utf8))
        #expect(
            warm.diagnostics.contains {
                $0.message.hasSuffix("kept the original as \(kept.path); the repaired state replaces it")
            })
        // The repaired state is what the next build reads, without warnings.
        let next = try await Self.run(build, yaml: yaml, now: Self.now + 7200)
        #expect(next.diagnostics.isEmpty)
        #expect(next.itemCount == 1_999)
        try await server.shutdown()
    }

    @Test("a state folder that is a file stops the build before anything is fetched, the file untouched")
    func stateFolderIsAFile() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 1))])
        let file = build.work.appendingPathComponent(".feedsite")
        try Data("notes".utf8).write(to: file)
        let yaml = "title: T\nfeeds:\n  - url: \(server.url("/feed"))\n"
        await #expect(throws: StateError.self) { _ = try await Self.run(build, yaml: yaml, state: file) }
        #expect(server.requests.isEmpty)
        #expect(try Data(contentsOf: file) == Data("notes".utf8))
        #expect(!FileManager.default.fileExists(atPath: build.output.path))
        try await server.shutdown()
    }

    // MARK: Restoring

    @Test(
        "a 13 MB and a 100 MB published state restore over HTTP, streamed into the state folder",
        arguments: [
            (1_300, 10_000), (100, 1_000_000),
        ])
    func largeRestore(items: Int, contentBytes: Int) async throws {
        let build = try TestBuild()
        defer { build.remove() }
        var feed = FixtureServer.Route.feed(StateSamples.rss(items: 1))
        feed.etag = "\"v1\""
        let server = try await FixtureServer(routes: ["/feed": feed])
        let state = Self.published(url: server.url("/feed").absoluteString, items: items, contentBytes: contentBytes)
        #expect(state.count > items * contentBytes)
        let stateServer = try await FixtureServer(routes: [
            "/status/state.json": .feed(state, contentType: "application/json")
        ])
        let yaml = "title: Large\nmax_items: 5000\nfeeds:\n  - url: \(server.url("/feed"))\n    name: Big\n"
        let report = try await Self.run(
            build, yaml: yaml, restore: stateServer.url("/status/state.json").absoluteString)
        #expect(report.records.first?.run.outcome == .notModified)
        #expect(report.itemCount == items)
        #expect(build.site.itemPages.count == items)
        #expect(report.diagnostics.contains { $0.message.hasPrefix("restored state for 1 feeds from") })
        // Nothing of the download is left beside the state it became.
        // (With Pagefind installed, the search index's manifest too.)
        #expect(
            StateSamples.names(in: build.work.appendingPathComponent("state")).filter {
                $0 != SearchIndex.Manifest.fileName
            } == ["last-build", StateLock.fileName, "state-index.json", "state.json"])
        try await stateServer.shutdown()
        try await server.shutdown()
    }

    @Test("no state published yet (HTTP 404, the first deploy) starts fresh with a warning")
    func firstDeploy() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 2))])
        let yaml = "title: First\nfeeds:\n  - url: \(server.url("/feed"))\n"
        let report = try await Self.run(build, yaml: yaml, restore: server.url("/status/state.json").absoluteString)
        #expect(report.itemCount == 2)
        #expect(
            report.diagnostics.contains {
                $0.severity == .warning
                    && $0.message.hasPrefix("no state published at \(server.url("/status/state.json")) yet (HTTP 404)")
            })
        #expect(report.stateNotRestored == nil)
        #expect(build.site.files["status/state.json"] != nil)
        try await server.shutdown()
    }

    @Test("a server that is down fails the build (nothing published) unless --allow-fresh-state")
    func serverDown() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 2))])
        let origin = "http://127.0.0.1:\(try await Self.closedPort())/status/state.json"
        let yaml = "title: Down\nretries: 0\nfeeds:\n  - url: \(server.url("/feed"))\n"
        do {
            _ = try await Self.run(build, yaml: yaml, restore: origin)
            Issue.record("the build should have failed")
        } catch let error as BuildError {
            guard case .stateNotRestored(let failedOrigin, _, _) = error else { throw error }
            #expect(failedOrigin == origin)
            #expect(error.description.contains("pass --allow-fresh-state to build without the history"))
        }
        #expect(server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: build.output.path))
        #expect(StateSamples.stateNames(in: build.work.appendingPathComponent("state")) == [])

        let report = try await Self.run(build, yaml: yaml, restore: origin, allowFresh: true)
        #expect(report.itemCount == 2)
        #expect(report.stateNotRestored != nil)
        #expect(
            report.diagnostics.contains {
                $0.severity == .error && $0.message.hasPrefix("cannot restore the state from \(origin)")
            })
        #expect(report.summary.hasSuffix("; the state was not restored, so the site's history starts afresh"))
        try await server.shutdown()
    }

    @Test(
        "a published state over the state limit, or not a state at all, fails the restore",
        arguments: [
            "large", "html",
        ])
    func refusedRestore(kind: String) async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let body =
            kind == "large"
            ? Self.published(url: "https://x.example/feed", items: 200, contentBytes: 10_000)
            : Data("<html><body>Pages is not set up</body></html>".utf8)
        let server = try await FixtureServer(routes: [
            "/feed": .feed(StateSamples.rss(items: 1)), "/status/state.json": .feed(body, contentType: "text/html"),
        ])
        let origin = server.url("/status/state.json").absoluteString
        let yaml = "title: Refused\nfeeds:\n  - url: \(server.url("/feed"))\n"
        do {
            _ = try await Self.run(build, yaml: yaml, restore: origin, limit: 1 << 20)
            Issue.record("the build should have failed")
        } catch BuildError.stateNotRestored(_, let reason, _) {
            if kind == "large" {
                #expect(reason == "the state is larger than feedsite's 1 MB state limit")
                #expect(StateSamples.stateNames(in: build.work.appendingPathComponent("state")) == [])
            } else {
                let kept = build.work.appendingPathComponent("state/restored-state.json.unreadable-2026-11-18")
                #expect(
                    reason.hasPrefix(
                        "not a feedsite state file: it is an HTML or XML document (a web page?); check that the address is the site's status/state.json"
                    ), "\(reason)")
                #expect(reason.hasSuffix("the download is kept as \(kept.path)"))
                #expect(try Data(contentsOf: kept) == body)
            }
        }
        #expect(!server.requests.contains { $0.path == "/feed" })
        try await server.shutdown()
    }

    /// The feed the published states are made for: one item, answering 304 to their ETag `"v1"`.
    static func feedServer() async throws -> FixtureServer {
        var feed = FixtureServer.Route.feed(StateSamples.rss(items: 1))
        feed.etag = "\"v1\""
        return try await FixtureServer(routes: ["/feed": feed])
    }

    @Test("a published state sent as raw deflate under 'deflate' is asked for again uncompressed and restores")
    func undecodableRestore() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await Self.feedServer()
        let state = Self.published(url: server.url("/feed").absoluteString, items: 20, contentBytes: 1_000)
        // gzip's 10-byte header (stdin: no file name) and 8-byte trailer around the raw deflate stream.
        let gzipped = try FeedFetcherTests.gzip(state)
        let raw = gzipped.subdata(in: 10..<(gzipped.count - 8))
        let stateServer = try await FixtureServer(
            routes: [:],
            sequences: [
                "/status/state.json": [
                    FixtureServer.Route(
                        headers: [("Content-Type", "application/json"), ("Content-Encoding", "deflate")], body: raw),
                    FixtureServer.Route(headers: [("Content-Type", "application/json")], body: state),
                ]
            ])
        let origin = stateServer.url("/status/state.json").absoluteString
        let yaml = "title: Deflate\nfeeds:\n  - url: \(server.url("/feed"))\n    name: Deflate\n"
        let report = try await Self.run(build, yaml: yaml, restore: origin, limit: 4 << 20)
        #expect(report.itemCount == 20)
        let asked = stateServer.requests.filter { $0.path == "/status/state.json" }.map { $0.header("Accept-Encoding") }
        #expect(asked == ["gzip, deflate", "identity"])
        try await stateServer.shutdown()
        try await server.shutdown()
    }

    /// A restore that stalled was retried `retries` times, each waiting `read_timeout` again (a
    /// trickle, each up to the 15-minute deadline).
    @Test("a state download that times out fails at once, without retries, naming the timeout")
    func stalledRestoreIsNotRetried() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await Self.feedServer()
        let state = Self.published(url: server.url("/feed").absoluteString, items: 2, contentBytes: 100)
        let stateServer = try await FixtureServer(routes: [
            "/status/state.json": FixtureServer.Route(
                headers: [("Content-Type", "application/json")], body: state, stallAfter: 100)
        ])
        let origin = stateServer.url("/status/state.json").absoluteString
        let yaml = "title: Stall\nretries: 2\nread_timeout: 1\nfeeds:\n  - url: \(server.url("/feed"))\n"
        do {
            _ = try await Self.run(build, yaml: yaml, restore: origin)
            Issue.record("the build should have failed")
        } catch BuildError.stateNotRestored(_, let reason, _) {
            #expect(reason.hasPrefix("timed out (nothing arrived for 1 s"), "\(reason)")
        }
        #expect(stateServer.requests.filter { $0.path == "/status/state.json" }.count == 1)
        try await stateServer.shutdown()
        try await server.shutdown()
    }

    @Test("a gzip-encoded state restores; one that inflates past the state limit is refused")
    func gzipRestore() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await Self.feedServer()
        let state = Self.published(url: server.url("/feed").absoluteString, items: 200, contentBytes: 10_000)
        let file = build.work.appendingPathComponent("state.json")
        try state.write(to: file)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -c '\(file.path)' > '\(file.path).gz'"]
        try gzip.run()
        gzip.waitUntilExit()
        let compressed = try Data(contentsOf: file.appendingPathExtension("gz"))
        #expect(compressed.count < 1 << 20)
        #expect(state.count > 1 << 20)
        let stateServer = try await FixtureServer(routes: [
            "/status/state.json": FixtureServer.Route(
                headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: compressed)
        ])
        let origin = stateServer.url("/status/state.json").absoluteString
        let yaml = "title: Gzip\nfeeds:\n  - url: \(server.url("/feed"))\n    name: Gzip\n"
        do {
            _ = try await Self.run(build, yaml: yaml, restore: origin, limit: 1 << 20)
            Issue.record("the build should have failed")
        } catch BuildError.stateNotRestored(_, let reason, _) {
            #expect(reason == "the state is larger than feedsite's 1 MB state limit")
        }
        let report = try await Self.run(build, yaml: yaml, restore: origin, limit: 4 << 20)
        #expect(report.itemCount == 200)
        #expect(report.records.first?.run.outcome == .notModified)
        try await stateServer.shutdown()
        try await server.shutdown()
    }

    // MARK: Version 1, as today's feedsite writes it

    /// The fixture's three feeds (nothing listens on their port now: they fail and keep their items).
    static let fixtureYAML = """
        title: Fixture planet
        retries: 0
        connect_timeout: 1
        feeds:
          - url: http://127.0.0.1:48231/rss092-userland-enclosures.xml
          - url: http://127.0.0.1:48231/github-releases-atom.xml
            name: Releases
          - url: http://127.0.0.1:48231/blogger-rss2-2006-single-line.xml

        """

    /// What the fixture holds, read from it by hand.
    static func expectFixtureHistory(_ build: TestBuild, _ report: BuildReport, now: Date) throws {
        #expect(report.itemCount == 34)
        for page in [
            "items/releases/0-2-0/index.html", "items/releases/0-1-3/index.html",
            "items/dave-winer-grateful-dead/it-s-been-a-few-days-since-i-added-a-song/index.html",
            "items/ak-s-moblog/teh-saxxi/index.html", "items/ak-s-moblog/das-geburtstagskind/index.html",
        ] {
            #expect(build.site.files[page] != nil, "missing \(page)")
        }
        #expect(
            build.site.files["items/dave-winer-grateful-dead/it-s-been-a-few-days-since-i-added-a-song/index.html"]?
                .contains("weatherReportDicksPicsVol7.mp3") == true)
        let (state, warnings) = StateStore(directory: build.work.appendingPathComponent("state")).loadAll(now: now)
        #expect(warnings == [])
        let releases = try #require(state.feeds["http://127.0.0.1:48231/github-releases-atom.xml"])
        let release = try #require(releases.items.first { $0.key == "tag:github.com,2008:Repository/90976281/v0.2.0" })
        #expect(release.firstSeen == ISO8601DateFormatter().date(from: "2026-11-25T16:52:33Z"))
        #expect(release.item.slug == "0-2-0")
        #expect(release.item.wordCount == 44)
        #expect(releases.slug == "releases")
        let winer = try #require(state.feeds["http://127.0.0.1:48231/rss092-userland-enclosures.xml"])
        #expect(winer.items.count == 22)
        #expect(winer.items.first?.item.enclosures.first?.length == 6_182_912)
        #expect(
            try String(contentsOf: build.work.appendingPathComponent("state/state.json"), encoding: .utf8).hasSuffix(
                #""version":2}"#))
    }

    @Test("a status/state.json published by feedsite's version 1 restores with items, slugs and first-seen dates")
    func restoreVersion1() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let stateServer = try await FixtureServer(routes: [
            "/status/state.json": .feed(
                try Fixtures.data("state/v1-published-state.json"), contentType: "application/json")
        ])
        let report = try await Self.run(
            build, yaml: Self.fixtureYAML, restore: stateServer.url("/status/state.json").absoluteString,
            now: Self.now + 10 * Self.day, policy: .percent(100))
        #expect(report.diagnostics.contains { $0.message.hasPrefix("restored state for 3 feeds from") })
        try Self.expectFixtureHistory(build, report, now: Self.now + 10 * Self.day)
        try await stateServer.shutdown()
    }

    @Test("a local .feedsite/state.json of version 1 loads on upgrade and is saved as version 2")
    func upgradeVersion1() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let folder = build.work.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Fixtures.data("state/v1-published-state.json").write(to: folder.appendingPathComponent("state.json"))
        let report = try await Self.run(
            build, yaml: Self.fixtureYAML, now: Self.now + 10 * Self.day, policy: .percent(100))
        #expect(!report.diagnostics.contains { $0.message.contains("state.json") })
        try Self.expectFixtureHistory(build, report, now: Self.now + 10 * Self.day)
    }

    // MARK: Warm builds

    @Test("a build where every feed answers 304 reads no saved items; one that renders reads them all")
    func warmBuildLoadsNoItems() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        var first = FixtureServer.Route.feed(StateSamples.rss(items: 5, prefix: "a", title: "First"))
        first.etag = "\"a\""
        var second = FixtureServer.Route.feed(StateSamples.rss(items: 5, prefix: "b", title: "Second"))
        second.etag = "\"b\""
        let server = try await FixtureServer(routes: ["/a": first, "/b": second])
        let yaml = "title: Warm\nfeeds:\n  - url: \(server.url("/a"))\n  - url: \(server.url("/b"))\n"
        _ = try await Self.run(build, yaml: yaml)
        // The first 304s change the status page (HTTP 304 instead of 200); the next build changes nothing.
        _ = try await Self.run(build, yaml: yaml, now: Self.now + 60)
        let before = build.inodes()
        let warm = try await Self.run(build, yaml: yaml, now: Self.now + 120)
        #expect(warm.write?.changedFiles == 0)
        #expect(warm.itemCount == 10)
        #expect(!warm.timings.contains { $0.stage == "load items" })
        #expect(warm.records.map(\.itemCount) == [5, 5])
        #expect(ReportFormatter.stepSummary(warm).contains("| 304 | 5 | 0 |"))
        #expect(build.inodes() == before)
        // A day later the status page changes (last success): everything is rendered again.
        let nextDay = try await Self.run(build, yaml: yaml, now: Self.now + Self.day)
        #expect(nextDay.timings.contains { $0.stage == "load items" })
        #expect(nextDay.itemCount == 10)
        #expect(build.site.itemPages.count == 10)
        let after = build.inodes()
        #expect(build.site.itemPages.allSatisfy { before[$0] == after[$0] })
        try await server.shutdown()
    }

    @Test("a feed that answers 304 still loses items that aged past keep_days")
    func keepDaysOnNotModified() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        var both = FixtureServer.Route.feed(StateSamples.rss(items: 2, prefix: "k", title: "Keep"))
        both.etag = "\"1\""
        var one = FixtureServer.Route.feed(StateSamples.rss(items: 1, prefix: "k", title: "Keep"))
        one.etag = "\"2\""
        let server = try await FixtureServer(routes: [:], sequences: ["/keep": [both, one]])
        let yaml = "title: Keep\nkeep_days: 3\nfeeds:\n  - url: \(server.url("/keep"))\n    name: Keep\n"
        _ = try await Self.run(build, yaml: yaml)
        // Day 1: item 1 leaves the feed (kept for keep_days, counted from when it was first seen).
        _ = try await Self.run(build, yaml: yaml, now: Self.now + Self.day)
        #expect(build.site.files["items/keep/item-1/index.html"] != nil)
        let kept = try await Self.run(build, yaml: yaml, now: Self.now + 2 * Self.day)
        #expect(kept.records.first?.run.outcome == .notModified)
        #expect(build.site.files["items/keep/item-1/index.html"] != nil)
        let aged = try await Self.run(build, yaml: yaml, now: Self.now + 4 * Self.day)
        #expect(aged.records.first?.run.outcome == .notModified)
        #expect(aged.itemCount == 1)
        #expect(build.site.files["items/keep/item-1/index.html"] == nil)
        #expect(build.site.files["items/keep/item-0/index.html"] != nil)
        try await server.shutdown()
    }
}
