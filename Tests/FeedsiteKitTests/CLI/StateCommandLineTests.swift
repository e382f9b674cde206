import Foundation
import Testing

/// The state's failures as a user sees them: exit status, the error line, the GitHub annotation.
@Suite("State on the command line", .serialized)
struct StateCommandLineTests {
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws
        -> CommandLineTests.Run
    {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var base = CommandLineTests.environment
        base["GITHUB_ACTIONS"] = nil
        base["GITHUB_STEP_SUMMARY"] = nil
        process.environment = base.merging(environment) { _, new in new }
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

    static let templates = Fixtures.repositoryRoot.appendingPathComponent("Templates").path

    @Test("an empty --state, --output, --templates or --config is a usage error (64), not the current folder")
    func emptyPaths() throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for option in ["--state", "--output", "--templates", "--config"] {
            let run = try Self.run(["build", option, ""], in: work)
            #expect(run.status == 64)
            #expect(run.stderr.contains("\(option) needs a path, got an empty one"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    @Test(".feedsite that is a file: exit 73 before anything is fetched, the file untouched")
    func stateFolderIsAFile() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 1))])
        try Data("title: T\nfeeds:\n  - url: \(server.url("/feed"))\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        try Data("my notes".utf8).write(to: work.appendingPathComponent(".feedsite"))
        let run = try Self.run(["build", "--templates", Self.templates], in: work)
        #expect(run.status == 73)
        #expect(run.stderr.contains("/.feedsite: the state folder is a file;"))
        #expect(server.requests.isEmpty)
        #expect(try Data(contentsOf: work.appendingPathComponent(".feedsite")) == Data("my notes".utf8))
        try await server.shutdown()
    }

    @Test("--state naming a folder of someone else's files: exit 73 before anything is fetched, nothing written there")
    func stateFolderOfSomeoneElse() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 1))])
        try Data("title: T\nfeeds:\n  - url: \(server.url("/feed"))\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let home = work.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: home.appendingPathComponent("notes.txt"))
        try Data("x".utf8).write(to: home.appendingPathComponent(".profile"))
        let run = try Self.run(["build", "--templates", Self.templates, "--state", "home"], in: work)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "/home: the folder holds files feedsite did not write (Documents, notes.txt) and none of its own;"),
            "\(run.stderr)")
        #expect(server.requests.isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == [
                ".profile", "Documents", "notes.txt",
            ])
        // Names users have too prove nothing: a project's own `state.json` (a package manifest)
        // and a `lock` with something in it are not feedsite's, and are left as they are.
        let manifest = Data(#"{"name":"my app","version":"1.2.0"}"#.utf8)
        try manifest.write(to: home.appendingPathComponent("state.json"))
        try Data("mine".utf8).write(to: home.appendingPathComponent("lock"))
        let project = try Self.run(["build", "--templates", Self.templates, "--state", "home"], in: work)
        #expect(project.status == 73, "\(project.stderr)")
        #expect(
            project.stderr.contains("(Documents, lock, notes.txt, state.json) and none of its own"), "\(project.stderr)"
        )
        #expect(server.requests.isEmpty)
        #expect(try Data(contentsOf: home.appendingPathComponent("state.json")) == manifest)
        #expect(try Data(contentsOf: home.appendingPathComponent("lock")) == Data("mine".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == [
                ".profile", "Documents", "lock", "notes.txt", "state.json",
            ])
        // A folder holding feedsite's own files besides others (a README put into .feedsite) is used.
        try FileManager.default.removeItem(at: home.appendingPathComponent("state.json"))
        try Data().write(to: home.appendingPathComponent("lock"))
        let again = try Self.run(["build", "--templates", Self.templates, "--state", "home"], in: work)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: home.appendingPathComponent("notes.txt")) == Data("notes".utf8))
        try await server.shutdown()
    }

    @Test("a restore from a server that is down: exit 1 and an ::error on GitHub; exit 0 with --allow-fresh-state")
    func serverDown() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 2))])
        let down = try await FixtureServer(routes: [:])
        let origin = down.url("/status/state.json").absoluteString
        try await down.shutdown()
        try Data("title: T\nretries: 0\nfeeds:\n  - url: \(server.url("/feed"))\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let arguments = ["build", "--templates", Self.templates, "--restore-state", origin]

        let summary = work.appendingPathComponent("summary.md")
        try Data().write(to: summary)
        let github = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path]
        let failed = try Self.run(arguments, in: work, environment: github)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("error: cannot restore the state from \(origin): "))
        #expect(failed.stdout.contains("::error::cannot restore the state from \(origin)"))
        #expect(
            try String(contentsOf: summary, encoding: .utf8).contains(
                "**Error:** cannot restore the state from \(origin)"))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("Site").path))

        let allowed = try Self.run(
            arguments + ["--allow-fresh-state"], in: work, environment: ["GITHUB_ACTIONS": "true"])
        #expect(allowed.status == 0)
        #expect(allowed.stderr.contains("error: cannot restore the state from \(origin)"))
        #expect(allowed.stdout.contains("::error::cannot restore the state from \(origin)"))
        #expect(allowed.stdout.contains("the state was not restored, so the site's history starts afresh"))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("Site/status/state.json").path))
        try await server.shutdown()
    }

    @Test("a mistyped --restore-state is a usage error (exit 64), not a fresh history; nothing is fetched")
    func mistypedOrigin() async throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 2))])
        try Data("title: T\nfeeds:\n  - url: \(server.url("/feed"))\n".utf8).write(
            to: work.appendingPathComponent("feeds.yml"))
        let cases = [
            (
                "htps://planet.example/status/state.json",
                "has the scheme 'htps:', which feedsite does not read a state from"
            ),
            ("http//planet.example/status/state.json", "looks like a URL without the ':' after 'http'"),
            (
                "https:/planet.example/status/state.json",
                "cannot be fetched: https:/planet.example/status/state.json: it names no host"
            ),
            (
                "http://127.0.0.1:99999/state.json",
                "cannot be fetched: http://127.0.0.1:99999/state.json: port 99999 is not a TCP port (1–65535)"
            ),
        ]
        for (origin, message) in cases {
            let result = try Self.run(["build", "--templates", Self.templates, "--restore-state", origin], in: work)
            #expect(result.status == 64, "\(origin)")
            #expect(result.stderr.contains("--restore-state \(message)"), "\(result.stderr)")
        }
        #expect(server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("Site").path))
        try await server.shutdown()
    }
}
