import Foundation

@testable import FeedsiteKit

/// Runs a whole build against a `FixtureServer` in a fresh temporary folder.
struct TestBuild {
    let work: URL
    let config: URL
    let output: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        config = work.appendingPathComponent("feeds.yml")
        output = work.appendingPathComponent("Site")
    }

    /// Writes `feeds.yml` with a `feeds:` entry per (path, name) on `server` and builds.
    func run(
        server: FixtureServer, feeds: [(path: String, name: String?)], header: String = "title: Test\nretries: 0\n",
        timeoutSeconds: Int = 60, notice: (@Sendable (String) -> Void)? = nil
    ) async throws -> BuildReport {
        var yaml = header + "feeds:\n"
        for feed in feeds {
            yaml += "  - url: \(server.url(feed.path))\n"
            if let name = feed.name { yaml += "    name: \(name)\n" }
        }
        try Data(Self.patient(yaml).utf8).write(to: config)
        var options = SiteGenerator.Options(
            configFile: config, outputDirectory: output,
            templatesDirectory: Fixtures.repositoryRoot.appendingPathComponent("Templates"),
            stateDirectory: work.appendingPathComponent("state"),
            concurrency: 4, timeoutSeconds: timeoutSeconds, now: Date(timeIntervalSince1970: 1_795_000_000)
        ).withoutAvatars()
        options.notice = notice
        return try await SiteGenerator(options: options).build()
    }

    /// Builds from the given `feeds.yml` text.
    func run(
        yaml: String, policy: FailurePolicy = .allFailed, stateDirectory: URL? = nil, restoreState: String? = nil,
        offline: Bool = false, now: Date = Date(timeIntervalSince1970: 1_795_000_000), concurrency: Int = 8
    ) async throws -> BuildReport {
        try Data(Self.patient(yaml).utf8).write(to: config)
        let generator = SiteGenerator(
            options: .init(
                configFile: config, outputDirectory: output,
                templatesDirectory: Fixtures.repositoryRoot.appendingPathComponent("Templates"),
                stateDirectory: stateDirectory ?? work.appendingPathComponent("state"), restoreState: restoreState,
                concurrency: concurrency, offline: offline, failurePolicy: policy, now: now
            ).withoutAvatars())
        return try await generator.build()
    }

    /// `yaml` with `timeout`, `read_timeout` and `connect_timeout` of 10 minutes where it sets
    /// none, added at its end (the feeds keep their line numbers): the fixture servers are local, and on a
    /// loaded machine (the whole suite on 2 cores, CPU-heavy tests beside) a response can wait
    /// longer than the defaults (20 s between bytes) for a thread; a test is never decided by that.
    /// Tests of the timeouts set them.
    static func patient(_ yaml: String) -> String {
        var yaml = yaml
        for key in ["timeout", "read_timeout", "connect_timeout"] {
            let isSet = yaml.split(separator: "\n").contains { $0.hasPrefix("\(key):") }
            guard !isSet else { continue }
            if !yaml.isEmpty, !yaml.hasSuffix("\n") { yaml += "\n" }
            yaml += "\(key): 600\n"
        }
        return yaml
    }

    var site: SiteInspector { SiteInspector(root: output) }

    /// Site path → inode, to see which files a build rewrote.
    func inodes() -> [String: Int] {
        var result: [String: Int] = [:]
        for path in site.files.keys {
            let attributes = try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
            result[path] = (attributes?[.systemFileNumber] as? NSNumber)?.intValue
        }
        return result
    }

    func remove() {
        try? FileManager.default.removeItem(at: work)
    }
}

extension SiteGenerator.Options {
    /// These options without the avatar step (`fetchesAvatars`): for builds whose feeds name real
    /// hosts, whose icons would be looked for there. Avatars have their own tests (`AvatarTests`).
    func withoutAvatars() -> Self {
        var options = self
        options.fetchesAvatars = false
        return options
    }
}
