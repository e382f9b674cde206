import Foundation

/// What one build did: per-feed records, every diagnostic, and what was written where.
public struct BuildReport: Sendable {
    /// One per configured feed, in `feeds.yml` order.
    public var records: [FeedRecord]
    /// Configuration and state warnings, per-feed failures, advice and parse warnings.
    public var diagnostics: [Diagnostic]
    public var itemCount: Int
    public var pageCount: Int
    public var write: SiteWriter.Report?
    public var outputDirectory: URL
    /// Wall time of each stage, in order.
    public var timings: [(stage: String, duration: Duration)] = []
    /// Why the published state could not be restored, when `--allow-fresh-state` let the build go
    /// on without the site's history.
    public var stateNotRestored: String?

    public var failedFeedCount: Int { records.filter { $0.failure != nil }.count }
    public var newItemCount: Int { records.map(\.newItemCount).reduce(0, +) }

    /// `built 212 pages from 5 of 6 feeds (197 items, 3 new) into Site (14 of 214 files changed)`.
    public var summary: String {
        let okFeeds = records.count - failedFeedCount
        var text =
            "built \(pageCount) pages from \(okFeeds) of \(records.count) feeds (\(itemCount) items, \(newItemCount) new) into \(outputDirectory.path)"
        if let write {
            text += " (\(write.changedFiles) of \(write.totalFiles) files changed)"
        }
        if stateNotRestored != nil {
            text += "; the state was not restored, so the site's history starts afresh"
        }
        return text
    }

    /// Per-feed diagnostics, worded for the person who maintains `feeds.yml`.
    static func diagnostics(for records: [FeedRecord], configFile: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for record in records {
            let source = record.source
            func warn(_ message: String) {
                diagnostics.append(.warning(file: configFile, line: source.line, message))
            }
            if let moved = record.run.info?.permanentRedirect {
                warn("\(source.url.absoluteString) moved permanently to \(moved.absoluteString): update it")
            }
            for notice in record.run.notices { warn(notice) }
            if let failure = record.failure {
                var message = "\(source.label): \(failure)"
                let kept = record.itemCount
                if kept > 0 {
                    let since = record.state.health.lastSuccess.map { "from \(DayFormat.string($0))" } ?? "from before"
                    message += "; kept \(kept) items \(since)"
                }
                warn(message)
                if record.run.status == 410 {
                    warn("\(source.url.absoluteString) is gone (HTTP 410): remove it from \(configFile)")
                }
            }
            for warning in record.warnings { warn("\(source.label): \(warning)") }
            if record.failure == nil, case .fresh(let read) = record.run.outcome, read.entries.isEmpty {
                warn("\(source.label): the feed has no items")
            }
        }
        return diagnostics
    }
}

/// `2026-11-19`, in UTC: the day granularity people read in warnings and stale notes.
enum DayFormat {
    static func string(_ date: Date) -> String {
        let components = calendar.dateComponents([.year, .month, .day], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(components.year ?? 1970)-\(two(components.month))-\(two(components.day))"
    }

    /// Midnight UTC of the day `date` falls on.
    static func startOfDay(_ date: Date) -> Date {
        calendar.startOfDay(for: date)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}
