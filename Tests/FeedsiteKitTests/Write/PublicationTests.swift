import Foundation
import Testing

@testable import FeedsiteKit

/// The output folder and `static/`, checked before anything is fetched, through whole builds.
@Suite("Publication: output folder and static/", .serialized)
struct PublicationTests {
    static let templates = Fixtures.repositoryRoot.appendingPathComponent("Templates")

    /// A project folder with `feeds.yml` listing one feed on `server`.
    struct Project {
        let work: URL
        let server: FixtureServer

        /// `etag`: the feed answers conditional requests (304), so a build after the first changes nothing.
        init(extra: String = "", etag: String? = nil) async throws {
            var route = FixtureServer.Route.feed(try Fixtures.data("real-feeds/jekyll-atom.xml"))
            route.etag = etag
            server = try await FixtureServer(routes: ["/feed.xml": route])
            work = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-pub-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try writeConfig(extra: extra)
        }

        func writeConfig(extra: String) throws {
            let yaml = "title: Test\nretries: 0\n\(extra)feeds:\n  - url: \(server.url("/feed.xml"))\n"
            try Data(yaml.utf8).write(to: work.appendingPathComponent("feeds.yml"))
        }

        func write(_ bytes: Data, _ path: String) throws {
            let url = work.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }

        func build(
            output: String = "Site", templates: URL = PublicationTests.templates, state: String = ".feedsite"
        ) async throws -> BuildReport {
            let generator = SiteGenerator(
                options: .init(
                    configFile: work.appendingPathComponent("feeds.yml"),
                    outputDirectory: work.appendingPathComponent(output), templatesDirectory: templates,
                    stateDirectory: work.appendingPathComponent(state), concurrency: 2, timeoutSeconds: 60,
                    now: Date(timeIntervalSince1970: 1_795_000_000)
                ).withoutAvatars())
            return try await generator.build()
        }

        func data(_ path: String) -> Data? {
            FileManager.default.contents(atPath: work.appendingPathComponent(path).path)
        }

        func finish() async throws {
            try await server.shutdown()
            try? FileManager.default.removeItem(at: work)
        }
    }

