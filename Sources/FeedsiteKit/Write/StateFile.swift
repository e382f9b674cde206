import FeedsiteSanitise
import FeedsiteShared
import Foundation

/// The state file's JSON, through `JSONEncoder` and `JSONDecoder` only.
///
/// Version 2, what `StateStore` writes to `state.json` and the site publishes as
/// `status/state.json`:
///
///     {"feeds":{URL: FeedState without its items, …},"items":{URL: [StoredItem, …], …},"version":2}
///
/// Each feed's validators, channel, health and slug come first, in one small object a build where
/// every feed answered 304 decodes alone (`StateIndex` records where each part lies); each feed's
/// items follow as their own array, decoded only when they are needed. Version 1 (feedsite until
/// the items were split off: `{"feeds":{URL: FeedState with items},"version":1}`) is still read.
///
/// Decoding is per record: a feed or item that does not decode is skipped and reported, the rest
/// is kept; `StateValidator` then checks every value.
enum StateFile {
    /// Sorted keys (a Swift struct's keys otherwise come out in a different order in every
    /// process, and equal states must be equal files), ISO dates, `/` unescaped.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// - Parameter trusted: false for state from elsewhere (`--restore-state`): every item's HTML is
    ///   sanitised again while decoding, so a tampered file cannot smuggle markup into the site.
    static func decoder(trusted: Bool) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[SanitisedHTML.isTrustedKey] = trusted
        return decoder
    }

    // MARK: Reading

    /// A whole file as either version writes it, record by record.
    struct Contents: Decodable {
        var version: Int
        var feeds: [String: FeedEntry]
        /// Version 2: each feed's items, by feed URL.
        var items: [String: ItemList]?

        private enum CodingKeys: String, CodingKey { case version, feeds, items }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decode(Int.self, forKey: .version)
            feeds = try container.decode(FeedEntries.self, forKey: .feeds).entries
            items = try container.decodeIfPresent([String: ItemList].self, forKey: .items)
        }
    }

    /// The `feeds` object, counted before anything in it is decoded: each feed costs kilobytes
    /// once decoded, so a file of a million empty feeds took gigabytes.
    struct FeedEntries: Decodable {
        var entries: [String: FeedEntry]

        init(from decoder: any Decoder) throws {
            let count = try decoder.container(keyedBy: RecordKey.self).allKeys.count
            guard count <= StateLimits.feeds else {
                throw RecordError(
                    reason: "it lists \(count) feeds, more than the \(StateLimits.feeds) a state may hold")
            }
            entries = try [String: FeedEntry](from: decoder)
        }
    }

    /// Any key of a JSON object.
    private struct RecordKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Only the version: what a file that is not in a known shape says about itself.
    struct Header: Decodable {
        var version: Int
    }

    /// One feed entry: the feed, or why it could not be read. Never throws, so one bad feed does
    /// not fail the file.
    struct FeedEntry: Decodable {
        var feed: Result<FeedState, RecordError>
        /// Version 1 items inside the feed that could not be read (the rest are in `feed`).
        var itemFailures: [ItemFailure] = []

        init(from decoder: any Decoder) {
            do {
                feed = .success(try FeedState(from: decoder))
            } catch {
                // Version 1 keeps items inside the feed, so one bad item failed the feed above:
                // read it again with its items one at a time.
                if let legacy = try? LegacyFeed(from: decoder) {
                    feed = .success(legacy.feed)
                    itemFailures = legacy.items.failures
                } else {
                    feed = .failure(RecordError(error, below: decoder.codingPath.count))
                }
            }
        }
    }

    /// A feed's items, each decoded on its own: the ones that fail are listed, not fatal.
    struct ItemList: Decodable {
        var items: [StoredItem] = []
        var failures: [ItemFailure] = []
        /// Why the list itself could not be read (it is not a list).
        var unreadable: String?

        init(from decoder: any Decoder) {
            var container: any UnkeyedDecodingContainer
            do {
                container = try decoder.unkeyedContainer()
            } catch {
                unreadable = RecordError(error, below: decoder.codingPath.count).reason
                return
            }
            items.reserveCapacity(min(container.count ?? 0, 1 << 16))
            if let count = container.count, count > StateLimits.itemsPerFeed {
                unreadable =
                    "it lists \(count) items, more than the \(StateLimits.itemsPerFeed) a feed's state may hold"
                return
            }
            while !container.isAtEnd {
                let index = container.currentIndex
                // `LossyItem` never throws; if the container does, it cannot go on.
                guard let lossy = try? container.decode(LossyItem.self) else { break }
                switch lossy.item {
                case .success(let item):
                    items.append(item)
                case .failure(let failure):
                    failures.append(ItemFailure(index: index, key: failure.key, reason: failure.reason))
                }
            }
        }
    }

    /// Why a decoder should not be given `data` (`JSONShape`): nested past the 512 levels
    /// Foundation's parser reads, or more values than a state may hold; nil when neither.
    static func refusal(
        _ data: Data, maxValues: Int = StateLimits.jsonValues, maxDepth: Int = 512
    ) -> String? {
        let shape = JSONShape(data, maxValues: maxValues, maxDepth: maxDepth)
        if shape.depth > maxDepth { return RecordError.tooDeep }
        if shape.values > maxValues {
            return
                "it holds more than \(maxValues) JSON values, the most a state may hold (decoding it would take gigabytes of memory)"
        }
        return nil
    }

    /// `decoder(trusted:)`'s value of `type` from `data`, when `refusal` finds nothing and it
    /// decodes; nil otherwise (the whole file's decode then says why).
    static func decodeIfBounded<T: Decodable>(_ type: T.Type, from data: Data, trusted: Bool) -> T? {
        guard refusal(data) == nil else { return nil }
        return try? decoder(trusted: trusted).decode(type, from: data)
    }

    /// An item that could not be read: where it was, its key if that much was readable, and why.
    struct ItemFailure: Sendable, Hashable {
        var index: Int
        var key: String?
        var reason: String
    }

    /// Why a record did not decode, in words: `'item.wordCount' is not a number`.
    struct RecordError: Error, Sendable {
        var key: String?
        var reason: String

        init(reason: String, key: String? = nil) {
            self.key = key
            self.reason = reason
        }

        /// - Parameter depth: the coding path's length at the record, so paths are given from it.
        init(_ error: any Error, below depth: Int, key: String? = nil) {
            self.key = key
            if let error = error as? RecordError {
                reason = error.reason
                return
            }
            guard let error = error as? DecodingError else {
                reason = Self.describe(error)
                return
            }
            func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
                var text = ""
                for key in context.codingPath.dropFirst(depth) + (last.map { [$0] } ?? []) {
                    if let index = key.intValue {
                        text += "[\(index)]"
                    } else {
                        text += (text.isEmpty ? "" : ".") + key.stringValue
                    }
                }
                return text.isEmpty ? "the record" : "'\(text)'"
            }
            switch error {
            case .typeMismatch(let type, let context):
                reason = "\(path(context)) is not \(Self.name(of: type))"
            case .valueNotFound(let type, let context):
                reason = "\(path(context)) is null, expected \(Self.name(of: type))"
            case .keyNotFound(let key, let context):
                reason = "\(path(context, key)) is missing"
            case .dataCorrupted(let context) where Self.isAboutADate(context):
                // Foundation's path stops at the object holding the date.
                reason = "\(path(context)) holds a date that is not ISO 8601 with a four-digit year"
            case .dataCorrupted(let context) where context.codingPath.count <= depth:
                // Nothing decoded at all: the bytes are not JSON (a cut-off or overwritten file).
                reason =
                    context.underlyingError.map(Self.describe) ?? "it is not valid JSON (cut off or overwritten?)"
            case .dataCorrupted(let context):
                var text = context.debugDescription
                while text.last == "." { text.removeLast() }
                reason = "\(path(context)): \(text)"
            @unknown default:
                reason = Self.describe(error)
            }
        }

        private static func isAboutADate(_ context: DecodingError.Context) -> Bool {
            context.debugDescription.contains("date")
                || context.codingPath.last.map { key in
                    ["date", "firstSeen", "lastSuccess", "checked", "updated"].contains(key.stringValue)
                } ?? false
        }

        static let tooDeep = "arrays or objects nest deeper than JSON readers allow (512 levels)"

        /// Foundation's JSON parser throws its own errors, whose text is a Swift value
        /// (`numberIsNotRepresentableInSwift(parsed: "1e400")`): in words.
        static func describe(_ error: any Error) -> String {
            let text = String(describing: error)
            func quoted(after label: String) -> String {
                guard let start = text.range(of: label + "\"")?.upperBound,
                    let end = text[start...].firstIndex(of: "\"")
                else { return "" }
                return " (" + text[start..<end].prefix(40) + ")"
            }
            if text.hasPrefix("numberIsNotRepresentableInSwift") {
                return "a number cannot be represented\(quoted(after: "parsed: "))"
            }
            if text.hasPrefix("cannotConvertInputStringDataToUTF8") || text.hasPrefix("cannotConvertInputDataToUTF8") {
                return "a string is not valid UTF-8"
            }
            if text.hasPrefix("tooManyNestedArraysOrDictionaries") {
                return tooDeep
            }
            if text.hasPrefix("unexpectedEndOfFile") { return "it is not valid JSON (cut off?)" }
            return "it is not valid JSON (\(text.prefix(160)))"
        }

        private static func name(of type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Int.Type, is Double.Type: "a number"
            case is Bool.Type: "true or false"
            case is Date.Type: "an ISO 8601 date"
            default:
                String(describing: type).hasPrefix("Array") ? "a list" : "an object"
            }
        }
    }

    /// One item of a list, or why it could not be read. Never throws, so the list goes on.
    private struct LossyItem: Decodable {
        var item: Result<StoredItem, RecordError>

        private enum KeyOnly: String, CodingKey {
            case key
        }

        init(from decoder: any Decoder) {
            do {
                item = .success(try StoredItem(from: decoder))
            } catch {
                let key = try? decoder.container(keyedBy: KeyOnly.self).decode(String.self, forKey: .key)
                item = .failure(RecordError(error, below: decoder.codingPath.count, key: key))
            }
        }
    }

    /// A version 1 feed whose items did not all decode: its fields as version 1 wrote them (that
    /// format is frozen), the items one at a time.
    private struct LegacyFeed: Decodable {
        var etag: String?
        var lastModified: String?
        var finalURL: String?
        var channel: ChannelInfo
        var slug: String?
        var items: ItemList
        var health: FeedHealth

        var feed: FeedState {
            FeedState(
                etag: etag, lastModified: lastModified, finalURL: finalURL, channel: channel, slug: slug,
                items: items.items, health: health)
        }
    }

    /// What decoding a whole file gave.
    struct Decoded {
        enum Failure: Equatable {
            /// Not a state file feedsite can read: not JSON, or not in either version's shape.
            case unreadable(String)
            /// Written by a newer feedsite, in a format this one does not know.
            case newer(version: Int)
        }

        var state = SiteState()
        /// Records skipped or repaired, one line per feed and kind.
        var warnings: [String] = []
        var failure: Failure?
    }

    /// Decodes a whole state file of either version, a record at a time, and validates it.
    static func decode(_ data: Data, origin: String, trusted: Bool, now: Date) -> Decoded {
        guard data.count <= StateLimits.fileBytes else {
            return Decoded(failure: .unreadable("larger than the \(StateLimits.fileBytes >> 20) MB state limit"))
        }
        if let refusal = refusal(data) { return Decoded(failure: .unreadable(refusal)) }
        let decoder = decoder(trusted: trusted)
        let contents: Contents
        do {
            contents = try decoder.decode(Contents.self, from: data)
        } catch {
            if let header = try? decoder.decode(Header.self, from: data), header.version > SiteState.currentVersion {
                return Decoded(failure: .newer(version: header.version))
            }
            return Decoded(failure: .unreadable(RecordError(error, below: 0).reason))
        }
        guard contents.version <= SiteState.currentVersion else {
            return Decoded(failure: .newer(version: contents.version))
        }
        guard contents.version >= 1 else { return Decoded(failure: .unreadable("version \(contents.version)")) }
        var validator = StateValidator(origin: origin, now: now)
        var state = SiteState()
        for (url, entry) in contents.feeds.sorted(by: { $0.key < $1.key }) {
            guard case .success(var feed) = entry.feed, validator.validate(&feed, url: url) else {
                if case .failure(let error) = entry.feed { validator.skippedFeed(url, reason: error.reason) }
                continue
            }
            var failures = entry.itemFailures
            if contents.version >= 2 {
                let list = contents.items?[url]
                feed.items = list?.items ?? []
                failures = list?.failures ?? []
                if let reason = list?.unreadable { validator.skippedItems(of: url, reason: reason) }
            }
            validator.skippedItems(failures, feed: url)
            validator.validate(&feed.items, feed: url)
            state.feeds[url] = feed
        }
        for url in (contents.items ?? [:]).keys.sorted() where contents.feeds[url] == nil {
            validator.skippedFeed(url, reason: "it has items but no feed entry")
        }
        for (object, url) in repeatedRecordKeys(in: data) {
            validator.repeatedRecord(url, in: object)
        }
        return Decoded(state: state, warnings: validator.warnings)
    }

    // MARK: Writing

    /// Where each part of a written file lies, for `StateIndex`.
    struct Layout {
        var feeds: StateIndex.Range
        var items: [String: StateIndex.Items] = [:]
    }

    /// Writes `state` in version 2 through `sink`, a piece at a time (the feeds' own fields, then
    /// each feed's items), so the whole file is never in memory.
    ///
    /// - Parameter savedItems: a feed's items exactly as they are already saved (the JSON array),
    ///   when they did not change: copied instead of encoded again, which is most of a save's cost.
    static func write(
        _ state: SiteState, savedItems: (String) -> Data? = { _ in nil }, to sink: (Data) throws -> Void
    ) throws -> Layout {
        let encoder = encoder()
        var offset = 0
        func emit(_ data: Data) throws {
            try sink(data)
            offset += data.count
        }
        let (opening, itemsOpening, closing) = punctuation
        try emit(Data(opening.utf8))
        let ownFields = state.feeds.mapValues { feed in
            var feed = feed
            feed.items = []
            return feed
        }
        let feedsStart = offset
        try emit(try encoder.encode(ownFields))
        var layout = Layout(feeds: StateIndex.Range(offset: feedsStart, length: offset - feedsStart))
        try emit(Data(itemsOpening.utf8))
        var isFirst = true
        for url in state.feeds.keys.sorted() {
            guard let items = state.feeds[url]?.items, !items.isEmpty else { continue }
            try emit(Data(isFirst ? [] : [UInt8(ascii: ",")]) + itemsKey(url, encoder: encoder))
            isFirst = false
            let start = offset
            try emit(try savedItems(url) ?? encoder.encode(items))
            layout.items[url] = StateIndex.Items(
                range: StateIndex.Range(offset: start, length: offset - start), count: items.count,
                oldestDropped: items.lazy.filter { !$0.isInFeed }.map(SiteState.age(of:)).min())
        }
        try emit(Data(closing.utf8))
        return layout
    }

    /// What stands before the feeds' fields, between them and the items, and after the items.
    static let punctuation = (#"{"feeds":"#, #","items":{"#, #"},"version":\#(SiteState.currentVersion)}"#)
}

