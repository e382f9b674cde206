import Foundation
import Synchronization
import Testing

@testable import FeedsiteServe

@Suite("feedsite serve: the preview server over real HTTP")
struct PreviewServerTests {
    @Test("pages, folders, MIME types, redirects, 404, and the no-cache header")
    func serving() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try await withPreviewServer(fixture.server()) { url in
            #expect(url.absoluteString.hasPrefix("http://127.0.0.1:"))
            #expect(url.port != 0)

            let index = try await TestClient.get(url)
            #expect(index.status == 200)
            #expect(index.headers["content-type"] == "text/html; charset=utf-8")
            #expect(index.headers["cache-control"] == "no-cache")
            #expect(index.body.contains("First post"))
            // Injected before </body>, once.
            #expect(index.body.contains("<script src=\"/_feedsite/reload.js\"></script>\n</body>"))
            #expect(index.body.components(separatedBy: "/_feedsite/reload.js").count == 2)

            let folder = try await TestClient.get(url.appendingPathComponent("feeds/alpha/"))
            #expect(folder.status == 200)
            #expect(folder.body.contains("Alpha"))

            let redirect = try await TestClient.get(url.appendingPathComponent("feeds/alpha"))
            #expect(redirect.status == 301)
            #expect(redirect.headers["location"] == "/feeds/alpha/")

            let css = try await TestClient.get(url.appendingPathComponent("assets/style.css"))
            #expect(css.status == 200)
            #expect(css.headers["content-type"] == "text/css; charset=utf-8")
            #expect(!css.body.contains("reload.js"))

            let atom = try await TestClient.get(url.appendingPathComponent("atom.xml"))
            #expect(atom.headers["content-type"] == "application/xml; charset=utf-8")
            #expect(!atom.body.contains("reload.js"))
            let json = try await TestClient.get(url.appendingPathComponent("feed.json"))
            #expect(json.headers["content-type"] == "application/json; charset=utf-8")
            let robots = try await TestClient.get(url.appendingPathComponent("robots.txt"))
            #expect(robots.headers["content-type"] == "text/plain; charset=utf-8")

            let missing = try await TestClient.get(url.appendingPathComponent("no/such/page.html"))
            #expect(missing.status == 404)
            #expect(missing.headers["content-type"] == "text/html; charset=utf-8")
            #expect(missing.body.contains("Not found"))

            let escape = try await TestClient.get(URL(string: "\(url.absoluteString)..%2f..%2fetc/passwd")!)
            #expect(escape.status == 404)

            let script = try await TestClient.get(url.appendingPathComponent("_feedsite/reload.js"))
            #expect(script.status == 200)
            #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(script.body.contains("new EventSource(\"/_feedsite/events\")"))

            let head = try await TestClient.get(url, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)

            let post = try await TestClient.get(url, method: "POST")
            #expect(post.status == 405)
        }
        // The files on disk never contain the live-reload script.
        let onDisk = try String(contentsOf: fixture.site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(onDisk.contains("First post"))
        #expect(!onDisk.contains("_feedsite"))
        #expect(fixture.buildCount == 1)
    }

