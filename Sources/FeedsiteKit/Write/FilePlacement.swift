import Foundation

#if canImport(Glibc)
    import Glibc

    /// `write(2)`; a method named `write` would shadow the plain name.
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin

    private let systemWrite = Darwin.write
#endif

/// The one path by which a file gets into a staging folder or out of it: a file whose bytes equal
/// the live site's is linked to the live inode (so it keeps its mtime), any other is written as a
/// new file, and what the new site no longer has is removed.
///
/// Hot path: runs for every page of every build, so it stays plain POSIX calls on path strings
/// (`make bench`, Benchmarks/RESULTS.md: path objects and a thread hop per call cost seconds at
/// 30,000 pages). Invariants: nothing is ever written into an existing inode (a staging file may
/// be a hard link to the live site's), a link in the staging folder is never followed, and every
/// path is checked to stay inside the site.
struct FilePlacement: Sendable {
    /// The live site, compared against (it may not exist).
    let livePath: String
    /// The folder the new site is written into.
    let stagingPath: String
    /// Whether a live site was there when the build began: when not (a first build, a fresh CI
    /// runner), no page can be compared and the lookup per page is skipped.
    let hasLiveSite: Bool
    /// What the staging folder held when the build began (empty unless it is the previous site).
    let inventory: StagingInventory
    /// Tests only: an `errno` to fail the writing of a site path with (a full disk, say), or nil.
    let injectedFailure: (@Sendable (String) -> Int32?)?

    /// What goes at a site path.
    enum Content: Sendable {
        /// These bytes (a rendered page).
        case bytes(Data)
        /// The bytes of the file at this path outside the site; `mayLink`: a changed file may be
        /// hard-linked from there instead of copied (only when that file is never written into).
        case file(String, mayLink: Bool)
    }

    /// Puts `content` at the site path `path` (its folder already made): linked from the live
    /// site's `liveName` (default: the same path) when that holds the same bytes, else written as
    /// a new file. True when it was written (new or changed).
    func place(
        _ content: Content, at path: String, comparingWith liveName: String? = nil
    ) async throws(SiteWriter.WriteError) -> Bool {
        try await clearFolder(at: path)
        let live = livePath + "/" + (liveName ?? path)
        if hasLiveSite {
            let inode =
                switch content {
                case .bytes(let data): Self.inode(of: live, ifItHolds: data)
                case .file(let source, _): Self.inode(of: live, ifSameAs: source)
                }
            if let inode, linkUnchanged(path, inode: inode, from: live) { return false }
        }
        try await writeNew(content, at: path)
        return true
    }

    /// Puts the live file `live` (inode `inode`) at `path` as it is: nothing to do when the
    /// staging folder already has that inode there (a page unchanged since the build before
    /// last), else a hard link replaces whatever it has. False when it could not be linked.
    func linkUnchanged(_ path: String, inode: UInt64, from live: String) -> Bool {
        let existing = inventory.inode(at: path)
        if existing == inode { return true }
        let destination = stagingPath + "/" + path
        if existing != nil { _ = unlink(destination) }
        return link(live, destination) == 0
    }

    /// Writes `content` at `path` as a new file: the staging folder's file there (possibly the
    /// live site's inode) is unlinked first, never written into.
    func writeNew(_ content: Content, at path: String) async throws(SiteWriter.WriteError) {
        let destination = stagingPath + "/" + path
        if inventory.inode(at: path) != nil { _ = unlink(destination) }
        if let code = injectedFailure?(path) {
            throw SiteWriter.WriteError(path: destination, doing: "cannot write the new site", errno: code)
        }
        switch content {
        case .bytes(let data):
            try await Self.writeFile(data, to: destination)
        case .file(let source, let mayLink):
            if mayLink && link(source, destination) == 0 { return }
            try await SiteWriter.copyFile(source, to: destination)
        }
    }

    /// Removes what the staging folder has at `path` when it is a folder (the site's layout
    /// changed: a file goes where a folder was).
    func clearFolder(at path: String) async throws(SiteWriter.WriteError) {
        if inventory.hasFolder(path) { try await SiteWriter.removeTree(stagingPath + "/" + path) }
    }

