import Foundation
import Testing

/// Runs the real `feedsite` executable (built next to the test bundle) as a user would.
@Suite("Command line", .serialized)
struct CommandLineTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("feedsite")
    }

    /// The environment every spawned `feedsite` gets: the tests' own, with no icon requests
    /// (`FEEDSITE_AVATARS=off`: the fixture feeds name real icon hosts; tests never touch the
    /// internet), plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["FEEDSITE_AVATARS"] = "off"
        return variables.merging(extra) { _, new in new }
    }

    static var environment: [String: String] { environment() }

    static func run(
        _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.environment = Self.environment(extra)
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func workDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("--version prints the version")
    func version() throws {
        let run = try Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test("--help lists the build command and build --help its options")
    func help() throws {
        let top = try Self.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.contains("build"))
        let build = try Self.run(["build", "--help"])
        for option in ["--config", "--output", "--templates", "--concurrency"] {
            #expect(build.stdout.contains(option), "build --help lacks \(option)")
        }
    }

    /// The discussions were once typed with line breaks at 100 columns, which the argument parser
    /// then wrapped again at the terminal's width: at 80 columns every paragraph came out ragged
    /// ("…warnings and keep" / "their last good items…" cut into lines of 76 and 3 words).
    @Test("every --help reads as whole paragraphs at 80 and 120 columns: no line is cut short mid-paragraph")
    func helpParagraphs() throws {
        let commands = [[], ["build"], ["serve"], ["init"], ["parse"], ["import"], ["import", "opml"]]
        for width in [80, 120] {
            for command in commands {
                let help = try Self.run(command + ["--help"], environment: ["COLUMNS": String(width)]).stdout
                // The text between the overview and the usage line: prose, then the exit statuses.
                let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let usage = lines.firstIndex { $0.hasPrefix("USAGE:") } ?? lines.count
                let text = Array(lines[..<usage])
                #expect(text.allSatisfy { $0.count <= width }, "\(command) at \(width): a line is too long")
                for (line, next) in zip(text, text.dropFirst()) {
                    // A prose line followed by more of its paragraph fills the width (a word of up
                    // to 25 characters may not have fitted). Table rows and "Exit status" begin their own lines.
                    let continues = !next.isEmpty && !next.hasPrefix(" ") && !next.hasPrefix("Exit status")
                    guard continues, !line.hasPrefix(" "), !line.isEmpty else { continue }
                    #expect(line.count > width - 25, "\(command) at \(width): '\(line)' is cut short before '\(next)'")
                }
            }
        }
    }

    @Test("usage errors exit 64")
    func usage() throws {
        #expect(try Self.run(["build", "--concurrency", "0"]).status == 64)
        #expect(try Self.run(["build", "--no-such-option"]).status == 64)
    }

    @Test("a bad feeds.yml exits 64 naming file, line, column and key")
    func badConfig() throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("title: x\nfeeds:\n  - url: htp:/x\n".utf8).write(to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        #expect(run.status == 64)
        #expect(
            run.stderr.contains(
                "feeds.yml:3:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"htp:/x\""))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("Site").path))
    }

    @Test("a broken template exits 64 naming the template file and line")
    func badTemplate() throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let templates = work.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: Fixtures.repositoryRoot.appendingPathComponent("Templates"), to: templates)
        try Data("<p>\n{{#items}}\n".utf8).write(to: templates.appendingPathComponent("index.mustache"))
        try Data("feeds:\n  - url: http://127.0.0.1:9/feed\n".utf8).write(to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(["build"], in: work)
        #expect(run.status == 64)
        #expect(run.stderr.contains("Templates/index.mustache:"), "\(run.stderr)")
    }

    @Test("when every feed fails, exit 1 and the old site is left alone")
    func nothingBuilt() async throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: [:])
        let site = work.appendingPathComponent("Site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data("previous".utf8).write(to: site.appendingPathComponent("index.html"))
        // A site feedsite wrote carries its marker (else the folder is not feedsite's to replace).
        try Data("feedsite-site 1 complete\n.feedsite-site\nindex.html\n".utf8).write(
            to: site.appendingPathComponent(".feedsite-site"))
        // The second feed has no name and never gave a title: it is named by its URL, not its host.
        try Data(
            "feeds:\n  - url: \(server.url("/gone"))\n    name: Gone\n  - url: \(server.url("/also-gone"))\n".utf8
        ).write(to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        try await server.shutdown()
        #expect(run.status == 1)
        #expect(run.stderr.contains("feeds.yml:2: warning: feed 'Gone' (\(server.url("/gone"))): HTTP 404 Not Found"))
        #expect(
            run.stderr.contains(
                "error: 2 of 2 feeds failed (every feed failed): 'Gone': HTTP 404 Not Found; "
                    + "\(server.url("/also-gone")): HTTP 404 Not Found; "), "\(run.stderr)")
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "previous")
    }

    @Test("when no feed's host resolves, the error asks whether the machine is offline")
    func noHostResolves() throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        // `.invalid` never resolves (RFC 6761), with or without a network.
        try Data(
            "feeds:\n  - url: http://one.feedsite-test.invalid/feed\n    name: One\n"
                .appending("  - url: http://two.feedsite-test.invalid/feed\n    name: Two\n").utf8
        ).write(to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        #expect(run.status == 1)
        let lastLine = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            lastLine.hasPrefix(
                "error: 2 of 2 feeds failed (every feed failed): 'One': cannot resolve host one.feedsite-test.invalid:"
                    + " check the host name; 'Two': cannot resolve host two.feedsite-test.invalid: check the host name;"
                    + " none of the 2 hosts could be resolved: is this machine offline (no network or DNS)?; no site"),
            "\(lastLine)")
        // One host alone is more likely a typo: no such question.
        try Data("feeds:\n  - url: http://one.feedsite-test.invalid/feed\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let one = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        #expect(one.status == 1)
        #expect(!one.stderr.contains("offline"), "\(one.stderr)")
    }

    @Test("an Atom entry document gives its one post a page, with a warning; the summary counts 1 item")
    func entryDocumentBuild() throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data(
            """
            <?xml version="1.0"?>
            <entry xmlns="http://www.w3.org/2005/Atom"><title>Alone</title><id>urn:x:1</id>
            <link href="https://example.org/alone"/><updated>2026-11-20T10:00:00Z</updated></entry>
            """.utf8
        ).write(to: work.appendingPathComponent("entry.xml"))
        try Data("feeds:\n  - url: entry.xml\n    name: Solo\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("from 1 of 1 feeds (1 item on the site; 1 new entry in the feeds)"), "\(run.stdout)")
        #expect(
            run.stderr.contains(
                "feeds.yml:2: warning: feed 'Solo' (entry.xml): line 2: the document is an Atom entry document"),
            "\(run.stderr)")
        let page = work.appendingPathComponent("Site/items/solo/alone/index.html")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("https://example.org/alone"))
    }

    @Test("a local file that is no feed is not quoted: its first line never reaches the published site")
    func localNonFeedNotQuoted() throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("SECRETLINE1 the key is hunter2\nmore\n".utf8).write(to: work.appendingPathComponent("notes.txt"))
        try Data(
            """
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>Fine</title><link>https://fine.example/</link>
            <item><title>One</title><link>https://fine.example/1</link></item></channel></rss>
            """.utf8
        ).write(to: work.appendingPathComponent("fine.xml"))
        try Data("feeds:\n  - url: fine.xml\n  - url: notes.txt\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "feeds.yml:3: warning: feed 'notes.txt' (notes.txt): line 1, column 1: the document is neither XML nor"
                    + " JSON (it starts with text, not '<' or '{'); it is not a feed"), "\(run.stderr)")
        #expect(!run.stderr.contains("SECRETLINE1"))
        let site = work.appendingPathComponent("Site")
        let files = try #require(FileManager.default.enumerator(at: site, includingPropertiesForKeys: nil))
        var published = 0
        for case let file as URL in files where !file.hasDirectoryPath {
            let data = try Data(contentsOf: file)
            #expect(data.range(of: Data("SECRETLINE1".utf8)) == nil, "\(file.path)")
            published += 1
        }
        #expect(published > 5)
        let state = try Data(contentsOf: work.appendingPathComponent(".feedsite/state.json"))
        #expect(state.range(of: Data("SECRETLINE1".utf8)) == nil)
    }

    @Test("a good build exits 0, prints the summary and writes the site")
    func goodBuild() async throws {
        let work = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: [
            "/feed.xml": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml")),
            "/missing.xml": .status(.notFound),
        ])
        try Data("feeds:\n  - url: \(server.url("/feed.xml"))\n  - url: \(server.url("/missing.xml"))\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(
            ["build", "--templates", Fixtures.repositoryRoot.appendingPathComponent("Templates").path], in: work)
        try await server.shutdown()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("from 1 of 2 feeds (4 items on the site; 4 new entries in the feeds)"))
        #expect(run.stderr.contains("feeds.yml:3: warning:"))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("Site/index.html").path))
    }
}

