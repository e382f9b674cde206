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
///
/// The site swapped out is not deleted: it is kept as `.Site.previous` (with a `.gitignore` of
/// `*`, so `git add -A` passes it by) and becomes the next build's staging folder. That build
/// only touches what differs: a page that did not change since the build before last is already
/// there, as the same inode as the live one, and costs no folder, link or deletion. Rebuilding
/// over an existing site used to create every folder and link of the new site and then delete
/// every file and folder of the old one (on ext4, 4.5 s of a 12 s build at 1,000 feeds).
///
/// Ownership: feedsite writes only into folders it made. The output folder is checked first
/// (`OutputFolder`), and every folder it writes carries a marker (`SiteMarker`) that says whether
/// it holds a whole site: a staging folder is marked incomplete until its commit, so what a failed
/// or killed build leaves is deleted, never reused as the previous site (a build that failed on a
/// full disk frees its space at once, and the next build that fits succeeds). Folders beside the
/// site are reused or deleted only when marked; links are never followed into.
public struct SiteWriter: Sendable {
    /// What a write did.
    public struct Report: Sendable, Hashable {
        public var totalFiles: Int
        /// Files that are new or whose bytes changed.
        public var changedFiles: Int
    }

    /// The site could not be written; the old site (if any) is untouched.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for the exit status.
        public enum Kind: Sendable, Hashable {
            /// The output folder cannot be created, or is not feedsite's to write (exit 73).
            case refused
            /// Reading or writing failed: a full disk, an I/O error (exit 74).
            case io
            /// A page path that would leave the site, or one written twice: a bug (exit 74).
            case invalidSite
        }

        public var path: String
        public var message: String
        public var kind: Kind

        public init(path: String, message: String, kind: Kind = .io) {
            self.path = path
            self.message = message
            self.kind = kind
        }

