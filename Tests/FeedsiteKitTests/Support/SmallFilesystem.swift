import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A size-limited tmpfs mounted for one test, to run out of disk space for real. Needs root and
/// the right to mount (CI runs the tests as root; a container without CAP_SYS_ADMIN cannot).
struct SmallFilesystem {
    let mountPoint: URL

    /// Whether tmpfs can be mounted here (tried once, with a 64 kB one).
    static let isAvailable: Bool = {
        guard let probe = try? SmallFilesystem(bytes: 64 * 1024) else { return false }
        probe.unmount()
        return true
    }()

    /// Why tests that need one are skipped.
    static let unavailableReason: Comment =
        "skipped: cannot mount a size-limited tmpfs here (needs root and permission to mount); the injected-failure tests still cover the fault"

    /// Mounts a tmpfs of `bytes` (rounded up to pages) on a new temporary folder.
    init(bytes: Int) throws {
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
            "feedsite-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", mountPoint.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: mountPoint)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Bytes in use (whole pages).
    var usedBytes: Int {
        var info = statvfs()
        guard statvfs(mountPoint.path, &info) == 0 else { return 0 }
        return Int(info.f_blocks - info.f_bfree) * Int(info.f_frsize)
    }

    /// Makes the file system read-only (what a full disk's emergency remount, or a read-only
    /// volume in a container, gives).
    func remountReadOnly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-o", "remount,ro", mountPoint.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    func unmount() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [mountPoint.path]
        try? process.run()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: mountPoint)
    }
}
