import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One build at a time per state folder: held from before the state is read until the build has
/// published, so two builds started together (a scheduled one and one by hand, `serve` and a
/// build) run one after the other. Each then starts from the state the other saved: neither
/// fetches with stale validators, and neither's new items or health are lost under the other's.
///
/// An advisory lock (`flock`) on `lock` in the state folder: the system releases it when the
/// holder exits however it ends, so a killed build never leaves it held. The file itself stays.
package final class StateLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The lock file's name in the state folder.
    static let fileName = "lock"

    /// How often a waiting build asks again.
    static let pollInterval: Duration = .milliseconds(100)

    /// Takes the lock of `store`'s folder (creating the folder when missing), waiting while
    /// another build holds it; `waiting` is called once, when a wait begins.
    ///
    /// - Throws: `StateError` when the folder or the lock file cannot be made; `CancellationError`
    ///   when the build is stopped while it waits.
    static func acquire(for store: StateStore, waiting: (String) -> Void) async throws -> StateLock {
        try store.createFolder()
        let path = store.directory.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw StateError(.refused, path: path, "cannot open the build lock: " + StateError.reason(errno: errno))
        }
        let lock = StateLock(descriptor: descriptor)
        var hasSaid = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw StateError(.refused, path: path, "cannot take the build lock: " + StateError.reason(errno: errno))
            }
            if !hasSaid {
                waiting(
                    "another feedsite build is using the state folder \(store.directory.path); waiting for it to finish"
                )
                hasSaid = true
            }
            try await Task.sleep(for: pollInterval)
        }
        return lock
    }
}
