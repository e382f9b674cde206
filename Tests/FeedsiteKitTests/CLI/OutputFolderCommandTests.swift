import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `feedsite build` as a new user runs it, against folders that are not its own: the user's files
/// stay byte-identical at their paths, whatever the exit status.
@Suite("Command line: the output folder", .serialized)
struct OutputFolderCommandTests {
    static let templates = Fixtures.repositoryRoot.appendingPathComponent("Templates")

    /// Every file below `folder` (path → bytes; links as their target), `.build`-style caches aside.
    static func snapshot(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(path)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                result[path] = Data(("-> " + target).utf8)
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = (try? Data(contentsOf: url)) ?? Data()
            }
        }
        return result
    }

    /// A project folder: `feeds.yml` listing `feeds` on `server`, and its own copy of the theme.
    static func project(_ server: FixtureServer, feeds: [String], title: String = "Planet") throws -> URL {
        let work = try CommandLineTests.workDirectory()
        try FileManager.default.copyItem(at: templates, to: work.appendingPathComponent("Templates"))
        try config(work, server, feeds: feeds, title: title)
        return work
    }

    static func config(_ work: URL, _ server: FixtureServer, feeds: [String], title: String) throws {
        var yaml = "title: \(title)\nretries: 0\nfeeds:\n"
        for feed in feeds { yaml += "  - url: \(server.url("/\(feed)"))\n" }
        try Data(yaml.utf8).write(to: work.appendingPathComponent("feeds.yml"))
    }

    static func server() async throws -> FixtureServer {
        var routes: [String: FixtureServer.Route] = [:]
        for feed in [
            "jekyll-atom.xml", "wordpress-rss2-excerpt-only-100-items.xml", "guardian-rss2-media-dc-creator.xml",
        ] {
            routes["/\(feed)"] = .feed(try Fixtures.data("real-feeds/\(feed)"))
        }
        return try await FixtureServer(routes: routes)
    }

    @Test("--output docs holding CNAME and about.html: exit 73 before any fetch, the files untouched, twice")
    func githubPagesDocs() async throws {
        let server = try await Self.server()
        let work = try Self.project(server, feeds: ["jekyll-atom.xml"])
        defer { try? FileManager.default.removeItem(at: work) }
        let docs = work.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        try Data("planet.example.org\n".utf8).write(to: docs.appendingPathComponent("CNAME"))
        try Data("<h1>About</h1>\n".utf8).write(to: docs.appendingPathComponent("about.html"))
        let before = Self.snapshot(work)
        for _ in 0..<2 {
            let run = try CommandLineTests.run(["build", "--output", "docs"], in: work)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(
                run.stderr.contains(
                    "error: \(docs.path): the folder holds files feedsite did not write (CNAME, about.html)"),
                "\(run.stderr)")
            #expect(run.stderr.contains("put the files to publish with the site in static/"))
        }
        #expect(Self.snapshot(work) == before)
        #expect(server.requests.isEmpty)
        try await server.shutdown()
    }

    @Test(
        "a file written into .Site.previous (a shell whose working folder was Site/) is kept, and said even with --quiet"
    )
    func strangerInPreviousUnderQuiet() async throws {
        let server = try await Self.server()
        let work = try Self.project(server, feeds: ["jekyll-atom.xml"])
        defer { try? FileManager.default.removeItem(at: work) }
        // A new title each time: every build writes a site (an unchanged one is not written at all).
        for title in ["One", "Two"] {
            try Self.config(work, server, feeds: ["jekyll-atom.xml"], title: title)
            #expect(try CommandLineTests.run(["build", "--quiet"], in: work).status == 0)
        }
        let previous = work.appendingPathComponent(".Site.previous")
        try Data("draft\n".utf8).write(to: previous.appendingPathComponent("notes.txt"))
        try Self.config(work, server, feeds: ["jekyll-atom.xml"], title: "Three")
        let run = try CommandLineTests.run(["build", "--quiet"], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: \(previous.path): notes.txt is not written by feedsite: it was put into"),
            "\(run.stderr)")
        #expect(try Data(contentsOf: previous.appendingPathComponent("notes.txt")) == Data("draft\n".utf8))
        let index = try String(contentsOf: work.appendingPathComponent("Site/index.html"), encoding: .utf8)
        #expect(index.contains("Three"))
        try await server.shutdown()
    }

    @Test(
        "--output names the project's own folders: exit 73 before any fetch, nothing moved, also on a later build",
        arguments: [".", "feeds.yml", "Templates", ".feedsite", "Templates/assets"])
    func projectFolders(output: String) async throws {
        let server = try await Self.server()
        let work = try Self.project(server, feeds: ["jekyll-atom.xml"])
        defer { try? FileManager.default.removeItem(at: work) }
        // A first good build leaves state and a site beside the user's other files.
        #expect(try CommandLineTests.run(["build", "--quiet"], in: work).status == 0)
        try Data("mine\n".utf8).write(to: work.appendingPathComponent("notes.txt"))
        let requests = server.requests.count
        let before = Self.snapshot(work)
        for _ in 0..<2 {
            let run = try CommandLineTests.run(["build", "--output", output], in: work)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("pass another --output, such as Site"), "\(run.stderr)")
        }
        #expect(Self.snapshot(work) == before)
        #expect(server.requests.count == requests)
        try await server.shutdown()
    }

    @Test(
        "Site as a symbolic link: the site is published into the link's target, the link stays, nothing is written through it"
    )
    func symlinkedSite() async throws {
        let server = try await Self.server()
        let work = try Self.project(server, feeds: ["jekyll-atom.xml"])
        defer { try? FileManager.default.removeItem(at: work) }
        let www = work.appendingPathComponent("www")
        let planet = www.appendingPathComponent("planet")
        try FileManager.default.createDirectory(at: planet, withIntermediateDirectories: true)
        let site = work.appendingPathComponent("Site")
        try FileManager.default.createSymbolicLink(atPath: site.path, withDestinationPath: planet.path)
        for title in ["One", "Two", "Three"] {
            try Self.config(work, server, feeds: ["jekyll-atom.xml"], title: title)
            let run = try CommandLineTests.run(["build", "--quiet"], in: work)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: site.path) == planet.path)
            let index = try String(contentsOf: planet.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(index.contains(title))
        }
        #expect(!FileManager.default.fileExists(atPath: planet.appendingPathComponent(".gitignore").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: www.path).sorted() == [".planet.previous", "planet"])
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: work.path)).contains { $0.hasPrefix(".Site.") })
        try await server.shutdown()
    }

    @Test("static/ publishes CNAME, .nojekyll, _headers, _redirects; the default theme has a 404.html")
    func staticFolder() async throws {
        let server = try await Self.server()
        let work = try Self.project(server, feeds: ["jekyll-atom.xml"])
        defer { try? FileManager.default.removeItem(at: work) }
        let files = [
            "CNAME": "planet.example.org\n", ".nojekyll": "", "_headers": "/*\n  X-Frame-Options: DENY\n",
            "_redirects": "/old /new 301\n",
        ]
        let folder = work.appendingPathComponent("static")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let run = try CommandLineTests.run(["build", "--quiet"], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        let site = work.appendingPathComponent("Site")
        for (name, text) in files {
            #expect(FileManager.default.contents(atPath: site.appendingPathComponent(name).path) == Data(text.utf8))
        }
        let notFound = try String(contentsOf: site.appendingPathComponent("404.html"), encoding: .utf8)
        #expect(notFound.contains("href=\"/assets/style.css\""))
        // A name feedsite generates is a configuration error (64), before any fetch.
        let requests = server.requests.count
        try Data("mine".utf8).write(to: folder.appendingPathComponent("index.html"))
        let clash = try CommandLineTests.run(["build"], in: work)
        #expect(clash.status == 64)
        #expect(clash.stderr.contains("static/index.html: error: has the same path as index.html"), "\(clash.stderr)")
        #expect(server.requests.count == requests)
        try await server.shutdown()
    }

    /// Bytes the files below `folder` take on a file system of 4 kB pages.
    static func diskBytes(_ folder: URL) -> Int {
        snapshot(folder).values.reduce(0) { $0 + ($1.count + 4095) / 4096 * 4096 }
    }

    @Test(
        "a build that runs out of disk space exits 74, leaves the live site, and the next build that fits succeeds",
        .enabled(if: SmallFilesystem.isAvailable, SmallFilesystem.unavailableReason))
    func fullDisk() async throws {
        let server = try await Self.server()
        let small = ["jekyll-atom.xml"]
        let large = small + ["wordpress-rss2-excerpt-only-100-items.xml", "guardian-rss2-media-dc-creator.xml"]
        let work = try Self.project(server, feeds: small)
        defer { try? FileManager.default.removeItem(at: work) }
        // Measured on the ordinary disk: the small site, and the large one.
        func measure(_ feeds: [String]) throws -> Int {
            try Self.config(work, server, feeds: feeds, title: "One")
            let run = try CommandLineTests.run(
                ["build", "--quiet", "--output", "measure/Site", "--state", "measure/state"], in: work)
            #expect(run.status == 0, "\(run.stderr)")
            defer { try? FileManager.default.removeItem(at: work.appendingPathComponent("measure")) }
            return Self.diskBytes(work.appendingPathComponent("measure/Site"))
        }
        let smallBytes = try measure(small)
        let largeBytes = try measure(large)
        // Two small sites fit (the live one and a rebuilt one); the small live site and the large
        // one do not.
        let margin = 256 * 1024
        let size = (2 * smallBytes + margin + largeBytes) / 2
        try #require(2 * smallBytes + margin < size && size + margin < largeBytes, "\(smallBytes) / \(largeBytes)")
        let disk = try SmallFilesystem(bytes: size)
        defer { disk.unmount() }
        let site = disk.mountPoint.appendingPathComponent("Site").path
        func build(_ feeds: [String], title: String) throws -> CommandLineTests.Run {
            try Self.config(work, server, feeds: feeds, title: title)
            return try CommandLineTests.run(["build", "--quiet", "--output", site], in: work)
        }
        #expect(try build(small, title: "One").status == 0)
        let live = Self.snapshot(URL(fileURLWithPath: site))
        let full = try build(large, title: "One")
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(Self.snapshot(URL(fileURLWithPath: site)) == live)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.mountPoint.path) == ["Site"])
        for title in ["Two", "Three", "Four"] {
            let next = try build(small, title: title)
            #expect(next.status == 0, "\(title): \(next.stderr)")
            let index = try String(contentsOf: URL(fileURLWithPath: site + "/index.html"), encoding: .utf8)
            #expect(index.contains(title))
        }
        try await server.shutdown()
    }

    /// Before, a read-only disk was found when the fetched site was to be written: every feed was
    /// fetched, the state (elsewhere) saved, and only then the build failed.
    @Test(
        "an output or state folder on a read-only disk is refused (exit 73) before anything is fetched",
        .enabled(if: SmallFilesystem.isAvailable, SmallFilesystem.unavailableReason))
    func readOnlyDisk() async throws {
        let server = try await Self.server()
        let work = try Self.project(server, feeds: ["jekyll-atom.xml"])
        defer { try? FileManager.default.removeItem(at: work) }
        let disk = try SmallFilesystem(bytes: 1 << 20)
        defer { disk.unmount() }
        let site = disk.mountPoint.appendingPathComponent("Site")
        #expect(try CommandLineTests.run(["build", "--quiet", "--output", site.path], in: work).status == 0)
        let live = Self.snapshot(site)
        try disk.remountReadOnly()
        let requests = server.requests.count
        let output = try CommandLineTests.run(["build", "--output", site.path, "--state", "fresh-state"], in: work)
        #expect(output.status == 73, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "\(site.path): cannot be written (in \(disk.mountPoint.path)): Read-only file system"),
            "\(output.stderr)")
        let state = disk.mountPoint.appendingPathComponent("state")
        let saved = try CommandLineTests.run(["build", "--output", "Site", "--state", state.path], in: work)
        #expect(saved.status == 73, "\(saved.stderr)")
        #expect(
            saved.stderr.contains(
                "the state folder cannot be written (in \(disk.mountPoint.path)): Read-only file system"),
            "\(saved.stderr)")
        #expect(server.requests.count == requests)
        #expect(Self.snapshot(site) == live)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("fresh-state").path))
        try await server.shutdown()
    }
}
