import Foundation
import Testing

@testable import FeedsiteKit

/// The whole `build` against a real HTTP server on 127.0.0.1: real captures plus broken feeds.
@Suite("End to end", .serialized)
struct EndToEndTests {
    /// Real captures and the number of items each holds (counted in the files with grep).
    static let fixtures: [(file: String, items: Int)] = [
        ("wordpress-rss2-content-encoded.xml", 10),
        ("medium-rss2.xml", 10),
        ("substack-rss2.xml", 1),
        ("ghost-rss2.xml", 1),
        ("hugo-rss2.xml", 15),
        ("podcast-itunes-squarespace-atp.xml", 100),
        ("jekyll-atom.xml", 10),
        ("github-releases-atom.xml", 4),
        ("youtube-atom.xml", 14),
        ("reddit-atom-xhtml.xml", 24),
        ("blogger-atom.xml", 25),
        ("atom-relative-links-tpm.xml", 20),
    ]
    static let brokenRoutes = ["/missing", "/server-error", "/malformed", "/slow"]

    /// Builds a site from every fixture plus four broken feeds into a fresh temporary folder.
    static func buildFixtureSite() async throws -> (BuildReport, SiteInspector, URL) {
        var routes: [String: FixtureServer.Route] = [:]
        for fixture in fixtures {
            routes["/feeds/\(fixture.file)"] = .feed(try Fixtures.data("real-feeds/\(fixture.file)"))
        }
        routes["/server-error"] = .status(.internalServerError, body: "boom")
        // Cut off inside its first tag: nothing to recover (a mismatched end tag is read past now).
        routes["/malformed"] = .feed(Data("<rss version=\"2.0\"".utf8))
        routes["/slow"] = FixtureServer.Route(
            body: try Fixtures.data("real-feeds/substack-rss2.xml"), delay: .seconds(300))
        let server = try await FixtureServer(routes: routes)

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var yaml = "title: Fixture Planet\nbase_url: https://planet.example/\nretries: 0\nfeeds:\n"
        for fixture in fixtures { yaml += "  - url: \(server.url("/feeds/\(fixture.file)"))\n" }
        for (index, path) in brokenRoutes.enumerated() {
            yaml += "  - url: \(server.url(path))\n    name: Broken \(index + 1)\n"
        }
        let config = work.appendingPathComponent("feeds.yml")
        try Data(yaml.utf8).write(to: config)
        let output = work.appendingPathComponent("Site")

        let generator = SiteGenerator(
            options: .init(
                configFile: config, outputDirectory: output,
                templatesDirectory: Fixtures.repositoryRoot.appendingPathComponent("Templates"),
                stateDirectory: work.appendingPathComponent("state"),
                // Long enough for every good feed on a loaded machine (10 s lost some with CI
                // running alongside), far below the slow feed's delay.
                concurrency: 4, timeoutSeconds: 30, now: Date(timeIntervalSince1970: 1_795_000_000)
            ).withoutAvatars())
        let report: BuildReport
        do {
            report = try await generator.build()
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
        return (report, SiteInspector(root: output), work)
    }

    @Test("the site is complete: every item has a page reachable from the index")
    func complete() async throws {
        let (report, site, work) = try await Self.buildFixtureSite()
        defer { try? FileManager.default.removeItem(at: work) }

        let expectedItems = Self.fixtures.map(\.items).reduce(0, +)
        #expect(report.itemCount == expectedItems)
        #expect(site.itemPages.count == expectedItems)
        // Every configured feed has a page, the broken ones too (saying they have no items yet).
        #expect(
            site.pages.filter { $0.hasPrefix("feeds/") && !$0.contains("/page/") }.count
                == Self.fixtures.count + Self.brokenRoutes.count)
        #expect(site.files["assets/style.css"] != nil)

        let reachable = site.reachablePages()
        // 404.html is linked from nowhere: hosts serve it for missing URLs.
        let unreachable = Set(site.pages).subtracting(reachable).subtracting(["404.html"])
        #expect(unreachable.isEmpty, "not reachable from index.html: \(unreachable.sorted().prefix(5))")
        #expect(site.brokenRelativeLinks().isEmpty, "\(site.brokenRelativeLinks().prefix(5))")
        #expect(report.summary.contains("from 12 of 16 feeds"))
        #expect(site.files["status/index.html"] != nil && site.files["status/status.json"] != nil)
    }

