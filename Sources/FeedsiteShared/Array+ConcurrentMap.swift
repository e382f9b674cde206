import Foundation
import Synchronization

extension Array where Element: Sendable {
    /// `map` on every core, results in order, for synchronous work that would otherwise keep one
    /// core idle: the model stage's per-feed slugs and duplicate identities (between the parallel
    /// read and render stages) and the listing of the previous site's folders. `transform` must not
    /// depend on the order it runs in, so the result is the same as `map`'s.
    package func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        let results = Mutex([Result?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = transform(self[index])
            results.withLock { $0[index] = result }
        }
        // Every iteration ran (concurrentPerform returns when all have), so nothing is dropped.
        return results.withLock { $0.compactMap { $0 } }
    }
}