    @Test("static/ is copied to the site root byte for byte, dotfiles and all; an edit is published on the next build")
    func staticPublished() async throws {
        let project = try await Project()
        let binary = Data((0...255).map { UInt8($0) } + [0xFF, 0x00, 0x0A])
        let files: [String: Data] = [
            "static/CNAME": Data("planet.example.org\n".utf8), "static/.nojekyll": Data(),
            "static/_headers": Data("/*\n  X-Frame-Options: DENY\n".utf8),
            "static/_redirects": Data("/old /new 301\n".utf8),
            "static/.well-known/security.txt": Data("Contact: mailto:a@example.org\n".utf8),
            "static/assets/logo.bin": binary, "static/about/index.html": Data("<p>about</p>".utf8),
        ]
        for (path, bytes) in files { try project.write(bytes, path) }
        // A link to a file inside static/ is published as a copy of that file.
        try FileManager.default.createSymbolicLink(
            atPath: project.work.appendingPathComponent("static/favicon.bin").path,
            withDestinationPath: "assets/logo.bin")
        _ = try await project.build()
        for (path, bytes) in files {
            #expect(project.data("Site/" + path.dropFirst("static/".count)) == bytes, "\(path)")
            #expect(project.data(path) == bytes, "\(path) changed")
        }
        let favicon = project.work.appendingPathComponent("Site/favicon.bin").path
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: favicon)) == nil)
        #expect(project.data("Site/favicon.bin") == binary)
        // The generated pages are all there too.
        #expect(project.data("Site/index.html") != nil && project.data("Site/assets/style.css") != nil)
        // Only the file changes: the build is not skipped, the new bytes are published.
        try project.write(Data("www.planet.example.org\n".utf8), "static/CNAME")
        _ = try await project.build()
        #expect(project.data("Site/CNAME") == Data("www.planet.example.org\n".utf8))
        // A file removed from static/ goes from the site.
        try FileManager.default.removeItem(at: project.work.appendingPathComponent("static/_redirects"))
        _ = try await project.build()
        #expect(project.data("Site/_redirects") == nil)
        #expect(project.data("Site/_headers") != nil)
        try await project.finish()
    }

    @Test("static_dir moves the folder (relative to feeds.yml)")
    func staticDirKey() async throws {
        let project = try await Project(extra: "static_dir: public\n")
        try project.write(Data("x".utf8), "public/CNAME")
        try project.write(Data("not published".utf8), "static/CNAME")
        _ = try await project.build()
        #expect(project.data("Site/CNAME") == Data("x".utf8))
        try await project.finish()
    }

    @Test("a static_dir that does not exist is a configuration error (its files would vanish from the site)")
    func staticDirMissing() async throws {
        let project = try await Project(extra: "static_dir: nothere\n")
        let error = await #expect(throws: ConfigurationError.self) { try await project.build() }
        let text = error?.description ?? ""
        #expect(text.contains("feeds.yml: error: 'static_dir: nothere' names a folder that does not exist"), "\(text)")
        #expect(text.contains("/nothere); create it, or remove 'static_dir'"), "\(text)")
        #expect(project.server.requests.isEmpty)
        try await project.finish()
    }

    @Test("a static file with a generated page's name is a configuration error naming both; nothing is fetched")
    func staticCollisions() async throws {
        let project = try await Project()
        for path in [
            "static/index.html", "static/items/x.html", "static/assets/style.css", "static/404.html",
            // Folders this build does not make (no tags, no category pages, no Pagefind) are feedsite's too.
            "static/tags/index.html", "static/pagefind/shards.json",
        ] {
            try project.write(Data("mine".utf8), path)
        }
        try project.write(Data("fine".utf8), "static/assets/logo.png")
        let error = await #expect(throws: ConfigurationError.self) { try await project.build() }
        let text = error?.description ?? ""
        #expect(text.contains("static/index.html: error: has the same path as index.html in the site"), "\(text)")
        #expect(text.contains("static/items: error: has the same path as the folder items/ feedsite generates"))
        #expect(text.contains("static/assets/style.css: error: has the same path as assets/style.css"))
        #expect(text.contains("static/404.html: error: has the same path as 404.html"))
        #expect(text.contains("static/tags: error: has the same path as the folder tags/ feedsite generates"))
        #expect(text.contains("static/pagefind: error: has the same path as the folder pagefind/ feedsite generates"))
        #expect(!text.contains("logo.png"))
        #expect(project.server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: project.work.appendingPathComponent("Site").path))
        try await project.finish()
    }

    @Test("links out of static/ are refused, never followed")
    func staticLinksOut() async throws {
        let project = try await Project()
        try project.write(Data("secret".utf8), "private.txt")
        try FileManager.default.createDirectory(
            at: project.work.appendingPathComponent("static"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: project.work.appendingPathComponent("static/leak.txt").path, withDestinationPath: "../private.txt")
        try FileManager.default.createSymbolicLink(
            atPath: project.work.appendingPathComponent("static/etc").path, withDestinationPath: "/etc")
        let error = await #expect(throws: ConfigurationError.self) { try await project.build() }
        #expect(error?.diagnostics.count == 2)
        #expect(error?.description.contains("static/leak.txt: error: is a symbolic link") == true)
        #expect(project.server.requests.isEmpty)
        try await project.finish()
    }

    @Test("a static folder holding feeds.yml (static_dir: .) is refused: it would publish the configuration")
    func staticHoldsProject() async throws {
        let project = try await Project(extra: "static_dir: .\n")
        let error = await #expect(throws: ConfigurationError.self) { try await project.build() }
        #expect(error?.description.contains(".: error: holds the configuration file feeds.yml") == true)
        #expect(project.server.requests.isEmpty)
        try await project.finish()
    }

    @Test(
        "the project's own folders are refused as output before anything is fetched",
        arguments: [
            (".", "holds the configuration file feeds.yml"), ("feeds.yml", "is the configuration file feeds.yml"),
            ("Templates", "is the templates folder Templates/"), (".feedsite", "is the state folder .feedsite/"),
            ("Templates/site", "is inside the templates folder Templates/"),
            ("static", "is the static folder static/"), ("..", "holds the configuration file feeds.yml"),
        ])
    func projectFoldersRefused(output: String, message: String) async throws {
        let project = try await Project()
        let templates = project.work.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: Self.templates, to: templates)
        try project.write(Data("{}".utf8), ".feedsite/keep.json")
        let before = try FileManager.default.subpathsOfDirectory(atPath: project.work.path).sorted()
        let config = project.data("feeds.yml")
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await project.build(output: output, templates: templates)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("pass another --output") == true)
        #expect(project.server.requests.isEmpty)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: project.work.path).sorted() == before)
        #expect(project.data("feeds.yml") == config)
        try await project.finish()
    }

    @Test("a file put by hand into the site is kept and named in a warning")
    func handPlacedWarning() async throws {
        let project = try await Project()
        _ = try await project.build()
        try project.write(Data("planet.example.org".utf8), "Site/CNAME")
        let report = try await project.build()
        #expect(
            report.diagnostics.contains {
                $0.severity == .warning && $0.message.contains("Site/CNAME was not written by feedsite")
            })
        #expect(project.data("Site/CNAME") == Data("planet.example.org".utf8))
        try await project.finish()
    }

    @Test("404.html: the normal layout, links from the host's root (base_url's path), so any depth works")
    func notFoundPage() async throws {
        let project = try await Project()
        _ = try await project.build()
        let page = String(decoding: project.data("Site/404.html") ?? Data(), as: UTF8.self)
        #expect(page.contains("<h1>Page not found</h1>"))
        #expect(page.contains("<link rel=\"stylesheet\" href=\"/assets/style.css\">"))
        #expect(page.contains("<a href=\"/index.html\">"))
        #expect(page.contains("<title>Page not found · Test</title>"))
        #expect(!page.contains("href=\"assets/") && !page.contains("href=\"../"))
        try project.writeConfig(extra: "base_url: https://example.org/planet\n")
        _ = try await project.build()
        let under = String(decoding: project.data("Site/404.html") ?? Data(), as: UTF8.self)
        #expect(under.contains("<link rel=\"stylesheet\" href=\"/planet/assets/style.css\">"))
        #expect(under.contains("<a href=\"/planet/archive/index.html\">"))
        try await project.finish()
    }

    @Test("every path a rendered site has is one a static file may not take (the reserved list cannot drift)")
    func reservedCoversRenderedSite() throws {
        let templates = try SiteTemplates.load(from: Self.templates)
        let files = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0))
            .render(PageRendererTests.sampleSite())
        #expect(files["404.html"] != nil && files["atom.xml"] != nil)
        let reserved = StaticFiles.Reserved.site(
            assets: templates.assets.keys, hasNotFoundPage: templates.hasNotFoundPage)
        for path in files.keys.sorted() + ["status/state.json", ".feedsite-site"] {
            #expect(reserved.collision(path) != nil, "\(path) is generated but not reserved")
        }
        for path in ["CNAME", ".nojekyll", "_headers", "assets/logo.png", ".well-known/security.txt", "about/x.html"] {
            #expect(reserved.collision(path) == nil, "\(path)")
        }
    }

    @Test("PageRenderer.hostRoot: the path of base_url, always between slashes")
    func hostRoot() {
        #expect(PageRenderer.hostRoot(nil) == "/")
        #expect(PageRenderer.hostRoot(URL(string: "https://example.org")) == "/")
        #expect(PageRenderer.hostRoot(URL(string: "https://example.org/")) == "/")
        #expect(PageRenderer.hostRoot(URL(string: "https://example.org/a/b")) == "/a/b/")
        #expect(PageRenderer.hostRoot(URL(string: "https://example.org/a%20b/")) == "/a%20b/")
    }

    @Test(
        "through a symlinked output, a real folder replaced behind the link forces a full build instead of a skipped one"
    )
    func symlinkedOutputReplaced() async throws {
        let project = try await Project(etag: "\"v1\"")
        let www = project.work.appendingPathComponent("www")
        let real = www.appendingPathComponent("planet")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: project.work.appendingPathComponent("Site").path, withDestinationPath: real.path)
        func isSkipped(_ report: BuildReport) -> Bool { report.timings.contains { $0.stage.contains("skipped") } }
        // First build; the second gets a 304 (the status page changes); the third changes nothing.
        #expect(try await !isSkipped(project.build()))
        #expect(try await !isSkipped(project.build()))
        #expect(try await isSkipped(project.build()))
        let page = real.appendingPathComponent("index.html")
        let published = try Data(contentsOf: page)
        // The real folder is replaced (restored from an old copy, say) while the link stays as it is.
        let copy = www.appendingPathComponent("restored")
        try FileManager.default.copyItem(at: real, to: copy)
        try Data("<html>an old copy</html>".utf8).write(to: copy.appendingPathComponent("index.html"))
        try FileManager.default.removeItem(at: real)
        try FileManager.default.moveItem(at: copy, to: real)
        let rebuilt = try await project.build()
        #expect(!isSkipped(rebuilt))
        #expect(try Data(contentsOf: page) == published)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: project.work.appendingPathComponent("Site").path)
                == real.path)
        #expect(try await isSkipped(project.build()))
        try await project.finish()
    }
}