    @Test("warnings name exactly the broken feeds, with their feeds.yml line")
    func warnings() async throws {
        let (report, _, work) = try await Self.buildFixtureSite()
        defer { try? FileManager.default.removeItem(at: work) }

        let failures = report.diagnostics.filter { $0.message.hasPrefix("feed 'Broken") }
        #expect(failures.count == 4)
        #expect(
            report.records.filter { $0.failure != nil }.map { $0.source.name ?? "" } == [
                "Broken 1", "Broken 2", "Broken 3", "Broken 4",
            ])
        let byName = Dictionary(uniqueKeysWithValues: report.records.map { ($0.source.name ?? $0.source.url.path, $0) })
        #expect(byName["Broken 1"]?.failure == .fetch(.http(status: 404, reason: "Not Found")))
        #expect(byName["Broken 2"]?.failure == .fetch(.http(status: 500, reason: "Internal Server Error")))
        #expect(byName["Broken 1"]?.failure?.description == "HTTP 404 Not Found")
        guard case .parse(let malformed)? = byName["Broken 3"]?.failure else {
            Issue.record("Broken 3: \(String(describing: byName["Broken 3"]?.failure))")
            return
        }
        #expect(malformed.line != nil)
        guard case .fetch(.timedOut)? = byName["Broken 4"]?.failure else {
            Issue.record("Broken 4: \(String(describing: byName["Broken 4"]?.failure))")
            return
        }
        // Lines point into feeds.yml: the first broken entry follows the 12 fixtures (4 header lines).
        #expect(failures.first?.line == 17)
        #expect(
            failures.first?.description.hasPrefix("feeds.yml:17: warning: feed 'Broken 1' (http://127.0.0.1:") == true)
        #expect(report.records.filter { $0.failure == nil }.count == 12)
    }

    @Test("no page carries script, event handlers or javascript: URLs; content URLs are absolute")
    func clean() async throws {
        let (_, site, work) = try await Self.buildFixtureSite()
        defer { try? FileManager.default.removeItem(at: work) }

        let handler = try Regex(#"<[^>]*\son[a-z]+\s*="#).ignoresCase()
        for page in site.pages {
            var html = site.files[page] ?? ""
            // The search page's one script is the site's own file (search builds need Pagefind).
            if page == "search/index.html" {
                let script = #"<script type="module" src="../assets/search.js"></script>"#
                #expect(html.components(separatedBy: "<script").count == 2 && html.contains(script))
                html = html.replacingOccurrences(of: script, with: "")
            }
            let lower = html.lowercased()
            #expect(!lower.contains("<script"), "\(page) has <script")
            #expect(!lower.contains("javascript:"), "\(page) has javascript:")
            #expect(html.firstMatch(of: handler) == nil, "\(page) has an event handler")
            #expect(!lower.contains("<iframe") && !lower.contains("<style") && !lower.contains("<object"), "\(page)")
        }
        // Root-relative and path-relative URLs in item content were resolved against the feed.
        for page in site.itemPages {
            // `<div class="content">` or `<div class="content" lang="…">`.
            let html = site.files[page] ?? ""
            guard let open = html.range(of: "<div class=\"content\""),
                let start = html[open.upperBound...].firstIndex(of: ">")
            else {
                Issue.record("\(page) has no content element")
                continue
            }
            let content = String(html[html.index(after: start)...])
            for link in SiteInspector.links(in: content.components(separatedBy: "</div>\n").first ?? "") {
                #expect(
                    link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("mailto:"),
                    "\(page): \(link)")
            }
        }
        // A Talking Points Memo entry's root-relative link now points at its site.
        let tpm = site.pages.filter { $0.hasPrefix("items/") }.compactMap { site.files[$0] }
            .filter { $0.contains("Talking Points Memo") || $0.contains("talkingpointsmemo") }
        #expect(!tpm.isEmpty)
    }

    @Test("the same input builds byte-identical sites")
    func deterministic() async throws {
        let (_, first, workA) = try await Self.buildFixtureSite()
        defer { try? FileManager.default.removeItem(at: workA) }
        let (_, second, workB) = try await Self.buildFixtureSite()
        defer { try? FileManager.default.removeItem(at: workB) }
        // Feed URLs contain the server's random port; compare with it masked.
        func masked(_ site: SiteInspector) -> [String: String] {
            let port = try? Regex(#"127\.0\.0\.1:\d+"#)
            return site.files.mapValues { text in port.map { text.replacing($0, with: "127.0.0.1:PORT") } ?? text }
        }
        #expect(Set(first.files.keys) == Set(second.files.keys))
        #expect(masked(first) == masked(second))
    }
}