    @Test("a template edit sends a reload event and the new content; a broken one shows the error and keeps the site")
    func liveReload() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try await withPreviewServer(fixture.server()) { url in
            var events = TestClient.events(url).makeAsyncIterator()
            let hello = try await waitFor("event: hello", in: &events)
            #expect(hello.contains("data: 1"))  // one build so far

            try fixture.edit("layout.mustache") {
                $0.replacingOccurrences(
                    of: "<footer class=\"site-footer\">", with: "<footer class=\"site-footer\">EDITED-LIVE")
            }
            let reload = try await waitFor("event: reload", in: &events)
            #expect(reload.contains("data: 2"))
            let page = try await TestClient.get(url)
            #expect(page.body.contains("EDITED-LIVE"))
            let ok = try await TestClient.get(url.appendingPathComponent("_feedsite/status"))
            #expect(ok.body == #"{"generation":2,"isBuilding":false}"#)

            try fixture.edit("index.mustache") { $0 + "{{#unclosed}}\n" }
            _ = try await waitFor("event: failed", in: &events)
            let status = try await TestClient.get(url.appendingPathComponent("_feedsite/status"))
            #expect(status.headers["content-type"] == "application/json; charset=utf-8")
            #expect(status.body.contains("index.mustache"))
            #expect(status.body.contains("error"))
            // The last good site is still served.
            let still = try await TestClient.get(url)
            #expect(still.status == 200)
            #expect(still.body.contains("EDITED-LIVE"))

            try fixture.edit("index.mustache") { $0.replacingOccurrences(of: "{{#unclosed}}\n", with: "") }
            _ = try await waitFor("event: reload", in: &events)
            let fixed = try await TestClient.get(url.appendingPathComponent("_feedsite/status"))
            #expect(fixed.body == #"{"generation":3,"isBuilding":false}"#)
        }
    }

    @Test("with no site yet, a failed first build is shown in the browser, not a dead link; the fix brings the site up")
    func noSiteYet() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.edit("index.mustache") { $0 + "{{#unclosed}}<b>\n" }
        let lines = LogLines()
        let server = PreviewServer(
            options: .init(
                port: 0, siteDirectory: fixture.site, configFile: fixture.config,
                watchedPaths: [fixture.templates, fixture.config], pollInterval: .milliseconds(100)),
            log: { lines.append($0) },
            rebuild: { _ in try await fixture.rebuild() })
        try await withPreviewServer(server) { url in
            var events = TestClient.events(url).makeAsyncIterator()
            _ = try await waitFor("event: hello", in: &events)
            let page = try await TestClient.get(url)
            #expect(page.status == 404)
            #expect(page.body.contains("<h1>No site yet: the build failed</h1>"))
            #expect(page.body.contains("index.mustache"), "\(page.body)")
            #expect(page.body.contains("data-feedsite-no-site"))
            #expect(!page.body.contains("Go to the front page"))
            #expect(page.body.contains(#"<script src="/_feedsite/reload.js"></script>"#))
            #expect(
                lines.all.contains(
                    "there is no site to preview yet (the browser shows this error); fix the problem and save again"))

            try fixture.edit("index.mustache") { $0.replacingOccurrences(of: "{{#unclosed}}<b>\n", with: "") }
            _ = try await waitFor("event: reload", in: &events)
            // Named from the project folder: `index.html` alone read like the site's front page.
            #expect(lines.all.contains("Templates/index.mustache changed; rebuilding…"), "\(lines.all)")
            let fixed = try await TestClient.get(url)
            #expect(fixed.status == 200)
            let missing = try await TestClient.get(url.appendingPathComponent("no-such-page"))
            #expect(missing.status == 404)
            #expect(missing.body.contains("Go to the front page"))
        }
        // The page's error text is escaped: a message with markup stays text.
        let escaped = SiteResponder.notFoundPage(
            hasSite: false, status: .init(generation: 0, isBuilding: false, error: "<img src=x onerror=alert(1)>"),
            siteDirectory: "/tmp/<Site>")
        #expect(escaped.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(escaped.contains("/tmp/&lt;Site&gt;"))
        #expect(!escaped.contains("<img"))
    }

    @Test("an edit to feeds.yml is a configuration rebuild; --no-build serves what is there")
    func configurationEdit() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        _ = try await fixture.rebuild()
        let reasons = ReasonLog()
        let server = PreviewServer(
            options: .init(
                port: 0, siteDirectory: fixture.site, configFile: fixture.config,
                watchedPaths: [fixture.templates, fixture.config], buildsFirst: false, pollInterval: .milliseconds(100)),
            log: { _ in },
            rebuild: { reason in
                reasons.append(reason)
                return try await fixture.rebuild()
            })
        try await withPreviewServer(server) { url in
            var events = TestClient.events(url).makeAsyncIterator()
            let hello = try await waitFor("event: hello", in: &events)
            #expect(hello.contains("data: 0"))
            #expect(reasons.all.isEmpty)
            try Data("title: Changed\nfeeds:\n  - https://example.invalid/other\n".utf8).write(to: fixture.config)
            _ = try await waitFor("event: reload", in: &events)
            try fixture.edit("assets/style.css") { $0 + "\n/* edited */\n" }
            _ = try await waitFor("event: reload", in: &events)
            #expect(reasons.all == [.configuration, .templates])
            let css = try await TestClient.get(url.appendingPathComponent("assets/style.css"))
            #expect(css.body.contains("/* edited */"))
        }
    }

    @Test("a port in use is a clear error naming --port")
    func portInUse() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try await withPreviewServer(fixture.server(buildsFirst: false)) { url in
            let port = try #require(url.port)
            do {
                try await fixture.server(port: port, buildsFirst: false).run(handlesSignals: false) { _ in }
                Issue.record("expected the second server to fail")
            } catch let error as PreviewServerError {
                #expect(error == .portInUse(host: "127.0.0.1", port: port))
                #expect(
                    error.description
                        == "error: port \(port) is already in use; pick another with --port \(port + 1) (or --port 0 for any free one)"
                )
            }
        }
    }

    /// NIO's texts name its own functions (`bind(descriptor:ptr:bytes:): … (errno: 99)`,
    /// `SocketAddressError.UnknownHost: …`): the address problems are said in words.
    @Test("an address that cannot be listened on is a clear error naming --host")
    func cannotListen() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        for (host, reason) in [
            ("999.1.1.1", "'999.1.1.1' is not an address or a known host name"),
            ("feedsite-test.invalid", "'feedsite-test.invalid' is not an address or a known host name"),
            // TEST-NET-1 (RFC 5737): no machine has it.
            ("192.0.2.1", "this machine has no such address"),
        ] {
            do {
                try await fixture.server(host: host, port: 18_473, buildsFirst: false).run(handlesSignals: false) { _ in
                }
                Issue.record("expected \(host) to fail")
            } catch let error as PreviewServerError {
                #expect(error == .cannotListen(host: host, port: 18_473, reason: reason))
                #expect(
                    error.description
                        == "error: cannot listen on \(host):18473: \(reason); pick another address with --host or --port"
                )
            }
        }
    }

    @Test("the script is injected before the last </body>, or appended when there is none")
    func injection() {
        let html = Data("<html><body><p>x</p></BODY></html>".utf8)
        #expect(
            String(decoding: LiveReload.inject(into: html), as: UTF8.self)
                == "<html><body><p>x</p><script src=\"/_feedsite/reload.js\"></script>\n</BODY></html>")
        #expect(
            String(decoding: LiveReload.inject(into: Data("<p>fragment".utf8)), as: UTF8.self)
                == "<p>fragment\n<script src=\"/_feedsite/reload.js\"></script>\n")
        // A published page allows no script; served, it allows the site's own (the reload script).
        let page = Data(
            #"<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; style-src 'self'"></head><body></body></html>"#
                .utf8)
        let served = String(decoding: LiveReload.inject(into: page), as: UTF8.self)
        #expect(served.contains("default-src 'self'; script-src 'self'; style-src 'self'"), "\(served)")
        #expect(!served.contains("'none'"))
    }

    /// Found in session 24: a page up to 8 MB got the script in a copy held in memory while the
    /// client read it (30 clients that stopped reading a 6 MB page held 218 MB); a larger page
    /// got no script at all. Pages are now streamed from disk with the script added on the way.
    @Test("a page of any size is streamed with the script where inject puts it; HEAD gives the same length")
    func streamedInjection() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let policy =
            #"<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'">"#
        let paragraphs = String(repeating: "<p>Words, words, words: some text for a long page.</p>\n", count: 20_000)
        let pages: [(String, String)] = [
            ("small.html", "<!DOCTYPE html><html><head>\(policy)</head><body><p>x</p></BODY></html>\n"),
            ("large.html", "<!DOCTYPE html><html><head>\(policy)</head><body>\(paragraphs)</body></html>\n"),
            (
                "huge.html",
                "<!DOCTYPE html><html><head>\(policy)</head><body>" + String(repeating: paragraphs, count: 9)
                    + "</body></html>"
            ),
            ("unclosed.html", "<!DOCTYPE html><html><head>\(policy)</head><body>\(paragraphs)"),
        ]
        try await withPreviewServer(fixture.server()) { url in
            for (name, text) in pages {
                try Data(text.utf8).write(to: fixture.site.appendingPathComponent(name))
            }
            for (name, text) in pages {
                let expected = String(decoding: LiveReload.inject(into: Data(text.utf8)), as: UTF8.self)
                let page = try await TestClient.get(url.appendingPathComponent(name))
                #expect(page.status == 200)
                #expect(
                    page.body == expected, "\(name): \(page.body.utf8.count) bytes, expected \(expected.utf8.count)")
                #expect(page.body.contains(LiveReload.scriptTag) && page.body.contains("script-src 'self'"), "\(name)")
                #expect(page.headers["content-length"] == "\(expected.utf8.count)", "\(name)")
                let head = try await TestClient.get(url.appendingPathComponent(name), method: "HEAD")
                #expect(head.headers["content-length"] == "\(expected.utf8.count)", "\(name)")
            }
        }
        // The policy opened piece by piece, wherever the pieces are cut.
        let bytes = Array(pages[0].1.utf8)
        let injection = LiveReload.Injection(head: bytes, tail: bytes, size: bytes.count)
        let whole = Array(LiveReload.inject(into: Data(bytes)))
        for cut in 1..<bytes.count where cut < injection.offset {
            var first = Array(bytes[..<cut])
            var second = Array(bytes[cut..<injection.offset])
            injection.allowScripts(in: &first, at: 0)
            injection.allowScripts(in: &second, at: cut)
            #expect(first + second + injection.tag + bytes[injection.offset...] == whole, "cut at \(cut)")
        }
    }

    @Test("request paths cannot leave the site folder")
    func paths() {
        #expect(SiteResponder.sitePath("/feeds/a%20b/") == "feeds/a b")
        #expect(SiteResponder.sitePath("/") == "")
        #expect(SiteResponder.sitePath("/../etc/passwd") == nil)
        #expect(SiteResponder.sitePath("/a/%2e%2e/b") == nil)
        #expect(SiteResponder.sitePath("/a%00b") == nil)
        // In bytes: U+0600 joins the `/` after it into one Character, and `.` + U+0301 is one too.
        #expect(SiteResponder.sitePath("/x%D8%80/%2E%2E/robots.txt") == nil)
        #expect(SiteResponder.sitePath("/x%D8%80/a") == "x\u{600}/a")
        #expect(SiteResponder.sitePath("/.%CC%81git/config") == nil)
        #expect(SiteResponder.sitePath("/a%5C%CC%81b") == nil)
        #expect(SiteResponder.sitePath("/.well-known/security.txt") == ".well-known/security.txt")
        #expect(ContentType.forFile(named: "x.WOFF2") == "font/woff2")
        #expect(ContentType.forFile(named: "favicon.ico") == "image/x-icon")
        #expect(ContentType.forFile(named: "README") == "application/octet-stream")
    }
}

/// Records rebuild reasons from the server's task.
final class ReasonLog: Sendable {
    private let reasons = Mutex<[PreviewServer.RebuildReason]>([])
    func append(_ reason: PreviewServer.RebuildReason) { reasons.withLock { $0.append(reason) } }
    var all: [PreviewServer.RebuildReason] { reasons.withLock { $0 } }
}

/// Lines a server logged, in order.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
