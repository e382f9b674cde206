import Foundation

/// When failed feeds stop a build from replacing the site (`--max-failed`, `--strict`).
package enum FailurePolicy: Sendable, Hashable, CustomStringConvertible {
    /// Only when every feed failed (the default: a partial site beats a stale one).
    case allFailed
    /// When more than this many feeds failed (`--max-failed 3`; `--strict` is 0).
    case count(Int)
    /// When more than this percentage of feeds failed (`--max-failed 20%`).
    case percent(Double)

    /// Parses `N` or `P%`.
    package init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("%"), let value = Double(text.dropLast()), (0...100).contains(value) {
            self = .percent(value)
        } else if let value = Int(text), value >= 0 {
            self = .count(value)
        } else {
            return nil
        }
    }

    /// True when `failed` of `total` feeds is too many.
    package func isCrossed(failed: Int, total: Int) -> Bool {
        guard total > 0 else { return false }
        switch self {
        case .allFailed: return failed == total
        case .count(let limit): return failed > limit
        case .percent(let limit): return Double(failed) * 100 > limit * Double(total)
        }
    }

    var limitDescription: String {
        switch self {
        case .allFailed: return "every feed failed"
        case .count(0): return "--strict allows none"
        case .count(let limit): return "--max-failed allows \(limit)"
        case .percent(let limit): return "--max-failed allows \(String(format: "%g", limit))%"
        }
    }

    package var description: String { limitDescription }
}
