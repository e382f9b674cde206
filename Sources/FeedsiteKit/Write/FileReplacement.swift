import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a small file's contents atomically: the bytes go to `.<name>.new-<pid>` beside the
/// file, then are renamed over it, so a reader (or a build killed at any moment) sees the old or
/// the new contents, never a torn file. A link is written through, not replaced (a `feeds.yml`
/// linked from a dotfiles repository stays a link and its target gets the change), and the file
/// keeps its permissions.
///
/// Foundation's `.atomic` writes replace a link with a file, and a killed process leaves its
/// temporary file under a random name (`.dat.nosync…`) that nothing can tell from the user's.
/// The name here carries the pid, so `isLeftover(_:in:)` finds a dead process's and only that.
enum FileReplacement {
    /// The temporary file's name for `name` in this process.
    static func temporaryName(for name: String, pid: pid_t = getpid()) -> String {
        ".\(name).new-\(pid)"
    }

    /// Whether `entry` is the temporary file of one of `names` written by a process that is no
    /// longer running (or whose pid was handed on since): safe to delete.
    static func isLeftover(_ entry: String, of names: [String], in folder: String) -> Bool {
        for name in names {
            let prefix = ".\(name).new-"
            guard entry.hasPrefix(prefix), let pid = pid_t(entry.dropFirst(prefix.count)), pid > 0 else { continue }
            return pid != getpid() && !LeftoverOwner.mayBeRunning(pid, owning: folder + "/" + entry)
        }
        return false
    }

    /// Writes `data` as the new contents of `file`.
    static func replace(_ file: URL, with data: Data) throws(WriteFailure) {
        let target = OutputFolder.realPath(file.path) ?? file.path
        let folder = OutputFolder.parent(of: target)
        let temporary = folder + "/" + temporaryName(for: OutputFolder.name(of: target))
        var mode: mode_t = 0o644
        var info = stat()
        if stat(target, &info) == 0 { mode = info.st_mode & 0o7777 }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw WriteFailure(path: temporary, errno: errno) }
        var failure: WriteFailure?
        // `open` applies the umask; the file keeps the mode it had.
        if fchmod(descriptor, mode) != 0 { failure = WriteFailure(path: temporary, errno: errno) }
        data.withUnsafeBytes { bytes in
            var offset = 0
            while failure == nil, offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = WriteFailure(path: temporary, errno: errno)
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = WriteFailure(path: temporary, errno: errno) }
        if close(descriptor) != 0, failure == nil { failure = WriteFailure(path: temporary, errno: errno) }
        if failure == nil, rename(temporary, target) != 0 { failure = WriteFailure(path: target, errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Why a replacement failed: the path and the system's reason.
    struct WriteFailure: Error, CustomStringConvertible {
        var path: String
        var reason: String

        init(path: String, errno code: Int32) {
            self.path = path
            reason = String(cString: strerror(code))
        }

        var description: String { "\(path): \(reason)" }
    }
}
