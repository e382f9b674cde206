internal import CICURegex
import Synchronization

/// Searches item text with the `exclude:`/`include:` regular expressions of `feeds.yml`, each
/// search bounded in work: ICU (Debian's, through `CICURegex`) backtracks, so a pattern like
/// `(a+)+$` takes exponential time on some text, and item text comes from strangers. A search
/// that uses up its budget gives up instead of hanging the build.
///
/// Not `Sendable`: one per task (ICU's compiled expressions keep their match state). Patterns are
/// compiled on first use and freed with the search. Searches that share `GaveUp` stop trying a
/// pattern once it has given up `GaveUp.limit` times, so a build pays for a backtracking pattern a
/// few times, not once per item.
package final class BoundedSearch {
    /// How often each pattern gave up, shared by the searches of one build.
    package final class GaveUp: Sendable {
        /// Give-ups after which a pattern is no longer tried.
        package static let limit = 4
        private let counts = Mutex<[String: Int]>([:])

        package init() {}

        func isSpent(_ pattern: String) -> Bool { counts.withLock { $0[pattern, default: 0] >= Self.limit } }

        func count(_ pattern: String) { counts.withLock { $0[pattern, default: 0] += 1 } }
    }

    /// How a search ended.
    package enum Outcome: Sendable, Hashable {
        case match
        case noMatch
        /// The budget ran out first: the pattern backtracks too much on this text.
        case gaveUp
    }

    /// The budget in ICU's time-limit units, each about ten thousand steps of the matching engine
    /// (a count, so the same text gives the same outcome on any machine): enough to search 5 MB of
    /// text with an ordinary pattern, and about a second of catastrophic backtracking.
    package static let defaultLimit: Int32 = 4000

    private let limit: Int32
    private let gaveUp: GaveUp
    private var compiled: [String: OpaquePointer?] = [:]

    package init(limit: Int32 = BoundedSearch.defaultLimit, sharing gaveUp: GaveUp = GaveUp()) {
        self.limit = limit
        self.gaveUp = gaveUp
    }

    deinit {
        for case let regex? in compiled.values {
            feedsite_regex_close(regex)
        }
    }

    /// Whether ICU accepts `pattern` (its own compiler, the one that will search with it).
    package static func compiles(_ pattern: String) -> Bool {
        let units = Array(pattern.utf16)
        guard let regex = feedsite_regex_open(units, Int32(units.count)) else { return false }
        feedsite_regex_close(regex)
        return true
    }

    /// Searches `text` for `pattern` anywhere; `.noMatch` for a pattern ICU does not accept (the
    /// configuration loader rejects those first) and for text too long to be searched (over 2³¹
    /// UTF-16 units).
    package func search(_ pattern: String, in text: String) -> Outcome {
        guard !gaveUp.isSpent(pattern) else { return .gaveUp }
        guard let regex = regex(for: pattern) else { return .noMatch }
        let units = Array(text.utf16)
        guard units.count <= Int(Int32.max) else { return .noMatch }
        switch feedsite_regex_search(regex, units, Int32(units.count), limit) {
        case FEEDSITE_REGEX_MATCH: return .match
        case FEEDSITE_REGEX_GAVE_UP:
            gaveUp.count(pattern)
            return .gaveUp
        default: return .noMatch
        }
    }

    private func regex(for pattern: String) -> OpaquePointer? {
        if let known = compiled[pattern] { return known }
        let units = Array(pattern.utf16)
        let regex = feedsite_regex_open(units, Int32(units.count))
        compiled[pattern] = regex
        return regex
    }
}
