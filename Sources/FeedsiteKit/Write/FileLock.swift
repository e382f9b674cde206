import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock (`flock`) on an open file or folder, held until this value goes; the system
/// releases it when its process exits, however it ends. Every process on the machine sees it,
/// whatever its pid namespace; on NFS, where Linux takes it as a POSIX lock, every machine sees a
/// lock on a file opened for writing (a folder, opened to read, cannot be locked there).
package final class FileLock: Sendable {
    /// The file, open and locked; -1 for a lock that holds nothing.
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// A lock that holds nothing: where the file system keeps no locks.
    static var unheld: FileLock { FileLock(descriptor: -1) }

    enum Attempt {
        case taken(FileLock)
        /// Another open file (of this process or another) holds it.
        case held
        /// The file cannot be opened, or its file system keeps no locks: `errno`'s code.
        case failed(Int32)
    }

    /// How often a build waiting for another's lock asks again.
    static let pollInterval: Duration = .milliseconds(100)

    /// Asks `attempt` every `pollInterval` until it answers; `waiting` hears `message` once, when
    /// the first wait begins.
    ///
    /// - Throws: what `attempt` throws; `CancellationError` when the task is stopped while it waits.
    static func poll<Value>(
        saying message: String, to waiting: (String) -> Void, _ attempt: () throws -> Value?
    ) async throws -> Value {
        var hasSaid = false
        while true {
            if let value = try attempt() { return value }
            if !hasSaid {
                waiting(message)
                hasSaid = true
            }
            try await Task.sleep(for: pollInterval)
        }
    }

    /// Opens `path` with `flags` (and `O_CLOEXEC`; a file it creates gets mode 644) and locks it
    /// without waiting.
    static func attempt(_ path: String, flags: Int32) -> Attempt {
        let descriptor = open(path, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .failed(errno) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            return code == EWOULDBLOCK ? .held : .failed(code)
        }
        return .taken(FileLock(descriptor: descriptor))
    }
}

/// A build's claim on its staging folder (`.Site.new-<pid>`): a `FileLock` on the folder itself,
/// held for as long as the build writes there.
///
/// The pid in the folder's name says whose it is only within one pid namespace: builds in two
/// containers that share an output folder can both be pid 1, and each would take the other's
/// folder for its own or for a dead build's and delete it. The lock is seen across namespaces and
/// never outlives its holder. Where a folder cannot be locked (a file system that keeps no locks,
/// NFS) the claim holds nothing, and the pid alone decides, as before.
enum FolderClaim {
    private static let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW

    /// Claims the folder at `path` (not followed if a link); nil when another process holds it.
    /// A folder that cannot be opened or locked gets a claim that holds nothing: the callers check
    /// what the folder is by other means.
    static func claim(_ path: String) -> FileLock? {
        switch FileLock.attempt(path, flags: flags) {
        case .taken(let lock): lock
        case .held: nil
        case .failed: FileLock.unheld
        }
    }

    /// Claims a folder this build has just made: a moment's patience, since another build may be
    /// testing the lock (`isHeld`) just then. Nil when another process holds it after a second.
    /// Nil too when the folder is gone or is no longer a folder (another build deleted it).
    static func claimMade(_ path: String) async -> FileLock? {
        for attempt in 0..<100 {
            switch FileLock.attempt(path, flags: flags) {
            case .taken(let lock): return lock
            case .failed(let code): return [ENOENT, ENOTDIR, ELOOP].contains(code) ? nil : FileLock.unheld
            case .held: if attempt < 99 { try? await Task.sleep(for: .milliseconds(10)) }
            }
        }
        return nil
    }

    /// Whether a running process (of any pid namespace) holds a claim on the folder at `path`.
    static func isHeld(_ path: String) -> Bool {
        if case .held = FileLock.attempt(path, flags: flags) { return true }
        return false
    }
}
