import Foundation

/// What one build did: per-feed outcomes, every diagnostic, and what was written where.
public struct BuildReport: Sendable {
    /// How one feed fared this run.
    public struct FeedOutcome: Sendable, Hashable {
        public var source: FeedSource
        /// Items read, or nil when the feed failed.
        public var itemCount: Int?
        /// Why the feed failed this run, when it did.
        public var failure: String?

        public var succeeded: Bool { failure == nil }
    }

    public var feeds: [FeedOutcome]
    /// Configuration warnings, per-feed failures and parse warnings, in `feeds.yml` order.
    public var diagnostics: [Diagnostic]
    public var itemCount: Int
    public var pageCount: Int
    public var write: SiteWriter.Report?
    public var outputDirectory: URL

    public var failedFeedCount: Int { feeds.filter { !$0.succeeded }.count }

    /// `built 3 pages from 2 of 3 feeds (14 items) into Site/ (5 files changed)`.
    public var summary: String {
        let okFeeds = feeds.count - failedFeedCount
        var text =
            "built \(pageCount) pages from \(okFeeds) of \(feeds.count) feeds (\(itemCount) items) into \(outputDirectory.path)"
        if let write {
            text += " (\(write.changedFiles) of \(write.totalFiles) files changed)"
        }
        return text
    }
}
