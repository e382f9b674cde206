import FeedsiteShared
import Foundation

/// What one build did: per-feed records, every diagnostic, and what was written where.
package struct BuildReport: Sendable {
    /// One per configured feed, in `feeds.yml` order.
    package var records: [FeedRecord]
    /// Configuration and state warnings, per-feed failures, advice and parse warnings.
    package var diagnostics: [Diagnostic]
    package var itemCount: Int
    package var pageCount: Int
    package var write: SiteWriter.Report?
    package var outputDirectory: URL
    /// Wall time of each stage, in order.
    package var timings: [(stage: String, duration: Duration)] = []
    /// Why the published state could not be restored, when `--allow-fresh-state` let the build go
    /// on without the site's history.
    package var stateNotRestored: String?
    /// What became of each feed's items, in `feeds.yml` order (empty when the site was not
    /// assembled: the build stopped, or nothing changed and rendering was skipped).
    package var accounts: [FeedAccount] = []
    /// Why the site was not replaced (the failure threshold was crossed); nil when it was.
    package var stopReason: String?
    /// Whether the output folder held a site when the build began (what a stopped build keeps).
    var hadSite = true

    package var failedFeedCount: Int { records.filter { $0.failure != nil }.count }
    package var newItemCount: Int { records.map(\.newItemCount).reduce(0, +) }

    /// `1 new entry`, `3 new entries`: entries first seen in a feed (some may be dropped, so not shown).
    static func newEntries(_ count: Int) -> String { count == 1 ? "1 new entry" : "\(count) new entries" }
    /// `1 item`, `197 items`.
    static func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }
    /// Feeds this build fetched (`--offline` and `serve`'s re-renders fetch none or only new ones).
    package var fetchedFeedCount: Int { records.filter(\.isFetched).count }

    /// `built 212 pages from 5 of 6 feeds (197 items, 3 new) into Site (14 of 214 files changed)`;
    /// `rendered … from saved state` when nothing was fetched; the failure when the build stopped.
    package var summary: String {
        if let stopReason { return "error: site not updated: \(stopReason)" }
        let fetched = fetchedFeedCount
        let okFeeds = records.filter { $0.isFetched && $0.failure == nil }.count
        var text: String
        if fetched == 0 {
            text =
                "rendered \(pageCount) pages from saved state (no feed fetched in this build; \(Self.items(itemCount))) into \(outputDirectory.path)"
        } else if fetched < records.count {
            text =
                "built \(pageCount) pages from \(okFeeds) of \(fetched) fetched feeds and \(records.count - fetched) from saved state (\(Self.items(itemCount)) on the site; \(Self.newEntries(newItemCount)) in the feeds) into \(outputDirectory.path)"
        } else {
            text =
                "built \(pageCount) pages from \(okFeeds) of \(records.count) feeds (\(Self.items(itemCount)) on the site; \(Self.newEntries(newItemCount)) in the feeds) into \(outputDirectory.path)"
        }
        if let write {
            text += " (\(write.changedFiles) of \(write.totalFiles) files changed)"
        }
        if stateNotRestored != nil {
            text += "; the state was not restored, so the site's history starts afresh"
        }
        return text
    }

    /// The most warnings printed for one feed (a feed with an unreadable date on each of its
    /// thousands of items would bury every other line); the rest are counted in one more line.
    static let maxWarningsPerFeed = 20

    /// Per-feed diagnostics, worded for the person who maintains `feeds.yml`; a feed is named by
    /// its title once known.
    static func diagnostics(for records: [FeedRecord], configFile: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let sameFeeds = FeedRecord.sameFeeds(records)
        for (index, record) in records.enumerated() {
            let source = record.source
            func warn(_ message: String) {
                diagnostics.append(.warning(file: configFile, line: source.line, message))
            }
            if let moved = record.run.info?.permanentRedirect {
                warn("\(source.url.absoluteString) moved permanently to \(moved.absoluteString): update it")
            }
            for notice in record.run.notices { warn(notice) }
            if let original = sameFeeds[index] {
                let other = records[original]
                let line = other.source.line.map { "line \($0)" } ?? "another entry"
                warn(
                    "\(record.label) reads the same feed as \(line) (\(other.feedURL.absoluteString)); its items are shown there: remove one of the two"
                )
            }
            if record.isPending {
                warn("\(record.label): not fetched yet (added while builds do not fetch); it is shown once fetched")
            }
            if let failure = record.failure {
                var message = "\(record.label): \(failure)"
                let kept = record.itemCount
                if kept > 0 {
                    let since = record.state.health.lastSuccess.map { "from \(DayFormat.string($0))" } ?? "from before"
                    message += "; kept \(kept) items \(since)"
                }
                if record.run.status == 410 {
                    message += "; the feed is gone: remove it from \(configFile)"
                }
                warn(message)
            }
            for warning in record.warnings.prefix(Self.maxWarningsPerFeed) { warn("\(record.label): \(warning)") }
            if record.warnings.count > Self.maxWarningsPerFeed {
                warn(
                    "\(record.label): \(record.warnings.count - Self.maxWarningsPerFeed) more warnings; the status page,"
                        + " and `feedsite parse \(source.url.absoluteString)`, list them all")
            }
            if record.failure == nil, case .fresh(let read) = record.run.outcome, read.entries.isEmpty {
                warn("\(record.label): the feed has no items")
            }
        }
        return diagnostics
    }
}
