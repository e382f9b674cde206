import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// The search stage: records from the site model, the Pagefind service protocol, finding
/// Pagefind, and (where Pagefind and Chromium are installed) a whole build searched in a browser.
@Suite("Search", .serialized)
struct SearchIndexTests {
    static func site(language: String = "de-CH", timeZone: String = "Europe/Berlin") -> Site {
        let sanitiser = HTMLSanitiser()
        func item(_ slug: String, title: String, html: String, date: TimeInterval?) -> SiteItem {
            let body = sanitiser.sanitise(html: html, baseURL: nil)
            // The excerpt as a feed's reading makes it (280 characters, the default).
            return SiteItem(
                slug: slug, feedSlug: "blog", feedName: "The Blog", title: title, link: nil, authors: [],
                date: date.map(Date.init(timeIntervalSince1970:)), content: body.html,
                excerpt: HTMLSanitiser.excerpt(body.plainText, maxLength: 280), categories: [], enclosures: [])
        }
        let items = [
            // 2026-11-24T23:30:00Z: 25 November in Berlin.
            item(
                "zebra", title: "Zebras & <tags>", html: "<p>The <em>striped</em> one &amp; friends.</p>",
                date: 1_795_563_000),
            item("long", title: "Long", html: "<p>" + String(repeating: "word ", count: 5000) + "</p>", date: nil),
        ]
        return Site(
            configuration: SiteConfiguration(
                timeZone: TimeZone(identifier: timeZone) ?? .current, language: language, feeds: []),
            feeds: [
                SiteFeed(
                    source: FeedSource(url: URL(string: "https://blog.example/feed")!), slug: "blog", name: "The Blog",
                    description: nil, siteLink: nil, items: items)
            ],
            items: items)
    }

