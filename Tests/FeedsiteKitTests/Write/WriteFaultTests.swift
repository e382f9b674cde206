import Foundation
import Testing

@testable import FeedsiteKit

#if canImport(Glibc)
    import Glibc
#endif

/// A build that fails while writing (a full disk, an I/O error) leaves the live site as it was,
/// leaves nothing that a later build mistakes for a whole site, and does not stop the next build
/// that fits.
@Suite("Write faults", .serialized)
struct WriteFaultTests {
    /// A page of `kilobytes` kB of `letter`.
    static func page(_ letter: Character, kilobytes: Int) -> Data {
        Data(String(repeating: letter, count: kilobytes * 1000).utf8)
    }

    /// Every file below `folder` (path → bytes).
    static func contents(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try? Data(contentsOf: url)
            }
        }
        return result
    }

    @Test("an injected ENOSPC mid-write: exit 74, the live site intact, no partial previous site, the next build works")
    func injectedFullDisk() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let site = root.appendingPathComponent("Site")
        let first = ["index.html": Data("one".utf8), "items/a/index.html": Data("a".utf8)]
        _ = try await SiteWriter().write(first, to: site)
        _ = try await SiteWriter().write(first, to: site)
        let live = Self.contents(site)
        // The disk fills up while the third item is written.
        let full = SiteWriter(injectingFailure: { $0 == "items/d/index.html" ? ENOSPC : nil })
        var second = first
        for item in ["b", "c", "d"] { second["items/\(item)/index.html"] = Data(item.utf8) }
        second["index.html"] = Data("two".utf8)
        let error = await #expect(throws: SiteWriter.WriteError.self) { try await full.write(second, to: site) }
        #expect(error?.exitStatus == .ioError)
        #expect(error?.description.contains("No space left on device") == true)
        #expect(Self.contents(site) == live)
        // Nothing left that holds the failed build's pages: no staging folder, no previous site
        // made of it (the previous site it started from was consumed, and went with it).
        let entries = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(entries == ["Site"])
        // The next build succeeds and holds exactly its own pages.
        let third = ["index.html": Data("three".utf8), "items/e/index.html": Data("e".utf8)]
        #expect(try await SiteWriter().write(third, to: site).totalFiles == 2)
        #expect(Self.contents(site).filter { !$0.key.hasPrefix(".") } == third)
        #expect(try await SiteWriter().write(third, to: site).changedFiles == 0)
    }

    @Test("a failed commit (a copied file that cannot be written) leaves the live site and no staging folder")
    func injectedFailureInCopy() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let site = root.appendingPathComponent("Site")
        let source = root.appendingPathComponent("state.json")
        try Data("{}".utf8).write(to: source)
        _ = try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        let live = Self.contents(site)
        let failing = SiteWriter(injectingFailure: { $0 == "status/state.json" ? EIO : nil })
        var staging = try await failing.begin(site)
        try await staging.add(["index.html": Data("two".utf8)])
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await staging.addFile(copying: source.path, as: "status/state.json")
        }
        #expect(error?.exitStatus == .ioError)
        await staging.discard()
        #expect(Self.contents(site) == live)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["Site", "state.json"])
    }

    @Test(
        "a real full disk (tmpfs): the failed build frees its space, the live site stays, the next build that fits succeeds",
        .enabled(if: SmallFilesystem.isAvailable, SmallFilesystem.unavailableReason))
    func realFullDisk() async throws {
        let disk = try SmallFilesystem(bytes: 1 << 20)
        defer { disk.unmount() }
        let site = disk.mountPoint.appendingPathComponent("Site")
        // 1: a site of about 300 kB.
        let first = ["index.html": Self.page("1", kilobytes: 1), "items/a/index.html": Self.page("a", kilobytes: 300)]
        _ = try await SiteWriter().write(first, to: site)
        let live = Self.contents(site)
        // 2: three new 300 kB pages do not fit beside the live site.
        var second = ["index.html": Self.page("2", kilobytes: 1)]
        for item in ["b", "c", "d"] { second["items/\(item)/index.html"] = Self.page(Character(item), kilobytes: 300) }
        let error = await #expect(throws: SiteWriter.WriteError.self) { try await SiteWriter().write(second, to: site) }
        #expect(error?.exitStatus == .ioError)
        #expect(error?.description.contains("No space left on device") == true)
        #expect(Self.contents(site) == live)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.mountPoint.path).sorted() == ["Site"])
        // The failed build's pages are gone: only the live site uses the disk.
        #expect(disk.usedBytes < 400_000, "\(disk.usedBytes) bytes in use")
        // 3 and 4: sites that fit beside the live one are built (again and again).
        for (round, letter) in ["e", "f", "g"].enumerated() {
            let next = [
                "index.html": Self.page(Character("\(round + 3)"), kilobytes: 1),
                "items/\(letter)/index.html": Self.page(Character(letter), kilobytes: 300),
            ]
            await #expect(throws: Never.self, "round \(round)") { try await SiteWriter().write(next, to: site) }
            #expect(Self.contents(site).filter { !$0.key.hasPrefix(".") } == next)
        }
    }
}
