import Foundation

/// One feed after this run's outcome was merged into what was remembered: what the site shows
/// for it and what the status page says about it.
public struct FeedRecord: Sendable, Hashable {
    public var source: FeedSource
    /// The remembered state after this run.
    public var state: FeedState
    public var run: FeedRun
    /// True when this run did not refresh the feed and older items are shown instead.
    public var isStale: Bool
    /// Items this run saw for the first time.
    public var newItemCount: Int
    /// Why this run failed the feed (nil when it did not).
    public var failure: String?
    /// Parse warnings from this run.
    public var warnings: [String]
    /// The saved item count when the items themselves were not loaded (a build that changed
    /// nothing skips them); nil once `state.items` holds them.
    var unloadedItemCount: Int?

    /// Items kept for the feed.
    public var itemCount: Int { unloadedItemCount ?? state.items.count }

    /// "unchanged since 2026-11-19: HTTP 503" for a stale feed, nil otherwise.
    public var staleNote: String? {
        guard isStale else { return nil }
        let since = state.health.lastSuccess.map { "unchanged since \(DayFormat.string($0))" } ?? "not refreshed"
        return "\(since): \(failure ?? state.health.lastError ?? "the last fetch failed")"
    }

    /// The name from `feeds.yml`, else the channel's title, else the host.
    public var displayName: String {
        if let name = source.name, !name.isEmpty { return name }
        if !state.channel.title.isEmpty { return state.channel.title }
        return source.url.host ?? source.url.absoluteString
    }
}

extension SiteState {
    /// The model stage's first half: folds this run's outcomes into the remembered state.
    ///
    /// Pure. A feed that failed keeps its last good items (marked stale); a fresh read replaces the
    /// feed's current items while older ones stay for `keep_days`; a 304 changes nothing. Feeds no
    /// longer in `feeds.yml` are forgotten.
    ///
    /// - Returns: one record per configured feed, in `feeds.yml` order.
    public mutating func merge(_ runs: [FeedRun], configuration: SiteConfiguration, now: Date) -> [FeedRecord] {
        var records: [FeedRecord] = []
        var kept: [String: FeedState] = [:]
        for run in runs {
            let key = run.source.url.absoluteString
            var feed = feeds[key] ?? FeedState()
            var failure: String?
            var newItems = 0
            var warnings: [String] = []
            switch run.outcome {
            case .fresh(let read):
                warnings = read.warnings
                let hadItems = feed.items.contains(where: \.isInFeed)
                if read.entries.isEmpty && hadItems {
                    // An empty document where there used to be items is far more often a broken
                    // server than a blog that deleted every post: keep what we had.
                    failure = "the feed has no items now (it had \(feed.items.filter(\.isInFeed).count))"
                } else {
                    newItems = Self.replaceCurrentItems(of: &feed, with: read.entries, now: now)
                    feed.channel = read.channel
                    feed.etag = run.etag
                    feed.lastModified = run.lastModified
                    feed.finalURL = run.info?.finalURL.absoluteString
                }
            case .notModified:
                feed.finalURL = run.info?.finalURL.absoluteString ?? feed.finalURL
            case .failed(let reason):
                failure = reason
            case .skipped:
                break
            }
            switch run.outcome {
            case .skipped:
                break
            case _ where failure != nil:
                feed.health.consecutiveFailures =
                    min(feed.health.consecutiveFailures, FeedHealth.maxConsecutiveFailures - 1) + 1
                feed.health.lastError = failure
            default:
                // Day precision: enough for "unchanged since 2026-11-19", and a warm rebuild on the
                // same day leaves the state and status files byte-for-byte unchanged.
                feed.health.lastSuccess = DayFormat.startOfDay(now)
                feed.health.consecutiveFailures = 0
                feed.health.lastError = nil
            }
            let horizon = Self.keepHorizon(for: run.source, configuration: configuration, now: now)
            // An item's age counts from its date, or from when it was first seen if that is earlier
            // (a future or missing date).
            feed.items.removeAll { !$0.isInFeed && Self.age(of: $0) < horizon }
            kept[key] = feed
            let isStale =
                failure != nil || (run.outcome == .skipped && feed.health.consecutiveFailures > 0)
            records.append(
                FeedRecord(
                    source: run.source, state: feed, run: run, isStale: isStale && !feed.items.isEmpty,
                    newItemCount: newItems, failure: failure, warnings: warnings))
        }
        feeds = kept
        assignSlugs(&records)
        return records
    }

    /// Items no longer in the feed whose age (from their date, or from when they were first seen if
    /// that is earlier) passes this are forgotten: `keep_days` before `now`.
    static func keepHorizon(for source: FeedSource, configuration: SiteConfiguration, now: Date) -> Date {
        let keepDays = source.keepDays ?? configuration.keepDays
        return now.addingTimeInterval(-Double(keepDays) * 86_400)
    }

    /// When a dropped item ages out (`keepHorizon`): the earlier of its date and its first sighting.
    static func age(of stored: StoredItem) -> Date {
        min(stored.item.date ?? stored.firstSeen, stored.firstSeen)
    }

    /// Gives every feed and item a slug, keeping the ones assigned in earlier runs.
    private mutating func assignSlugs(_ records: inout [FeedRecord]) {
        let feedSlugs = Slug.assign(
            records.map { (key: $0.source.url.absoluteString, text: $0.displayName) },
            existing: records.reduce(into: [:]) { $0[$1.source.url.absoluteString] = $1.state.slug },
            fallback: "feed")
        // Item slugs are per feed: assigned on all cores (this was most of the model stage).
        let itemSlugs = records.concurrentMap { record in
            Slug.assign(
                record.state.items.map { (key: $0.key, text: $0.item.title) },
                existing: record.state.items.reduce(into: [:]) { $0[$1.key] = $1.item.slug }, fallback: "item")
        }
        for index in records.indices {
            let key = records[index].source.url.absoluteString
            records[index].state.slug = feedSlugs[key]
            // Taken out of the record (and the state) while the slugs are set, so the array is not shared and is
            // changed in place (writing through the record copied every item of every feed).
            var items = records[index].state.items
            records[index].state.items = []
            feeds[key]?.items = []
            for itemIndex in items.indices {
                items[itemIndex].item.slug = itemSlugs[index][items[itemIndex].key] ?? ""
            }
            records[index].state.items = items
            feeds[key] = records[index].state
        }
    }

    /// Makes `entries` the feed's current items, keeping first-seen times and slugs of items seen
    /// before; items no longer in the feed stay, flagged, until `keep_days` removes them.
    ///
    /// - Returns: how many items are new.
    private static func replaceCurrentItems(of feed: inout FeedState, with entries: [ReadFeed.Entry], now: Date) -> Int
    {
        var previous: [String: StoredItem] = [:]
        for stored in feed.items where previous[stored.key] == nil {
            previous[stored.key] = stored
        }
        var seen: Set<String> = []
        var current: [StoredItem] = []
        var newCount = 0
        for entry in entries where seen.insert(entry.key).inserted {
            var item = entry.item
            let old = previous[entry.key]
            if let old {
                item.slug = old.item.slug
            } else {
                newCount += 1
            }
            current.append(StoredItem(key: entry.key, firstSeen: old?.firstSeen ?? now, isInFeed: true, item: item))
        }
        let dropped = feed.items.filter { !seen.contains($0.key) }.map { stored -> StoredItem in
            var stored = stored
            stored.isInFeed = false
            return stored
        }
        feed.items = current + dropped
        return newCount
    }
}