extension StateFile {
    /// What stands right before a feed's items in `state.json`: its URL as a JSON string, and `:`.
    /// An index's range is used only when these bytes precede it, so an index whose ranges were
    /// swapped or shifted (by hand) cannot give one feed another's items.
    static func itemsKey(_ url: String, encoder: JSONEncoder = encoder()) throws -> Data {
        try encoder.encode(url) + [UInt8(ascii: ":")]
    }
}

/// Where the parts of `state.json` lie, saved beside it (`state-index.json`) when it is written,
/// so a build reads a feed's own fields and items without decoding the rest. Trusted only while
/// `state.json` is the very file it describes (`file`); otherwise the whole file is decoded.
struct StateIndex: Codable, Sendable {
    /// Byte offsets into `state.json`.
    struct Range: Codable, Sendable, Hashable {
        var offset: Int
        var length: Int
    }

    /// One feed's items.
    struct Items: Codable, Sendable, Hashable {
        var range: Range
        var count: Int
        /// The earliest age (`SiteState.age(of:)`) among items no longer in the feed: until
        /// `keep_days` reaches it, a feed that answers 304 keeps its items as they are.
        var oldestDropped: Date?
    }

    /// What identifies the file described: a rewritten or replaced file has a new inode (each save
    /// renames a new file into place), an edited one a new size or time.
    struct FileIdentity: Codable, Sendable, Hashable {
        var inode: UInt64
        var size: Int
        var modified: Int64
        var modifiedNanoseconds: Int64
    }

