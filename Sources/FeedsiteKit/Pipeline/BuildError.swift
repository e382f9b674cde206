import Foundation

/// Why a build did not replace the site.
public enum BuildError: Error, Sendable, CustomStringConvertible {
    /// Every feed failed; the previous site was left as it was rather than replaced by an empty one.
    case nothingToPublish(BuildReport)

    public var description: String {
        switch self {
        case .nothingToPublish(let report):
            return "error: all \(report.feeds.count) feeds failed; \(report.outputDirectory.path) was left unchanged"
        }
    }
}
