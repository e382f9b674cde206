import Foundation

/// Why a build did not replace the site.
package enum BuildError: Error, Sendable, CustomStringConvertible {
    /// More feeds failed than the failure policy allows; the previous site was left as it was.
    case tooManyFailures(BuildReport, FailurePolicy)
    /// `--offline` with no saved state: there is nothing to render. `earlier`: the warnings the
    /// build had given before it stopped (the state's, saying where an unreadable one was kept).
    case nothingSaved(stateFile: String, wasUnreadable: Bool = false, earlier: [Diagnostic] = [])
    /// The output folder (or the staging folder beside it) cannot be created or is refused.
    case outputFolder(SiteWriter.WriteError)
    /// The published state (`--restore-state`, `state_url`) exists but could not be restored (too
    /// large, unreadable, the server down): building would publish a `status/state.json` without
    /// the site's history, so nothing was built (`--allow-fresh-state` builds anyway).
    case stateNotRestored(origin: String, reason: String, earlier: [Diagnostic] = [])
    /// A stage failed for a reason its own error types do not cover (every expected failure is a
    /// `ConfigurationError`, `TemplateError`, `StateError`, `SiteWriter.WriteError` or one of the
    /// cases above); the stage's name says where.
    case stageFailed(BuildStage, reason: String)

    package var description: String { "error: \(message)" }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .nothingSaved(_, _, let earlier), .stateNotRestored(_, _, let earlier): earlier + [.error(message)]
        default: [.error(message)]
        }
    }

    /// The description without `error: `, for annotations and summaries.
    package var message: String {
        switch self {
        case .tooManyFailures(let report, let policy):
            return Self.tooManyFailuresMessage(report, policy)
        case .nothingSaved(let stateFile, let wasUnreadable, _):
            guard wasUnreadable else {
                return
                    "--offline needs saved state, but \(stateFile) does not exist; run one build without --offline first"
            }
            return
                "--offline needs saved state, but \(stateFile) could not be read (the warning above says where it was kept); run one build without --offline to start afresh"
        case .outputFolder(let error):
            return "\(error.path): \(error.message)"
        case .stageFailed(let stage, let reason):
            return "\(stage.rawValue): \(reason)"
        case .stateNotRestored(let origin, let reason, _):
            return
                "cannot restore the state from \(origin): \(reason). Nothing was built: the site would lose its history (kept items, first-seen dates). Fix the URL or the server and run again, or pass --allow-fresh-state to build without the history"
        }
    }

    /// `2 of 2 feeds failed (every feed failed: 'A': HTTP 404 Not Found; 'B': …); Site was left
    /// unchanged`: what happened, why (each failed feed's reason, the first five), and what was kept.
    static func tooManyFailuresMessage(_ report: BuildReport, _ policy: FailurePolicy) -> String {
        let failed = report.records.filter { $0.failure != nil }
        // A feed without a name or title yet is named by its URL: its host alone may be shared.
        var reasons = failed.prefix(5).map { record in
            let name = record.givenName.map { "'\($0)'" } ?? record.source.url.absoluteString
            return "\(name): \(record.failure?.description ?? "")"
        }
        if failed.count > 5 { reasons.append("and \(failed.count - 5) more") }
        // Every feed failed because its host is unknown, and there are several: far more often no
        // network or DNS than several typos.
        let unresolved = Set(failed.compactMap { $0.failure?.unresolvedHost })
        if unresolved.count > 1, failed.count == report.records.count,
            failed.allSatisfy({ $0.failure?.unresolvedHost != nil })
        {
            reasons.append(
                "none of the \(unresolved.count) hosts could be resolved: is this machine offline (no network or DNS)?")
        }
        let folder = report.outputDirectory.path
        let kept = report.hadSite ? "\(folder) was left unchanged" : "no site was written to \(folder)"
        return
            "\(failed.count) of \(report.records.count) feeds failed (\(policy.limitDescription)): \(reasons.joined(separator: "; ")); \(kept)"
    }
}

extension BuildError: ExitStatusError {
    package var exitStatus: ExitStatus {
        switch self {
        case .tooManyFailures: .feedsFailed
        case .nothingSaved: .usage
        case .outputFolder: .cannotCreate
        case .stateNotRestored: .feedsFailed
        case .stageFailed: .ioError
        }
    }
}
