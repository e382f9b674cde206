import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// Issue 5: nothing already published disappears because a server misbehaved.
@Suite("Resilience", .serialized)
struct ResilienceTests {
    static let day: TimeInterval = 86_400
    static let firstRun = Date(timeIntervalSince1970: 1_795_000_000)

    /// Each fault, as the route that serves a good feed on the first request and the fault after.
    static func faultRoutes(gzipBomb: Data) throws -> (sequences: [String: [FixtureServer.Route]], names: [String]) {
        // Each route has its own posts, so no item is a duplicate of another feed's.
        func feed(_ name: String) -> Data {
            var xml = "<rss version=\"2.0\"><channel><title>Feed \(name)</title><link>http://\(name).example/</link>"
            for number in 1...3 {
                xml += "<item><title>\(name) post \(number)</title><link>http://\(name).example/\(number)</link>"
                xml +=
                    "<pubDate>Mon, 1\(number) Nov 2026 10:00:00 GMT</pubDate><description>&lt;p&gt;Body \(number)&lt;/p&gt;</description></item>"
            }
            return Data((xml + "</channel></rss>").utf8)
        }
        let other = feed("moved")
        let empty = Data(
            "<rss version=\"2.0\"><channel><title>Empty now</title><link>http://x.example/</link></channel></rss>".utf8)
        let faults: [(String, FixtureServer.Route)] = [
            ("404", .status(.notFound)),
            ("410", .status(.gone)),
            ("500", .status(.internalServerError)),
            ("503-retry-after", FixtureServer.Route(status: .serviceUnavailable, headers: [("Retry-After", "3600")])),
            ("429", .status(.tooManyRequests)),
            ("stall", FixtureServer.Route(body: other + Data(count: 10_000), stallAfter: 200)),
            ("huge", .feed(Data(count: 50_000_000))),
            ("gzip-bomb", FixtureServer.Route(headers: [("Content-Encoding", "gzip")], body: gzipBomb)),
            ("redirect-loop", FixtureServer.Route(status: .found, headers: [("Location", "/redirect-loop")])),
            ("moved", FixtureServer.Route(status: .movedPermanently, headers: [("Location", "/moved-here")])),
            (
                "html",
                .feed(
                    Data("<!DOCTYPE html><html><body><p>Maintenance</p></body></html>".utf8), contentType: "text/html")
            ),
            ("empty-200", .feed(Data())),
            // Cut off inside its first tag: nothing to recover (a mismatched end tag is read past now).
            ("malformed", .feed(Data("<rss version=\"2.0\"".utf8))),
            ("zero-items", .feed(empty)),
        ]
        var sequences: [String: [FixtureServer.Route]] = [:]
        for (name, fault) in faults {
            sequences["/\(name)"] = [.feed(feed(name)), fault]
        }
        sequences["/moved-here"] = [.feed(other)]
        return (sequences, faults.map(\.0))
    }