    var version: Int
    var file: FileIdentity
    /// The digest of the file's bytes (`BuildFingerprint`), standing for the state in the build's.
    var digest: String
    var feeds: Range
    var items: [String: Items]

    /// Whether the ranges lie inside the file without overlapping, and each count is one its range
    /// can hold (an empty list is `[]`, so a longer range has items): an index edited by hand, or
    /// left from another file of the same identity, is not used.
    var isConsistent: Bool {
        guard StateIndex.isValid(feeds, size: file.size), items.count <= StateLimits.feeds else { return false }
        var ranges = [feeds]
        for entry in items.values {
            guard StateIndex.isValid(entry.range, size: file.size), entry.count >= 0,
                entry.count > 0 || entry.range.length <= 2, entry.count <= entry.range.length
            else { return false }
            ranges.append(entry.range)
        }
        ranges.sort { $0.offset < $1.offset }
        return zip(ranges, ranges.dropFirst()).allSatisfy { $0.offset + $0.length <= $1.offset }
    }

    /// Whether `range` lies inside a file of `size` bytes (and can be read without overflow).
    static func isValid(_ range: Range, size: Int) -> Bool {
        range.offset >= 0 && range.length >= 0 && range.offset <= size && range.length <= size - range.offset
            && range.length <= StateLimits.fileBytes
    }
}
