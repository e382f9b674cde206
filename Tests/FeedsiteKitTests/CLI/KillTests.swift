import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kill -9` at random moments of a build must leave the previous or the new site, never a mix.
@Suite("Kill during write", .serialized)
struct KillTests {
    @Test("20 builds killed with SIGKILL at random points each leave one complete site")
    func killDuringWrite() async throws {
        let feeds = [
            "guardian-rss2-media-dc-creator.xml", "wordpress-rss2-excerpt-only-100-items.xml", "jekyll-atom.xml",
        ]
        var routes: [String: FixtureServer.Route] = [:]
        for feed in feeds { routes["/\(feed)"] = .feed(try Fixtures.data("real-feeds/\(feed)")) }
        let server = try await FixtureServer(routes: routes)
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let templates = Fixtures.repositoryRoot.appendingPathComponent("Templates").path
        func writeConfig(_ version: String) throws {
            var yaml = "title: Version \(version)\nfeeds:\n"
            for feed in feeds { yaml += "  - url: \(server.url("/\(feed)"))\n" }
            try Data(yaml.utf8).write(to: work.appendingPathComponent("feeds.yml"))
        }

        // Two complete builds; the second (its feeds answer 304, as in every killed round) gives the
        // duration to aim the kills at. The first, fetching everything, takes longer: aimed at it,
        // most kills landed after the build had ended.
        try writeConfig("B")
        #expect(try CommandLineTests.run(["build", "--templates", templates], in: work).status == 0)
        try writeConfig("A")
        let start = ContinuousClock.now
        #expect(try CommandLineTests.run(["build", "--templates", templates], in: work).status == 0)
        let duration = ContinuousClock.now - start
        let milliseconds = max(
            200, Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))

        // At least 20 rounds, and more (up to 60) until 5 kills have landed during a build: a
        // loaded machine makes the measured duration a poor guide to where a build will be.
        var killedMidway = 0
        var round = 0
        while round < 20 || (killedMidway < 5 && round < 60) {
            defer { round += 1 }
            let version = round.isMultiple(of: 2) ? "B" : "A"
            try writeConfig(version)
            let process = Process()
            process.executableURL = CommandLineTests.executable
            process.environment = CommandLineTests.environment
            process.arguments = ["build", "--templates", templates, "--quiet"]
            process.currentDirectoryURL = work
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Aimed at the first two thirds of a build: later, most kills land after it has ended.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...(milliseconds * 2 / 3))))
            if process.isRunning { killedMidway += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let site = SiteInspector(root: work.appendingPathComponent("Site"))
            let index = try #require(site.files["index.html"], "round \(round): no index.html")
            let title = index.contains("Version A") ? "Version A" : "Version B"
            #expect(index.contains(title))
            let mixed = site.pages.filter {
                !(site.files[$0] ?? "").contains("<p class=\"site-title\"><a href=\"")
                    || !(site.files[$0] ?? "").contains(title)
            }
            #expect(mixed.isEmpty, "round \(round): pages from another build: \(mixed.prefix(3))")
            #expect(site.brokenRelativeLinks().isEmpty, "round \(round): \(site.brokenRelativeLinks().prefix(3))")
            if let state = FileManager.default.contents(
                atPath: work.appendingPathComponent(".feedsite/state.json").path)
            {
                #expect((try? JSONSerialization.jsonObject(with: state)) != nil, "round \(round): torn state file")
            }
        }
        #expect(killedMidway >= 5, "too few kills landed during a build (\(killedMidway))")

        // The next complete build (of a new version, so it is not skipped) cleans up whatever the
        // killed ones left beside the site (their staging folders are marked incomplete and
        // deleted, never reused): all that stays is the site before it, whole, kept for the build after.
        try writeConfig("C")
        #expect(try CommandLineTests.run(["build", "--templates", templates, "--quiet"], in: work).status == 0)
        #expect(
            SiteInspector(root: work.appendingPathComponent("Site")).files["index.html"]?.contains("Version C") == true)
        // A kill between making a staging folder and marking it leaves it empty and unmarked: not
        // known to be feedsite's, it stays (`foreignNeighboursKept`), holding nothing.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".Site.") }
        func contents(_ name: String) -> [String] {
            (try? FileManager.default.subpathsOfDirectory(atPath: work.appendingPathComponent(name).path)) ?? []
        }
        let emptyStaging = leftovers.filter { $0.hasPrefix(".Site.new-") && contents($0).isEmpty }
        #expect(
            leftovers.filter { !emptyStaging.contains($0) } == [".Site.previous"],
            "\(leftovers.map { "\($0): \(contents($0).sorted().prefix(5))" })")
        let previous = SiteInspector(root: work.appendingPathComponent(".Site.previous"))
        #expect(previous.files["index.html"]?.contains("<p class=\"site-title\"><a href=\"") == true)
        #expect(previous.files[".feedsite-site"]?.hasPrefix("feedsite-site 1 complete\n") == true)
        try await server.shutdown()
    }
}
