import Foundation
import Testing

/// The real `feedsite build`: what it says when it stops, where, and with which exit status.
@Suite("Exit status and failure reports", .serialized)
struct ExitStatusTests {
    static var templates: String { Fixtures.repositoryRoot.appendingPathComponent("Templates").path }

    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> CommandLineTests.Run {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var variables = CommandLineTests.environment
        variables["GITHUB_ACTIONS"] = nil
        variables["GITHUB_STEP_SUMMARY"] = nil
        variables.merge(environment) { _, new in new }
        process.environment = variables
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandLineTests.Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("the failure threshold: exit 1, an ::error annotation, a step summary and a last line that say why")
    func thresholdReported() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: [:])
        try Data("feeds:\n  - url: \(server.url("/gone"))\n    name: Gone\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let summary = work.appendingPathComponent("step-summary.md")
        try Data().write(to: summary)
        let run = try Self.run(
            ["build", "--templates", Self.templates], in: work,
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        try await server.shutdown()
        #expect(run.status == 1)
        let reason = "1 of 1 feeds failed (every feed failed): 'Gone': HTTP 404 Not Found"
        #expect(run.stdout.contains("::error::\(reason)"), "\(run.stdout)")
        let lastLine = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("error: \(reason)"), "\(lastLine)")
        // The first build: there was no site to keep, and none is written.
        #expect(
            lastLine.hasSuffix("; no site was written to \(work.appendingPathComponent("Site").path)"), "\(lastLine)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("Site").path))
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(markdown.contains("site not updated"), "\(markdown)")
        #expect(markdown.contains(reason))
        #expect(!markdown.contains("built 0 pages"))
        #expect(!run.stdout.contains("built 0 pages") && !run.stderr.contains("built 0 pages"))
    }

    @Test("the failure threshold over an existing output folder says the folder was left unchanged")
    func thresholdKeepsExistingFolder() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: [:])
        try Data("feeds:\n  - url: \(server.url("/gone"))\n    name: Gone\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let site = work.appendingPathComponent("Site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: false)
        try Data().write(to: site.appendingPathComponent(".gitkeep"))
        let run = try Self.run(["build", "--templates", Self.templates], in: work)
        try await server.shutdown()
        #expect(run.status == 1)
        let lastLine = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasSuffix("; \(site.path) was left unchanged"), "\(lastLine)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.path) == [".gitkeep"])
    }

    @Test("an output folder that cannot be created exits 73 and names it")
    func outputCannotBeCreated() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: [
            "/feed.xml": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml"))
        ])
        try Data("feeds:\n  - url: \(server.url("/feed.xml"))\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        // A file where the output folder's parent should be.
        try Data("a file".utf8).write(to: work.appendingPathComponent("blocker"))
        let run = try Self.run(["build", "--templates", Self.templates, "--output", "blocker/Site"], in: work)
        try await server.shutdown()
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("blocker"))
        #expect(try String(contentsOf: work.appendingPathComponent("blocker"), encoding: .utf8) == "a file")
    }

    @Test("build --help and --help document every exit status")
    func documented() throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for arguments in [["build", "--help"], ["--help"]] {
            let help = try Self.run(arguments, in: work).stdout
            for status in ["0 ", "1 ", "64 ", "73 ", "74 "] {
                #expect(help.contains("\n  \(status)"), "\(arguments) lacks exit status \(status)")
            }
            #expect(help.contains("cannot be created or is refused"))
        }
    }

    @Test("-v prints each feed's accounting: read, shown and dropped by reason")
    func verboseAccounting() async throws {
        let rss = """
            <rss version="2.0"><channel><title>Only</title>
            <item><title>A</title><guid isPermaLink="false">1</guid><link>https://o.example/a</link></item>
            <item><title>A again</title><guid isPermaLink="false">1</guid><link>https://o.example/a</link></item>
            <item><title>B</title><guid isPermaLink="false">2</guid><link>https://o.example/b</link></item>
            </channel></rss>
            """
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: ["/only": .feed(Data(rss.utf8))])
        try Data("feeds:\n  - url: \(server.url("/only"))\n".utf8).write(to: work.appendingPathComponent("feeds.yml"))
        let run = try Self.run(["build", "--templates", Self.templates, "-v"], in: work)
        try await server.shutdown()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "feed 'Only' (\(server.url("/only"))): fetched (2 new entries); read 3 (1 repeating an id), shown 2"),
            "\(run.stderr)")
    }
}