    @Test("a faulty second run keeps every published item, marks stale feeds and reports each fault")
    func faultInjection() async throws {
        let bomb = try FeedFetcherTests.gzip(Data(count: 50_000_000))
        let (sequences, names) = try Self.faultRoutes(gzipBomb: bomb)
        let server = try await FixtureServer(routes: [:], sequences: sequences)
        let blackhole = try Blackhole()
        let refused = closedPort()
        let build = try TestBuild()
        defer { build.remove() }

        var yaml =
            "title: Faults\nretries: 0\ntimeout: 20\nconnect_timeout: 1\nread_timeout: 8\nmax_retry_after: 1\n"
            + "max_body_mb: 10\nfeeds:\n"
        for name in names { yaml += "  - url: \(server.url("/\(name)"))\n    name: \(name)\n" }
        yaml += "  - url: http://127.0.0.1:\(blackhole.port)/feed\n    name: connect-timeout\n"
        yaml += "  - url: http://127.0.0.1:\(refused)/feed\n    name: refused\n"
        yaml += "  - url: http://feedsite-test.invalid/feed\n    name: dns\n"

        // Run 1: every server-backed feed is good.
        let first = try await build.run(yaml: yaml, now: Self.firstRun)
        #expect(first.failedFeedCount == 3)  // connect timeout, refused, DNS: never good
        let firstPages = Set(build.site.itemPages)
        #expect(firstPages.count == first.itemCount)
        #expect(first.itemCount == 3 * 14)

        // Run 2, a day later: every route misbehaves (the 301 still leads to a feed).
        let second = try await build.run(yaml: yaml, now: Self.firstRun + Self.day)
        try await server.shutdown()
        let secondPages = Set(build.site.itemPages)
        #expect(firstPages.subtracting(secondPages).isEmpty, "lost: \(firstPages.subtracting(secondPages).sorted())")

        let byName = Dictionary(uniqueKeysWithValues: second.records.map { ($0.source.name ?? "", $0) })
        let expectations: [String: String] = [
            "404": "HTTP 404 Not Found",
            "410": "HTTP 410 Gone",
            "500": "HTTP 500 Internal Server Error",
            "503-retry-after": "HTTP 503: the server asks to retry after 3600 s",
            "429": "HTTP 429 Too Many Requests on the only attempt (retries: 0); skipped this run",
            "stall": "timed out",
            "huge": "larger than the 10 MB limit",
            "gzip-bomb": "larger than the 10 MB limit",
            "redirect-loop": "redirect loop",
            "html": "HTML page, not a feed",
            "empty-200": "empty",
            "malformed": "line 1",
            "zero-items": "the feed has no items now (it had",
            "connect-timeout": "timed out",
            "refused": "connection refused",
            "dns": "cannot resolve host feedsite-test.invalid",
        ]
        for (name, fragment) in expectations {
            let record = try #require(byName[name], "no record for \(name)")
            let text = record.failure?.description ?? "no failure"
            #expect(text.contains(fragment), "\(name): \(text)")
        }
        #expect(byName["moved"]?.failure == nil)
        #expect(second.failedFeedCount == expectations.count)

        // Stale marks: on the feed page and in status.json, with the day of the last success.
        let stale = try #require(byName["500"])
        #expect(stale.isStale)
        let slug = try #require(stale.state.slug)
        let feedPage = try #require(build.site.files["feeds/\(slug)/index.html"])
        // en.yml: date "{day} {month_short} {year}", stale_since "unchanged since {date}: {reason}".
        #expect(feedPage.contains("unchanged since 18 Nov 2026: HTTP 500 Internal Server Error"))
        let status = try JSONSerialization.jsonObject(with: Data((build.site.files["status/status.json"] ?? "").utf8))
        let rows = try #require((status as? [String: Any])?["feeds"] as? [[String: Any]])
        let row500 = try #require(rows.first { $0["name"] as? String == "500" })
        #expect(row500["health"] as? String == "stale")
        #expect(row500["stale"] as? Bool == true)
        #expect(row500["consecutiveFailures"] as? Int == 1)
        #expect(row500["httpStatus"] as? Int == 500)
        #expect(row500["lastSuccess"] as? String == "2026-11-18")
        let rowDNS = try #require(rows.first { $0["name"] as? String == "dns" })
        #expect(rowDNS["health"] as? String == "failing")
        #expect(rowDNS["consecutiveFailures"] as? Int == 2)

        // Advice in the warnings: the move, the gone feed, and what was kept.
        let warnings = second.diagnostics.map(\.description)
        #expect(
            warnings.contains {
                $0.contains("\(server.url("/moved")) moved permanently to \(server.url("/moved-here")): update it")
            })
        // The gone feed: one warning says what failed, what was kept and what to do.
        let gone = warnings.filter { $0.contains(server.url("/410").absoluteString) }
        #expect(gone.count == 1, "\(gone)")
        #expect(
            gone.first.map {
                $0.contains("feed '410' (\(server.url("/410"))): HTTP 410 Gone; kept 3 items from 2026-11-18")
                    && $0.hasSuffix("; the feed is gone: remove it from feeds.yml")
            } == true, "\(gone)")
        #expect(
            warnings.contains {
                $0.contains("feed '500' (\(server.url("/500"))): HTTP 500 Internal Server Error; kept ")
                    && $0.hasSuffix("kept 3 items from 2026-11-18")
            })
    }

    @Test("exit policy: --strict or --max-failed leave the previous site untouched; the default publishes")
    func failurePolicy() async throws {
        let good = try Fixtures.data("real-feeds/github-releases-atom.xml")
        let server = try await FixtureServer(
            routes: ["/ok": .feed(good)], sequences: ["/flaky": [.feed(good), .status(.internalServerError)]])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml =
            "title: Policy\nretries: 0\nfeeds:\n  - url: \(server.url("/ok"))\n  - url: \(server.url("/flaky"))\n    name: Flaky\n"
        _ = try await build.run(yaml: yaml, now: Self.firstRun)
        let before = build.site.files

        await #expect(throws: BuildError.self) {
            try await build.run(yaml: yaml, policy: .count(0), now: Self.firstRun + Self.day)
        }
        #expect(build.site.files == before)
        await #expect(throws: BuildError.self) {
            try await build.run(yaml: yaml, policy: .percent(25), now: Self.firstRun + Self.day)
        }
        #expect(build.site.files == before)
        let report = try await build.run(yaml: yaml, policy: .percent(50), now: Self.firstRun + Self.day)
        #expect(report.failedFeedCount == 1)
        try await server.shutdown()
        #expect(FailurePolicy(argument: "3") == .count(3))
        #expect(FailurePolicy(argument: "20%") == .percent(20))
        #expect(FailurePolicy(argument: "x") == nil)
        #expect(FailurePolicy.allFailed.isCrossed(failed: 2, total: 2))
        #expect(!FailurePolicy.allFailed.isCrossed(failed: 1, total: 2))
    }

    @Test(
        "a warm build sends conditional requests, gets 304s and rewrites nothing but the status report; the next rewrites nothing"
    )
    func warmBuild() async throws {
        var route = FixtureServer.Route.feed(try Fixtures.data("real-feeds/jekyll-atom.xml"))
        route.etag = "\"jekyll-1\""
        let server = try await FixtureServer(routes: ["/feed": route])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: Warm\nfeeds:\n  - url: \(server.url("/feed"))\n"
        let cold = try await build.run(yaml: yaml, now: Self.firstRun)
        let before = build.inodes()
        let warm = try await build.run(yaml: yaml, now: Self.firstRun)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.header("If-None-Match") == "\"jekyll-1\"")
        #expect(warm.records.first?.run.outcome == .notModified)
        #expect(warm.itemCount == cold.itemCount)
        // The status report now says 304; every page and the saved state are untouched.
        let after = build.inodes()
        #expect(Set(before.keys) == Set(after.keys))
        #expect(
            before.filter { after[$0.key] != $0.value }.keys.sorted() == ["status/index.html", "status/status.json"])
        #expect(warm.write?.changedFiles == 2)
        let again = try await build.run(yaml: yaml, now: Self.firstRun + 3600)
        #expect(again.write?.changedFiles == 0)
        #expect(build.inodes() == after)
        try await server.shutdown()
    }

    @Test("the published status/state.json is a file of its own: blanking it in place leaves the saved state whole")
    func publishedStateIsNotTheSavedState() async throws {
        let server = try await FixtureServer(routes: [
            "/feed": .feed(try Fixtures.data("real-feeds/jekyll-atom.xml"))
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: Published state\nfeeds:\n  - url: \(server.url("/feed"))\n"
        let first = try await build.run(yaml: yaml, now: Self.firstRun)
        let published = build.output.appendingPathComponent("status/state.json")
        let saved = build.work.appendingPathComponent("state/state.json")
        let savedBytes = try Data(contentsOf: saved)
        #expect(try Data(contentsOf: published) == savedBytes)
        // A deploy step that blanks the published copy in place (`: > Site/status/state.json`).
        let handle = try FileHandle(forWritingTo: published)
        try handle.truncate(atOffset: 0)
        try handle.close()
        #expect(try Data(contentsOf: saved) == savedBytes)
        let second = try await build.run(yaml: yaml, now: Self.firstRun + 3600)
        #expect(!second.diagnostics.contains { $0.message.contains("cannot be read") })
        #expect(second.itemCount == first.itemCount)
        #expect(try Data(contentsOf: published).count == (try Data(contentsOf: saved)).count)
        try await server.shutdown()
    }

    @Test("a fresh state directory is seeded from the published state.json (path or URL)")
    func restoreState() async throws {
        var route = FixtureServer.Route.feed(try Fixtures.data("real-feeds/jekyll-atom.xml"))
        route.etag = "\"v1\""
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await FixtureServer(routes: ["/feed": route])
        let yaml = "title: Restore\nfeeds:\n  - url: \(server.url("/feed"))\n"
        _ = try await build.run(yaml: yaml, now: Self.firstRun)
        let published = build.output.appendingPathComponent("status/state.json")
        let pagesBefore = Set(build.site.itemPages)

        // A new runner: empty state dir, state restored from the published file.
        let fresh = build.work.appendingPathComponent("fresh-state")
        let report = try await build.run(
            yaml: yaml, stateDirectory: fresh, restoreState: published.path, now: Self.firstRun + Self.day)
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(report.records.first?.run.outcome == .notModified)
        #expect(Set(build.site.itemPages) == pagesBefore)
        #expect(report.diagnostics.contains { $0.message.hasPrefix("restored state for 1 feeds from") })
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("state.json").path))

        // The same from a URL (the live site).
        let stateServer = try await FixtureServer(routes: [
            "/status/state.json": .feed(try Data(contentsOf: published), contentType: "application/json")
        ])
        let viaURL = build.work.appendingPathComponent("url-state")
        let fromURL = try await build.run(
            yaml: yaml, stateDirectory: viaURL, restoreState: stateServer.url("/status/state.json").absoluteString,
            now: Self.firstRun + 2 * Self.day)
        try await stateServer.shutdown()
        try await server.shutdown()
        #expect(fromURL.records.first?.run.outcome == .notModified)
        #expect(Set(build.site.itemPages) == pagesBefore)
    }

    @Test("an unreadable or future-version state is kept aside with a warning saying where, never fatal")
    func badState() async throws {
        let server = try await FixtureServer(routes: ["/feed": .feed(try Fixtures.data("real-feeds/substack-rss2.xml"))]
        )
        let build = try TestBuild()
        defer { build.remove() }
        let stateDirectory = build.work.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let yaml = "title: Bad state\nfeeds:\n  - url: \(server.url("/feed"))\n"
        try Data("{not json".utf8).write(to: stateDirectory.appendingPathComponent("state.json"))
        let damaged = try await build.run(yaml: yaml)
        let unreadable = stateDirectory.appendingPathComponent("state.json.unreadable-2026-11-18")
        #expect(damaged.diagnostics.contains { $0.message.contains("kept it as \(unreadable.path)") })
        #expect(try Data(contentsOf: unreadable) == Data("{not json".utf8))
        let newer = Data(#"{"version": 99, "feeds": {}}"#.utf8)
        try newer.write(to: stateDirectory.appendingPathComponent("state.json"))
        let future = try await build.run(yaml: yaml)
        #expect(future.diagnostics.contains { $0.message.contains("newer feedsite (state version 99") })
        #expect(try Data(contentsOf: stateDirectory.appendingPathComponent("state.v99.json")) == newer)
        #expect(future.itemCount == 1)
        try await server.shutdown()
    }

    @Test(
        "items that leave the feed stay keep_days; undated items take their first-seen time; future dates are clamped")
    func archiveAndDates() async throws {
        func rss(_ items: [(String, String?)]) -> Data {
            var xml = "<rss version=\"2.0\"><channel><title>Archive</title><link>http://a.example/</link>"
            for (id, date) in items {
                xml += "<item><title>Post \(id)</title><link>http://a.example/\(id)</link><guid>\(id)</guid>"
                if let date { xml += "<pubDate>\(date)</pubDate>" }
                xml += "</item>"
            }
            return Data((xml + "</channel></rss>").utf8)
        }
        let server = try await FixtureServer(
            routes: [:],
            sequences: [
                "/feed": [
                    .feed(
                        rss([
                            ("a", "Tue, 18 Nov 2026 10:00:00 GMT"), ("b", nil), ("c", "Fri, 01 Jan 2027 00:00:00 GMT"),
                        ])),
                    .feed(rss([("d", "Thu, 20 Nov 2026 10:00:00 GMT")])),
                ]
            ])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: Archive\nkeep_days: 30\nfeeds:\n  - url: \(server.url("/feed"))\n"
        let first = try await build.run(yaml: yaml, now: Self.firstRun)
        #expect(first.itemCount == 3)
        let dates = Dictionary(
            uniqueKeysWithValues: Site.assemble(
                configuration: SiteConfiguration(feeds: []), records: first.records, now: Self.firstRun
            )
            .items.map { ($0.title, $0.date) })
        #expect(dates["Post b"] == Self.firstRun)  // undated: first seen
        #expect(dates["Post c"] == Self.firstRun)  // future: clamped to first seen
        // The feed now only has "d": a, b, c stay in the archive (within 30 days).
        let second = try await build.run(yaml: yaml, now: Self.firstRun + Self.day)
        #expect(second.itemCount == 4)
        #expect(second.newItemCount == 1)
        // 40 days on (feed unchanged → its last response repeats): a and b age out, c (clamped) too.
        let later = try await build.run(yaml: yaml, now: Self.firstRun + 40 * Self.day)
        try await server.shutdown()
        #expect(later.itemCount == 1)
    }

    @Test("duplicates across feeds appear once, under the first feed; max_items caps a feed")
    func duplicatesAndLimits() async throws {
        func rss(_ title: String, _ links: [String]) -> Data {
            var xml = "<rss version=\"2.0\"><channel><title>\(title)</title><link>http://x.example/</link>"
            for (index, link) in links.enumerated() {
                xml +=
                    "<item><title>\(title) \(index)</title><link>\(link)</link><pubDate>Tue, 1\(index) Nov 2026 10:00:00 GMT</pubDate></item>"
            }
            return Data((xml + "</channel></rss>").utf8)
        }
        let server = try await FixtureServer(routes: [
            "/first": .feed(rss("First", ["https://www.blog.example/post/1/", "https://blog.example/post/2"])),
            "/second": .feed(
                rss(
                    "Second",
                    [
                        "http://blog.example/post/1?utm_source=feed", "https://blog.example/post/3",
                        "https://blog.example/post/4",
                    ])),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = """
            title: Dupes
            feeds:
              - url: \(server.url("/first"))
              - url: \(server.url("/second"))
                max_items: 1
            """
        let report = try await build.run(yaml: yaml)
        try await server.shutdown()
        // First: both items. Second: post/1 is First's; of post/3 and post/4 only the newest stays.
        #expect(report.itemCount == 3)
        #expect(build.site.itemPages.filter { $0.hasPrefix("items/first/") }.count == 2)
        #expect(build.site.itemPages.filter { $0.hasPrefix("items/second/") } == ["items/second/second-2/index.html"])
        #expect(
            Site.normalisedIdentity("https://www.blog.example/post/1/")
                == Site.normalisedIdentity("http://blog.example/post/1?utm_source=x&utm_medium=y"))
        #expect(
            Site.normalisedIdentity("https://blog.example/a?id=1")
                != Site.normalisedIdentity("https://blog.example/a?id=2"))
    }

    @Test("--offline re-renders from state without touching the network")
    func offline() async throws {
        let server = try await FixtureServer(routes: ["/feed": .feed(try Fixtures.data("real-feeds/jekyll-atom.xml"))])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: Offline\nfeeds:\n  - url: \(server.url("/feed"))\n"
        let online = try await build.run(yaml: yaml)
        let requests = server.requests.count
        let offline = try await build.run(
            yaml: yaml.replacingOccurrences(of: "Offline", with: "Offline 2"), offline: true)
        try await server.shutdown()
        #expect(server.requests.count == requests)
        #expect(offline.itemCount == online.itemCount)
        #expect(build.site.files["index.html"]?.contains("Offline 2") == true)

        let empty = try TestBuild()
        defer { empty.remove() }
        let none = await #expect(throws: BuildError.self) { try await empty.run(yaml: yaml, offline: true) }
        #expect(none?.message.contains("does not exist") == true)

        // An unreadable state is kept aside, and the error says so after the warning saying where
        // (both were lost: the error claimed the file did not exist).
        let stateFile = build.work.appendingPathComponent("state/state.json")
        try Data("garbage{".utf8).write(to: stateFile)
        let unreadable = await #expect(throws: BuildError.self) { try await build.run(yaml: yaml, offline: true) }
        let lines = unreadable?.diagnostics.map(\.description) ?? []
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("kept it as \(stateFile.path).unreadable-") == true, "\(lines)")
        #expect(lines.last?.contains("\(stateFile.path) could not be read") == true, "\(lines)")
        #expect(unreadable?.exitStatus == .usage)
    }
}

