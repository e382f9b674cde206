import Foundation
import Synchronization
import Testing

@testable import FeedsiteKit

@Suite("Site writer")
final class SiteWriterTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func read(_ path: String, in site: URL) -> String? {
        (try? Data(contentsOf: site.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    private func inode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    }

    @Test(
        "writes a new site, then replaces it whole: stale files disappear, the old site is kept beside it for git to ignore"
    )
    func replacesWhole() async throws {
        let site = root.appendingPathComponent("Site")
        let first = try await SiteWriter().write(
            ["index.html": Data("one".utf8), "items/a/index.html": Data("a".utf8)], to: site)
        #expect(first == .init(totalFiles: 2, changedFiles: 2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Site"])
        let second = try await SiteWriter().write(
            ["index.html": Data("two".utf8), "items/b/index.html": Data("b".utf8)], to: site)
        #expect(second == .init(totalFiles: 2, changedFiles: 2))
        #expect(read("index.html", in: site) == "two")
        #expect(read("items/b/index.html", in: site) == "b")
        #expect(read("items/a/index.html", in: site) == nil)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent(".gitignore").path))
        // The old site is the only thing beside it, whole, and git ignores it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [".Site.previous", "Site"])
        let previous = root.appendingPathComponent(".Site.previous")
        #expect(read("index.html", in: previous) == "one")
        #expect(read("items/a/index.html", in: previous) == "a")
        #expect(read(".gitignore", in: previous)?.hasSuffix("\n*\n") == true)
        // The third build starts from it: the first site's item goes, the new one comes.
        let third = try await SiteWriter().write(
            ["index.html": Data("two".utf8), "items/c/index.html": Data("c".utf8)], to: site)
        #expect(third == .init(totalFiles: 2, changedFiles: 1))
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted()
                == [".feedsite-site", "index.html", "items", "items/c", "items/c/index.html"])
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: previous.path).sorted()
                == [".feedsite-site", ".gitignore", "index.html", "items", "items/b", "items/b/index.html"])
        // Both are marked whole; the live site's marker names what feedsite wrote at its top.
        let marker = try #require(read(".feedsite-site", in: site))
        #expect(marker.hasPrefix("feedsite-site 1 complete\n"))
        #expect(marker.hasSuffix("\n.feedsite-site\nindex.html\nitems\n"))
        #expect(read(".feedsite-site", in: previous)?.hasPrefix("feedsite-site 1 complete\n") == true)
    }

    @Test(
        "the site before last, reused, loses every file and folder the new site does not have; its symlinks are not followed"
    )
    func staleFilesRemoved() async throws {
        let live = root.appendingPathComponent("Site")
        var old: [String: Data] = ["index.html": Data("i".utf8)]
        for feed in 0..<5 {
            for item in 0..<7 { old["items/f\(feed)/i\(item)/index.html"] = Data("\(feed)-\(item)".utf8) }
        }
        _ = try await SiteWriter().write(old, to: live)
        _ = try await SiteWriter().write(old, to: live)
        // The first site is now the one the next build starts from. Things of the user's inside it:
        // a dot-folder deep down, a symlink to a folder outside, a symlink where a page folder goes.
        let previous = root.appendingPathComponent(".Site.previous")
        let hidden = previous.appendingPathComponent("items/f0/.cache/deep")
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: hidden.appendingPathComponent("file"))
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("precious"))
        try FileManager.default.createSymbolicLink(
            atPath: previous.appendingPathComponent("items/link").path, withDestinationPath: outside.path)
        try FileManager.default.removeItem(at: previous.appendingPathComponent("items/f0/i6"))
        try FileManager.default.createSymbolicLink(
            atPath: previous.appendingPathComponent("items/f0/i6").path, withDestinationPath: outside.path)
        // The new site keeps feed 0's items and one of feed 1's.
        var new: [String: Data] = ["index.html": Data("i".utf8), "items/f1/i3/index.html": Data("1-3".utf8)]
        for item in 0..<7 { new["items/f0/i\(item)/index.html"] = Data("0-\(item)".utf8) }
        let report = try await SiteWriter().write(new, to: live)
        #expect(report == .init(totalFiles: 9, changedFiles: 0))
        // The symlinks went, not what they point to.
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["precious"])
        #expect(read("precious", in: outside) == "keep")
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: live.path).filter { $0.hasSuffix(".html") }.sorted()
                == new.keys.sorted())
        #expect(!FileManager.default.fileExists(atPath: live.appendingPathComponent("items/f2").path))
        #expect(!FileManager.default.fileExists(atPath: live.appendingPathComponent("items/f0/.cache").path))
        #expect(!FileManager.default.fileExists(atPath: live.appendingPathComponent("items/link").path))
        #expect(read("items/f1/i3/index.html", in: live) == "1-3")
        #expect(read("items/f0/i6/index.html", in: live) == "0-6")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
                == [".Site.previous", "Site", "outside"])
    }

    @Test("files whose bytes did not change are not rewritten (same inode, same mtime)")
    func unchangedFilesKept() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["same.html": Data("same".utf8), "changes.html": Data("v1".utf8)], to: site)
        let sameBefore = try inode(site.appendingPathComponent("same.html"))
        let mtimeBefore =
            try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent("same.html").path)[
                .modificationDate] as? Date
        let report = try await SiteWriter().write(
            ["same.html": Data("same".utf8), "changes.html": Data("v2".utf8)], to: site)
        #expect(report.changedFiles == 1)
        #expect(try inode(site.appendingPathComponent("same.html")) == sameBefore)
        let mtimeAfter =
            try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent("same.html").path)[
                .modificationDate] as? Date
        #expect(mtimeAfter == mtimeBefore)
        #expect(read("changes.html", in: site) == "v2")
    }

    @Test(
        "a page unchanged since the build before last costs nothing: the kept site's file is the live inode, its folder stays"
    )
    func previousSiteReused() async throws {
        let site = root.appendingPathComponent("Site")
        let files = ["index.html": Data("i".utf8), "items/a/index.html": Data("a".utf8)]
        _ = try await SiteWriter().write(files, to: site)
        let folder = try inode(site.appendingPathComponent("items/a"))
        let page = try inode(site.appendingPathComponent("items/a/index.html"))
        // Second build: a fresh staging folder, the page linked; the first tree is kept.
        #expect(try await SiteWriter().write(files, to: site).changedFiles == 0)
        #expect(try inode(site.appendingPathComponent("items/a")) != folder)
        // Third build: the first tree is reused as it is, folder and all.
        #expect(try await SiteWriter().write(files, to: site).changedFiles == 0)
        #expect(try inode(site.appendingPathComponent("items/a")) == folder)
        #expect(try inode(site.appendingPathComponent("items/a/index.html")) == page)
        #expect(try inode(root.appendingPathComponent(".Site.previous/items/a/index.html")) == page)
    }

    @Test("a changed page is written as a new file: the kept site's link to the live page is never written into")
    func liveSiteUntouchedWhileStaging() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("v1".utf8)], to: site)
        _ = try await SiteWriter().write(["index.html": Data("v1".utf8)], to: site)
        var staging = try await SiteWriter().begin(site)
        try await staging.add(["index.html": Data("version two".utf8)])
        // Before the swap the live site is exactly as it was.
        #expect(read("index.html", in: site) == "v1")
        #expect(try await staging.commit().changedFiles == 1)
        #expect(read("index.html", in: site) == "version two")
        #expect(read("index.html", in: root.appendingPathComponent(".Site.previous")) == "v1")
    }

    @Test("a page back to what it was two builds ago is a change: a new file with a new mtime, not the old inode")
    func revertedPageIsNew() async throws {
        let site = root.appendingPathComponent("Site")
        let page = site.appendingPathComponent("index.html")
        let old = Date(timeIntervalSince1970: 946_684_800)
        _ = try await SiteWriter().write(["index.html": Data("A".utf8)], to: site)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: page.path)
        _ = try await SiteWriter().write(["index.html": Data("B".utf8)], to: site)
        #expect(try await SiteWriter().write(["index.html": Data("A".utf8)], to: site).changedFiles == 1)
        #expect(read("index.html", in: site) == "A")
        // (Inode numbers are reused once freed, so the mtime tells the files apart.)
        let modified = try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date
        #expect((modified ?? old) > Date(timeIntervalSinceNow: -3600))
    }

    @Test("a layout change in the reused site: a file where a folder goes and a folder where a file goes")
    func layoutChange() async throws {
        let site = root.appendingPathComponent("Site")
        let before = ["a": Data("file".utf8), "b/index.html": Data("page".utf8), "c/d/index.html": Data("deep".utf8)]
        _ = try await SiteWriter().write(before, to: site)
        _ = try await SiteWriter().write(before, to: site)
        let after = ["a/index.html": Data("now a folder".utf8), "b": Data("now a file".utf8), "c": Data("c".utf8)]
        #expect(try await SiteWriter().write(after, to: site) == .init(totalFiles: 3, changedFiles: 3))
        #expect(read("a/index.html", in: site) == "now a folder")
        #expect(read("b", in: site) == "now a file")
        #expect(read("c", in: site) == "c")
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted()
                == [".feedsite-site", "a", "a/index.html", "b", "c"])
        #expect(read("b/index.html", in: root.appendingPathComponent(".Site.previous")) == "page")
    }

    @Test(
        "a running build's staging folder is left alone; a .Site.previous that is not a folder is neither followed nor replaced"
    )
    func foreignNeighbours() async throws {
        let site = root.appendingPathComponent("Site")
        // pid 1 is always running.
        let running = root.appendingPathComponent(".Site.new-1")
        try FileManager.default.createDirectory(at: running, withIntermediateDirectories: true)
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("index.html"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent(".Site.previous").path, withDestinationPath: outside.path)
        for text in ["one", "two", "three"] {
            _ = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
            #expect(read("index.html", in: site) == text)
        }
        #expect(FileManager.default.fileExists(atPath: running.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["index.html"])
        #expect(read("index.html", in: outside) == "keep")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: root.appendingPathComponent(".Site.previous").path)
                == outside.path)
    }

    @Test("a killed build's staging folder is cleaned up even when its pid now belongs to a later process")
    func stagingOfAReusedPid() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        // A process started after the folder was last written (pids repeat: in a container the
        // next process may get the dead build's).
        let later = Process()
        later.executableURL = URL(fileURLWithPath: "/bin/sleep")
        later.arguments = ["600"]
        // Not the test's output pipes (the test runner waits until every holder closes them), and
        // ended by SIGKILL: a test process may ignore SIGTERM (serve's tests), and `sleep` inherits that.
        later.standardOutput = FileHandle.nullDevice
        later.standardError = FileHandle.nullDevice
        try later.run()
        defer { kill(later.processIdentifier, SIGKILL) }
        let staging = root.appendingPathComponent(".Site.new-\(later.processIdentifier)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: staging.appendingPathComponent("index.html"))
        try SiteMarker(state: .incomplete, names: []).data.write(to: staging.appendingPathComponent(".feedsite-site"))
        let hourAgo = Date().addingTimeInterval(-3600)
        for path in [
            staging.appendingPathComponent("index.html"), staging.appendingPathComponent(".feedsite-site"), staging,
        ] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path.path)
        }
        _ = try await SiteWriter().write(["index.html": Data("two".utf8)], to: site)
        #expect(!FileManager.default.fileExists(atPath: staging.path))
        #expect(read("index.html", in: site) == "two")
        #expect(later.isRunning)
    }

    /// Holds a lock on `folder` the way a build in another container holds its staging folder
    /// (`flock`, seen across pid namespaces); released by `close`.
    private func claimAsAnotherBuild(_ folder: URL) throws -> Int32 {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        return descriptor
    }

    /// A half-written staging folder of another build: a page and the incomplete marker.
    private func makeStaging(_ name: String) throws -> URL {
        let staging = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: staging.appendingPathComponent("index.html"))
        try SiteMarker.incomplete.data.write(to: staging.appendingPathComponent(".feedsite-site"))
        return staging
    }

    @Test(
        "a staging folder another container's build is writing, under this build's own pid, is waited for, not deleted"
    )
    func stagingClaimedUnderOwnPid() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        // Both builds are pid N in their own namespaces: the same name beside the shared folder.
        let theirs = try makeStaging(".Site.new-\(getpid())")
        let descriptor = try claimAsAnotherBuild(theirs)
        let said = Mutex<[String]>([])
        let done = Mutex(false)
        let build = Task {
            var staging = try await SiteWriter().begin(site) { message in said.withLock { $0.append(message) } }
            try await staging.add(["index.html": Data("two".utf8)])
            _ = try await staging.commit()
            done.withLock { $0 = true }
        }
        // Until it says it waits (however busy the machine), then a while longer.
        let started = ContinuousClock.now
        while said.withLock({ $0.isEmpty }), ContinuousClock.now < started + .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(!done.withLock { $0 })
        #expect(read("index.html", in: theirs) == "theirs")
        #expect(read("index.html", in: site) == "one")
        #expect(
            said.withLock { $0 }
                == [
                    "another feedsite build (in another container, with this build's process id) is writing "
                        + "\(theirs.path); waiting for it to finish"
                ])
        // The other build ends (killed: its folder stays, marked incomplete) and this one goes on.
        close(descriptor)
        try await build.value
        #expect(read("index.html", in: site) == "two")
        #expect(said.withLock { $0.count } == 1)
    }

    @Test("a build stopped while it waits for another container's build ends the wait, and leaves that build's folder")
    func stoppedWhileWaitingForClaim() async throws {
        let site = root.appendingPathComponent("Site")
        let theirs = try makeStaging(".Site.new-\(getpid())")
        let descriptor = try claimAsAnotherBuild(theirs)
        defer { close(descriptor) }
        let said = Mutex(false)
        let build = Task { try await SiteWriter().begin(site) { _ in said.withLock { $0 = true } } }
        let started = ContinuousClock.now
        while !said.withLock({ $0 }), ContinuousClock.now < started + .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
        }
        build.cancel()
        await #expect(throws: SiteWriter.WriteError.self) { _ = try await build.value }
        #expect(read("index.html", in: theirs) == "theirs")
        #expect(!FileManager.default.fileExists(atPath: site.path))
    }

    @Test("a staging folder another container's build is writing is left alone, though no process here has its pid")
    func stagingClaimedUnderAnotherPid() async throws {
        let site = root.appendingPathComponent("Site")
        // No process in this namespace has this pid (above the kernel's limit of 4,194,304).
        let theirs = try makeStaging(".Site.new-4999999")
        let descriptor = try claimAsAnotherBuild(theirs)
        for text in ["one", "two"] {
            _ = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
            #expect(read("index.html", in: site) == text)
            #expect(read("index.html", in: theirs) == "theirs")
        }
        // Once the other build is gone, what it left (marked incomplete) is deleted.
        close(descriptor)
        _ = try await SiteWriter().write(["index.html": Data("three".utf8)], to: site)
        #expect(!FileManager.default.fileExists(atPath: theirs.path))
        #expect(read("index.html", in: site) == "three")
    }

    @Test("an old site a running build is swapping in two steps (it claims it) is not moved back; a dead one's is")
    func oldSiteOfARunningSwap() async throws {
        let site = root.appendingPathComponent("Site")
        // Between the two renames of another build's swap: its old site aside, no Site yet.
        let old = root.appendingPathComponent(".Site.old-4999999")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("previous".utf8).write(to: old.appendingPathComponent("index.html"))
        try SiteMarker(state: .complete, names: ["index.html"]).data.write(
            to: old.appendingPathComponent(".feedsite-site"))
        let descriptor = try claimAsAnotherBuild(old)
        _ = try await SiteWriter().write(["index.html": Data("new".utf8)], to: site)
        #expect(read("index.html", in: site) == "new")
        #expect(read("index.html", in: old) == "previous")
        // Once that build is gone, its old site is kept as the previous one.
        close(descriptor)
        _ = try await SiteWriter().write(["index.html": Data("newer".utf8)], to: site)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(read("index.html", in: site) == "newer")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(".Site.previous").path))
    }

    @Test("the swap is atomic: the site folder is the same path, replaced by a rename, never emptied")
    func atomicExchange() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("old".utf8)], to: site)
        // A reader holding the old folder open keeps seeing the old, complete site.
        let oldHandle = try FileHandle(forReadingFrom: site.appendingPathComponent("index.html"))
        _ = try await SiteWriter().write(["index.html": Data("new".utf8)], to: site)
        #expect(String(decoding: try oldHandle.readToEnd() ?? Data(), as: UTF8.self) == "old")
        #expect(read("index.html", in: site) == "new")
    }

    @Test("leftovers of a killed build are cleaned up; an interrupted two-step swap is rolled back")
    func recovery() async throws {
        let site = root.appendingPathComponent("Site")
        let staging = root.appendingPathComponent(".Site.new-99999")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try SiteMarker.incomplete.data.write(to: staging.appendingPathComponent(".feedsite-site"))
        let old = root.appendingPathComponent(".Site.old-99998")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("previous".utf8).write(to: old.appendingPathComponent("index.html"))
        try SiteMarker(state: .complete, names: ["index.html"]).data.write(
            to: old.appendingPathComponent(".feedsite-site"))
        // Site/ itself is missing: the old copy must come back before the new write happens.
        let report = try await SiteWriter().write(["index.html": Data("previous".utf8)], to: site)
        #expect(report.changedFiles == 0)
        #expect(read("index.html", in: site) == "previous")
        // The dead build's staging folder (marked incomplete) went; the old site is kept for the next build.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == [".Site.previous", "Site"])
    }

    @Test("top-level dotfiles of the old site (.gitkeep, .gitignore) are carried over, build after build")
    func dotfiles() async throws {
        let site = root.appendingPathComponent("Site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data().write(to: site.appendingPathComponent(".gitkeep"))
        try Data("node_modules\n".utf8).write(to: site.appendingPathComponent(".gitignore"))
        for _ in 0..<3 {
            _ = try await SiteWriter().write(["index.html": Data("x".utf8)], to: site)
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(".gitkeep").path))
            // The user's .gitignore stays as it is; the kept site has feedsite's own.
            #expect(read(".gitignore", in: site) == "node_modules\n")
        }
        #expect(read(".gitignore", in: root.appendingPathComponent(".Site.previous"))?.hasSuffix("\n*\n") == true)
    }

    @Test(
        "paths that would escape the site are refused (a rendering bug, exit 70) and the old site stays",
        arguments: ["../evil.html", "/etc/passwd", "a/../../b", "", "a//b", "z/../../evil.html"])
    func escapingPaths(path: String) async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("old".utf8)], to: site)
        _ = try await SiteWriter().write(["index.html": Data("old".utf8)], to: site)
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("new".utf8), path: Data("x".utf8)], to: site)
        }
        #expect(error?.exitStatus == .ioError)
        #expect(read("index.html", in: site) == "old")
        // The failed build's staging folder (the previous site, partly rewritten) is not kept as a
        // previous site: it was deleted with what it held.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["Site"])
    }

    @Test("batches written from several tasks at once make one site; a path written by two batches fails")
    func concurrentBatches() async throws {
        let site = root.appendingPathComponent("Site")
        var staging = try await SiteWriter().begin(site)
        let area = staging.area
        let batches = try await withThrowingTaskGroup(of: SiteWriter.Staging.Area.Batch.self) { group in
            for feed in 0..<8 {
                group.addTask {
                    var files: [String: Data] = [:]
                    for item in 0..<20 { files["items/f\(feed)/i\(item)/index.html"] = Data("\(feed)-\(item)".utf8) }
                    return try await area.write(files)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for batch in batches { try staging.record(batch) }
        let duplicate = try await area.write(["items/f0/i0/index.html": Data("again".utf8)])
        #expect(throws: SiteWriter.WriteError.self) { try staging.record(duplicate) }
        let report = try await staging.commit()
        #expect(report.totalFiles == 160)
        #expect(
            try String(contentsOf: site.appendingPathComponent("items/f7/i19/index.html"), encoding: .utf8) == "7-19")
    }

    @Test("a large file from outside the site (the published state) is linked when unchanged, replaced when not")
    func addFileCopying() async throws {
        let site = root.appendingPathComponent("Site")
        let outside = root.appendingPathComponent("state.json")
        // Larger than the 1 MB comparison buffer, differing only near the end.
        var bytes = Data(repeating: UInt8(ascii: "x"), count: 2_500_000)
        try bytes.write(to: outside)
        func build() async throws -> SiteWriter.Report {
            var staging = try await SiteWriter().begin(site)
            try await staging.add(["index.html": Data("i".utf8)])
            try await staging.addFile(copying: outside.path, as: "status/state.json")
            return try await staging.commit()
        }
        #expect(try await build().changedFiles == 2)
        let published = site.appendingPathComponent("status/state.json")
        #expect(try Data(contentsOf: published) == bytes)
        let firstInode = try inode(published)
        // Same bytes in a new file (the state is saved by renaming a new file into place).
        try FileManager.default.removeItem(at: outside)
        try bytes.write(to: outside)
        let unchanged = try await build()
        #expect(unchanged.changedFiles == 0)
        #expect(try inode(published) == firstInode)
        bytes[2_400_000] = UInt8(ascii: "y")
        try FileManager.default.removeItem(at: outside)
        try bytes.write(to: outside)
        #expect(try await build().changedFiles == 1)
        #expect(try Data(contentsOf: published) == bytes)
    }

    @Test("an empty file (an empty asset) is compared, not rewritten, on the next build")
    func emptyFile() async throws {
        let site = root.appendingPathComponent("Site")
        let files = ["index.html": Data("i".utf8), "assets/.nojekyll-like": Data()]
        #expect(try await SiteWriter().write(files, to: site).changedFiles == 2)
        #expect(try await SiteWriter().write(files, to: site).changedFiles == 0)
        #expect(
            try await SiteWriter().write(
                ["index.html": Data("i".utf8), "assets/.nojekyll-like": Data("x".utf8)], to: site
            )
            .changedFiles == 1)
    }

    @Test("only relative paths of real components are written; page roots count their folders")
    func pathRules() {
        for path in ["index.html", "a/b/index.html", "...", "a./.b/c..d", "items/x/y/index.html"] {
            #expect(throws: Never.self, "\(path)") { try FilePlacement.validate(path) }
        }
        for path in ["", "/etc/passwd", "a//b", "a/", "./a", "a/./b", "a/../b", "..", "a/.."] {
            #expect(throws: SiteWriter.WriteError.self, "\(path)") { try FilePlacement.validate(path) }
        }
        #expect(PagePaths.root(of: "index.html") == "")
        #expect(PagePaths.root(of: "page/2/index.html") == "../../")
        #expect(PagePaths.root(of: "items/feed/item/index.html") == "../../../")
    }
}
