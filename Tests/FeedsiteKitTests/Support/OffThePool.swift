import Foundation

/// Runs `work` on a Dispatch thread and waits for it without holding a thread of the cooperative
/// pool (one per core): for a test's long synchronous work. One such work at a time, on one
/// serial queue: on the global queue the ten cases of a 40-second test ran at once, on ten
/// threads of a 2-core machine, and every other test waited minutes for a core (CI27a: tests
/// with a one-minute limit failed after four).
func offThePool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        offThePoolQueue.async { continuation.resume(returning: work()) }
    }
}

private let offThePoolQueue = DispatchQueue(label: "feedsite.tests.off-the-pool")
