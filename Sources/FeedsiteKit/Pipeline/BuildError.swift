import Foundation

/// Why a build did not replace the site.
public enum BuildError: Error, Sendable, CustomStringConvertible {
    /// More feeds failed than the failure policy allows; the previous site was left as it was.
    case tooManyFailures(BuildReport, FailurePolicy)
    /// `--offline` with no saved state: there is nothing to render.
    case nothingSaved(stateFile: String)
    /// The output folder (or the staging folder beside it) cannot be created or is refused.
    case outputFolder(SiteWriter.WriteError)
    /// The published state (`--restore-state`, `state_url`) exists but could not be restored (too
    /// large, unreadable, the server down): building would publish a `status/state.json` without
    /// the site's history, so nothing was built (`--allow-fresh-state` builds anyway).
    case stateNotRestored(origin: String, reason: String)

    public var description: String { "error: \(message)" }

    /// The description without `error: `, for annotations and summaries.
    public var message: String {
        switch self {
        case .tooManyFailures(let report, let policy):
            return Self.tooManyFailuresMessage(report, policy)
        case .nothingSaved(let stateFile):
            return "--offline needs saved state, but \(stateFile) does not exist; run one build without --offline first"
        case .outputFolder(let error):
            return "\(error.path): \(error.message)"
        case .stateNotRestored(let origin, let reason):
            return
                "cannot restore the state from \(origin): \(reason). Nothing was built: the site would lose its history (kept items, first-seen dates). Fix the URL or the server and run again, or pass --allow-fresh-state to build without the history"
        }
    }

    /// `2 of 2 feeds failed (every feed failed: 'A': HTTP 404 Not Found; 'B': …); Site was left
    /// unchanged`: what happened, why (each failed feed's reason, the first five), and what was kept.
    static func tooManyFailuresMessage(_ report: BuildReport, _ policy: FailurePolicy) -> String {
        let failed = report.records.filter { $0.failure != nil }
        var reasons = failed.prefix(5).map { "'\($0.displayName)': \($0.failure ?? "")" }
        if failed.count > 5 { reasons.append("and \(failed.count - 5) more") }
        return
            "\(failed.count) of \(report.records.count) feeds failed (\(policy.limitDescription)): \(reasons.joined(separator: "; ")); \(report.outputDirectory.path) was left unchanged"
    }
}

extension BuildError: ExitStatusError {
    public var exitStatus: ExitStatus {
        switch self {
        case .tooManyFailures: .feedsFailed
        case .nothingSaved: .usage
        case .outputFolder: .cannotCreate
        case .stateNotRestored: .feedsFailed
        }
    }
}

/// When failed feeds stop a build from replacing the site (`--max-failed`, `--strict`).
public enum FailurePolicy: Sendable, Hashable, CustomStringConvertible {
    /// Only when every feed failed (the default: a partial site beats a stale one).
    case allFailed
    /// When more than this many feeds failed (`--max-failed 3`; `--strict` is 0).
    case count(Int)
    /// When more than this percentage of feeds failed (`--max-failed 20%`).
    case percent(Double)

    /// Parses `N` or `P%`.
    public init?(argument: String) {
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
    public func isCrossed(failed: Int, total: Int) -> Bool {
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

    public var description: String { limitDescription }
}
