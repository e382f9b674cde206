import FeedsiteShared
import Foundation

extension SiteState {
    /// Moves the saved state of a feed to its new `feeds.yml` URL when the user followed advice:
    /// a web page replaced by the feed it links to, or a URL replaced by where it redirected. A
    /// feed without saved state takes over the state of a feed no longer configured whose
    /// discovered or final URL it is, so its items keep their slugs and first-seen dates.
    ///
    /// - Returns: (old URL, new URL) for each feed moved.
    @discardableResult
    package mutating func adoptMovedFeeds(_ sources: [FeedSource]) -> [(from: String, to: String)] {
        let configured = Set(sources.map(\.url.absoluteString))
        var orphans: [String: String] = [:]
        for key in feeds.keys.sorted() where !configured.contains(key) {
            guard let feed = feeds[key] else { continue }
            for url in [feed.discoveredURL, feed.finalURL].compactMap({ $0 }) where url != key {
                let identity = Site.normalisedIdentity(url)
                if orphans[identity] == nil { orphans[identity] = key }
            }
        }
        guard !orphans.isEmpty else { return [] }
        var moved: [(from: String, to: String)] = []
        for source in sources where feeds[source.url.absoluteString] == nil {
            let url = source.url.absoluteString
            guard let old = orphans[Site.normalisedIdentity(url)], var feed = feeds[old] else { continue }
            feeds[old] = nil
            // The validators came from the feed now configured (read directly, or redirected to):
            // they stay.
            feed.discoveredURL = nil
            feeds[url] = feed
            moved.append((old, url))
        }
        return moved
    }

