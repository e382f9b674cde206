import Foundation
import Testing

@testable import FeedsiteKit

/// `feedsite init` and a binary that needs nothing beside it: the real executable, run as a user
/// would, in folders that hold no `Templates/`.
@Suite("feedsite init and the built-in theme", .serialized)
struct InitCommandTests {
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> CommandLineTests.Run {
        try CommandLineTests.run(arguments, in: directory)
    }

    @Test("init writes a commented starter feeds.yml that loads cleanly, and never overwrites it")
    func starter() throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let first = try Self.run(["init", "planet"], in: work)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("wrote planet/feeds.yml"))
        #expect(first.stdout.contains("cd planet && feedsite build"))
        let config = work.appendingPathComponent("planet/feeds.yml")
        let written = try String(contentsOf: config, encoding: .utf8)
        #expect(written == StarterProject.configuration)
        #expect(written.hasPrefix("# feedsite configuration."))
        let (configuration, diagnostics) = try SiteConfiguration.load(contentsOf: config)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(configuration.feeds.count == 3)
        #expect(configuration.title == "My Planet")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("planet/Templates").path))

        try Data("title: Mine\nfeeds:\n  - https://example.org/feed\n".utf8).write(to: config)
        let second = try Self.run(["init", "planet"], in: work)
        #expect(second.status == 73)
        #expect(second.stderr.contains("planet/feeds.yml: error: already exists; not overwritten"), "\(second.stderr)")
        #expect(
            try String(contentsOf: config, encoding: .utf8) == "title: Mine\nfeeds:\n  - https://example.org/feed\n")
    }

    @Test("init --theme writes the built-in theme byte for byte, keeping feeds.yml and edited files")
    func theme() throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("title: Mine\nfeeds:\n  - https://example.org/feed\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: work.appendingPathComponent("Templates/item.mustache"))
        let run = try Self.run(["init", "--theme"], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("feeds.yml: exists; kept as it is"))
        #expect(run.stderr.contains("Templates/item.mustache: exists; kept as it is"))
        #expect(
            try String(contentsOf: work.appendingPathComponent("feeds.yml"), encoding: .utf8)
                == "title: Mine\nfeeds:\n  - https://example.org/feed\n")
        #expect(try Data(contentsOf: work.appendingPathComponent("Templates/item.mustache")) == Data("mine".utf8))
        let onDisk = try BuiltInThemeTests.filesOnDisk()
        #expect(run.stdout.contains("wrote \(onDisk.count - 1) files into Templates/"), "\(run.stdout)")
        for (path, bytes) in onDisk where path != "item.mustache" {
            #expect(try Data(contentsOf: work.appendingPathComponent("Templates/\(path)")) == bytes, "\(path)")
        }
    }

    @Test("build works from any folder: templates come from the binary, overridden beside feeds.yml")
    func buildsAnywhere() async throws {
        let project = try CommandLineTests.workDirectory()
        let elsewhere = try CommandLineTests.workDirectory()
        defer {
            try? FileManager.default.removeItem(at: project)
            try? FileManager.default.removeItem(at: elsewhere)
        }
        let server = try await FixtureServer(routes: [
            "/feed.xml": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml"))
        ])
        try Data("title: Anywhere\nfeeds:\n  - url: \(server.url("/feed.xml"))\n".utf8).write(
            to: project.appendingPathComponent("feeds.yml"))
        // First no Templates/ anywhere: the built-in theme alone.
        let plain = try Self.run(
            ["build", "--config", project.appendingPathComponent("feeds.yml").path], in: elsewhere)
        #expect(plain.status == 0, "\(plain.stderr)")
        let site = elsewhere.appendingPathComponent("Site")
        let onDisk = try BuiltInThemeTests.filesOnDisk()
        #expect(try Data(contentsOf: site.appendingPathComponent("assets/style.css")) == onDisk["assets/style.css"])
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("<title>Anywhere</title>"), "\(index.prefix(600))")
        // Then one template beside feeds.yml (not in the current folder) changes the item pages only.
        let templates = project.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("{{<layout}}{{$main}}<p class=\"mine\">{{item.title}}</p>{{/main}}{{/layout}}\n".utf8).write(
            to: templates.appendingPathComponent("item.mustache"))
        let custom = try Self.run(
            ["build", "--config", project.appendingPathComponent("feeds.yml").path], in: elsewhere)
        try await server.shutdown()
        #expect(custom.status == 0, "\(custom.stderr)")
        let items = try FileManager.default.subpathsOfDirectory(atPath: site.appendingPathComponent("items").path)
            .filter { $0.hasSuffix("index.html") }
        #expect(items.count == 4)
        for item in items {
            let page = try String(contentsOf: site.appendingPathComponent("items/\(item)"), encoding: .utf8)
            #expect(page.contains("<p class=\"mine\">"), "\(item)")
        }
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == index)
    }
}
