import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SiteWriter {
    /// A site being written (see `SiteWriter.begin`): files are added as they are rendered, then
    /// the whole is committed (swapped in) or discarded.
    package struct Staging: Sendable {
        let writer: SiteWriter
        /// The output folder as checked when the build began.
        let folder: OutputFolder
        /// The real output folder (the live site).
        let target: String
        /// The staging folder.
        let staging: String
        /// Where files go: compared with the live site, linked or written.
        let placement: FilePlacement
        /// Every path added so far (to find what the new site no longer has).
        private(set) var paths: Set<String> = []
        private var createdFolders: Set<String> = []
        private(set) var report = Report(totalFiles: 0, changedFiles: 0)
        /// This build's claim on the staging folder (`FolderClaim`), until the staging value goes.
        private let claim: FileLock

        init(
            writer: SiteWriter, folder: OutputFolder, staging: String, claim: FileLock, inventory: StagingInventory,
            warnings: [String] = []
        ) async {
            report.warnings = warnings
            self.writer = writer
            self.folder = folder
            self.target = folder.path
            self.staging = staging
            placement = FilePlacement(
                livePath: folder.path, stagingPath: staging, hasLiveSite: await SiteWriter.info(folder.path) != nil,
                inventory: inventory, injectedFailure: writer.injectedFailure)
            self.claim = claim
        }

        /// Writes files into the staging folder; a file whose bytes equal the old site's is
        /// hard-linked instead (same inode, same mtime).
        package mutating func add(_ files: [String: Data]) async throws(WriteError) {
            try record(try await area.write(files))
        }

        /// A handle for writing batches of files from several tasks at once (`Area.write`); each
        /// batch is then counted here with `record`, in any order.
        package var area: Area { Area(placement: placement) }

        /// Counts a batch written through `area`. A path written twice (by two batches) is a
        /// rendering bug and fails the build; the staging folder is then discarded.
        package mutating func record(_ batch: Area.Batch) throws(WriteError) {
            for path in batch.paths where !paths.insert(path).inserted {
                throw WriteError(
                    path: path, message: "written twice in one build (a rendering bug)", kind: .invalidSite)
            }
            report.totalFiles += batch.paths.count
            report.changedFiles += batch.changedFiles
        }

        /// Where the new site's pages go, as a `Sendable` value: pages are written by the tasks
        /// that render them, on every core, each batch counted afterwards with `record`.
        package struct Area: Sendable {
            let placement: FilePlacement

            /// What one `write` did.
            package struct Batch: Sendable {
                /// The site paths written, sorted.
                package var paths: [String]
                /// Files that are new or whose bytes changed (the rest were hard-linked).
                package var changedFiles: Int
            }

            /// Writes `files` (site path → bytes) into the staging folder: paths checked, folders
            /// created, each file placed (linked when unchanged, else written).
            package func write(_ files: [String: Data]) async throws(WriteError) -> Batch {
                let paths = files.keys.sorted()
                var changed = 0
                var createdFolders: Set<Substring> = []
                for path in paths {
                    guard let data = files[path] else { continue }
                    try FilePlacement.validate(path)
                    if let slash = path.lastIndex(of: "/") {
                        let folder = path[..<slash]
                        if !createdFolders.contains(folder) {
                            try placement.makeFolder(String(folder))
                            createdFolders.insert(folder)
                        }
                    }
                    if try await placement.place(.bytes(data), at: path) { changed += 1 }
                }
                return Batch(paths: paths, changedFiles: changed)
            }
        }

        /// Adds the file at `source` as `path`: hard-linked from the old site when the bytes are the
        /// same, else copied. Never a link to `source` itself: the published copy and its source
        /// (the saved state) stay two files, so writing into one cannot change the other.
        package mutating func addFile(copying source: String, as path: String) async throws(WriteError) {
            try await addFile(.file(source, mayLink: false), as: path)
        }

        /// Adds the files of `static/` at their site paths, byte for byte: linked from the old site
        /// when unchanged, else copied (never linked: an edit of the user's file in place must not
        /// change the published one, nor the other way round).
        package mutating func add(_ staticFiles: StaticFiles) async throws(WriteError) {
            for file in staticFiles.files {
                guard !paths.contains(file.sitePath) else {
                    throw WriteError(
                        path: file.displayPath,
                        message: "has the same path as a page feedsite generates (\(file.sitePath)); rename it",
                        kind: .refused)
                }
                try await addFile(.file(file.source, mayLink: false), as: file.sitePath)
            }
        }

        private mutating func addFile(_ content: FilePlacement.Content, as path: String) async throws(WriteError) {
            try FilePlacement.validate(path)
            guard paths.insert(path).inserted else {
                throw WriteError(
                    path: path, message: "written twice in one build (a rendering bug)", kind: .invalidSite)
            }
            report.totalFiles += 1
            if let slash = path.lastIndex(of: "/") {
                let folder = String(path[..<slash])
                if !createdFolders.contains(folder) {
                    try placement.makeFolder(folder)
                    createdFolders.insert(folder)
                }
            }
            if try await placement.place(content, at: path) { report.changedFiles += 1 }
        }

        /// Swaps the new site in, atomically: files at the top of the old site that are not
        /// feedsite's are carried over, what the new site does not have is deleted, the folder is
        /// marked complete, then exchanged with the live one. A file put into the live site after
        /// its last listing goes with the old site in the exchange: it is moved back at once
        /// (`restoreArrivals`), so nothing of the user's is left in the folder the next build reuses.
        package mutating func commit() async throws(WriteError) -> Report {
            var topNames: Set<String> = [SiteMarker.fileName]
            for path in paths {
                topNames.insert(path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path)
            }
            var kept = paths
            kept.insert(SiteMarker.fileName)
            var carried: [String: UInt64] = [:]
            do {
                try await carryOver(into: &kept, carried: &carried, avoiding: topNames)
                try await removeStale(keeping: kept)
                try await markComplete(names: topNames)
                // Listed again just before the swap: the deletions above take a while on a large site.
                try await carryOver(into: &kept, carried: &carried, avoiding: topNames)
            } catch {
                await discard()
                throw error
            }
            writer.beforeSwap?(target)
            // The live site, claimed before the exchange puts it under the staging folder's name,
            // until it is kept as the previous site: no other build takes it for a dead one's.
            let oldSiteClaim = FolderClaim.claim(target)
            defer { withExtendedLifetime(oldSiteClaim) {} }
            guard let old = try await writer.swap(staging, into: target, expecting: folder.identity) else {
                return report
            }
            let arrivals = await restoreArrivals(from: old, carried: carried)
            if arrivals.mayReuseOldSite { await SiteWriter.keepAsPrevious(old, of: target) }
            var report = report
            report.warnings += arrivals.warnings
            return report
        }

        /// Links the files at the top of the live site that feedsite did not write (a `.gitkeep`,
        /// an `.htaccess`, a `CNAME` put there by hand) into the new site at the same paths, so
        /// nothing of the user's moves or goes; `carried` records each with its inode, and a file
        /// already carried is linked again only when it was replaced since. A folder of the user's
        /// there, or a file of the user's where the new site has one, stops the build: feedsite
        /// would have to move it.
        private func carryOver(
            into kept: inout Set<String>, carried: inout [String: UInt64], avoiding topNames: Set<String>
        ) async throws(WriteError) {
            let entries = await SiteWriter.info(target) == nil ? [] : try await FolderEntry.list(target)
            for entry in entries where folder.isForeign(entry.name) {
                let source = target + "/" + entry.name
                guard !entry.isDirectory, entry.isUTF8 else {
                    throw WriteError(
                        path: source,
                        message: "is a folder (or a name that is not UTF-8) feedsite did not write, and the site "
                            + "folder is replaced as a whole; "
                            + "move it out (files to publish with the site go in static/ beside feeds.yml)",
                        kind: .refused)
                }
                if let clash = OutputFolder.member(equivalentTo: entry.name, in: topNames) {
                    throw WriteError(
                        path: source,
                        message: "was not written by feedsite, and the new site has a file or folder of "
                            + (OutputFolder.isSameName(clash, entry.name)
                                ? "that name; "
                                : "a name that reads the same (\(OutputFolder.spelled(clash)), this one "
                                    + "\(OutputFolder.spelled(entry.name)): many file systems and hosts take the two "
                                    + "for one); ")
                            + "move it out of the site folder (to publish your own, put it in static/ beside "
                            + "feeds.yml under a name feedsite does not use)",
                        kind: .refused)
                }
                // Gone since it was listed: nothing to keep.
                var info = stat()
                guard lstat(source, &info) == 0 else { continue }
                let inode = UInt64(info.st_ino)
                let linked: Bool
                if let earlier = carried[entry.name] {
                    // Carried already: linked again only when the user replaced the file since.
                    guard earlier != inode else { continue }
                    _ = unlink(staging + "/" + entry.name)
                    linked = link(source, staging + "/" + entry.name) == 0
                } else {
                    try await placement.clearFolder(at: entry.name)
                    linked = placement.linkUnchanged(entry.name, inode: inode, from: source)
                }
                kept.insert(entry.name)
                guard linked else {
                    throw WriteError(path: source, doing: "cannot be carried over into the new site", errno: errno)
                }
                carried[entry.name] = inode
            }
        }

        /// Replaces the staging folder's marker with a complete one listing `names`: the live
        /// site's own when it holds the same bytes (so a deploy does not upload it again), put in
        /// place by a rename so the folder is never without one.
        private func markComplete(names: Set<String>) async throws(WriteError) {
            let marker = SiteMarker(state: .complete, names: names)
            let temporary = staging + "/" + SiteMarker.temporaryName
            _ = try await placement.place(
                .bytes(marker.data), at: SiteMarker.temporaryName, comparingWith: SiteMarker.fileName)
            guard rename(temporary, staging + "/" + SiteMarker.fileName) == 0 else {
                throw WriteError(
                    path: staging + "/" + SiteMarker.fileName, doing: "cannot mark the folder", errno: errno)
            }
        }

        /// Deletes what the staging folder held when the build began and the new site does not
        /// have (files and folders of the site before last).
        private func removeStale(keeping kept: Set<String>) async throws(WriteError) {
            let inventory = placement.inventory
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
            // Paths compared byte for byte: a stale `café.html` in NFD is not the new one in NFC.
            func isStale(_ folder: String) -> Bool {
                inventory.hasFolder(folder) && !OutputFolder.holds(needed, exactly: folder)
                    && !OutputFolder.holds(kept, exactly: folder)
            }
            func parent(_ path: String) -> String? { path.lastIndex(of: "/").map { String(path[..<$0]) } }
            // Whole folders first (the top-most stale one of each branch), then single files.
            for folder in inventory.folders where isStale(folder) && !(parent(folder).map(isStale) ?? false) {
                try await SiteWriter.removeTree(staging + "/" + folder)
            }
            for path in inventory.files.keys
            where !OutputFolder.holds(kept, exactly: path) && !OutputFolder.holds(needed, exactly: path) {
                if let folder = parent(path), isStale(folder) { continue }
                try placement.removeStale(path)
            }
        }

        /// Abandons the new site; the old one stays as it was. The staging folder is incomplete (a
        /// failed build may have stopped anywhere, on a full disk among others), so it is deleted
        /// now, freeing its space, rather than kept as a previous site (when even that fails, its
        /// marker says incomplete and the next build deletes it).
        package func discard() async {
            try? await SiteWriter.removeFolder(staging)
        }
    }
}
