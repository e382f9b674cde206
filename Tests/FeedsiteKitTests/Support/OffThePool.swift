import Foundation

/// Runs `work` on a Dispatch thread and waits for it without holding a thread of the cooperative
/// pool (one per core): for a test's long synchronous work.
func offThePool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}
