import Foundation
import Testing

@testable import FeedsiteKit

/// The shell commands of the README's "Quick start" and "Make it yours" sections, run as written
/// in a scratch copy of the repository, so they stay true. `make site` runs with the feedsite the
/// tests were built with (`make -o release site FEEDSITE_RELEASE=…`: no second compile), as does
/// `.build/release/feedsite` and a bare `feedsite`.
@Suite("README commands", .serialized)
struct ReadmeCommandsTests {
    /// Lines not run, each for a reason: `make test` would run this test again; the other needs the
    /// network. A new command needing either must be added here deliberately.
    static let skipped = ["make test", "cd ~/planet && feedsite build"]

    /// The fenced `sh` blocks of the section headed `## <title>`, one command per line, comments removed.
    static func shellBlocks(_ title: String, in readme: String) -> [[(command: String, comment: String)]] {
        var blocks: [[(command: String, comment: String)]] = []
        var inSection = false
        var current: [(command: String, comment: String)]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                inSection = line == "## \(title)"
                continue
            }
            guard inSection else { continue }
            if current == nil, line == "```sh" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil {
                var command = line
                var comment = ""
                if let hash = line.range(of: #"\s+#\s"#, options: .regularExpression) {
                    command = String(line[..<hash.lowerBound])
                    comment = String(line[hash.upperBound...])
                }
                command = command.trimmingCharacters(in: .whitespaces)
                if !command.isEmpty { current?.append((command, comment)) }
            }
        }
        return blocks
    }

    /// Makefile, feeds.yml, the sample feeds, the theme and the scripts: what the sections use.
    static func scratchRepository() throws -> (root: URL, repository: URL, home: URL, bin: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-readme-\(UUID().uuidString)")
        let repository = root.appendingPathComponent("repository")
        let home = root.appendingPathComponent("home")
        let bin = root.appendingPathComponent("bin")
        for folder in [repository, home, bin] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for entry in ["Makefile", "feeds.yml", "README.md", "LICENSE", "Examples", "Templates", "scripts"] {
            try FileManager.default.copyItem(
                at: Fixtures.repositoryRoot.appendingPathComponent(entry), to: repository.appendingPathComponent(entry))
        }
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("feedsite"), withDestinationURL: CommandLineTests.executable)
        return (root, repository, home, bin)
    }

    static func runBlock(_ commands: [String], in repository: URL, home: URL, bin: URL) throws -> (Int32, String) {
        let binary = CommandLineTests.executable.path
        let script =
            (["set -e"]
            + commands.map {
                $0.replacingOccurrences(of: "make site", with: "make -o release site FEEDSITE_RELEASE=\(binary)")
                    .replacingOccurrences(of: ".build/release/feedsite", with: binary)
            }).joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = repository
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("the README's Quick start and Make it yours commands run as written")
    func commandsRun() throws {
        let readme = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let quickStart = Self.shellBlocks("Quick start", in: readme)
        let makeItYours = Self.shellBlocks("Make it yours", in: readme)
        #expect(quickStart.count == 1 && makeItYours.count == 2, "the sections' sh blocks moved: update this test")
        let all = (quickStart + makeItYours).flatMap { $0 }
        #expect(all.filter { Self.skipped.contains($0.command) }.map { $0.command } == Self.skipped)
        for line in all where line.comment.contains("network") {
            #expect(Self.skipped.contains(line.command), "'\(line.command)' needs the network: it cannot run here")
        }
        let (root, repository, home, bin) = try Self.scratchRepository()
        defer { try? FileManager.default.removeItem(at: root) }
        let site = repository.appendingPathComponent("Site")
        for (index, block) in (quickStart + makeItYours).enumerated() {
            let commands = block.map { $0.command }.filter { !Self.skipped.contains($0) }
            let (status, output) = try Self.runBlock(commands, in: repository, home: home, bin: bin)
            #expect(status == 0, "block \(index + 1) (\(commands)) failed:\n\(output)")
            switch index {
            case 0:
                #expect(output.contains("The site is in \(repository.path)/Site/"), "\(output)")
                #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
                let feeds = try FileManager.default.contentsOfDirectory(
                    atPath: site.appendingPathComponent("feeds").path)
                #expect(feeds.count == 12, "\(feeds)")
            case 1:
                let planet = home.appendingPathComponent("planet")
                #expect(
                    try String(contentsOf: planet.appendingPathComponent("feeds.yml"), encoding: .utf8)
                        == StarterProject.configuration)
                #expect(
                    FileManager.default.fileExists(
                        atPath: planet.appendingPathComponent("Templates/item.mustache").path))
            default:
                let pages = try FileManager.default.subpathsOfDirectory(
                    atPath: site.appendingPathComponent("items").path
                )
                .filter { $0.hasSuffix("index.html") }
                let edited = try pages.filter {
                    try String(contentsOf: site.appendingPathComponent("items/\($0)"), encoding: .utf8)
                        .contains(">Read it at the source</a>")
                }
                #expect(!pages.isEmpty && edited.count > pages.count / 2, "\(edited.count) of \(pages.count)")
            }
        }
    }
}