    /// The model stage's first half: folds this run's outcomes into the remembered state.
    ///
    /// Pure. A feed that failed keeps its last good items (marked stale); a fresh read replaces the
    /// feed's current items while older ones stay for `keep_days`; a 304 changes nothing. Feeds no
    /// longer in `feeds.yml` are forgotten.
    ///
    /// - Returns: one record per configured feed, in `feeds.yml` order.
    package mutating func merge(_ runs: [FeedRun], configuration: SiteConfiguration, now: Date) -> [FeedRecord] {
        var records: [FeedRecord] = []
        var kept: [String: FeedState] = [:]
        for run in runs {
            let key = run.source.url.absoluteString
            guard feeds[key] != nil || run.outcome != .skipped else {
                // Never fetched: no slug (it would come from the host, not the title) and no
                // state, so the first build that fetches it treats it as new.
                records.append(
                    FeedRecord(
                        source: run.source, state: FeedState(), run: run, isStale: false, newItemCount: 0,
                        failure: nil, warnings: [], isPending: true))
                continue
            }
            var feed = feeds[key] ?? FeedState()
            if let avatar = run.avatar { feed.avatar = avatar.state }
            var failure: FeedFailure?
            var newItems = 0
            var warnings: [String] = []
            switch run.outcome {
            case .fresh(let read):
                warnings = read.warnings
                let hadItems = feed.items.contains(where: \.isInFeed)
                if read.entries.isEmpty && hadItems {
                    // An empty document where there used to be items is far more often a broken
                    // server than a blog that deleted every post: keep what we had.
                    failure = .emptied(previousCount: feed.items.filter(\.isInFeed).count)
                } else {
                    newItems = Self.replaceCurrentItems(of: &feed, with: read.entries, now: now)
                    feed.channel = read.channel
                    feed.etag = run.etag
                    feed.lastModified = run.lastModified
                    feed.finalURL = run.info?.finalURL.absoluteString
                    feed.discoveredURL = run.discoveredURL?.absoluteString
                }
            case .notModified:
                feed.finalURL = run.info?.finalURL.absoluteString ?? feed.finalURL
            case .failed(let reason):
                failure = reason
            case .skipped:
                break
            }
            // A 304 confirms the last 200: kept as it is, so a warm build leaves the state unchanged.
            if run.outcome != .skipped && run.outcome != .notModified { feed.health.lastStatus = run.status }
            switch run.outcome {
            case .skipped:
                break
            case _ where failure != nil:
                feed.health.consecutiveFailures =
                    min(feed.health.consecutiveFailures, FeedHealth.maxConsecutiveFailures - 1) + 1
                feed.health.lastError = failure?.description
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
            let count = feed.items.count
            feed.items.removeAll { !$0.isInFeed && Self.age(of: $0) < horizon }
            kept[key] = feed
            let isStale =
                failure != nil || (run.outcome == .skipped && feed.health.consecutiveFailures > 0)
            records.append(
                FeedRecord(
                    source: run.source, state: feed, run: run, isStale: isStale && !feed.items.isEmpty,
                    newItemCount: newItems, failure: failure, warnings: warnings,
                    expiredCount: count - feed.items.count))
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
    ///
    /// An entry that reads the same feed as another (`FeedRecord.sameFeeds`: a web page and its
    /// feed, both listed) has no page, so it neither gets a slug nor keeps one: the feed's page
    /// stays where it was whichever entry showed it before.
    private mutating func assignSlugs(_ records: inout [FeedRecord]) {
        let twins = FeedRecord.sameFeeds(records)
        let paged = records.indices.filter { !records[$0].isPending && twins[$0] == nil }
        let feedSlugs = Slug.assign(
            paged.map { (key: records[$0].source.url.absoluteString, text: records[$0].displayName) },
            existing: paged.reduce(into: [:]) { $0[records[$1].source.url.absoluteString] = records[$1].state.slug },
            fallback: "feed")
        // Item slugs are per feed: assigned on all cores (the bulk of the merge's work).
        let itemSlugs = records.concurrentMap { record in
            Slug.assign(
                record.state.items.map { (key: $0.key, text: $0.item.title) },
                existing: record.state.items.reduce(into: [:]) { $0[$1.key] = $1.item.slug }, fallback: "item")
        }
        for index in records.indices where !records[index].isPending {
            let key = records[index].source.url.absoluteString
            records[index].state.slug = feedSlugs[key]
            // The avatar is published as `avatars/<feed-slug>.webp` (or .png), only by a feed with a page.
            if let avatar = records[index].run.avatar {
                let slug = records[index].state.slug
                records[index].state.avatar?.file = avatar.image.flatMap { image in
                    slug.map { "avatars/\($0).\(image.format.rawValue)" }
                }
            }
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
    /// An entry is matched to a saved item by its key. An entry without id that matches none is
    /// then matched by the key an older feedsite gave it (its link, else `title#position`), else by
    /// its link and title: so state saved under the older rule, or an item whose link stopped or
    /// started being shared, keeps its slug and first-seen date. An entry with an id matches only
    /// that id (different ids are different posts). Each saved item is matched at most once.
    ///
    /// - Returns: how many items are new.
    private static func replaceCurrentItems(of feed: inout FeedState, with entries: [ReadFeed.Entry], now: Date) -> Int
    {
        var previous: [String: Int] = [:]
        previous.reserveCapacity(feed.items.count)
        for (index, stored) in feed.items.enumerated() where previous[stored.key] == nil {
            previous[stored.key] = index
        }
        var claimed = [Bool](repeating: false, count: feed.items.count)
        var matches = [Int?](repeating: nil, count: entries.count)
        var unmatchedWithoutID = false
        for (position, entry) in entries.enumerated() {
            if let index = previous[entry.key], !claimed[index] {
                claimed[index] = true
                matches[position] = index
            } else if !entry.hasID {
                unmatchedWithoutID = true
            }
        }
        if unmatchedWithoutID {
            struct LinkAndTitle: Hashable {
                var link: String?
                var title: String
            }
            var byLinkAndTitle: [LinkAndTitle: [Int]] = [:]
            for (index, stored) in feed.items.enumerated() where !claimed[index] {
                byLinkAndTitle[LinkAndTitle(link: stored.item.link, title: stored.item.title), default: []].append(
                    index)
            }
            for (position, entry) in entries.enumerated() where matches[position] == nil && !entry.hasID {
                if let former = entry.formerKey, let index = previous[former], !claimed[index],
                    feed.items[index].item.title == entry.item.title
                {
                    claimed[index] = true
                    matches[position] = index
                } else if let index = byLinkAndTitle[LinkAndTitle(link: entry.item.link, title: entry.item.title)]?
                    .first(where: { !claimed[$0] })
                {
                    claimed[index] = true
                    matches[position] = index
                }
            }
        }
        var current: [StoredItem] = []
        current.reserveCapacity(entries.count + feed.items.count)
        var keys: Set<String> = []
        keys.reserveCapacity(entries.count)
        var newCount = 0
        for (position, entry) in entries.enumerated() {
            var item = entry.item
            let old = matches[position].map { feed.items[$0] }
            if let old {
                item.slug = old.item.slug
            } else {
                newCount += 1
            }
            keys.insert(entry.key)
            current.append(StoredItem(key: entry.key, firstSeen: old?.firstSeen ?? now, isInFeed: true, item: item))
        }
        for (index, stored) in feed.items.enumerated() where !claimed[index] && !keys.contains(stored.key) {
            var stored = stored
            stored.isInFeed = false
            current.append(stored)
        }
        feed.items = current
        return newCount
    }
}
