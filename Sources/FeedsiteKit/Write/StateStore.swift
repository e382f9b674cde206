import Foundation

/// Reads and writes `SiteState` in the state directory (`.feedsite/state.json`).
///
/// Writes are atomic (a new file renamed over the old one), so a build killed at any moment leaves
/// the previous or the new state, never a torn file. An unreadable or future-version state is set
/// aside with a warning, never fatal: the worst case is one build without conditional requests.
public struct StateStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var file: URL { directory.appendingPathComponent("state.json") }

    public var exists: Bool { FileManager.default.fileExists(atPath: file.path) }

    /// The saved state, or an empty one with a warning saying why the saved one was not used.
    public func load() async -> (SiteState, [String]) {
        let (state, warnings, _) = await loadWithDigest()
        return (state, warnings)
    }

    /// The saved state and the digest of the bytes it was read from (an unchanged state is neither
    /// encoded nor written again; the digest stands for it in the build fingerprint). The bytes
    /// themselves are not kept: 90 MB at 30,000 items.
    func loadWithDigest() async -> (SiteState, [String], String?) {
        guard let data = try? Data(contentsOf: file) else { return (SiteState(), [], nil) }
        let (state, warnings) = await Self.decodeOwn(data, origin: file.path)
        var digest = BuildFingerprint()
        digest.add(data)
        return (state, warnings, warnings.isEmpty ? digest.text : nil)
    }

    /// Where the last build's fingerprint is kept.
    var lastBuildFile: URL { directory.appendingPathComponent("last-build") }

    /// Decodes state bytes from the state directory or a published site.
    ///
    /// - Parameter trusted: false for state from elsewhere (`--restore-state`): every item's HTML is
    ///   sanitised again while decoding, so a tampered file cannot smuggle markup into the site.
    public static func decode(_ data: Data, origin: String, trusted: Bool) -> (SiteState, [String]) {
        struct Header: Decodable { var version: Int }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            return (
                SiteState(), ["\(origin): not a feedsite state file (unreadable JSON); starting without saved state"]
            )
        }
        guard header.version <= SiteState.currentVersion else {
            return (
                SiteState(),
                [
                    "\(origin): state version \(header.version) is newer than this feedsite understands (\(SiteState.currentVersion)); starting without saved state — upgrade feedsite to keep history"
                ]
            )
        }
        let decoder = Self.decoder(trusted: trusted)
        do {
            return (try decoder.decode(SiteState.self, from: data), [])
        } catch {
            return (SiteState(), ["\(origin): the state file is damaged (\(error)); starting without saved state"])
        }
    }

    /// The decoder for state files (ISO dates, as `encode` writes them).
    private static func decoder(trusted: Bool) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[SanitisedHTML.isTrustedKey] = trusted
        return decoder
    }

    /// Decodes a state file feedsite wrote itself (trusted), the feeds on all cores: decoding the
    /// 90 MB state of a 30,000-item planet was most of a warm build. The file's layout is known
    /// (`encode`), so it is split into its feeds by a byte scan that only tracks strings and nesting;
    /// anything unexpected falls back to decoding the whole file at once.
    static func decodeOwn(_ data: Data, origin: String) async -> (SiteState, [String]) {
        guard let (entries, version) = splitFeeds(data), version <= SiteState.currentVersion,
            let state = await decodeFeeds(data, entries, version: version)
        else {
            return decode(data, origin: origin, trusted: true)
        }
        return (state, [])
    }

    /// Decodes the feeds `splitFeeds` found, in parallel chunks; nil if any feed does not decode.
    static func decodeFeeds(
        _ data: Data, _ entries: [(key: Range<Int>, value: Range<Int>)], version: Int
    ) async -> SiteState? {
        let base = data.startIndex
        let chunkCount = max(1, ProcessInfo.processInfo.activeProcessorCount * 4)
        let chunkSize = max(1, (entries.count + chunkCount - 1) / chunkCount)
        let decoded: [[String: FeedState]]? = await withTaskGroup(of: [String: FeedState]?.self) { group in
            for start in stride(from: 0, to: entries.count, by: chunkSize) {
                let chunk = entries[start..<min(start + chunkSize, entries.count)]
                group.addTask {
                    let decoder = Self.decoder(trusted: true)
                    var feeds: [String: FeedState] = [:]
                    for entry in chunk {
                        let key = (base + entry.key.lowerBound)..<(base + entry.key.upperBound)
                        let value = (base + entry.value.lowerBound)..<(base + entry.value.upperBound)
                        // feedsite's own layout is read directly; anything else by `JSONDecoder`.
                        guard
                            let url = StateJSONReader.string(data[key])
                                ?? (try? decoder.decode(String.self, from: data[key])),
                            let feed = StateJSONReader.feed(data[value])
                                ?? (try? decoder.decode(FeedState.self, from: data[value]))
                        else { return nil }
                        feeds[url] = feed
                    }
                    return feeds
                }
            }
            var all: [[String: FeedState]]? = []
            for await part in group { if let part { all?.append(part) } else { all = nil } }
            return all
        }
        guard let decoded else { return nil }
        var state = SiteState(version: version)
        for part in decoded { state.feeds.merge(part) { first, _ in first } }
        return state
    }

    /// The byte ranges of each feed's key and value in `{"feeds":{"url":{…},…},"version":N}`.
    static func splitFeeds(_ data: Data) -> ([(key: Range<Int>, value: Range<Int>)], Int)? {
        data.withUnsafeBytes { raw -> ([(key: Range<Int>, value: Range<Int>)], Int)? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let prefix = Array(#"{"feeds":{"#.utf8)
            guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
            var index = prefix.count
            /// The index just past the JSON string starting at `start` (a `"`).
            func endOfString(_ start: Int) -> Int? {
                var cursor = start + 1
                while cursor < bytes.count {
                    switch bytes[cursor] {
                    case UInt8(ascii: "\\"): cursor += 2
                    case UInt8(ascii: "\""): return cursor + 1
                    default: cursor += 1
                    }
                }
                return nil
            }
            var entries: [(key: Range<Int>, value: Range<Int>)] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                if !entries.isEmpty {
                    guard bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let keyEnd = endOfString(index),
                    keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: ":"), keyEnd + 1 < bytes.count,
                    bytes[keyEnd + 1] == UInt8(ascii: "{")
                else { return nil }
                let valueStart = keyEnd + 1
                var cursor = valueStart
                var depth = 0
                scan: while cursor < bytes.count {
                    switch bytes[cursor] {
                    case UInt8(ascii: "\""):
                        guard let end = endOfString(cursor) else { return nil }
                        cursor = end
                        continue scan
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            cursor += 1
                            break scan
                        }
                    default: break
                    }
                    cursor += 1
                }
                guard depth == 0 else { return nil }
                entries.append((index..<keyEnd, valueStart..<cursor))
                index = cursor
            }
            let suffixStart = index + 1
            let versionPrefix = Array(#","version":"#.utf8)
            guard suffixStart + versionPrefix.count < bytes.count,
                bytes[suffixStart..<(suffixStart + versionPrefix.count)].elementsEqual(versionPrefix),
                let version = Int(
                    String(decoding: bytes[(suffixStart + versionPrefix.count)...].dropLast(), as: UTF8.self)),
                bytes.last == UInt8(ascii: "}")
            else { return nil }
            return (entries, version)
        }
    }

    /// The bytes saved and published: sorted keys and ISO dates, so equal states are equal files
    /// (the same bytes `JSONEncoder` writes with `.sortedKeys` and `.iso8601`; `StateJSONWriter`).
    public static func encode(_ state: SiteState) -> Data {
        var data = Data()
        encode(state) { data.append(contentsOf: $0) }
        return data
    }

    /// `encode`, a piece at a time (one feed per piece), so the whole file never has to be in memory.
    static func encode(_ state: SiteState, into sink: ([UInt8]) throws -> Void) rethrows {
        var writer = StateJSONWriter(reservingCapacity: 1 << 16)
        writer.raw(#"{"feeds":{"#)
        for (index, url) in state.feeds.keys.sorted().enumerated() {
            guard let feed = state.feeds[url] else { continue }
            if index > 0 { writer.raw(",") }
            writer.string(url)
            writer.raw(":")
            writer.feed(feed)
            try sink(writer.bytes)
            writer.removeAll()
        }
        writer.raw("},\"version\":")
        writer.int(state.version)
        writer.raw("}")
        try sink(writer.bytes)
    }

    /// Encodes and saves `state` atomically (a temporary file renamed over `state.json`), streaming:
    /// the encoded state (90 MB at 30,000 items) was the largest single allocation of a cold build.
    /// Returns the digest of the bytes written (the same `loadWithDigest` computes).
    public func save(_ state: SiteState) throws(SiteWriter.WriteError) -> String {
        let temporary = directory.appendingPathComponent(".state.json.new-\(getpid())")
        var digest = BuildFingerprint()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw SiteWriter.WriteError(path: temporary.path, message: "cannot create the file")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try Self.encode(state) { piece in
                digest.addBytes(piece)
                try handle.write(contentsOf: piece)
            }
            try handle.synchronize()
            digest.endField()
            guard rename(temporary.path, file.path) == 0 else {
                throw SiteWriter.WriteError(path: file.path, message: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw SiteWriter.WriteError(
                path: file.path, message: "cannot save the state: \(error.localizedDescription)")
        }
        return digest.text
    }
}