    @Test("items become Pagefind pages: a heading per item naming it, its first words, feed, authors, categories")
    func records() {
        var site = Self.site()
        site.items[0].authors = ["Ann Author"]
        site.items[0].categories = ["Stripes", "Animals"]
        let records = SearchIndex.records(site.items, shard: "2026", configuration: site.configuration)
        #expect(records.map(\.url) == ["search/2026/1"])
        // 5,000 words of text: the first 30 (of the excerpt's 56).
        let words = String(repeating: "word ", count: 30).dropLast()
        let zebra = "items/blog/zebra/index.html|The%20Blog|Wednesday%2C%2025%20November%202026"
        #expect(
            records.first?.html
                == #"<html lang="de"><body><section><h2 id="\#(zebra)">Zebras &amp; &lt;tags&gt;</h2>"#
                + "<p>The striped one &amp; friends.</p><p>The Blog · Ann Author · Stripes · Animals</p></section>"
                + #"<section><h2 id="items/blog/long/index.html|The%20Blog|">Long</h2><p>\#(words)</p>"#
                + "<p>The Blog</p></section></body></html>")
        // 25 items to a page.
        let many = Array(repeating: site.items[0], count: 51)
        #expect(
            SearchIndex.records(many, shard: "x", configuration: site.configuration).map(\.url) == [
                "search/x/1", "search/x/2", "search/x/3",
            ])
        #expect(
            SearchIndex.anchor(path: "items/a b/index.html", feed: "Q&A \"<x>\"", day: "")
                == "items/a%20b/index.html|Q%26A%20%22%3Cx%3E%22|")
    }

    @Test("shards: a year, else its months, else runs of whole days of at most the limit; newest first")
    func shards() {
        let sanitiser = HTMLSanitiser()
        // Noon UTC on the given day.
        func item(_ slug: String, _ day: String?) -> SiteItem {
            let date = day.flatMap { ISO8601DateFormatter().date(from: $0 + "T12:00:00Z") }
            return SiteItem(
                slug: slug, feedSlug: "blog", feedName: "The Blog", title: slug, link: nil, authors: [], date: date,
                content: sanitiser.sanitise(html: "<p>x</p>", baseURL: nil).html, excerpt: "", categories: [],
                enclosures: [])
        }
        var site = Self.site(timeZone: "UTC")
        site.items = [
            item("a", "2023-06-01"), item("b", "2023-07-02"),
            item("c", "2024-01-05"), item("d", "2024-03-01"), item("e", "2024-03-01"), item("f", "2024-03-02"),
            item("g", "2024-03-09"), item("h", "2024-03-10"), item("i", "2024-03-10"), item("j", nil),
        ]
        let shards = SearchIndex.shards(site, limit: 3)
        // 2023 has 2 items: one shard. 2024 has 7: by month; March has 6: runs of days, a day kept whole.
        #expect(shards.map(\.name) == ["undated", "2024-03-09", "2024-03-01", "2024-01", "2023"])
        #expect(shards.map { $0.items.map(\.slug) } == [["j"], ["g", "h", "i"], ["d", "e", "f"], ["c"], ["a", "b"]])
        // A new item on the newest day changes the newest run only; the older shards stay as they were.
        var later = site
        later.items.append(item("k", "2024-03-10"))
        let after = SearchIndex.shards(later, limit: 3)
        #expect(after.map(\.name) == ["undated", "2024-03-10", "2024-03-09", "2024-03-01", "2024-01", "2023"])
        #expect(after[1].items.map(\.slug) == ["h", "i", "k"])
        #expect(after.suffix(3).map { $0.items.map(\.slug) } == shards.suffix(3).map { $0.items.map(\.slug) })
        // A day with more items than the limit is one shard of its own.
        #expect(SearchIndex.shards(later, limit: 1).map(\.name).prefix(3) == ["undated", "2024-03-10", "2024-03-09"])
        // Days are the site's time zone's: 23:30 UTC on 31 December is 1 January in Berlin.
        var berlin = Self.site(timeZone: "Europe/Berlin")
        berlin.items = [item("y", "2023-12-31")]
        berlin.items[0].date = ISO8601DateFormatter().date(from: "2023-12-31T23:30:00Z")
        #expect(SearchIndex.shards(berlin).map(\.name) == ["2024"])
    }

    @Test("the digest that decides whether to index a shard again follows what its records are made of")
    func digest() {
        var reworded = Self.site()
        reworded.items[0].excerpt = "Other words."
        let tool = URL(fileURLWithPath: "/bin/sh")
        let site = Self.site()
        func digest(_ site: Site, _ tool: URL = tool) -> [String] {
            SearchIndex.shards(site).map { SearchIndex.digest($0, configuration: site.configuration, executable: tool) }
        }
        #expect(digest(site) == digest(Self.site()))
        var retitled = site
        retitled.items[1].title = "Longer"
        #expect(digest(retitled) != digest(site))
        var recategorised = site
        recategorised.items[0].categories = ["Stripes"]
        #expect(digest(recategorised) != digest(site))
        #expect(digest(reworded) != digest(site))
        #expect(digest(Self.site(language: "fr")) != digest(site))
        #expect(digest(site, URL(fileURLWithPath: "/bin/ls")) != digest(site))
    }

    @Test("requests: base64 JSON followed by a comma; a new index, the pages in order, then the files")
    func requests() throws {
        let records = [
            PagefindService.Record(url: "search/2026/1", html: "<html><body><h2 id=\"a\">A</h2></body></html>"),
            PagefindService.Record(url: "search/2026/2", html: "<html><body><h2 id=\"b\">B</h2></body></html>"),
        ]
        let messages = PagefindService.requests(records)
        #expect(messages.count == 4)
        let decoded = try messages.map { message -> [String: Any] in
            #expect(message.last == UInt8(ascii: ","))
            let json = try #require(Data(base64Encoded: message.dropLast()))
            return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        }
        #expect(decoded.map { $0["message_id"] as? Int } == [0, 1, 2, 3])
        let payloads = decoded.map { $0["payload"] as? [String: Any] ?? [:] }
        #expect(payloads.map { $0["type"] as? String } == ["NewIndex", "AddFile", "AddFile", "GetFiles"])
        #expect(payloads[1]["url"] as? String == "search/2026/1")
        #expect(payloads[1]["index_id"] as? Int == 0)
        #expect(payloads[2]["file_contents"] as? String == "<html><body><h2 id=\"b\">B</h2></body></html>")
    }

    @Test("responses are read across chunk boundaries; errors and unreadable answers are told apart")
    func responses() {
        func message(_ json: String) -> String { Data(json.utf8).base64EncodedString() + "," }
        let files = message(
            #"{"message_id":3,"payload":{"type":"GetFiles","files":[{"path":"pagefind.js","content":"aGk="}]}}"#)
        let stream =
            message(#"{"message_id":0,"payload":{"type":"NewIndex","index_id":0}}"#)
            + message(#"{"message_id":1,"payload":{"type":"Error","message":"bad record"}}"#) + "%%%," + files
        var reader = PagefindService.ResponseReader()
        var responses: [PagefindService.ResponseReader.Response] = []
        let bytes = Array(stream.utf8)
        // Seven bytes at a time: every message is cut somewhere.
        for start in stride(from: 0, to: bytes.count, by: 7) {
            responses += reader.read(Data(bytes[start..<min(start + 7, bytes.count)]))
        }
        #expect(responses.map(\.messageID) == [0, 1, nil, 3])
        guard responses.count == 4 else { return }
        if case .error(let text) = responses[1].payload {
            #expect(text == "bad record")
        } else {
            Issue.record("no error")
        }
        if case .error(let text) = responses[2].payload {
            #expect(text == "an unreadable answer")
        } else {
            Issue.record("no error")
        }
        if case .files(let files) = responses[3].payload {
            #expect(files.map(\.path) == ["pagefind.js"])
            #expect(files.map(\.content) == ["aGk="])
        } else {
            Issue.record("no files")
        }
    }

    @Test(
        "bundle paths must stay inside the bundle",
        arguments: [
            ("pagefind.js", true), ("fragment/en_1.pf_fragment", true), ("../state.json", false),
            ("/etc/passwd", false),
            ("a//b", false), (".hidden", false), ("", false), ("a\\b", false),
        ])
    func safePaths(_ path: String, _ isSafe: Bool) {
        #expect(PagefindService.isSafe(path) == isSafe)
    }

    @Test("Pagefind is found by FEEDSITE_PAGEFIND, on PATH, or beside the executable under .build/pagefind")
    func locate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-locate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("bin")
        let installed = folder.appendingPathComponent(".build/pagefind")
        let venv = folder.appendingPathComponent(".build/venv/bin")
        let release = folder.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release")
        for directory in [bin, installed, venv, release] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        func place(_ file: URL) throws {
            try Data("#!/bin/sh\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        for file in [bin.appendingPathComponent("pagefind"), venv.appendingPathComponent("pagefind")] {
            try place(file)
        }
        let executable = release.appendingPathComponent("feedsite")
        let nowhere = folder.appendingPathComponent("nowhere").path
        #expect(
            PagefindService.locate(
                environment: ["PATH": "/nonexistent:\(bin.path)"], executable: nil, currentDirectory: nowhere)?.path
                == bin.appendingPathComponent("pagefind").path)
        // Where an older checkout pip-installed it.
        #expect(
            PagefindService.locate(environment: ["PATH": ""], executable: executable, currentDirectory: nowhere)?.path
                == venv.appendingPathComponent("pagefind").path)
        // Where make installs it now, first.
        try place(installed.appendingPathComponent("pagefind"))
        #expect(
            PagefindService.locate(environment: ["PATH": ""], executable: executable, currentDirectory: nowhere)?.path
                == installed.appendingPathComponent("pagefind").path)
        #expect(
            PagefindService.locate(environment: [:], executable: nil, currentDirectory: folder.path)?.path
                == installed.appendingPathComponent("pagefind").path)
        // An explicit path is the only one tried: a wrong one means no search, not another Pagefind.
        #expect(
            PagefindService.locate(
                environment: ["FEEDSITE_PAGEFIND": nowhere, "PATH": bin.path], executable: executable,
                currentDirectory: folder.path) == nil)
        #expect(PagefindService.locate(environment: [:], executable: nil, currentDirectory: nowhere) == nil)
    }

    @Test("search: false means no search and no warning; a missing Pagefind, one warning and no search")
    func prepare() throws {
        var configuration = try SiteConfiguration.parse(yaml: "search: false\nfeeds: [https://a.example/f]").0
        var (index, warning) = SearchIndex.prepare(&configuration) { URL(fileURLWithPath: "/bin/true") }
        #expect(index == nil && warning == nil)
        configuration = try SiteConfiguration.parse(yaml: "feeds: [https://a.example/f]").0
        #expect(configuration.search)
        (index, warning) = SearchIndex.prepare(&configuration) { nil }
        #expect(index == nil)
        #expect(configuration.search == false)
        #expect(warning?.description.hasPrefix("warning: search: Pagefind is not installed") == true)
    }

    @Test("without search, no page links to it, no form is shown and no script is published")
    func noSearchPage() throws {
        let templates = try SiteTemplates.load(from: Fixtures.repositoryRoot.appendingPathComponent("Templates"))
        let off = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(Self.site())
        #expect(off["search/index.html"] == nil)
        #expect(off["assets/search.js"] == nil)
        let index = String(decoding: off["index.html"] ?? Data(), as: UTF8.self)
        #expect(!index.contains("site-search"))
        #expect(index.contains("form-action 'none'"))
        let on = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0), hasSearch: true).render(
            Self.site())
        let page = String(decoding: on["search/index.html"] ?? Data(), as: UTF8.self)
        #expect(page.contains(#"<script type="module" src="../assets/search.js"></script>"#))
        #expect(page.contains("script-src 'self';"))
        #expect(on["assets/search.js"] != nil)
        // Every other page: the form, and no script at all.
        for (path, data) in on where path.hasSuffix(".html") && path != "search/index.html" {
            let html = String(decoding: data, as: UTF8.self)
            #expect(!html.contains("<script"), "\(path)")
            #expect(html.contains("script-src 'none';"), "\(path): its policy allows scripts it does not have")
        }
        let home = String(decoding: on["index.html"] ?? Data(), as: UTF8.self)
        #expect(home.contains(#"<form class="site-search" action="search/index.html" method="get" role="search">"#))
        #expect(home.contains("form-action 'self'"))
    }

    static let pagefind = PagefindService.locate()

    @Test(
        "a build indexes each shard with Pagefind; unchanged items re-index nothing, a new item only its shard",
        .enabled(if: pagefind != nil, "Pagefind is not installed (make deps)"))
    func build() async throws {
        let items = [
            ("z1", "Zebras at night", "https://zoo.example/zebras", "Mon, 17 Nov 2025 10:00:00 GMT"),
            ("z2", "Okapis by day", "https://zoo.example/okapis", "Tue, 17 Nov 2026 10:00:00 GMT"),
        ]
        let server = try await FixtureServer(routes: [
            "/zoo": .feed(AccountingTests.rss("Zoo", items)),
            "/more": .feed(
                AccountingTests.rss(
                    "Zoo",
                    items + [
                        ("z3", "Giraffes at noon", "https://zoo.example/giraffes", "Wed, 18 Nov 2026 10:00:00 GMT")
                    ]
                )),
        ])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: Zoo\nretries: 0\nfeeds:\n  - url: \(server.url("/zoo"))\n"
        let report = try await build.run(yaml: yaml)
        #expect(report.timings.contains { $0.stage == "search" })
        let files = build.site.files
        #expect(files["search/index.html"] != nil)
        // One bundle per year here (each has one item), newest first in the list.
        #expect(files["pagefind/shards.json"] == #"{"shards":["2026","2025"]}"#)
        for year in ["2025", "2026"] {
            #expect(files["pagefind/\(year)/pagefind.js"] != nil)
            #expect(files["pagefind/\(year)/pagefind-entry.json"]?.contains("\"en\"") == true)
            #expect(files.keys.filter { $0.hasPrefix("pagefind/\(year)/fragment/") }.count == 1)
        }
        #expect(!files.keys.contains { $0.contains("pagefind-ui") })
        let manifestFile = build.work.appendingPathComponent("state/\(SearchIndex.Manifest.fileName)")
        let manifest = try #require(SearchIndex.Manifest.read(manifestFile))
        #expect(Set(manifest.shards.keys) == ["2025", "2026"])
        #expect(manifest.files.keys.allSatisfy { $0.hasPrefix("pagefind/2025/") || $0.hasPrefix("pagefind/2026/") })
        let before = build.inodes()
        // Offline, with a changed title: the pages change, the items searched do not.
        _ = try await build.run(
            yaml: yaml.replacingOccurrences(of: "title: Zoo", with: "title: The Zoo"), offline: true)
        let after = build.inodes()
        #expect(after["index.html"] != before["index.html"])
        for path in manifest.files.keys {
            #expect(after[path] != nil && after[path] == before[path], "\(path) was written again")
        }
        // A new item in 2026: that shard is indexed again, 2025's is carried over as it was.
        _ = try await build.run(yaml: yaml.replacingOccurrences(of: "/zoo", with: "/more"))
        try await server.shutdown()
        let third = build.inodes()
        let updated = try #require(SearchIndex.Manifest.read(manifestFile))
        #expect(updated.shards["2025"]?.digest == manifest.shards["2025"]?.digest)
        #expect(updated.shards["2026"]?.digest != manifest.shards["2026"]?.digest)
        for path in (manifest.shards["2025"]?.files ?? [:]).keys {
            #expect(third[path] != nil && third[path] == before[path], "\(path) was written again")
        }
        #expect(build.site.files.keys.filter { $0.hasPrefix("pagefind/2026/fragment/") }.count == 1)
    }

    @Test(
        "in headless Chromium, search/?q=… lists the items found, with the words highlighted",
        .enabled(
            if: pagefind != nil && ExternalTool.python3 != nil && chromium != nil,
            "needs Pagefind, python3 and chromium"))
    func browser() async throws {
        let feed = Data(
            """
            <rss version="2.0"><channel><title>Zoo</title><link>https://zoo.example/</link>
            <item><title>Zebras at night</title><link>https://zoo.example/zebras</link>
            <pubDate>Mon, 17 Nov 2025 10:00:00 GMT</pubDate><description>Striped and awake.</description></item>
            <item><title>Okapis by day</title><link>https://zoo.example/okapis</link>
            <pubDate>Tue, 17 Nov 2026 10:00:00 GMT</pubDate><description>Shy relatives.</description></item>
            <item><title>Escaped markup</title><link>https://zoo.example/markup</link>
            <pubDate>Wed, 18 Nov 2026 10:00:00 GMT</pubDate>
            <description>&amp;lt;img src=x onerror=alert(1)&amp;gt; is text here</description></item>
            </channel></rss>
            """.utf8)
        let server = try await FixtureServer(routes: ["/zoo": .feed(feed)])
        let build = try TestBuild()
        defer { build.remove() }
        _ = try await build.run(yaml: "title: Zoo\nretries: 0\nfeeds:\n  - url: \(server.url("/zoo"))\n")
        try await server.shutdown()
        // The built site, served over http as a host would.
        var routes: [String: FixtureServer.Route] = [:]
        for (path, text) in build.site.files {
            let data = (try? Data(contentsOf: build.output.appendingPathComponent(path))) ?? Data(text.utf8)
            let type =
                switch (path as NSString).pathExtension {
                case "html": "text/html; charset=utf-8"
                case "js": "text/javascript"
                case "css": "text/css"
                case "json": "application/json"
                default: "application/octet-stream"
                }
            routes["/" + path] = .feed(data, contentType: type)
        }
        let site = try await FixtureServer(routes: routes)
        defer { Task { try? await site.shutdown() } }
        func search(_ words: String) throws -> [String: Any] {
            let url = site.url("/search/index.html").absoluteString + "?q=" + words
            let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/search_proof.py").path
            let result = try ExternalTool.run(
                try #require(ExternalTool.python3), [script, url, "--timeout", "60", "--chromium", Self.chromium ?? ""])
            let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [
                "output": result.output
            ]
        }
        let found = try search("zebras")
        let results = found["results"] as? [[String: String]] ?? []
        #expect(results.map { $0["title"] } == ["Zebras at night"], "\(found)")
        #expect(results.first?["href"]?.hasSuffix("/items/zoo/zebras-at-night/index.html") == true)
        #expect((found["excerpts"] as? [String])?.first?.contains("<mark>Zebras</mark>") == true)
        #expect((found["csp"] as? [Any])?.isEmpty == true, "\(found)")
        // A title that is markup stays text.
        // Markup in an item's text is text in the results too.
        let hostile = try search("onerror")
        let titles = (hostile["results"] as? [[String: String]] ?? []).compactMap { $0["title"] }
        #expect(titles == ["Escaped markup"], "\(hostile)")
        let excerpt = (hostile["excerpts"] as? [String])?.first ?? ""
        #expect(excerpt.contains("&lt;img src=x"), "\(excerpt)")
        #expect(!excerpt.contains("<img"), "\(excerpt)")
        // The zebras are in the 2025 shard, merged into 2026's; the okapis in 2026's, loaded first.
        let shy = try search("shy")
        #expect((shy["results"] as? [[String: String]] ?? []).map { $0["title"] } == ["Okapis by day"], "\(shy)")
        let none = try search("giraffe")
        #expect(none["status"] as? String == "No items found for “giraffe”.", "\(none)")
    }

    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
