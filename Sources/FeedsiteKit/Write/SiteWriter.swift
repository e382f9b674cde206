import Foundation

#if canImport(Glibc)
    import Glibc

    /// `write(2)`; `SiteWriter.write` would shadow the plain name.
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin

    private let systemWrite = Darwin.write
#endif

/// Puts a rendered site on disk, all or nothing.
///
/// The new site is written into a hidden sibling of the output folder (`.Site.new-<pid>`), then
/// swapped with the old one in a single atomic `renameat2(RENAME_EXCHANGE)` on Linux, so an
/// interrupted build (Ctrl-C, `kill -9`, a full disk) leaves either the old or the new site,
/// never a mix. Files whose bytes did not change are hard-linked from the old site instead of
/// written, so they keep their mtime and deploy tools (rsync, `aws s3 sync`) upload only what changed.
public struct SiteWriter: Sendable {
    /// What a write did.
    public struct Report: Sendable, Hashable {
        public var totalFiles: Int
        /// Files that are new or whose bytes changed.
        public var changedFiles: Int
        /// Files of the old site that the new one no longer has.
        public var removedFiles: Int
    }

    /// The site could not be written; the old site (if any) is untouched.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String

        public var description: String { "error: \(path): \(message)" }
    }

    public init() {}

    /// Writes `files` (site-relative path → bytes) as the new content of `directory`.
    public func write(_ files: [String: Data], to directory: URL) throws(WriteError) -> Report {
        var staging = try begin(directory)
        do {
            try staging.add(files)
        } catch {
            staging.discard()
            throw error
        }
        return try staging.commit()
    }

    /// Removes what killed builds left beside `directory` (staging folders), and moves an old site
    /// back if a two-step swap was interrupted. `begin` does this too; a build that has nothing
    /// to write calls it alone.
    public func cleanUp(_ directory: URL) {
        let target = directory.standardizedFileURL
        recoverInterruptedSwap(parent: target.deletingLastPathComponent(), name: target.lastPathComponent)
    }

    /// Starts a new site for `directory` in a staging folder beside it. Add files as they are
    /// rendered (so a large site never has to be held in memory whole), then `commit` to swap it in,
    /// or `discard`.
    public func begin(_ directory: URL) throws(WriteError) -> Staging {
        let fileManager = FileManager.default
        let target = directory.standardizedFileURL
        let parent = target.deletingLastPathComponent()
        let name = target.lastPathComponent
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: parent.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        recoverInterruptedSwap(parent: parent, name: name)
        let staging = parent.appendingPathComponent(".\(name).new-\(getpid())")
        try? fileManager.removeItem(at: staging)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: staging.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        return Staging(writer: self, target: target, staging: staging)
    }

    /// A site being written; see `begin`.
    public struct Staging {
        let writer: SiteWriter
        let target: URL
        let staging: URL
        /// Every path added so far (to count what the new site no longer has).
        private(set) var paths: Set<String> = []
        private var createdDirectories: Set<String> = []
        private(set) var report = Report(totalFiles: 0, changedFiles: 0, removedFiles: 0)

        init(writer: SiteWriter, target: URL, staging: URL) {
            self.writer = writer
            self.target = target
            self.staging = staging
            var info = stat()
            self.hasOldSite = lstat(target.path, &info) == 0
        }

        /// Writes files into the staging folder; a file whose bytes equal the old site's is
        /// hard-linked instead (same inode, same mtime).
        public mutating func add(_ files: [String: Data]) throws(WriteError) {
            try record(try area.write(files))
        }

        /// A handle for writing batches of files from several tasks at once (`Area.write`); each
        /// batch is then counted here with `record`, in any order.
        public var area: Area { Area(targetPath: target.path, stagingPath: staging.path, hasOldSite: hasOldSite) }

        /// Whether an old site was there when the build began: when not (a first build, a fresh CI
        /// runner), no page can be compared with an old one and the `stat` per page is skipped.
        private let hasOldSite: Bool

        /// Counts a batch written through `area`. A path written twice (by two batches) is a
        /// rendering bug and fails the build; the staging folder is then discarded.
        public mutating func record(_ batch: Area.Batch) throws(WriteError) {
            for path in batch.paths where !paths.insert(path).inserted {
                throw WriteError(path: path, message: "written twice in one build (a rendering bug)")
            }
            report.totalFiles += batch.paths.count
            report.changedFiles += batch.changedFiles
        }

        /// Where the new site's files go, as a `Sendable` value: pages are written by the tasks that
        /// render them, on every core, instead of one at a time by the task that collects them
        /// (comparing each page with the old site's and linking or writing it was a serial tail
        /// as long as the rendering itself on a rebuild over an existing site).
        public struct Area: Sendable {
            let targetPath: String
            let stagingPath: String
            let hasOldSite: Bool

            /// What one `write` did.
            public struct Batch: Sendable {
                /// The site paths written, sorted.
                public var paths: [String]
                /// Files that are new or whose bytes changed (the rest were hard-linked).
                public var changedFiles: Int
            }

            /// Writes `files` (site path → bytes) into the staging folder: paths checked, folders
            /// created, a file whose bytes equal the old site's hard-linked instead (same inode,
            /// same mtime). Plain POSIX calls on path strings: with `URL` and `FileManager` this
            /// loop was 6 % of a cold build's CPU (path objects, attribute dictionaries, one folder
            /// per item page).
            public func write(_ files: [String: Data]) throws(WriteError) -> Batch {
                let paths = files.keys.sorted()
                var changed = 0
                var createdDirectories: Set<Substring> = []
                for path in paths {
                    guard let data = files[path] else { continue }
                    try SiteWriter.validate(path)
                    if let slash = path.lastIndex(of: "/") {
                        let folder = path[..<slash]
                        if !createdDirectories.contains(folder) {
                            // Another batch may create a shared parent at the same time: EEXIST is fine.
                            try SiteWriter.makeDirectories(String(folder), under: stagingPath)
                            createdDirectories.insert(folder)
                        }
                    }
                    let destination = stagingPath + "/" + path
                    let old = targetPath + "/" + path
                    if hasOldSite, SiteWriter.hasSameBytes(old, data), link(old, destination) == 0 {
                        continue
                    }
                    changed += 1
                    try SiteWriter.writeFile(data, to: destination)
                }
                return Batch(paths: paths, changedFiles: changed)
            }
        }

        /// Adds the file at `source` (outside the site) as `path`: hard-linked from the old site when
        /// the bytes are the same, else hard-linked from `source` (copied across file systems).
        /// Streams: the file may be large (the published state).
        public mutating func addFile(copying source: String, as path: String) throws(WriteError) {
            let destination = try prepare(path, in: staging.path)
            let old = target.path + "/" + path
            if SiteWriter.haveSameBytes(old, source), link(old, destination) == 0 { return }
            report.changedFiles += 1
            if link(source, destination) == 0 { return }
            try SiteWriter.copyFile(source, to: destination)
        }

        /// Checks and counts a new file's site path, creates its folder in the staging folder, and
        /// returns where it goes.
        private mutating func prepare(_ path: String, in stagingPath: String) throws(WriteError) -> String {
            try SiteWriter.validate(path)
            guard paths.insert(path).inserted else {
                throw WriteError(path: path, message: "written twice in one build (a rendering bug)")
            }
            report.totalFiles += 1
            if let slash = path.lastIndex(of: "/") {
                let folder = String(path[..<slash])
                if !createdDirectories.contains(folder) {
                    try SiteWriter.makeDirectories(folder, under: stagingPath)
                    createdDirectories.insert(folder)
                }
            }
            return stagingPath + "/" + path
        }

        /// Swaps the new site in, atomically.
        public mutating func commit() throws(WriteError) -> Report {
            let fileManager = FileManager.default
            // Dotfiles at the top of the old site that the build does not produce (`.gitkeep`,
            // a hosting provider's `.htaccess`) are the user's: carry them over.
            for entry in (try? fileManager.contentsOfDirectory(atPath: target.path)) ?? []
            where entry.hasPrefix(".") && !paths.contains(entry) {
                _ = link(target.appendingPathComponent(entry).path, staging.appendingPathComponent(entry).path)
            }
            report.removedFiles = try writer.swap(staging, into: target, keeping: paths)
            return report
        }

        /// Abandons the new site; the old one stays as it was.
        public func discard() {
            try? FileManager.default.removeItem(at: staging)
        }
    }

    /// Exchanges `staging` and `target` atomically, then deletes the old site. Returns how many
    /// of the old site's files the new one does not have (`paths`: the new site's files).
    fileprivate func swap(_ staging: URL, into target: URL, keeping paths: Set<String>) throws(WriteError) -> Int {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: target.path) else {
            guard rename(staging.path, target.path) == 0 else {
                let message = String(cString: strerror(errno))
                try? fileManager.removeItem(at: staging)
                throw WriteError(path: target.path, message: "cannot move the new site into place: \(message)")
            }
            return 0
        }
        if Self.exchange(staging.path, target.path) {
            // `staging` now holds the old site.
            return Self.removeTree(staging.path, countingFilesNotIn: paths)
        }
        // No atomic exchange (not Linux, or an old kernel/filesystem): two renames. A crash between
        // them leaves `.Site.old-<pid>`, which the next build moves back (`recoverInterruptedSwap`).
        let old = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).old-\(getpid())")
        guard rename(target.path, old.path) == 0 else {
            let message = String(cString: strerror(errno))
            try? fileManager.removeItem(at: staging)
            throw WriteError(path: target.path, message: "cannot move the old site aside: \(message)")
        }
        guard rename(staging.path, target.path) == 0 else {
            let message = String(cString: strerror(errno))
            _ = rename(old.path, target.path)
            try? fileManager.removeItem(at: staging)
            throw WriteError(path: target.path, message: "cannot move the new site into place: \(message)")
        }
        return Self.removeTree(old.path, countingFilesNotIn: paths)
    }

    /// Cleans up after a build that was killed: removes half-written staging folders, and moves an
    /// old site back if a non-atomic swap was interrupted between its two renames.
    private func recoverInterruptedSwap(parent: URL, name: String) {
        let fileManager = FileManager.default
        let entries = (try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? []
        let target = parent.appendingPathComponent(name)
        for entry in entries.sorted() where entry.hasPrefix(".\(name).old-") {
            let old = parent.appendingPathComponent(entry)
            if !fileManager.fileExists(atPath: target.path) {
                _ = rename(old.path, target.path)
            } else {
                try? fileManager.removeItem(at: old)
            }
        }
        for entry in entries where entry.hasPrefix(".\(name).new-") {
            try? fileManager.removeItem(at: parent.appendingPathComponent(entry))
        }
    }

    /// `renameat2(RENAME_EXCHANGE)`, looked up at run time because Glibc's Swift overlay does not
    /// declare it (it needs `_GNU_SOURCE`). False when unavailable or refused.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        #if os(Linux)
            typealias RenameAt2 =
                @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
            let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
            let renameExchange: UInt32 = 2  // RENAME_EXCHANGE from <linux/fs.h>
            return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
        #else
            return false
        #endif
    }

    /// Rejects paths that would escape the site folder; render bugs must not write elsewhere.
    static func validate(_ path: String) throws(WriteError) {
        // No empty, `.` or `..` component (so no leading `/` either), checked byte by byte: this
        // runs for every file of the site.
        var component: (length: Int, dots: Int) = (0, 0)
        var isValid = !path.isEmpty
        for byte in path.utf8 where isValid {
            if byte == UInt8(ascii: "/") {
                isValid = component.length > 0 && component.dots < component.length
                component = (0, 0)
            } else {
                component.length += 1
                if byte == UInt8(ascii: "."), component.dots == component.length - 1, component.length <= 2 {
                    component.dots += 1
                }
            }
        }
        isValid = isValid && component.length > 0 && component.dots < component.length
        guard isValid else {
            throw WriteError(path: path, message: "refusing to write a file outside the site folder")
        }
    }

    /// Whether `path` is a regular file holding exactly `data`.
    fileprivate static func hasSameBytes(_ path: String, _ data: Data) -> Bool {
        // Opened, then checked through the descriptor: one path lookup per page instead of two
        // (`O_NONBLOCK` keeps a FIFO at that path from blocking the open).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count
        else { return false }
        // An empty file equals empty data (and an empty buffer has no address to compare).
        guard !data.isEmpty else { return true }
        return data.withUnsafeBytes { new in
            // Read into uninitialised memory: zero-filling a page's worth first is wasted work.
            let old = UnsafeMutableRawBufferPointer.allocate(byteCount: new.count, alignment: 16)
            defer { old.deallocate() }
            var filled = 0
            while filled < old.count {
                let count = read(descriptor, old.baseAddress! + filled, old.count - filled)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                filled += count
            }
            return memcmp(old.baseAddress!, new.baseAddress!, new.count) == 0
        }
    }

    /// Whether two regular files hold the same bytes, compared a megabyte at a time.
    fileprivate static func haveSameBytes(_ a: String, _ b: String) -> Bool {
        var infoA = stat()
        var infoB = stat()
        guard stat(a, &infoA) == 0, stat(b, &infoB) == 0, (infoA.st_mode & S_IFMT) == S_IFREG,
            (infoB.st_mode & S_IFMT) == S_IFREG, infoA.st_size == infoB.st_size
        else { return false }
        if infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino { return true }
        let fileA = open(a, O_RDONLY | O_CLOEXEC)
        guard fileA >= 0 else { return false }
        defer { close(fileA) }
        let fileB = open(b, O_RDONLY | O_CLOEXEC)
        guard fileB >= 0 else { return false }
        defer { close(fileB) }
        var bufferA = [UInt8](repeating: 0, count: 1 << 20)
        var bufferB = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let countA = readFully(fileA, &bufferA)
            let countB = readFully(fileB, &bufferB)
            guard countA == countB, countA >= 0 else { return false }
            if countA == 0 { return true }
            guard memcmp(bufferA, bufferB, countA) == 0 else { return false }
        }
    }

    /// Reads until `buffer` is full or the file ends; the byte count, or -1 on an error.
    private static func readFully(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? -1 : filled }
            filled += count
        }
        return filled
    }

    /// Copies a file a megabyte at a time.
    fileprivate static func copyFile(_ source: String, to destination: String) throws(WriteError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw WriteError(path: source, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw WriteError(path: destination, message: "cannot write: \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = readFully(input, &buffer)
            guard count >= 0 else {
                throw WriteError(path: source, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            if let failure = buffer.withUnsafeBytes({
                writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output)
            }) {
                throw WriteError(path: destination, message: "cannot write: \(String(cString: strerror(failure)))")
            }
        }
    }

    /// Writes every byte, retrying short writes; the `errno` of a failure.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += count
        }
        return nil
    }

    /// `mkdir -p folder` inside `root` (which exists).
    fileprivate static func makeDirectories(_ folder: String, under root: String) throws(WriteError) {
        let full = root + "/" + folder
        if mkdir(full, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = folder.lastIndex(of: "/") else {
            throw WriteError(path: full, message: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
        try makeDirectories(String(folder[..<slash]), under: root)
        guard mkdir(full, 0o755) == 0 || errno == EEXIST else {
            throw WriteError(path: full, message: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes a new file (the staging folder is fresh, so nothing is overwritten).
    fileprivate static func writeFile(_ data: Data, to path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WriteError(path: path, message: "cannot write the new site: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        if let failure = data.withUnsafeBytes({ writeAll($0, to: descriptor) }) {
            throw WriteError(path: path, message: "cannot write the new site: \(String(cString: strerror(failure)))")
        }
    }

    /// Deletes the folder at `path` (an old site, swapped out) and everything in it. Returns how
    /// many of its regular files, dotfiles and dot-folders aside, have a site path not in `kept`
    /// (the files the new site no longer has).
    ///
    /// POSIX calls relative to open folders, counting as it deletes: counting first and then
    /// `FileManager.removeItem` walked 30,000 item folders twice, resolving every full path each
    /// time. What is left is the kernel's work (as long as `rm -rf`), which comes after the pages
    /// are done, so the second-level folders (`items/<feed>`, …) are deleted on all cores.
    fileprivate static func removeTree(_ path: String, countingFilesNotIn kept: Set<String>) -> Int {
        let root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { return 0 }
        defer { close(root) }
        // First and second level: the folders are kept open while the parts below them go.
        var topFolders: [(descriptor: Int32, site: String?)] = []
        defer { for folder in topFolders { close(folder.descriptor) } }
        var units: [(parent: Int32, name: String, site: String?)] = []
        for entry in TreeEntry.list(root) where entry.isDirectory {
            let folder = openat(root, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { continue }
            let site = entry.name.hasPrefix(".") ? nil : entry.name
            topFolders.append((folder, site))
            for child in TreeEntry.list(folder) where child.isDirectory {
                units.append((folder, child.name, child.site(in: site)))
            }
        }
        var count = units.concurrentMap { unit in
            let count = removeContents(of: unit.parent, unit.name, site: unit.site, notIn: kept)
            _ = unlinkat(unit.parent, unit.name, AT_REMOVEDIR)
            return count
        }.reduce(0, +)
        // What the parallel part left: files at the first level, then the top.
        for folder in topFolders {
            count += removeContents(of: folder.descriptor, site: folder.site, notIn: kept)
        }
        count += removeContents(of: root, site: "", notIn: kept)
        if rmdir(path) != 0 {
            // Something was left (a file that could not be deleted): try the slow way.
            try? FileManager.default.removeItem(atPath: path)
        }
        return count
    }

    /// One entry of a folder being deleted.
    private struct TreeEntry {
        var name: String
        var isDirectory: Bool
        var isRegular: Bool

        /// The entry's site path inside a folder at `folder` (nil: inside a dot-folder, not counted).
        func site(in folder: String?) -> String? {
            guard let folder, !name.hasPrefix(".") else { return nil }
            return folder.isEmpty ? name : folder + "/" + name
        }

        /// The entries of the open folder `descriptor` (left open), read before anything is deleted.
        static func list(_ descriptor: Int32) -> [TreeEntry] {
            let copy = dup(descriptor)
            guard copy >= 0, let stream = fdopendir(copy) else { return [] }
            defer { closedir(stream) }
            rewinddir(stream)
            var entries: [TreeEntry] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                var type = entry.pointee.d_type
                if type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                    let format = info.st_mode & S_IFMT
                    type = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : 0
                }
                entries.append(
                    TreeEntry(name: name, isDirectory: type == UInt8(DT_DIR), isRegular: type == UInt8(DT_REG)))
            }
            return entries
        }
    }

    /// Empties the folder `name` in the open folder `parent` (the folder itself stays); the count
    /// of regular files whose site path is not in `kept`.
    private static func removeContents(of parent: Int32, _ name: String, site: String?, notIn kept: Set<String>) -> Int
    {
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return 0 }
        defer { close(folder) }
        return removeContents(of: folder, site: site, notIn: kept)
    }

    /// Empties the open folder `folder` (left open), whose site path is `site`.
    private static func removeContents(of folder: Int32, site: String?, notIn kept: Set<String>) -> Int {
        var count = 0
        for entry in TreeEntry.list(folder) {
            let entrySite = entry.site(in: site)
            if entry.isDirectory {
                count += removeContents(of: folder, entry.name, site: entrySite, notIn: kept)
                _ = unlinkat(folder, entry.name, AT_REMOVEDIR)
            } else {
                if entry.isRegular, let entrySite, !kept.contains(entrySite) { count += 1 }
                _ = unlinkat(folder, entry.name, 0)
            }
        }
        return count
    }
}