@Suite("State file")
struct StateFileTests {
    @Test("the state keeps a discovered feed URL and the last HTTP status through a save and a load")
    func roundTripsTruthFields() throws {
        var state = SiteState()
        state.feeds["https://b.example/feed"] = FeedState(
            etag: "\"e\"", discoveredURL: "https://b.example/feed.xml", channel: ChannelInfo(title: "B"), slug: "b",
            health: FeedHealth(
                lastSuccess: Date(timeIntervalSince1970: 1_794_960_000), consecutiveFailures: 0, lastStatus: 200))
        state.feeds["https://a.example/feed"] = FeedState(
            channel: ChannelInfo(title: "A"),
            health: FeedHealth(consecutiveFailures: 2, lastError: "HTTP 404 Not Found", lastStatus: 404))
        let (decoded, warnings) = StateStore.decode(StateStore.encode(state), origin: "test", trusted: true)
        #expect(warnings.isEmpty)
        #expect(decoded.feeds["https://b.example/feed"]?.discoveredURL == "https://b.example/feed.xml")
        #expect(decoded.feeds["https://b.example/feed"]?.health.lastStatus == 200)
        #expect(decoded.feeds["https://a.example/feed"]?.health.lastStatus == 404)
        #expect(decoded.feeds["https://a.example/feed"]?.health.lastError == "HTTP 404 Not Found")
    }

