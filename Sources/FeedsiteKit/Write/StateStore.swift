import FeedsiteShared
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads and writes `SiteState` in the state folder (`.feedsite/`):
///
/// - `state.json`: the state (`StateFile`, version 2), published as `status/state.json`;
/// - `state-index.json`: where each part of `state.json` lies (`StateIndex`), so a build reads
///   only what it needs (`SavedState`);
/// - `last-build`: the last build's fingerprint (`LastBuild`);
/// - `lock`: held by the build using the folder (`StateLock`).
///
/// Writes are atomic (a new file renamed over the old one), so a build killed at any moment leaves
/// the previous or the new state, never a torn file; an index that does not describe the
/// `state.json` beside it is ignored and the whole file decoded instead. Nothing feedsite cannot
/// read is overwritten: an unreadable state file is moved aside (`state.json.unreadable-<day>`,
/// `state.v<N>.json` for a newer version), and one whose records were partly skipped or repaired is
/// kept as `state.json.damaged-<day>` before the repaired state replaces it.
package struct StateStore: Sendable {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    package var file: URL { directory.appendingPathComponent("state.json") }

    /// Where `state.json`'s parts lie.
    var indexFile: URL { directory.appendingPathComponent("state-index.json") }

    /// Where the last build's fingerprint is kept.
    var lastBuildFile: URL { directory.appendingPathComponent("last-build") }

    package var exists: Bool { FileManager.default.fileExists(atPath: file.path) }

    // MARK: The folder

    /// Refuses a state folder path that holds something other than a folder (a file named
    /// `.feedsite`): nothing may be fetched or written when the state has nowhere to go.
    package func checkFolder() throws(StateError) {
        var info = stat()
        if stat(directory.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw StateError(
                .refused, path: directory.path,
                "the state folder is a file; feedsite keeps what it remembers between builds in a folder here. Move the file away, or choose another folder with --state or 'state_dir'"
            )
        }
        // A folder of someone else's (`--state ~` by mistake): its `state.json` would be set aside
        // as unreadable, its `lock` or `last-build` overwritten.
        if let strangers = foreignEntries() {
            throw StateError(
                .refused, path: directory.path,
                "the folder holds files feedsite did not write (\(OutputFolder.describe(strangers, verb: false))) and "
                    + "none of its own; feedsite keeps its state there (state.json, lock, last-build…): choose "
                    + "another folder with --state or 'state_dir' (an empty or new one), or empty this one")
        }
        // Known before anything is fetched: a build whose state cannot be saved would lose it.
        if let (folder, code) = OutputFolder.unwritableAncestor(of: directory.standardizedFileURL.path) {
            let place = folder == directory.standardizedFileURL.path ? "" : " (in \(folder))"
            throw StateError(
                .refused, path: directory.path,
                "the state folder cannot be written\(place): " + StateError.reason(errno: code))
        }
    }

    /// The names feedsite writes in a state folder; `state.json.damaged-<day>`,
    /// `restored-state.json.*` and temporary files (dotfiles) besides.
    var ownNames: Set<String> {
        [
            file.lastPathComponent, indexFile.lastPathComponent, lastBuildFile.lastPathComponent, StateLock.fileName,
            SearchIndex.Manifest.fileName,
        ]
    }

    /// The entries of the state folder, sorted, when none of them is feedsite's (dotfiles aside):
    /// someone else's folder. Nil when it is absent, empty, or holds a file feedsite writes there
    /// (whatever else it holds stays untouched: feedsite only ever writes its own names).
    ///
    /// A name alone proves nothing where users have files of that name too: a `state.json` is
    /// feedsite's unless it is JSON of another shape (a package manifest), and a `lock` only when
    /// it is empty, as feedsite's is. A project's own `state.json` was taken for the state, set
    /// aside as unreadable and written over.
    func foreignEntries() -> [String]? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return nil }
        let visible = entries.filter { !$0.hasPrefix(".") }
        guard !visible.isEmpty, !visible.contains(where: isOwn) else { return nil }
        return visible.sorted()
    }

    /// Whether the entry `name` of the state folder is one feedsite wrote.
    private func isOwn(_ name: String) -> Bool {
        if name.hasPrefix("state.json.") || name.hasPrefix("restored-state.") { return true }
        let path = directory.appendingPathComponent(name).path
        switch name {
        case file.lastPathComponent:
            return Self.startsAsState(path)
        case StateLock.fileName:
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0
        default:
            return ownNames.contains(name)
        }
    }

    /// Whether the file at `path` may be feedsite's state: it starts as one does (`{"feeds"`,
    /// `{"version"`), or as no JSON object with keys (empty, cut off, damaged: feedsite's own
    /// state after a full disk, set aside as unreadable). An object whose first key is another
    /// (`{"name": …}`, a package manifest) or an array is someone else's.
    static func startsAsState(_ path: String) -> Bool {
        // Never blocks: a FIFO or device by that name is not a state file.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        var start = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &start, start.count)
        guard count >= 0 else { return false }
        let bytes = start[..<count].filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if bytes.first == UInt8(ascii: "[") { return false }
        guard bytes.starts(with: Array(#"{""#.utf8)) else { return true }
        return bytes.starts(with: Array(#"{"feeds""#.utf8)) || bytes.starts(with: Array(#"{"version""#.utf8))
    }

    /// Creates the state folder if it is missing.
    func createFolder() throws(StateError) {
        try checkFolder()
        // Each missing folder on the way, so a failure has its `errno` (Foundation's error for a
        // file in the way is only "error 512").
        var path = ""  // a file URL's path is absolute
        for component in directory.standardizedFileURL.path.split(separator: "/") {
            path += "/" + component
            var info = stat()
            if stat(path, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw StateError(
                        .refused, path: directory.path,
                        "cannot create the state folder: " + StateError.reason(errno: ENOTDIR))
                }
                continue
            }
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw StateError(
                    .refused, path: directory.path, "cannot create the state folder: " + StateError.reason(errno: errno)
                )
            }
        }
    }

    // MARK: Loading

    /// The saved state, every feed's own fields decoded and each feed's items left on disk until
    /// they are asked for; nil when there is none, or it could not be read (then it was moved aside
    /// and a warning says where).
    func load(now: Date) -> (SavedState?, [String]) {
        removeAbandonedFiles()
        var info = stat()
        guard stat(file.path, &info) == 0 else { return (nil, []) }
        if let saved = loadIndexed(now: now) { return saved }
        let decoded: StateFile.Decoded
        switch readWhole(now: now) {
        case .notAFile:
            let warning = setAside(
                file, as: "state.json.unreadable-\(DayFormat.string(now))",
                because: "it is not a file of at most \(StateLimits.fileBytes >> 20) MB")
            return (nil, [warning])
        case .cannotRead(let reason):
            return (nil, ["\(file.path): cannot read the saved state (\(reason)); starting without it"])
        case .read(let whole):
            decoded = whole
        }
        switch decoded.failure {
        case .unreadable(let reason)?:
            return (nil, [setAside(file, as: "state.json.unreadable-\(DayFormat.string(now))", because: reason)])
        case .newer(let version)?:
            return (
                nil,
                [
                    setAside(
                        file, as: "state.v\(version).json",
                        because:
                            "it was written by a newer feedsite (state version \(version); this one reads up to \(SiteState.currentVersion)); upgrade feedsite to use it"
                    )
                ]
            )
        case nil:
            break
        }
        var warnings = decoded.warnings
        if !warnings.isEmpty { warnings.append(keepDamaged(now: now)) }
        // Written again whatever the build does: in the current version, with its index.
        return (SavedState(state: decoded.state, store: self, now: now), warnings)
    }

    /// `state.json` read whole, or why it cannot be.
    enum WholeFile {
        /// Not a regular file of at most `StateLimits.fileBytes` (or not there).
        case notAFile
        /// A file that could not be read (the system's reason).
        case cannotRead(String)
        /// Read and decoded: its state, or why it is not one (`Decoded.failure`).
        case read(StateFile.Decoded)
    }

    /// Reads and decodes `state.json` as a whole (no index): what `load` does when there is no
    /// usable index, and what a build does when the indexed file changed under it.
    func readWhole(now: Date) -> WholeFile {
        var info = stat()
        guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            Int(info.st_size) <= StateLimits.fileBytes
        else { return .notAFile }
        do {
            let data = try Data(contentsOf: file, options: .alwaysMapped)
            return .read(StateFile.decode(data, origin: file.path, trusted: true, now: now))
        } catch {
            return .cannotRead(error.localizedDescription)
        }
    }

    /// Whether the index lays `state.json` out exactly as `StateFile.write` does: the feeds'
    /// fields, then every feed's items in the order of their URLs, each range right after its
    /// feed's key (`StateFile.itemsKey`), with nothing between or after them but the file's own
    /// punctuation. An index edited by hand (a range shifted, swapped or given to another feed, a
    /// feed left out, whose items would silently go) is not trusted, and the whole file is decoded.
    private static func describesLayout(_ index: StateIndex, _ reader: StateFileReader) -> Bool {
        let encoder = StateFile.encoder()
        func bytes(_ text: String, at offset: Int) -> Bool {
            let expected = Data(text.utf8)
            return reader.read(StateIndex.Range(offset: offset, length: expected.count)) == expected
        }
        let (opening, itemsOpening, closing) = StateFile.punctuation
        guard index.feeds.offset == opening.utf8.count, bytes(opening, at: 0) else { return false }
        var cursor = index.feeds.offset + index.feeds.length
        guard bytes(itemsOpening, at: cursor) else { return false }
        cursor += itemsOpening.utf8.count
        for (position, url) in index.items.keys.sorted().enumerated() {
            guard let range = index.items[url]?.range, let key = try? StateFile.itemsKey(url, encoder: encoder)
            else { return false }
            if position > 0 {
                guard bytes(",", at: cursor) else { return false }
                cursor += 1
            }
            guard range.offset == cursor + key.count,
                reader.read(StateIndex.Range(offset: cursor, length: key.count)) == key
            else { return false }
            cursor = range.offset + range.length
        }
        return cursor + closing.utf8.count == index.file.size && bytes(closing, at: cursor)
    }

    /// The fast path: the index describes `state.json`, so only the feeds' own fields are decoded.
    /// Nil when the index is missing, stale or unreadable.
    private func loadIndexed(now: Date) -> (SavedState?, [String])? {
        var info = stat()
        guard stat(indexFile.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            Int(info.st_size) <= StateLimits.indexBytes,
            let indexData = try? Data(contentsOf: indexFile), indexData.count <= StateLimits.indexBytes,
            let index = StateFile.decodeIfBounded(StateIndex.self, from: indexData, trusted: true),
            index.version == SiteState.currentVersion, index.isConsistent
        else { return nil }
        guard let reader = StateFileReader(file, expecting: index.file) else { return nil }
        let bytes = reader.read(index.feeds)
        let isLaidOutAsWritten = Self.describesLayout(index, reader)
        reader.close()
        guard isLaidOutAsWritten, let bytes,
            let entries = StateFile.decodeIfBounded(StateFile.FeedEntries.self, from: bytes, trusted: true)?.entries
        else { return nil }
        var validator = StateValidator(origin: file.path, now: now)
        var state = SiteState()
        var pending: [String: StateIndex.Items] = [:]
        for (url, entry) in entries.sorted(by: { $0.key < $1.key }) {
            // A record that does not decode is the full decode's to report (the index is only an
            // aid: one that does not describe the file must not cost a feed).
            guard case .success(var feed) = entry.feed else { return nil }
            guard validator.validate(&feed, url: url) else { continue }
            if let items = index.items[url], items.count > 0 { pending[url] = items }
            state.feeds[url] = feed
        }
        var warnings = validator.warnings
        if !warnings.isEmpty { warnings.append(keepDamaged(now: now)) }
        let saved = SavedState(
            state: state, digest: warnings.isEmpty ? index.digest : nil, pending: pending, identity: index.file,
            store: self, now: now)
        return (saved, warnings)
    }

    /// Loads the whole saved state at once (what `feedsite serve` and tests need).
    package func loadAll(now: Date = Date()) -> (SiteState, [String]) {
        var (saved, warnings) = load(now: now)
        warnings += saved?.loadAllItems() ?? []
        return (saved?.state ?? SiteState(), warnings)
    }

    // MARK: Decoding and encoding

    /// Decodes a state file (version 1 or 2, from the state folder or a published site), a record
    /// at a time: a record that does not decode is skipped, every value is validated
    /// (`StateValidator`), and each problem is a warning. A file that is not a state feedsite can
    /// read gives an empty state and a warning saying why.
    ///
    /// - Parameter trusted: false for state from elsewhere (`--restore-state`): every item's HTML is
    ///   sanitised again while decoding, so a tampered file cannot smuggle markup into the site.
    package static func decode(_ data: Data, origin: String, trusted: Bool) -> (SiteState, [String]) {
        let decoded = StateFile.decode(data, origin: origin, trusted: trusted, now: Date())
        switch decoded.failure {
        case .unreadable(let reason)?:
            return (SiteState(), ["\(origin): not a feedsite state file (\(reason)); starting without saved state"])
        case .newer(let version)?:
            return (
                SiteState(),
                [
                    "\(origin): state version \(version) is newer than this feedsite understands (\(SiteState.currentVersion)); starting without saved state — upgrade feedsite to keep history"
                ]
            )
        case nil:
            return (decoded.state, decoded.warnings)
        }
    }

    /// The bytes saved and published (`StateFile`): equal states are equal files.
    package static func encode(_ state: SiteState) -> Data {
        var data = Data()
        _ = try? StateFile.write(state) { data.append($0) }
        return data
    }

    // MARK: Saving

    /// Encodes and saves `state` atomically (a temporary file renamed over `state.json`), streamed
    /// a feed at a time, then its index. Returns the digest of the bytes written (the build
    /// fingerprint's stand-in for the state).
    ///
    /// - Parameter unchanged: feeds whose items are exactly as saved in the current `state.json`
    ///   (`SavedState.unchangedItems`): their bytes are copied, not encoded again.
    package func save(_ state: SiteState) throws(StateError) -> String {
        try save(state, unchanged: nil)
    }

    func save(_ state: SiteState, unchanged: SavedState.UnchangedItems?) throws(StateError) -> String {
        try createFolder()
        removeAbandonedFiles()
        // Opened before the new file replaces it; a file that changed meanwhile is not copied from.
        let reader = unchanged.flatMap { StateFileReader(file, expecting: $0.identity) }
        defer { reader?.close() }
        let ranges = unchanged?.ranges ?? [:]
        let temporary = directory.appendingPathComponent(FileReplacement.temporaryName(for: "state.json"))
        var digest = BuildFingerprint()
        let layout: StateFile.Layout
        let identity: StateIndex.FileIdentity
        do {
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw StateError(
                    .io, path: temporary.path, "cannot create the file: " + StateError.reason(errno: errno))
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? handle.close() }
            layout = try StateFile.write(
                state, savedItems: { url in ranges[url].flatMap { reader?.read($0) } }
            ) { piece in
                digest.addBytes(piece)
                try handle.write(contentsOf: piece)
            }
            try handle.synchronize()
            digest.endField()
            var info = stat()
            guard fstat(handle.fileDescriptor, &info) == 0 else {
                throw StateError(.io, path: temporary.path, String(cString: strerror(errno)))
            }
            identity = StateIndex.FileIdentity(info)
            guard rename(temporary.path, file.path) == 0 else {
                throw StateError(.io, path: file.path, String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw StateError(.io, path: file.path, "cannot save the state: \(StateError.reason(error))")
        }
        // The index comes second: until it is written, the old one describes another file and is
        // ignored. It is only an aid, so failing to write it costs the next build time, not data.
        let index = StateIndex(
            version: SiteState.currentVersion, file: identity, digest: digest.text, feeds: layout.feeds,
            items: layout.items)
        if let data = try? StateFile.encoder().encode(index) {
            try? FileReplacement.replace(indexFile, with: data)
        }
        return digest.text
    }

    /// Temporary files of builds that were killed (their process is gone).
    private func removeAbandonedFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let written = ["state.json", "state-index.json", "last-build", SearchIndex.Manifest.fileName]
        for name in names {
            let isLeftover: Bool
            if name.hasPrefix(".restore-"), let dash = name.lastIndex(of: "-"),
                let pid = Int32(name[name.index(after: dash)...].prefix { $0.isNumber })
            {
                isLeftover =
                    pid != getpid()
                    && !LeftoverOwner.mayBeRunning(pid, owning: directory.appendingPathComponent(name).path)
            } else {
                isLeftover = FileReplacement.isLeftover(name, of: written, in: directory.path)
            }
            if isLeftover { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
        }
    }

    // MARK: Keeping files aside

    /// Moves `source` to `name` in the state folder (or `name-2`, `name-3`… when taken: nothing
    /// already kept aside is overwritten) and returns the warning that says where.
    func setAside(_ source: URL, as name: String, because reason: String) -> String {
        try? FileManager.default.removeItem(at: indexFile)
        guard let kept = place(source, as: name, keepingSource: false) else {
            return "\(source.path) cannot be read (\(reason)) nor moved aside; starting without saved state"
        }
        return "\(source.path) cannot be read (\(reason)); kept it as \(kept.path) and started without saved state"
    }

    /// Keeps the saved state as `state.json.damaged-<day>` (a second link to it), so the records a
    /// build skipped or repaired can still be recovered after the repaired state is written.
    func keepDamaged(now: Date) -> String {
        guard let kept = place(file, as: "state.json.damaged-\(DayFormat.string(now))", keepingSource: true) else {
            return "\(file.path): could not keep the original aside before the repaired state replaces it"
        }
        return "\(file.path): kept the original as \(kept.path); the repaired state replaces it"
    }

    /// Links (and, unless `keepingSource`, then unlinks) `source` under a free name: `link` never
    /// replaces an existing file, so two builds cannot overwrite each other's kept files.
    func place(_ source: URL, as name: String, keepingSource: Bool) -> URL? {
        for attempt in 1...101 {
            var candidate = name
            if attempt == 101 {
                // A hundred kept already: a name no earlier build can have taken, rather than none
                // (the state that could not be kept would be overwritten by the next save).
                candidate = name + "-" + UUID().uuidString.lowercased()
            } else if attempt > 1 {
                if let dot = name.range(of: ".json", options: .backwards), name.hasSuffix(".json") {
                    candidate = name[..<dot.lowerBound] + "-\(attempt).json"
                } else {
                    candidate = name + "-\(attempt)"
                }
            }
            let target = directory.appendingPathComponent(candidate)
            if link(source.path, target.path) == 0 {
                if !keepingSource { unlink(source.path) }
                return target
            }
            if errno == EEXIST { continue }
            // A file system without hard links: copy or move, after checking the name is free.
            guard !FileManager.default.fileExists(atPath: target.path) else { continue }
            do {
                if keepingSource {
                    try FileManager.default.copyItem(at: source, to: target)
                } else {
                    try FileManager.default.moveItem(at: source, to: target)
                }
                return target
            } catch {
                return nil
            }
        }
        return nil
    }
}

extension StateIndex.FileIdentity {
    init(_ info: stat) {
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        self.init(
            inode: UInt64(info.st_ino), size: Int(info.st_size), modified: Int64(modified.tv_sec),
            modifiedNanoseconds: Int64(modified.tv_nsec))
    }
}

/// `state.json` opened for reading parts of it, checked to be the file an index describes. The
/// descriptor is only read with `pread`, so parts are read from several threads at once.
struct StateFileReader: Sendable {
    let descriptor: Int32

    /// Nil when the file cannot be opened, is not a regular file of at most `StateLimits.fileBytes`,
    /// or is not the one `identity` describes. Opened without blocking: a FIFO put in the state's
    /// place would otherwise hold the build in `open` until something writes to it.
    init?(_ file: URL, expecting identity: StateIndex.FileIdentity) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        self.descriptor = descriptor
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            info.st_size <= StateLimits.fileBytes, StateIndex.FileIdentity(info) == identity
        else {
            close()
            return nil
        }
    }

    /// The bytes of `range` (already checked to lie inside the file), or nil on a read error.
    func read(_ range: StateIndex.Range) -> Data? {
        var data = Data(count: range.length)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var filled = 0
            while filled < range.length {
                let count = pread(
                    descriptor, buffer.baseAddress.map { $0 + filled }, range.length - filled,
                    off_t(range.offset + filled))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                filled += count
            }
            return true
        }
        return complete ? data : nil
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
