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
/// A `FileLock` on `lock` in the state folder: the system releases it when the holder exits
/// however it ends, so a killed build never leaves it held. The file itself stays.
package enum StateLock {
    /// The lock file's name in the state folder.
    static let fileName = "lock"

    /// Takes the lock of `store`'s folder (creating the folder when missing), waiting while
    /// another build holds it; `waiting` is called once, when a wait begins. The lock is held
    /// until the value returned goes.
    ///
    /// - Throws: `StateError` when the folder or the lock file cannot be made; `CancellationError`
    ///   when the build is stopped while it waits.
    static func acquire(for store: StateStore, waiting: (String) -> Void) async throws -> FileLock {
        try store.createFolder()
        let path = store.directory.appendingPathComponent(fileName).path
        let message =
            "another feedsite build is using the state folder \(store.directory.path); waiting for it to finish"
        return try await FileLock.poll(saying: message, to: waiting) {
            switch FileLock.attempt(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW) {
            case .taken(let lock): return lock
            case .held: return nil
            case .failed(let code):
                throw StateError(
                    .refused, path: path, "cannot open or lock the build lock file: " + StateError.reason(errno: code))
            }
        }
    }
}