    /// Removes a file the new site no longer has (nothing when it is gone already, or a file is
    /// where a folder on its way was).
    func removeStale(_ path: String) throws(SiteWriter.WriteError) {
        let full = stagingPath + "/" + path
        guard unlink(full) == 0 || errno == ENOENT || errno == ENOTDIR else {
            throw SiteWriter.WriteError(path: full, doing: "cannot delete this old page of feedsite's", errno: errno)
        }
    }

    /// Creates `folder` (and its parents) in the staging folder unless it was already there; a
    /// file where one of them goes is removed first. Another task may create a shared parent at
    /// the same time: one that exists is fine.
    func makeFolder(_ folder: String) throws(SiteWriter.WriteError) {
        guard !inventory.hasFolder(folder) else { return }
        if !inventory.files.isEmpty {
            var prefix = Substring(folder)
            while true {
                if inventory.inode(at: String(prefix)) != nil { _ = unlink(stagingPath + "/" + prefix) }
                guard let slash = prefix.lastIndex(of: "/") else { break }
                prefix = prefix[..<slash]
            }
        }
        try Self.makeDirectories(folder, under: stagingPath)
    }

    /// `mkdir -p folder` inside `root` (which exists). Hot path: one folder per item page.
    private static func makeDirectories(_ folder: String, under root: String) throws(SiteWriter.WriteError) {
        let full = root + "/" + folder
        if mkdir(full, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = folder.lastIndex(of: "/") else {
            throw SiteWriter.WriteError(path: full, doing: "cannot create the folder", errno: errno)
        }
        try makeDirectories(String(folder[..<slash]), under: root)
        guard mkdir(full, 0o755) == 0 || errno == EEXIST else {
            throw SiteWriter.WriteError(path: full, doing: "cannot create the folder", errno: errno)
        }
    }

    /// Rejects paths that would escape the site folder; render bugs must not write elsewhere.
    static func validate(_ path: String) throws(SiteWriter.WriteError) {
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
            throw SiteWriter.WriteError(
                path: path, message: "refusing to write a file outside the site folder", kind: .invalidSite)
        }
    }

    // MARK: - Compare

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
    /// a megabyte at a time: `other` may be the published state, tens of megabytes), else nil.
    static func inode(of path: String, ifSameAs other: String) -> UInt64? {
        let fileA = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fileA >= 0 else { return nil }
        defer { close(fileA) }
        let fileB = open(other, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fileB >= 0 else { return nil }
        defer { close(fileB) }
        var infoA = stat()
        var infoB = stat()
        guard fstat(fileA, &infoA) == 0, fstat(fileB, &infoB) == 0, (infoA.st_mode & S_IFMT) == S_IFREG,
            (infoB.st_mode & S_IFMT) == S_IFREG, infoA.st_size == infoB.st_size
        else { return nil }
        let inode = UInt64(infoA.st_ino)
        if infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino { return inode }
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

    // MARK: - Write

    /// Writes `data` as a new file at `path` (any folder: the staging folder, the previous site).
    /// Never opens a file that is there: it may be a hard link to the live site's. Whatever is in
    /// the way is removed first.
    static func writeFile(_ data: Data, to path: String) async throws(SiteWriter.WriteError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        var descriptor = open(path, flags, 0o644)
        if descriptor < 0 && errno == EEXIST {
            if unlink(path) != 0 && (errno == EISDIR || errno == EPERM) { try await SiteWriter.removeTree(path) }
            descriptor = open(path, flags, 0o644)
        }
        guard descriptor >= 0 else {
            throw SiteWriter.WriteError(path: path, doing: "cannot write the new site", errno: errno)
        }
        defer { close(descriptor) }
        if let failure = data.withUnsafeBytes({ writeAll($0, to: descriptor) }) {
            throw SiteWriter.WriteError(path: path, doing: "cannot write the new site", errno: failure)
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
}
