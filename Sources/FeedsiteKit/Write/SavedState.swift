import FeedsiteShared
import Foundation

/// The state a build starts from, as `StateStore` loaded it: every feed's validators, channel,
/// health and slug at once, each feed's items only when they are asked for. A build where every
/// feed answered 304 and nothing else changed needs no items at all (it is skipped); one that
/// renders needs them all, and `loadAllItems` decodes them on every core.
struct SavedState: Sendable {
    /// What was saved; a feed's `items` stay empty until loaded.
    private(set) var state: SiteState
    /// The digest of the saved file, standing for the state in the build fingerprint; nil when the
    /// state must be written again however the build goes (none was saved, or it was restored,
    /// repaired or in an older format).
    private(set) var digest: String?
    /// Feeds whose items are still on disk, and where.
    private var pending: [String: StateIndex.Items]
    /// The file `pending` lies in.
    private let identity: StateIndex.FileIdentity?
    private let store: StateStore?
    private let now: Date
    /// Whether the saved file was kept aside already (after a record was skipped or repaired).
    private var isKeptAside = false
    /// Feeds whose loaded items are exactly what their bytes in the file say (decoded without a
    /// skipped or repaired record), and where those bytes are.
    private var verbatim: [String: StateIndex.Range] = [:]

    init(
        state: SiteState, digest: String? = nil, pending: [String: StateIndex.Items] = [:],
        identity: StateIndex.FileIdentity? = nil, store: StateStore? = nil, now: Date = Date()
    ) {
        self.state = state
        self.digest = digest
        self.pending = pending
        self.identity = identity
        self.store = store
        self.now = now
    }

    /// No saved state: a first build.
    static let none = SavedState(state: SiteState())

    /// How many items each feed has saved, loaded or not.
    var itemCounts: [String: Int] {
        state.feeds.mapValues(\.items.count).merging(pending.mapValues(\.count)) { _, saved in saved }
    }

    /// Feeds whose items have not been loaded, with their saved count.
    var unloadedItemCounts: [String: Int] { pending.mapValues(\.count) }

    var hasUnloadedItems: Bool { !pending.isEmpty }

    /// Whether merging `run` needs the feed's saved items: a fresh read is matched against them, a
    /// failed or offline feed shows them, and a 304 keeps them untouched unless some of them have
    /// aged past `keep_days` (`horizon`).
    func needsItems(for run: FeedRun, horizon: Date) -> Bool {
        guard let items = pending[run.source.url.absoluteString] else { return false }
        guard run.outcome == .notModified else { return true }
        return items.oldestDropped.map { $0 < horizon } ?? false
    }

    /// Decodes the items of `urls` (those not loaded yet), on every core, through the index; when
    /// the file is no longer the one the index describes (touched, edited or replaced during the
    /// build) or a range does not decode, from the whole file instead. Returns warnings for
    /// records that were skipped or repaired, or lost.
    mutating func loadItems(_ urls: [String]) -> [String] {
        let wanted = Array(Set(urls.filter { pending[$0] != nil })).sorted()
        guard !wanted.isEmpty else { return [] }
        guard let store else {
            for url in wanted { lose(url) }
            return ["state.json: the saved items of \(wanted.count) feeds could not be read"]
        }
        let origin = store.file.path
        var unread = wanted
        var warnings: [String] = []
        if let identity, let reader = StateFileReader(store.file, expecting: identity) {
            defer { reader.close() }
            let ranges = pending
            let now = now
            let loaded = wanted.concurrentMap { url -> (items: [StoredItem], warnings: [String])? in
                guard let range = ranges[url]?.range, let bytes = reader.read(range),
                    let list = StateFile.decodeIfBounded(StateFile.ItemList.self, from: bytes, trusted: true)
                else { return nil }
                var items = list.items
                var validator = StateValidator(origin: origin, now: now)
                if let reason = list.unreadable { validator.skippedItems(of: url, reason: reason) }
                validator.skippedItems(list.failures, feed: url)
                validator.validate(&items, feed: url)
                return (items, validator.warnings)
            }
            unread = []
            for (url, result) in zip(wanted, loaded) {
                guard let result else {
                    unread.append(url)
                    continue
                }
                pending[url] = nil
                state.feeds[url]?.items = result.items
                if result.warnings.isEmpty { verbatim[url] = ranges[url]?.range }
                warnings += result.warnings
            }
        }
        var note: String?
        if !unread.isEmpty {
            warnings += loadFromWholeFile(unread, store)
            note =
                "\(origin): the index did not describe the saved state as it is now (the file changed during the build, or the index was edited); read the saved items of \(unread.count) feeds from the whole file"
        }
        if !warnings.isEmpty {
            digest = nil
            if !isKeptAside {
                isKeptAside = true
                warnings.append(store.keepDamaged(now: now))
            }
        }
        return (note.map { [$0] } ?? []) + warnings
    }

