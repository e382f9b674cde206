import Foundation
import Testing

@testable import FeedsiteKit

/// Files a user's program puts into the live site while a build runs: the swap takes them out
/// with the old site, and they must come back (or be set aside whole), never be pruned later.
extension OutputFolderTests {
    @Test("a file put into the live site just before the swap is moved back, and the next build keeps it")
    func fileArrivingDuringSwap() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        try write("planet.example.org\n", "CNAME", in: site)
        let writer = SiteWriter(beforeSwap: { live in
            // A new file, and the carried CNAME replaced by a new one (another inode).
            try? Data("late".utf8).write(to: URL(fileURLWithPath: live + "/late.txt"))
            try? Data("new.example.org\n".utf8).write(to: URL(fileURLWithPath: live + "/CNAME"), options: .atomic)
        })
        let report = try await writer.write(["index.html": Data("two".utf8)], to: site)
        #expect(report.warnings.isEmpty)
        #expect(read("late.txt", in: site) == "late")
        #expect(read("CNAME", in: site) == "new.example.org\n")
        #expect(read("index.html", in: site) == "two")
        let previous = root.appendingPathComponent(".Site.previous")
        #expect(!entries(previous).contains("late.txt"))
        // The next build reuses the previous site and keeps both, byte for byte.
        _ = try await SiteWriter().write(["index.html": Data("three".utf8)], to: site)
        #expect(read("late.txt", in: site) == "late")
        #expect(read("CNAME", in: site) == "new.example.org\n")
        #expect(entries(root) == [".Site.previous", "Site"])
    }

    @Test("a carried file the user deletes just before the swap stays deleted")
    func carriedFileDeletedDuringSwap() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        try write("planet.example.org\n", "CNAME", in: site)
        let writer = SiteWriter(beforeSwap: { live in _ = unlink(live + "/CNAME") })
        _ = try await writer.write(["index.html": Data("two".utf8)], to: site)
        #expect(read("index.html", in: site) == "two")
        #expect(!entries(site).contains("CNAME"))
    }

    @Test("a file put into the live site under a name the new site takes is set aside with the old site, reported")
    func arrivalClashingWithNewSite() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        let writer = SiteWriter(beforeSwap: { live in
            try? Data("my robots".utf8).write(to: URL(fileURLWithPath: live + "/robots.txt"))
        })
        let report = try await writer.write(
            ["index.html": Data("two".utf8), "robots.txt": Data("feedsite's".utf8)], to: site)
        #expect(read("robots.txt", in: site) == "feedsite's")
        let rescued = try #require(entries(root).first { $0.hasPrefix("Site.rescued-") })
        let aside = root.appendingPathComponent(rescued)
        #expect(read("robots.txt", in: aside) == "my robots")
        #expect(read("index.html", in: aside) == "one")
        #expect(!entries(aside).contains(".feedsite-site"))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("\(site.path)/robots.txt") == true)
        #expect(report.warnings.first?.contains(aside.path) == true)
        // Never reused nor deleted by later builds.
        for text in ["three", "four"] {
            _ = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
        }
        #expect(read("robots.txt", in: aside) == "my robots")
        #expect(entries(root).contains(rescued))
    }

    @Test("a site folder replaced by the user's own while the build runs is not swapped out; the build stops")
    func siteFolderReplacedDuringBuild() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8), "feeds/a.html": Data("a".utf8)], to: site)
        let moved = root.appendingPathComponent("Site.bak")
        let writer = SiteWriter(beforeSwap: { live in
            // The site moved away and a folder of the user's made in its place, with names the
            // old site's marker lists as feedsite's.
            try? FileManager.default.moveItem(atPath: live, toPath: moved.path)
            try? FileManager.default.createDirectory(atPath: live + "/feeds", withIntermediateDirectories: true)
            try? Data("mine".utf8).write(to: URL(fileURLWithPath: live + "/index.html"))
            try? Data("mine".utf8).write(to: URL(fileURLWithPath: live + "/feeds/notes.txt"))
        })
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            _ = try await writer.write(["index.html": Data("two".utf8)], to: site)
        }
        #expect(error?.description.contains("was replaced by another folder") == true)
        #expect(read("index.html", in: site) == "mine")
        #expect(read("feeds/notes.txt", in: site) == "mine")
        #expect(read("index.html", in: moved) == "one")
        #expect(!entries(root).contains { $0.hasPrefix(".Site.new-") })
    }

    /// ext4 hands the inode number of a folder just deleted to the next one made: the folder
    /// alone looked the same, and the user's new folder was swapped out (into .Site.previous,
    /// which the next build reuses).
    @Test("a site folder deleted and made again while the build runs (often the same inode number) is not swapped out")
    func siteFolderRemadeDuringBuild() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        let writer = SiteWriter(beforeSwap: { live in
            try? FileManager.default.removeItem(atPath: live)
            try? FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: false)
            try? Data("mine".utf8).write(to: URL(fileURLWithPath: live + "/notes.txt"))
        })
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            _ = try await writer.write(["index.html": Data("two".utf8)], to: site)
        }
        #expect(error?.description.contains("was replaced by another folder") == true)
        #expect(entries(site) == ["notes.txt"])
        #expect(read("notes.txt", in: site) == "mine")
        #expect(!entries(root).contains { $0.hasPrefix(".Site.new-") })
    }

    @Test("a folder put into the live site just before the swap is moved back, and the next build refuses it")
    func folderArrivingDuringSwap() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        let writer = SiteWriter(beforeSwap: { live in
            try? FileManager.default.createDirectory(
                atPath: live + "/drafts", withIntermediateDirectories: false)
            try? Data("draft".utf8).write(to: URL(fileURLWithPath: live + "/drafts/post.md"))
        })
        _ = try await writer.write(["index.html": Data("two".utf8)], to: site)
        #expect(read("drafts/post.md", in: site) == "draft")
        await #expect(throws: SiteWriter.WriteError.self) {
            _ = try await SiteWriter().write(["index.html": Data("three".utf8)], to: site)
        }
        #expect(read("drafts/post.md", in: site) == "draft")
        #expect(read("index.html", in: site) == "two")
    }
}
