import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts a rendered site on disk, all or nothing. This file is the publishing policy; files get
/// into the staging folder through `FilePlacement` (the hot path), and whole folders are removed,
/// created and moved through swift-nio's file system (`SiteWriter+FileSystem.swift`).
///
/// - **Atomic swap.** The new site is written into a hidden sibling of the output folder
///   (`.Site.new-<pid>`), then exchanged with the old one in a single `renameat2(RENAME_EXCHANGE)`
///   on Linux, so an interrupted build (Ctrl-C, `kill -9`, a full disk) leaves either the old or
///   the new site, never a mix.
/// - **Compare, then link.** A file whose bytes did not change is hard-linked from the old site
///   instead of written, so it keeps its inode and mtime and deploy tools (rsync,
///   `aws s3 sync`) upload only what changed.
/// - **The previous site is the next staging folder.** The site swapped out is kept as
///   `.Site.previous` (with a `.gitignore` of `*`, so `git add -A` passes it by) and the next build
///   starts from it: a page unchanged since the build before last is already there as the live
///   inode and costs nothing; only what differs is written or deleted.
/// - **Ownership.** feedsite writes only into folders it made. The output folder is checked first
///   (`OutputFolder`), and every folder it writes carries a marker (`SiteMarker`) that says whether
///   it holds a whole site: a staging folder is marked incomplete until its commit, so what a
///   failed or killed build leaves is deleted, never reused as the previous site (a build that
///   failed on a full disk frees its space at once, and the next build that fits succeeds).
///   Folders beside the site are reused or deleted only when marked; links are never followed into.
package struct SiteWriter: Sendable {
    /// What a write did.
    package struct Report: Sendable, Hashable {
        package var totalFiles: Int
        /// Files that are new or whose bytes changed.
        package var changedFiles: Int
        /// What the build report should say about the swap (a file of the user's put into the
        /// site folder while it was swapped, moved aside rather than lost).
        package var warnings: [String] = []
    }

    /// Tests only: an `errno` to fail the writing of a site path with (a full disk, say), or nil.
    let injectedFailure: (@Sendable (String) -> Int32?)?
    /// Tests only: called with the live site's path just before the swap (to put files there
    /// the way a user's program could while a build runs).
    let beforeSwap: (@Sendable (String) -> Void)?

    package init() {
        injectedFailure = nil
        beforeSwap = nil
    }

    /// A writer whose page writes fail as `failure` says (fault injection for tests).
    init(injectingFailure failure: @escaping @Sendable (String) -> Int32?) {
        injectedFailure = failure
        beforeSwap = nil
    }

    /// A writer that calls `beforeSwap` with the live site's path just before each swap (tests).
    init(beforeSwap: @escaping @Sendable (String) -> Void) {
        injectedFailure = nil
        self.beforeSwap = beforeSwap
    }

    /// Writes `files` (site-relative path → bytes) as the new content of `directory`.
    package func write(_ files: [String: Data], to directory: URL) async throws(WriteError) -> Report {
        var staging = try await begin(directory)
        do {
            try await staging.add(files)
        } catch {
            await staging.discard()
            throw error
        }
        return try await staging.commit()
    }

    /// Tidies what killed builds left beside `directory` (their staging folders), and moves an old
    /// site back if a two-step swap was interrupted. `begin` does this too; a build that has nothing
    /// to write calls it alone.
    package func cleanUp(_ directory: URL) async {
        guard let path = try? OutputFolder.resolve(directory.standardizedFileURL.path) else { return }
        await recoverInterruptedSwap(
            parent: OutputFolder.parent(of: path), name: OutputFolder.name(of: path), target: path)
    }

    /// The folder kept beside `directory` for the next build (`.Site.previous`), beside the real
    /// folder when `directory` is a symbolic link.
    package static func previousFolder(of directory: URL) -> URL {
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
    ///
    /// A staging folder of this name that another build still claims (one in another container
    /// whose pid is this build's) is waited for; `waiting` is told once, when the wait begins.
    package func begin(
        _ directory: URL, waiting: @Sendable (String) -> Void = { _ in }
    ) async throws(WriteError) -> Staging {
        try await begin(OutputFolder.check(directory), waiting: waiting)
    }

    /// Starts a new site for a checked output folder; see `begin(_:waiting:)`.
    package func begin(
        _ checked: OutputFolder, waiting: @Sendable (String) -> Void = { _ in }
    ) async throws(WriteError) -> Staging {
        let parent = checked.parent
        let name = checked.name
        try await Self.createFolder(parent, withParents: true, kind: .refused)
        let staging = parent + "/.\(name).new-\(getpid())"
        // Waited for, not kept: the recovery below deals with a dead build's folder of this name.
        _ = try await Self.claimWhenFree(staging, waiting: waiting)
        await recoverInterruptedSwap(parent: parent, name: name, target: checked.path)
        // Checked again: the recovery may have moved an old site back into place (and a build
        // waited for has put its site there).
        let folder = try await OutputFolder.check(URL(fileURLWithPath: checked.requested))
        try await Self.clearStaleStaging(staging, waiting: waiting)
        // Only a previous site feedsite kept whole is reused; one marked incomplete is deleted.
        // Claimed by a rename, so two builds at once never share it (the second starts empty).
        // One holding something of the user's, or that cannot be written, is left as it is.
        let previous = Self.previousPath(of: folder.path)
        var warnings: [String] = []
        if await OutputFolder.isOwnNeighbour(previous) {
            if let reason = await Self.reasonToLeave(previous: previous, live: folder.path) {
                warnings.append(reason)
            } else if SiteMarker.load(from: previous)?.state == .incomplete {
                try? await Self.removeFolder(previous)
            } else if let claim = FolderClaim.claim(previous), (try? await Self.move(previous, to: staging)) != nil {
                // Claimed before the move, so the folder is never unclaimed under its staging name.
                try await Self.markIncomplete(staging)
                if let inventory = StagingInventory.take(staging) {
                    return await Staging(
                        writer: self, folder: folder, staging: staging, claim: claim, inventory: inventory)
                }
                try? await Self.removeFolder(staging)
            }
        }
        try await Self.createFolder(staging, withParents: false, kind: .refused)
        guard let claim = await FolderClaim.claimMade(staging) else {
            throw WriteError(
                path: staging,
                message: "was claimed by another feedsite build as soon as this one made it; build again",
                kind: .refused)
        }
        // Made just now: a link someone put there in the meantime is not written through.
        guard await Self.info(staging)?.type == .directory else {
            throw WriteError(
                path: staging, message: "appeared as something else than a folder while feedsite made it; move it away",
                kind: .refused)
        }
        try await Self.markIncomplete(staging)
        return await Staging(
            writer: self, folder: folder, staging: staging, claim: claim, inventory: StagingInventory(),
            warnings: warnings)
    }

    /// Why the previous site at `previous` must not be reused (nor deleted), in a warning; nil
    /// when it may. Its top level holds only what feedsite put there: the names its marker lists,
    /// the marker and `.gitignore`, and files carried over from the live site (one of that name is
    /// still there). Anything else arrived after the folder was kept (a program whose working
    /// folder was inside the site goes on writing there after the swap) and is the user's. Below
    /// the top, everything is feedsite's, as in the live site. A folder that cannot be written
    /// (made read-only) would fail every build that reuses it.
    static func reasonToLeave(previous: String, live: String) async -> String? {
        let advice = "it was left as it is and the site built without it (which takes longer)"
        if access(previous, W_OK | X_OK) != 0 {
            let reason = String(cString: strerror(errno))
            return "\(previous): cannot be written (\(reason.lowercased())), so feedsite cannot reuse it for the "
                + "next site; \(advice): make it writable (chmod -R u+w) or delete it"
        }
        guard let marker = SiteMarker.load(from: previous), marker.state == .complete,
            let entries = try? await FolderEntry.list(previous)
        else { return nil }
        var strangers: [String] = []
        for entry in entries {
            let name = entry.name
            if name == SiteMarker.fileName || name == SiteMarker.temporaryName || name == ".gitignore" { continue }
            // A marker without names is an older feedsite's site, adopted: its names are known.
            let isListed =
                marker.names.isEmpty
                ? OutputFolder.olderSiteNames[name] != nil : OutputFolder.holds(marker.names, exactly: name)
            if isListed { continue }
            if !entry.isDirectory, await info(live + "/" + name) != nil { continue }
            strangers.append(name + (entry.isDirectory ? "/" : ""))
        }
        guard !strangers.isEmpty else { return nil }
        return "\(previous): \(OutputFolder.describe(strangers)) not written by feedsite: "
            + "\(strangers.count == 1 ? "it was" : "they were") put into the site before the current one after feedsite "
            + "kept it (by a program whose working folder was inside \(OutputFolder.name(of: live)), perhaps); "
            + "\(advice): move what you need out of it, then delete the folder"
    }

    /// Marks the staging folder incomplete until its commit; deletes it when even that fails.
    private static func markIncomplete(_ staging: String) async throws(WriteError) {
        do {
            try await SiteMarker.save(.incomplete, in: staging)
        } catch {
            try? await removeFolder(staging)
            throw error
        }
    }

    /// Claims the staging folder's name once no other build claims it: a build in another pid
    /// namespace (another container) that has this build's pid and shares the output folder.
    private static func claimWhenFree(_ staging: String, waiting: (String) -> Void) async throws(WriteError) -> FileLock
    {
        let message =
            "another feedsite build (in another container, with this build's process id) is writing \(staging); "
            + "waiting for it to finish"
        do {
            return try await FileLock.poll(saying: message, to: waiting) { FolderClaim.claim(staging) }
        } catch {
            throw WriteError(
                path: staging, message: "the build was stopped while it waited for another build to finish",
                kind: .refused)
        }
    }

    /// Makes way for this process's staging folder: one of an earlier build with the same pid is
    /// deleted when it is feedsite's (marked) or empty; anything else there is refused.
    /// Claimed while it is deleted: one another build claimed since the wait is waited for again.
    private static func clearStaleStaging(_ staging: String, waiting: (String) -> Void) async throws(WriteError) {
        let claim = try await claimWhenFree(staging, waiting: waiting)
        defer { withExtendedLifetime(claim) {} }
        guard let info = await info(staging) else { return }
        if info.type == .directory, SiteMarker.loadLeftover(from: staging) != nil {
            try await removeFolder(staging)
            return
        }
        if info.type == .directory, await removeEmptyFolder(staging) { return }
        throw WriteError(
            path: staging, message: "is in the way of the staging folder and was not made by feedsite; move it away",
            kind: .refused)
    }

    /// Deletes a folder of feedsite's (a staging folder, a previous site) so that a build killed
    /// half-way leaves what is left marked incomplete, for the next build to delete: the marker
    /// says so first, then everything but the marker goes (a tree at a time, on several threads),
    /// then the marker with the folder.
    static func removeFolder(_ path: String) async throws(WriteError) {
        if SiteMarker.load(from: path)?.state == .complete { try? await SiteMarker.save(.incomplete, in: path) }
        let entries: [FolderEntry]
        do {
            entries = try await FolderEntry.list(path)
        } catch {
            // Not a folder (or gone): whatever is there goes as a whole.
            try await removeTree(path)
            return
        }
        for entry in entries where entry.name != SiteMarker.fileName {
            try await removeTree(path + "/" + entry.name)
        }
        try await removeTree(path)
    }

    // MARK: - Swap

    /// Exchanges `staging` and `target` atomically; the path of the old site (for the caller to
    /// keep as the next build's staging folder, `keepAsPrevious`), nil when there was none. Hand-written: swift-nio's file system has no atomic exchange, and its move
    /// would copy across devices where this must fail.
    func swap(
        _ staging: String, into target: String, expecting identity: OutputFolder.FolderIdentity?
    ) async throws(WriteError) -> String? {
        // The folder checked when the build began, or nothing as then: a folder put in its place
        // meanwhile (the site moved away, a folder of the user's made there) is not feedsite's to
        // swap out. Checked again on the folder the exchange took out, and put back when it differs.
        let replaced = WriteError(
            path: target,
            message: "was replaced by another folder (or made) while the build ran, so the new site was not put in its "
                + "place (nothing in it was moved); build again",
            kind: .refused)
        guard OutputFolder.FolderIdentity(of: target) == identity else {
            try? await Self.removeFolder(staging)
            throw replaced
        }
        guard identity != nil else {
            guard rename(staging, target) == 0 else {
                let code = errno
                try? await Self.removeFolder(staging)
                throw WriteError(
                    path: target, doing: "cannot move the new site into place", errno: code, kind: .refused)
            }
            return nil
        }
        // `staging` now holds the old site.
        if Self.exchange(staging, target) {
            guard OutputFolder.FolderIdentity(of: staging) == identity else {
                // Replaced between the check and the exchange: exchanged back at once.
                if Self.exchange(staging, target) { try? await Self.removeFolder(staging) }
                throw replaced
            }
            return staging
        }
        // No atomic exchange (not Linux, or an old kernel/filesystem): two renames. A crash between
        // them leaves `.Site.old-<pid>`, which the next build moves back (`recoverInterruptedSwap`).
        let old = OutputFolder.parent(of: target) + "/.\(OutputFolder.name(of: target)).old-\(getpid())"
        guard rename(target, old) == 0 else {
            let code = errno
            try? await Self.removeFolder(staging)
            throw WriteError(path: target, doing: "cannot move the old site aside", errno: code, kind: .refused)
        }
        guard OutputFolder.FolderIdentity(of: old) == identity else {
            if rename(old, target) == 0 { try? await Self.removeFolder(staging) }
            throw replaced
        }
        guard rename(staging, target) == 0 else {
            let code = errno
            _ = rename(old, target)
            try? await Self.removeFolder(staging)
            throw WriteError(path: target, doing: "cannot move the new site into place", errno: code, kind: .refused)
        }
        return old
    }

    /// `renameat2(RENAME_EXCHANGE)`, looked up at run time because Glibc's Swift overlay does not
    /// declare it (it needs `_GNU_SOURCE`). False when unavailable or refused.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        renameAt2(a, b, flags: 2) == true  // RENAME_EXCHANGE from <linux/fs.h>
    }

    /// Renames `source` to `destination` unless something is there (`RENAME_NOREPLACE`); nil when
    /// the kernel or file system cannot say so atomically.
    static func renameWithoutReplacing(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> Bool? {
        renameAt2(source, destination, flags: 1)  // RENAME_NOREPLACE from <linux/fs.h>
    }

    /// `renameat2(2)` with `flags`: nil when it is not there or the file system does not take the
    /// flag (`EINVAL`), else whether it renamed.
    private static func renameAt2(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>, flags: UInt32) -> Bool? {
        #if os(Linux)
            typealias RenameAt2 =
                @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
            if renameat2(AT_FDCWD, a, AT_FDCWD, b, flags) == 0 { return true }
            return errno == EINVAL || errno == ENOSYS ? nil : false
        #else
            return nil
        #endif
    }

    /// Moves the whole site at `path` (the old site after a swap, or a killed build's staging
    /// folder that was complete) to `.Site.previous` for the next build, marked for git to ignore;
    /// deleted instead when there already is one. Only ever called on feedsite's own folders.
    static func keepAsPrevious(_ path: String, of target: String) async {
        if await removeEmptyFolder(path) { return }
        let previous = previousPath(of: target)
        guard (try? await move(path, to: previous)) != nil else {
            try? await removeFolder(path)
            return
        }
        // An old site adopted without a marker (an older feedsite's) is marked now, so the next
        // build recognises it; a new file (the old site's own may be the live site's inode).
        if SiteMarker.load(from: previous)?.state != .complete {
            try? await SiteMarker.save(SiteMarker(state: .complete, names: []), in: previous)
        }
        let text = "# feedsite: the site before the current one, reused by the next build. Safe to delete.\n*\n"
        try? await FilePlacement.writeFile(Data(text.utf8), to: previous + "/.gitignore")
    }

    /// Cleans up after a build that was killed: moves an old site back if a non-atomic swap was
    /// interrupted between its two renames, keeps a dead build's staging folder when it holds a
    /// whole site (marked complete) and deletes it when marked incomplete. A running build's
    /// folders (claimed, or named after a running process), and anything not marked as
    /// feedsite's, are left alone, empty or not.
    private func recoverInterruptedSwap(parent: String, name: String, target: String) async {
        let entries = ((try? await FolderEntry.list(parent)) ?? []).map(\.name)
        for entry in entries.sorted() where entry.hasPrefix(".\(name).old-") {
            let old = parent + "/" + entry
            // A running build's, between its two renames: it claimed the live site before them.
            guard await OutputFolder.isOwnNeighbour(old), !FolderClaim.isHeld(old) else { continue }
            if await Self.info(target) == nil {
                try? await Self.move(old, to: target)
            } else {
                await Self.keepAsPrevious(old, of: target)
            }
        }
        for entry in entries where entry.hasPrefix(".\(name).new-") {
            let path = parent + "/" + entry
            // A running build's: claimed (by a build in any container), or named after a running
            // process of this one's namespace.
            if FolderClaim.isHeld(path) { continue }
            if let pid = pid_t(entry.dropFirst(".\(name).new-".count)), pid != getpid(),
                LeftoverOwner.mayBeRunning(pid, owning: path)
            {
                continue
            }
            guard await Self.info(path)?.type == .directory else { continue }
            switch SiteMarker.loadLeftover(from: path)?.state {
            case .complete?: await Self.keepAsPrevious(path, of: target)
            case .incomplete?: try? await Self.removeFolder(path)
            // Not marked: not known to be feedsite's, even when empty (a build killed between
            // making its folder and marking it leaves an empty one; that costs nothing to keep).
            case nil: continue
            }
        }
    }
}