    /// The items of `urls` from the whole of `state.json` as it is now, when the index could not
    /// give them: the file was touched or replaced since it was indexed, or a range does not
    /// decode. A feed the file no longer holds, or a file that cannot be read at all, loses its
    /// items, with a warning each.
    private mutating func loadFromWholeFile(_ urls: [String], _ store: StateStore) -> [String] {
        let origin = store.file.path
        digest = nil
        guard case .read(let decoded) = store.readWhole(now: now) else {
            for url in urls { lose(url) }
            return [
                "\(origin): the saved state changed during the build and cannot be read now; the saved items of \(urls.count) feeds are lost (they are fetched afresh)"
            ]
        }
        var warnings = decoded.warnings
        if let failure = decoded.failure {
            let reason =
                switch failure {
                case .unreadable(let reason): reason
                case .newer(let version): "it is state version \(version), newer than this feedsite reads"
                }
            for url in urls { lose(url) }
            return [
                "\(origin): the saved items of \(urls.count) feeds could not be read through the index, nor from the whole file (\(reason)); they are lost (fetched afresh)"
            ]
        }
        for url in urls {
            pending[url] = nil
            guard let feed = decoded.state.feeds[url] else {
                lose(url)
                warnings.append("\(origin): feed \(url): the saved state no longer holds it; its saved items are lost")
                continue
            }
            state.feeds[url]?.items = feed.items
        }
        return warnings
    }

    /// Feeds of `merged` whose items are those saved, byte for byte, in the file they came from.
    struct UnchangedItems: Sendable {
        var identity: StateIndex.FileIdentity
        var ranges: [String: StateIndex.Range]
    }

    /// What `StateStore.save` may copy instead of encoding again: the items of feeds that did not
    /// change since they were loaded (most feeds, in most builds).
    func unchangedItems(in merged: SiteState) -> UnchangedItems? {
        guard let identity else { return nil }
        let ranges = verbatim.filter { url, _ in
            guard let items = merged.feeds[url]?.items else { return false }
            return items == state.feeds[url]?.items
        }
        return ranges.isEmpty ? nil : UnchangedItems(identity: identity, ranges: ranges)
    }

    /// Moves the saved state of feeds that `feeds.yml` now names by another URL
    /// (`SiteState.adoptMovedFeeds`: a web page replaced by its feed, a URL by where it
    /// redirected). A move changes the keys items are found by, so every item is loaded first, and
    /// the moved state is saved again. Returns warnings for records that could not be read.
    mutating func adoptMovedFeeds(_ sources: [FeedSource]) -> [String] {
        var trial = state
        guard !trial.adoptMovedFeeds(sources).isEmpty else { return [] }
        let warnings = loadAllItems()
        state.adoptMovedFeeds(sources)
        digest = nil
        verbatim = [:]
        return warnings
    }

    /// Decodes every feed's items not loaded yet.
    mutating func loadAllItems() -> [String] {
        loadItems(Array(pending.keys))
    }

    /// A feed whose items cannot be read: without them, its validators would bring a 304 and
    /// nothing to show, so they go too.
    private mutating func lose(_ url: String) {
        pending[url] = nil
        state.feeds[url]?.etag = nil
        state.feeds[url]?.lastModified = nil
        digest = nil
    }
}