@Suite("feedsite parse", .serialized)
struct ParseCommandTests {
    static let jekyll = Fixtures.url("real-feeds/jekyll-atom.xml").path

    @Test("the human format shows format, title, link, item count and one line per item")
    func human() throws {
        let run = try CommandLineTests.run(["parse", Self.jekyll])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "format:   atom 1.0")
        #expect(lines.contains("items:    10"))
        #expect(lines.filter { $0.first?.isNumber == true }.count == 10)
    }

    @Test("--json prints exactly the DESIGN §2 schema with ISO 8601 UTC dates")
    func json() throws {
        let run = try CommandLineTests.run(["parse", "--json", Self.jekyll])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let allowed: Set<String> = [
            "format", "version", "title", "description", "link", "feedLink", "language", "copyright", "generator",
            "updated", "published", "authors", "image", "categories", "items", "warnings",
        ]
        #expect(Set(object.keys).isSubset(of: allowed))
        #expect(object["format"] as? String == "atom")
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.count == 10)
        let itemKeys: Set<String> = [
            "id", "title", "link", "description", "content", "published", "updated", "authors", "categories", "image",
            "enclosures",
        ]
        for item in items { #expect(Set(item.keys).isSubset(of: itemKeys)) }
        let date = try #require(items.first?["published"] as? String ?? items.first?["updated"] as? String)
        #expect(date.count == 20 && date.hasSuffix("Z"))
    }

    @Test("a file that is not a feed fails with a clear message and exit 1")
    func notAFeed() throws {
        let run = try CommandLineTests.run(["parse", Fixtures.url("real-feeds/not-a-feed-iis-object-moved.rss").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("HTML page, not a feed"))
    }

    @Test("URLs are fetched the way build fetches them")
    func url() async throws {
        let server = try await FixtureServer(routes: ["/feed": .feed(try Fixtures.data("real-feeds/substack-rss2.xml"))]
        )
        let run = try CommandLineTests.run(["parse", server.url("/feed").absoluteString])
        try await server.shutdown()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("items:    1"))
    }

    @Test("--stats --sanitise reports parse and sanitise throughput")
    func stats() throws {
        let run = try CommandLineTests.run([
            "parse", "--stats", "--sanitise", Self.jekyll, Fixtures.url("real-feeds/medium-rss2.xml").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("parse:    2 documents, 20 items"))
        #expect(run.stdout.contains("sanitise: 20 item bodies"))
        #expect(run.stdout.contains("MB/s"))
    }
}
