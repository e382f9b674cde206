import Foundation
import Testing

@testable import FeedsiteKit

/// The search stage: records from the site model, the Pagefind service protocol, finding
/// Pagefind, and (where Pagefind and Chromium are installed) a whole build searched in a browser.
@Suite("Search", .serialized)
struct SearchIndexTests {
    static func site(language: String = "de-CH", timeZone: String = "Europe/Berlin") -> Site {
        let sanitiser = HTMLSanitiser()
        func item(_ slug: String, title: String, html: String, date: TimeInterval?) -> SiteItem {
            SiteItem(
                slug: slug, feedSlug: "blog", feedName: "The Blog", title: title, link: nil, authors: [],
                date: date.map(Date.init(timeIntervalSince1970:)),
                content: sanitiser.sanitise(html: html, baseURL: nil).html, excerpt: "", categories: [], enclosures: [])
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

    @Test("one record per item: its page, its title and text without markup, one language, meta for the result")
    func records() {
        let records = SearchIndex.records(Self.site())
        #expect(records.map(\.url) == ["items/blog/zebra/index.html", "items/blog/long/index.html"])
        #expect(records[0].content == "Zebras & <tags>\n\nThe striped one & friends.")
        #expect(records.map(\.language) == ["de", "de"])
        #expect(
            records[0].meta == ["title": "Zebras & <tags>", "feed": "The Blog", "date": "Wednesday, 25 November 2026"])
        #expect(records[1].meta["date"] == nil)
        #expect(records[1].content.count == SearchIndex.maxContentCharacters)
    }

    @Test("the digest that decides whether to index again follows what the records are made of")
    func digest() {
        let tool = URL(fileURLWithPath: "/bin/sh")
        let site = Self.site()
        #expect(SearchIndex.digest(site, executable: tool) == SearchIndex.digest(Self.site(), executable: tool))
        var retitled = site
        retitled.items[1].title = "Longer"
        #expect(SearchIndex.digest(retitled, executable: tool) != SearchIndex.digest(site, executable: tool))
        #expect(
            SearchIndex.digest(Self.site(language: "fr"), executable: tool)
                != SearchIndex.digest(site, executable: tool))
        #expect(
            SearchIndex.digest(site, executable: URL(fileURLWithPath: "/bin/ls"))
                != SearchIndex.digest(site, executable: tool))
    }

    @Test("requests: base64 JSON followed by a comma; a new index, the records in order, then the files")
    func requests() throws {
        let messages = PagefindService.requests(SearchIndex.records(Self.site()))
        #expect(messages.count == 4)
        let decoded = try messages.map { message -> [String: Any] in
            #expect(message.last == UInt8(ascii: ","))
            let json = try #require(Data(base64Encoded: message.dropLast()))
            return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        }
        #expect(decoded.map { $0["message_id"] as? Int } == [0, 1, 2, 3])
        let payloads = decoded.map { $0["payload"] as? [String: Any] ?? [:] }
        #expect(payloads.map { $0["type"] as? String } == ["NewIndex", "AddRecord", "AddRecord", "GetFiles"])
        #expect(payloads[1]["url"] as? String == "items/blog/zebra/index.html")
        #expect(payloads[1]["index_id"] as? Int == 0)
        #expect((payloads[1]["meta"] as? [String: String])?["feed"] == "The Blog")
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

    @Test("Pagefind is found by FEEDSITE_PAGEFIND, on PATH, or beside the executable under .build/venv")
    func locate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-locate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("bin")
        let venv = folder.appendingPathComponent(".build/venv/bin")
        let release = folder.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release")
        for directory in [bin, venv, release] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        for file in [bin.appendingPathComponent("pagefind"), venv.appendingPathComponent("pagefind")] {
            try Data("#!/bin/sh\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        let executable = release.appendingPathComponent("feedsite")
        let nowhere = folder.appendingPathComponent("nowhere").path
        #expect(
            PagefindService.locate(
                environment: ["PATH": "/nonexistent:\(bin.path)"], executable: nil, currentDirectory: nowhere)?.path
                == bin.appendingPathComponent("pagefind").path)
        #expect(
            PagefindService.locate(environment: ["PATH": ""], executable: executable, currentDirectory: nowhere)?.path
                == venv.appendingPathComponent("pagefind").path)
        #expect(
            PagefindService.locate(environment: [:], executable: nil, currentDirectory: folder.path)?.path
                == venv.appendingPathComponent("pagefind").path)
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
        }
        let home = String(decoding: on["index.html"] ?? Data(), as: UTF8.self)
        #expect(home.contains(#"<form class="site-search" action="search/index.html" method="get" role="search">"#))
        #expect(home.contains("form-action 'self'"))
    }

    static let pagefind = PagefindService.locate()

    @Test(
        "a build indexes the items with Pagefind; a build with the same items re-indexes nothing",
        .enabled(if: pagefind != nil, "Pagefind is not installed (make deps)"))
    func build() async throws {
        let feed = AccountingTests.rss(
            "Zoo",
            [
                ("z1", "Zebras at night", "https://zoo.example/zebras", "Mon, 16 Nov 2026 10:00:00 GMT"),
                ("z2", "Okapis by day", "https://zoo.example/okapis", "Tue, 17 Nov 2026 10:00:00 GMT"),
            ])
        let server = try await FixtureServer(routes: ["/zoo": .feed(feed)])
        let build = try TestBuild()
        defer { build.remove() }
        let yaml = "title: Zoo\nretries: 0\nfeeds:\n  - url: \(server.url("/zoo"))\n"
        let report = try await build.run(yaml: yaml)
        #expect(report.timings.contains { $0.stage == "search" })
        let files = build.site.files
        #expect(files["search/index.html"] != nil)
        #expect(files["pagefind/pagefind.js"] != nil)
        #expect(files["pagefind/pagefind-entry.json"]?.contains("\"en\"") == true)
        #expect(files.keys.filter { $0.hasPrefix("pagefind/fragment/") }.count == 2)
        let manifest = try #require(
            SearchIndex.Manifest.read(build.work.appendingPathComponent("state/\(SearchIndex.Manifest.fileName)")))
        #expect(manifest.files.keys.allSatisfy { $0.hasPrefix("pagefind/") })
        let before = build.inodes()
        // Offline, with a changed title: the pages change, the items searched do not.
        _ = try await build.run(
            yaml: yaml.replacingOccurrences(of: "title: Zoo", with: "title: The Zoo"), offline: true)
        try await server.shutdown()
        let after = build.inodes()
        #expect(after["index.html"] != before["index.html"])
        for path in manifest.files.keys {
            #expect(after[path] != nil && after[path] == before[path], "\(path) was written again")
        }
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
            <pubDate>Mon, 16 Nov 2026 10:00:00 GMT</pubDate><description>Striped and awake.</description></item>
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
        let none = try search("giraffe")
        #expect(none["status"] as? String == "No items found for “giraffe”.", "\(none)")
    }

    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