    @Test("the fast duplicate identity agrees with the URLComponents one wherever it answers")
    func identityParity() {
        let values = [
            "https://www.blog.example/post/1/", "http://blog.example/post/1", "https://Blog.Example/A/B//",
            "https://blog.example/", "https://blog.example",
            "https://www.example.org/2024/05/28/when-into-photo-you-0/",
            "https://x.example/a#frag", "https://x.example/a/#", "HTTPS://WWW.X.EXAMPLE/P", "https://x.example/a;b=c/",
            "https://x.example/~user/", "https://x.example/a:b@c/", "https://x.example:443/a", "https://x.example/a?b",
            "https://x.example/%7Euser/", "urn:uuid:1234", "tag:blog.example,2026:post-1", "https://www./x",
        ]
        var answered = 0
        for value in values {
            guard let fast = Site.plainIdentity(value) else { continue }
            answered += 1
            #expect(fast == Site.componentsIdentity(value), "\(value)")
        }
        #expect(answered >= 10)
        #expect(Site.plainIdentity("https://x.example/a?b=%20") == nil)
        #expect(Site.plainIdentity("https://x.example/a?utm_source=feed") == nil)
        #expect(Site.plainIdentity("urn:uuid:1234") == nil)
        // WordPress ids: a plain query is kept, and answered without URLComponents.
        #expect(Site.plainIdentity("https://www.blog.example/?p=123") == "//blog.example?p=123")
        var generator = SystemRandomNumberGenerator()
        let queryPieces = [
            "a", "B", "1", "=", "&", "utm_", "UTM_x", "-", ".", "~", "_", "%41", "+", "p=2", "?", "#f", "/",
        ]
        var queries = 0
        for _ in 0..<20_000 {
            let query = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                queryPieces.randomElement(using: &generator)!
            }
            .joined()
            let value = "https://www.blog.example/x/?" + query
            guard let fast = Site.plainIdentity(value) else { continue }
            queries += 1
            #expect(fast == Site.componentsIdentity(value), "\(value)")
        }
        #expect(queries > 1_000)
        // Every value gets the URLComponents identity, whichever path answers it (ids without
        // an authority skip the parse).
        let more = [
            "tag:blog.example,2026:/post/1", " tag:x ", "urn:uuid:1234", "mailto:a@b.example", "/relative/path",
            "relative", "", "http:/one-slash", "https:x.example/a", "x://y/z", "  //host.example/a/ ",
            "https://x.example/a?utm_source=1&b=2", "ftp://Files.Example:21/pub/", "news:comp.lang",
        ]
        for value in values + more {
            #expect(Site.normalisedIdentity(value) == Site.componentsIdentity(value), "\(value)")
        }
    }
}
