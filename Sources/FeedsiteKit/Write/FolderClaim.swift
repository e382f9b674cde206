import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A build's claim on its staging folder (`.Site.new-<pid>`): an advisory lock (`flock`) on the
/// folder itself, held for as long as the build writes there, released by the system however the
/// build ends.
///
/// The pid in the folder's name says whose it is only within one pid namespace: builds in two
/// containers that share an output folder can both be pid 1, and each would take the other's
/// folder for its own or for a dead build's and delete it. A lock is seen by every process on
/// the machine (and through NFS), whatever its namespace, and never outlives its holder. On a file
/// system that keeps no locks the claim holds nothing, and the pid alone decides, as before.
package final class FolderClaim: Sendable {
    /// The folder, open and locked; -1 when the file system keeps no locks.
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Claims the folder at `path` (not followed if a link); nil when another process holds it.
    /// A folder that cannot be opened or locked gets a claim that holds nothing: the callers check
    /// what the folder is by other means.
    static func claim(_ path: String) -> FolderClaim? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return FolderClaim(descriptor: -1) }
        switch lock(descriptor) {
        case .taken: return FolderClaim(descriptor: descriptor)
        case .held:
            close(descriptor)
            return nil
        case .unsupported:
            close(descriptor)
            return FolderClaim(descriptor: -1)
        }
    }

    /// Claims a folder this build has just made: a moment's patience, since another build may be
    /// testing the lock (`isHeld`) just then. Nil when another process holds it after a second.
    static func claimMade(_ path: String) async -> FolderClaim? {
        for attempt in 0..<100 {
            if let claim = claim(path) { return claim }
            if attempt < 99 { try? await Task.sleep(for: .milliseconds(10)) }
        }
        return nil
    }

    /// Whether a running process (of any pid namespace) holds a claim on the folder at `path`.
    static func isHeld(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if case .held = lock(descriptor) { return true }
        return false
    }

    private enum Lock { case taken, held, unsupported }

    /// Takes the lock on `descriptor` without waiting.
    private static func lock(_ descriptor: Int32) -> Lock {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK ? .held : .unsupported
        }
        return .taken
    }
}