        public var description: String { "error: \(path): \(message)" }
    }

    /// Tests only: an `errno` to fail the writing of a site path with (a full disk, say), or nil.
    let injectedFailure: (@Sendable (String) -> Int32?)?

    public init() {
        injectedFailure = nil
    }

    /// A writer whose page writes fail as `failure` says (fault injection for tests).
    init(injectingFailure failure: @escaping @Sendable (String) -> Int32?) {
        injectedFailure = failure
    }

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

    /// Tidies what killed builds left beside `directory` (their staging folders), and moves an old
    /// site back if a two-step swap was interrupted. `begin` does this too; a build that has nothing
    /// to write calls it alone.
    public func cleanUp(_ directory: URL) {
        guard let path = try? OutputFolder.resolve(directory.standardizedFileURL.path) else { return }
        recoverInterruptedSwap(parent: OutputFolder.parent(of: path), name: OutputFolder.name(of: path), target: path)
    }

    /// The folder kept beside `directory` for the next build (`.Site.previous`), beside the real
    /// folder when `directory` is a symbolic link.
    public static func previousFolder(of directory: URL) -> URL {
        let given = directory.standardizedFileURL.path
        let path = (try? OutputFolder.resolve(given)) ?? given
        return URL(fileURLWithPath: previousPath(of: path))
    }

    /// `.Site.previous` beside the real folder `path`.
    static func previousPath(of path: String) -> String {
        OutputFolder.parent(of: path) + "/." + OutputFolder.name(of: path) + ".previous"
    }

    /// Starts a new site for `directory` in a staging folder beside it: the previous site when one
    /// was kept (its contents listed, so each page is checked against what is already there),
    /// else an empty folder. Add files as they are rendered (so a large site never has to be held
    /// in memory whole), then `commit` to swap it in, or `discard`.
    ///
    /// - Throws: `WriteError` of kind `.refused` when the folder is not feedsite's to write
    ///   (`OutputFolder.check`) or cannot be created.
    public func begin(_ directory: URL) throws(WriteError) -> Staging {
        try begin(OutputFolder.check(directory))
    }

    /// Starts a new site for a checked output folder; see `begin(_:)`.
    public func begin(_ checked: OutputFolder) throws(WriteError) -> Staging {
        let parent = checked.parent
        let name = checked.name
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw WriteError(
                path: parent, message: "cannot create the folder: \(error.localizedDescription)", kind: .refused)
        }
        recoverInterruptedSwap(parent: parent, name: name, target: checked.path)
        // Checked again: the recovery may have moved an old site back into place.
        let folder = try OutputFolder.check(URL(fileURLWithPath: checked.requested))
        let staging = parent + "/.\(name).new-\(getpid())"
        try Self.clearStaleStaging(staging)
        let previous = Self.previousPath(of: folder.path)
        let target = URL(fileURLWithPath: folder.path)
        let stagingURL = URL(fileURLWithPath: staging)
        // Only a previous site feedsite kept whole is reused; one marked incomplete is deleted.
        // Claimed by a rename, so two builds at once never share it (the second starts empty).
        if OutputFolder.isOwnNeighbour(previous) {
            if SiteMarker.load(from: previous)?.state == .incomplete {
                Self.removeTree(previous)
            } else if rename(previous, staging) == 0 {
                do {
                    try SiteMarker.save(.incomplete, in: staging)
                } catch {
                    Self.removeTree(staging)
                    throw error
                }
                if let inventory = Inventory.take(staging) {
                    return Staging(
                        writer: self, folder: folder, target: target, staging: stagingURL, inventory: inventory)
                }
                Self.removeTree(staging)
            }
        }
        guard mkdir(staging, 0o755) == 0 else {
            let code = errno
            throw WriteError(
                path: staging, message: "cannot create the folder: \(String(cString: strerror(code)))",
                kind: code == ENOSPC || code == EIO || code == EDQUOT ? .io : .refused)
        }
        do {
            try SiteMarker.save(.incomplete, in: staging)
        } catch {
            Self.removeTree(staging)
            throw error
        }
        return Staging(writer: self, folder: folder, target: target, staging: stagingURL, inventory: Inventory())
    }

    /// Makes way for this process's staging folder: one of an earlier build with the same pid is
    /// deleted when it is feedsite's (marked) or empty; anything else there is refused.
    private static func clearStaleStaging(_ staging: String) throws(WriteError) {
        var info = stat()
        guard lstat(staging, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR, SiteMarker.load(from: staging) != nil {
            removeTree(staging)
            return
        }
        if rmdir(staging) == 0 { return }
        throw WriteError(
            path: staging, message: "is in the way of the staging folder and was not made by feedsite; move it away",
            kind: .refused)
    }

    /// What a reused staging folder holds when the build begins: its regular files (site path →
    /// inode) and folders. Anything else in it (symlinks, FIFOs) is deleted as it is listed, so no
    /// page is ever written through a link out of the folder.
    struct Inventory: Sendable {
        var files: [String: UInt64] = [:]
        var folders: Set<String> = []

        /// Lists the folder at `path`, the folders below the second level on all cores; nil when
        /// it cannot be opened as a folder.
        static func take(_ path: String) -> Inventory? {
            let root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard root >= 0 else { return nil }
            defer { close(root) }
            var inventory = Inventory()
            // First and second level here, their folders kept open for the parts below them.
            var topFolders: [Int32] = []
            defer { for folder in topFolders { close(folder) } }
            var units: [(parent: Int32, name: String, site: String)] = []
            for entry in TreeEntry.list(root) {
                guard inventory.add(entry, at: entry.name, in: root) else { continue }
                let folder = openat(root, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard folder >= 0 else { continue }
                topFolders.append(folder)
                for child in TreeEntry.list(folder) {
                    let site = entry.name + "/" + child.name
                    if inventory.add(child, at: site, in: folder) { units.append((folder, child.name, site)) }
                }
            }
            let parts = units.concurrentMap { unit in
                var part = Inventory()
                part.list(unit.parent, unit.name, site: unit.site)
                return part
            }
            inventory.files.reserveCapacity(inventory.files.count + parts.reduce(0) { $0 + $1.files.count })
            inventory.folders.reserveCapacity(inventory.folders.count + parts.reduce(0) { $0 + $1.folders.count })
            for part in parts {
                inventory.files.merge(part.files) { first, _ in first }
                inventory.folders.formUnion(part.folders)
            }
            return inventory
        }

        /// Records `entry` of the open folder `folder` as site path `site`: a regular file with its
        /// inode, a folder (true: list it too); anything else is deleted.
        private mutating func add(_ entry: TreeEntry, at site: String, in folder: Int32) -> Bool {
            if entry.isRegular {
                files[site] = entry.inode
                return false
            }
            guard entry.isDirectory else {
                _ = unlinkat(folder, entry.name, 0)
                return false
            }
            folders.insert(site)
            return true
        }

        /// Adds what the folder `name` in the open folder `parent` holds (site path `site`).
        private mutating func list(_ parent: Int32, _ name: String, site: String) {
            // Read through its own descriptor (no `dup` and rewind as for a folder being deleted):
            // most of these folders are an item page's, holding one file.
            let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            guard let stream = fdopendir(descriptor) else {
                close(descriptor)
                return
            }
            defer { closedir(stream) }
            let folder = dirfd(stream)
            for entry in TreeEntry.read(stream, of: folder) {
                let path = site + "/" + entry.name
                if add(entry, at: path, in: folder) { list(folder, entry.name, site: path) }
            }
        }

        /// Makes room at `path` for a file: a folder there (the site's layout changed) goes.
        func clearForFile(_ path: String, in stagingPath: String) {
            if folders.contains(path) { SiteWriter.removeTree(stagingPath + "/" + path) }
        }

        /// Creates `folder` (and its parents) in the staging folder unless it was already there;
        /// a file where one of them goes is deleted first.
        func makeFolder(_ folder: String, in stagingPath: String) throws(WriteError) {
            guard !folders.contains(folder) else { return }
            if !files.isEmpty {
                var prefix = Substring(folder)
                while true {
                    if files[String(prefix)] != nil { _ = unlink(stagingPath + "/" + prefix) }
                    guard let slash = prefix.lastIndex(of: "/") else { break }
                    prefix = prefix[..<slash]
                }
            }
            try SiteWriter.makeDirectories(folder, under: stagingPath)
        }

        /// Puts the file at `path` in place when it is the same file as `old` (hard-linked): nothing
        /// to do when the staging folder's file is that very inode, else a link replaces it. False
        /// when it could not be linked (the caller writes it).
        func place(_ path: String, sameAs oldInode: UInt64, from old: String, in stagingPath: String) -> Bool {
            let existing = files[path]
            if existing == oldInode { return true }
            let destination = stagingPath + "/" + path
            if existing != nil { _ = unlink(destination) }
            return link(old, destination) == 0
        }

        /// Makes room at `path` for a new file: the staging folder's file there, which may be the
        /// live site's own inode, is unlinked (never written into).
        func clearForNewFile(_ path: String, in stagingPath: String) {
            if files[path] != nil { _ = unlink(stagingPath + "/" + path) }
        }
    }

    /// A site being written; see `begin`.
    public struct Staging: Sendable {
        let writer: SiteWriter
        /// The output folder as checked when the build began.
        let folder: OutputFolder
        let target: URL
        let staging: URL
        /// What the staging folder held when the build began (empty unless it is the previous site).
        let inventory: Inventory
        /// Every path added so far (to find what the new site no longer has).
        private(set) var paths: Set<String> = []
        private var createdDirectories: Set<String> = []
        private(set) var report = Report(totalFiles: 0, changedFiles: 0)

        init(writer: SiteWriter, folder: OutputFolder, target: URL, staging: URL, inventory: Inventory) {
            self.writer = writer
            self.folder = folder
            self.target = target
            self.staging = staging
            self.inventory = inventory
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
        public var area: Area {
            Area(
                targetPath: target.path, stagingPath: staging.path, hasOldSite: hasOldSite, inventory: inventory,
                injectedFailure: writer.injectedFailure)
        }

        /// Whether an old site was there when the build began: when not (a first build, a fresh CI
        /// runner), no page can be compared with an old one and the `stat` per page is skipped.
        private let hasOldSite: Bool

        /// Counts a batch written through `area`. A path written twice (by two batches) is a
        /// rendering bug and fails the build; the staging folder is then discarded.
        public mutating func record(_ batch: Area.Batch) throws(WriteError) {
            for path in batch.paths where !paths.insert(path).inserted {
                throw WriteError(
                    path: path, message: "written twice in one build (a rendering bug)", kind: .invalidSite)
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
            let inventory: Inventory
            let injectedFailure: (@Sendable (String) -> Int32?)?

            /// What one `write` did.
            public struct Batch: Sendable {
                /// The site paths written, sorted.
                public var paths: [String]
                /// Files that are new or whose bytes changed (the rest were hard-linked).
                public var changedFiles: Int
            }

            /// Writes `files` (site path → bytes) into the staging folder: paths checked, folders
            /// created, a file whose bytes equal the old site's hard-linked instead (same inode,
            /// same mtime), or left alone when the staging folder already has that inode there.
            /// Plain POSIX calls on path strings: with `URL` and `FileManager` this loop was 6 % of a
            /// cold build's CPU (path objects, attribute dictionaries, one folder per item page).
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
                            try inventory.makeFolder(String(folder), in: stagingPath)
                            createdDirectories.insert(folder)
                        }
                    }
                    inventory.clearForFile(path, in: stagingPath)
                    let old = targetPath + "/" + path
                    if hasOldSite, let inode = SiteWriter.inode(of: old, ifItHolds: data),
                        inventory.place(path, sameAs: inode, from: old, in: stagingPath)
                    {
                        continue
                    }
                    changed += 1
                    inventory.clearForNewFile(path, in: stagingPath)
                    if let code = injectedFailure?(path) {
                        throw WriteError(
                            path: stagingPath + "/" + path,
                            message: "cannot write the new site: \(String(cString: strerror(code)))")
                    }
                    try SiteWriter.writeFile(data, to: stagingPath + "/" + path)
                }
                return Batch(paths: paths, changedFiles: changed)
            }
        }

        /// Adds the file at `source` (outside the site) as `path`: hard-linked from the old site when
        /// the bytes are the same, else hard-linked from `source` (copied across file systems).
        /// Streams: the file may be large (the published state). `source` must never be written
        /// into afterwards (the state is saved by renaming a new file over it).
        public mutating func addFile(copying source: String, as path: String) throws(WriteError) {
            try addFile(source, as: path, linkingSource: true)
        }

        /// Adds the files of `static/` at their site paths, byte for byte: linked from the old site
        /// when unchanged, else copied (never linked: an edit of the user's file in place must not
        /// change the published one, nor the other way round).
        public mutating func add(_ staticFiles: StaticFiles) throws(WriteError) {
            for file in staticFiles.files {
                guard !paths.contains(file.sitePath) else {
                    throw WriteError(
                        path: file.displayPath,
                        message: "has the same path as a page feedsite generates (\(file.sitePath)); rename it",
                        kind: .refused)
                }
                try addFile(file.source, as: file.sitePath, linkingSource: false)
            }
        }

        private mutating func addFile(_ source: String, as path: String, linkingSource: Bool) throws(WriteError) {
            let destination = try prepare(path, in: staging.path)
            inventory.clearForFile(path, in: staging.path)
            let old = target.path + "/" + path
            if let inode = SiteWriter.inode(of: old, ifSameAs: source),
                inventory.place(path, sameAs: inode, from: old, in: staging.path)
            {
                return
            }
            report.changedFiles += 1
            inventory.clearForNewFile(path, in: staging.path)
            if let code = writer.injectedFailure?(path) {
                throw WriteError(path: destination, message: "cannot write: \(String(cString: strerror(code)))")
            }
            if linkingSource && link(source, destination) == 0 { return }
            try SiteWriter.copyFile(source, to: destination)
        }

        /// Checks and counts a new file's site path, creates its folder in the staging folder, and
        /// returns where it goes.
        private mutating func prepare(_ path: String, in stagingPath: String) throws(WriteError) -> String {
            try SiteWriter.validate(path)
            guard paths.insert(path).inserted else {
                throw WriteError(
                    path: path, message: "written twice in one build (a rendering bug)", kind: .invalidSite)
            }
            report.totalFiles += 1
            if let slash = path.lastIndex(of: "/") {
                let folder = String(path[..<slash])
                if !createdDirectories.contains(folder) {
                    try inventory.makeFolder(folder, in: stagingPath)
                    createdDirectories.insert(folder)
                }
            }
            return stagingPath + "/" + path
        }

        /// Swaps the new site in, atomically: files at the top of the old site that are not
        /// feedsite's are carried over, what the new site does not have is deleted, the folder is
        /// marked complete, then exchanged with the live one.
        public mutating func commit() throws(WriteError) -> Report {
            var topNames: Set<String> = [SiteMarker.fileName]
            for path in paths {
                topNames.insert(path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path)
            }
            var kept = paths
            kept.insert(SiteMarker.fileName)
            do {
                try carryOver(into: &kept, avoiding: topNames)
                removeStale(keeping: kept)
                try markComplete(names: topNames)
            } catch {
                discard()
                throw error
            }
            try writer.swap(staging, into: target)
            return report
        }

        /// Links the files at the top of the live site that feedsite did not write (a `.gitkeep`,
        /// an `.htaccess`, a `CNAME` put there by hand) into the new site at the same paths, so
        /// nothing of the user's moves or goes. A folder of the user's there, or a file of the
        /// user's where the new site has one, stops the build: feedsite would have to move it.
        private func carryOver(into kept: inout Set<String>, avoiding topNames: Set<String>) throws(WriteError) {
            for entry in OutputFolder.Entry.list(target.path) ?? [] where folder.isForeign(entry.name) {
                let source = target.path + "/" + entry.name
                guard !entry.isDirectory, !entry.name.unicodeScalars.contains("\u{FFFD}") else {
                    throw WriteError(
                        path: source,
                        message: "is a folder (or a name that is not UTF-8) feedsite did not write, and the site "
                            + "folder is replaced as a whole; "
                            + "move it out (files to publish with the site go in static/ beside feeds.yml)",
                        kind: .refused)
                }
                guard !topNames.contains(entry.name) else {
                    throw WriteError(
                        path: source,
                        message: "was not written by feedsite, and the new site has a file or folder of that name; "
                            + "move it out of the site folder (to publish your own, put it in static/ beside "
                            + "feeds.yml under a name feedsite does not use)",
                        kind: .refused)
                }
                var info = stat()
                guard lstat(source, &info) == 0 else {
                    // Gone since it was listed: nothing to keep.
                    if errno == ENOENT { continue }
                    throw WriteError(
                        path: source, message: "cannot be carried over: \(String(cString: strerror(errno)))")
                }
                kept.insert(entry.name)
                inventory.clearForFile(entry.name, in: staging.path)
                guard inventory.place(entry.name, sameAs: UInt64(info.st_ino), from: source, in: staging.path) else {
                    throw WriteError(
                        path: source,
                        message: "cannot be carried over into the new site: \(String(cString: strerror(errno)))")
                }
            }
        }

        /// Replaces the staging folder's marker with a complete one listing `names`: the live
        /// site's own when it holds the same bytes (so a deploy does not upload it again).
        private func markComplete(names: Set<String>) throws(WriteError) {
            let marker = SiteMarker(state: .complete, names: names)
            let data = marker.data
            let live = target.path + "/" + SiteMarker.fileName
            let temporary = staging.path + "/" + SiteMarker.temporaryName
            _ = unlink(temporary)
            if SiteWriter.inode(of: live, ifItHolds: data) != nil, link(live, temporary) == 0,
                rename(temporary, staging.path + "/" + SiteMarker.fileName) == 0
            {
                return
            }
            try SiteMarker.save(marker, in: staging.path)
        }

        /// Deletes what the staging folder held when the build began and the new site does not
        /// have (files and folders of the site before last).
        private func removeStale(keeping kept: Set<String>) {
            guard !inventory.files.isEmpty || !inventory.folders.isEmpty else { return }
            var needed: Set<String> = []
            needed.reserveCapacity(inventory.folders.count)
            for path in kept {
                var folder = Substring(path)
                while let slash = folder.lastIndex(of: "/") {
                    folder = folder[..<slash]
                    guard needed.insert(String(folder)).inserted else { break }
                }
            }
            func isStale(_ folder: String) -> Bool {
                inventory.folders.contains(folder) && !needed.contains(folder) && !kept.contains(folder)
            }
            func parent(_ path: String) -> String? { path.lastIndex(of: "/").map { String(path[..<$0]) } }
            // Whole folders first (the top-most stale one of each branch), then single files.
            for folder in inventory.folders where isStale(folder) && !(parent(folder).map(isStale) ?? false) {
                SiteWriter.removeTree(staging.path + "/" + folder)
            }
            for path in inventory.files.keys where !kept.contains(path) && !needed.contains(path) {
                if let folder = parent(path), isStale(folder) { continue }
                _ = unlink(staging.path + "/" + path)
            }
        }

        /// Abandons the new site; the old one stays as it was. The staging folder is incomplete (a
        /// failed build may have stopped anywhere, on a full disk among others), so it is deleted
        /// now, freeing its space, rather than kept as a previous site.
        public func discard() {
            SiteWriter.removeTree(staging.path)
        }
    }

    /// Exchanges `staging` and `target` atomically, then keeps the old site as the next build's
    /// staging folder.
    fileprivate func swap(_ staging: URL, into target: URL) throws(WriteError) {
        var info = stat()
        guard lstat(target.path, &info) == 0 else {
            guard rename(staging.path, target.path) == 0 else {
                let message = String(cString: strerror(errno))
                Self.removeTree(staging.path)
                throw WriteError(
                    path: target.path, message: "cannot move the new site into place: \(message)", kind: .refused)
            }
            return
        }
        if Self.exchange(staging.path, target.path) {
            // `staging` now holds the old site.
            Self.keepAsPrevious(staging.path, of: target.path)
            return
        }
        // No atomic exchange (not Linux, or an old kernel/filesystem): two renames. A crash between
        // them leaves `.Site.old-<pid>`, which the next build moves back (`recoverInterruptedSwap`).
        let old = OutputFolder.parent(of: target.path) + "/.\(target.lastPathComponent).old-\(getpid())"
        guard rename(target.path, old) == 0 else {
            let message = String(cString: strerror(errno))
            Self.removeTree(staging.path)
            throw WriteError(path: target.path, message: "cannot move the old site aside: \(message)", kind: .refused)
        }
        guard rename(staging.path, target.path) == 0 else {
            let message = String(cString: strerror(errno))
            _ = rename(old, target.path)
            Self.removeTree(staging.path)
            throw WriteError(
                path: target.path, message: "cannot move the new site into place: \(message)", kind: .refused)
        }
        Self.keepAsPrevious(old, of: target.path)
    }

    /// Moves the whole site at `path` (the old site after a swap, or a killed build's staging
    /// folder that was complete) to `.Site.previous` for the next build, marked for git to ignore;
    /// deleted instead when there already is one. Only ever called on feedsite's own folders.
    fileprivate static func keepAsPrevious(_ path: String, of target: String) {
        if rmdir(path) == 0 { return }
        let previous = previousPath(of: target)
        guard rename(path, previous) == 0 else {
            removeTree(path)
            return
        }
        // An old site adopted without a marker (an older feedsite's) is marked now, so the next
        // build recognises it; a new file (the old site's own may be the live site's inode).
        if SiteMarker.load(from: previous)?.state != .complete {
            try? SiteMarker.save(SiteMarker(state: .complete, names: []), in: previous)
        }
        let text = "# feedsite: the site before the current one, reused by the next build. Safe to delete.\n*\n"
        try? writeFile(Data(text.utf8), to: previous + "/.gitignore")
    }

    /// Cleans up after a build that was killed: moves an old site back if a non-atomic swap was
    /// interrupted between its two renames, keeps a dead build's staging folder when it holds a
    /// whole site (marked complete) and deletes it when marked incomplete. A running build's
    /// folder, and anything not marked as feedsite's, is left alone (an empty one is removed).
    private func recoverInterruptedSwap(parent: String, name: String, target: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for entry in entries.sorted() where entry.hasPrefix(".\(name).old-") {
            let old = parent + "/" + entry
            guard OutputFolder.isOwnNeighbour(old) else { continue }
            var info = stat()
            if lstat(target, &info) != 0 {
                _ = rename(old, target)
            } else {
                Self.keepAsPrevious(old, of: target)
            }
        }
        for entry in entries where entry.hasPrefix(".\(name).new-") {
            if let pid = pid_t(entry.dropFirst(".\(name).new-".count)), pid != getpid(),
                kill(pid, 0) == 0 || errno == EPERM
            {
                continue
            }
            let path = parent + "/" + entry
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            switch SiteMarker.load(from: path)?.state {
            case .complete?: Self.keepAsPrevious(path, of: target)
            case .incomplete?: Self.removeTree(path)
            case nil: _ = rmdir(path)
            }
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
            throw WriteError(
                path: path, message: "refusing to write a file outside the site folder", kind: .invalidSite)
        }
    }

    /// The inode of `path` when it is a regular file holding exactly `data`, else nil.
    static func inode(of path: String, ifItHolds data: Data) -> UInt64? {
        // Opened, then checked through the descriptor: one path lookup per page instead of two
        // (`O_NONBLOCK` keeps a FIFO at that path from blocking the open).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count
        else { return nil }
        // An empty file equals empty data (and an empty buffer has no address to compare).
        guard !data.isEmpty else { return UInt64(info.st_ino) }
        let same = data.withUnsafeBytes { new in
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
        return same ? UInt64(info.st_ino) : nil
    }

    /// The inode of `path` when it and `other` are regular files holding the same bytes (compared
    /// a megabyte at a time), else nil.
    fileprivate static func inode(of path: String, ifSameAs other: String) -> UInt64? {
        var infoA = stat()
        var infoB = stat()
        guard lstat(path, &infoA) == 0, stat(other, &infoB) == 0, (infoA.st_mode & S_IFMT) == S_IFREG,
            (infoB.st_mode & S_IFMT) == S_IFREG, infoA.st_size == infoB.st_size
        else { return nil }
        let inode = UInt64(infoA.st_ino)
        if infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino { return inode }
        let fileA = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fileA >= 0 else { return nil }
        defer { close(fileA) }
        let fileB = open(other, O_RDONLY | O_CLOEXEC)
        guard fileB >= 0 else { return nil }
        defer { close(fileB) }
        var bufferA = [UInt8](repeating: 0, count: 1 << 20)
        var bufferB = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let countA = readFully(fileA, &bufferA)
            let countB = readFully(fileB, &bufferB)
            guard countA == countB, countA >= 0 else { return nil }
            if countA == 0 { return inode }
            guard memcmp(bufferA, bufferB, countA) == 0 else { return nil }
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
        let output = try createFile(destination, failure: "cannot write")
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

    /// Creates a new file at `path` for writing, never opening one that is there: a file of the
    /// staging folder may be a hard link to the live site's. Whatever is in the way is deleted.
    private static func createFile(_ path: String, failure: String) throws(WriteError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        var descriptor = open(path, flags, 0o644)
        if descriptor < 0 && errno == EEXIST {
            if unlink(path) != 0 && (errno == EISDIR || errno == EPERM) { removeTree(path) }
            descriptor = open(path, flags, 0o644)
        }
        guard descriptor >= 0 else {
            throw WriteError(path: path, message: "\(failure): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// Writes a new file.
    static func writeFile(_ data: Data, to path: String) throws(WriteError) {
        let descriptor = try createFile(path, failure: "cannot write the new site")
        defer { close(descriptor) }
        if let failure = data.withUnsafeBytes({ writeAll($0, to: descriptor) }) {
            throw WriteError(path: path, message: "cannot write the new site: \(String(cString: strerror(failure)))")
        }
    }

    /// Deletes the folder at `path` and everything in it (nothing when it is not a folder).
    ///
    /// POSIX calls relative to open folders: `FileManager.removeItem` resolved every full path.
    /// What is left is the kernel's work (as long as `rm -rf`), so the second-level folders
    /// (`items/<feed>`, …) are deleted on all cores.
    static func removeTree(_ path: String) {
        let root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { return }
        defer { close(root) }
        // First and second level: the folders are kept open while the parts below them go.
        var topFolders: [Int32] = []
        defer { for folder in topFolders { close(folder) } }
        var units: [(parent: Int32, name: String)] = []
        for entry in TreeEntry.list(root) where entry.isDirectory {
            let folder = openat(root, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { continue }
            topFolders.append(folder)
            for child in TreeEntry.list(folder) where child.isDirectory {
                units.append((folder, child.name))
            }
        }
        _ = units.concurrentMap { unit in
            removeContents(of: unit.parent, unit.name)
            _ = unlinkat(unit.parent, unit.name, AT_REMOVEDIR)
        }
        // What the parallel part left: files at the first level, then the top.
        for folder in topFolders { removeContents(of: folder) }
        removeContents(of: root)
        if rmdir(path) != 0 {
            // Something was left (a file that could not be deleted): try the slow way.
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// One entry of a folder being deleted.
    private struct TreeEntry {
        var name: String
        var isDirectory: Bool
        var isRegular: Bool
        var inode: UInt64

        /// The entries of the open folder `descriptor` (left open), read before anything is deleted.
        static func list(_ descriptor: Int32) -> [TreeEntry] {
            let copy = dup(descriptor)
            guard copy >= 0, let stream = fdopendir(copy) else { return [] }
            defer { closedir(stream) }
            rewinddir(stream)
            return read(stream, of: descriptor)
        }

        /// The entries of the folder `stream` reads (open as `descriptor`), from where it is.
        static func read(_ stream: OpaquePointer, of descriptor: Int32) -> [TreeEntry] {
            var entries: [TreeEntry] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                var type = entry.pointee.d_type
                var inode = UInt64(entry.pointee.d_ino)
                if type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                    let format = info.st_mode & S_IFMT
                    type = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : 0
                    inode = UInt64(info.st_ino)
                }
                entries.append(
                    TreeEntry(
                        name: name, isDirectory: type == UInt8(DT_DIR), isRegular: type == UInt8(DT_REG), inode: inode))
            }
            return entries
        }
    }

    /// Empties the folder `name` in the open folder `parent` (the folder itself stays).
    private static func removeContents(of parent: Int32, _ name: String) {
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        removeContents(of: folder)
    }

    /// Empties the open folder `folder` (left open).
    private static func removeContents(of folder: Int32) {
        for entry in TreeEntry.list(folder) {
            if entry.isDirectory {
                removeContents(of: folder, entry.name)
                _ = unlinkat(folder, entry.name, AT_REMOVEDIR)
            } else {
                _ = unlinkat(folder, entry.name, 0)
            }
        }
    }
}
