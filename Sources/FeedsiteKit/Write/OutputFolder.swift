import Foundation
import NIOCore
import _NIOFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder a site is written into, resolved and checked: feedsite writes only into a folder it
/// made (one carrying `.feedsite-site`), an empty one, or a site an older feedsite wrote.
///
/// A path that is a symbolic link is resolved: the site is published into the real folder, the
/// staging and previous folders sit beside that one, and the link stays a link. Nothing here
/// follows a link *into* a folder it checks; a few `lstat`s and one listing of the top level.
package struct OutputFolder: Sendable {
    /// The path as given (what messages name).
    package let requested: String
    /// The real folder: every symbolic link resolved.
    package let path: String
    /// What is at `path` now.
    let contents: Contents

    enum Contents: Sendable {
        /// Nothing yet: the first build creates it.
        case absent
        /// A site feedsite wrote: the names its marker lists are feedsite's.
        case site(SiteMarker)
        /// An empty folder (dotfiles aside: `.gitkeep`) or a site an older feedsite wrote, without
        /// a marker: its top-level dotfiles are someone else's.
        case adopted
    }

    /// Regular files (or links) at the top of the folder that feedsite did not write: carried
    /// over into every new site, never moved or deleted. Sorted.
    package let foreignFiles: [String]
    /// The folder's device and inode when it was checked (nil when absent): a folder put in its
    /// place while the build ran is someone else's, and is never swapped out.
    var identity: FolderIdentity?

    /// A folder's device and inode, and its marker's inode and modification time: a folder
    /// deleted and made again, empty or as a copy, often gets the inode number just freed (ext4
    /// hands it out again at once), but not a marker that is the same file.
    struct FolderIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        /// The marker's inode and modification time; nil without a marker.
        var marker: MarkerStamp?

        struct MarkerStamp: Equatable, Sendable {
            var inode: UInt64
            var seconds: Int
            var nanoseconds: Int
        }

        /// What is at `path` now (a link itself, not followed), nil when nothing is.
        init?(of path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            var markerInfo = stat()
            if (info.st_mode & S_IFMT) == S_IFDIR, lstat(path + "/" + SiteMarker.fileName, &markerInfo) == 0 {
                marker = MarkerStamp(
                    inode: UInt64(markerInfo.st_ino), seconds: markerInfo.st_mtim.tv_sec,
                    nanoseconds: markerInfo.st_mtim.tv_nsec)
            }
        }
    }

    /// The folder holding `path`.
    var parent: String { Self.parent(of: path) }
    /// The last component of `path`.
    var name: String { Self.name(of: path) }

    /// Whether the entry `name` at the top of the live site is someone else's: names are told
    /// apart byte for byte (a file system does; Swift's `==` takes `café` in NFC and NFD for one).
    func isForeign(_ entry: String) -> Bool {
        guard entry != SiteMarker.fileName, entry != SiteMarker.temporaryName else { return false }
        switch contents {
        // A folder that appeared while the build ran is someone else's as a whole.
        case .absent: return true
        case .site(let marker): return !Self.holds(marker.names, exactly: entry)
        case .adopted: return Self.olderSiteNames[entry] == nil
        }
    }

    /// The member of `names` that reads the same as `name` (canonically equivalent, as Swift
    /// compares strings: the same bytes, or other code points for the same text), nil when none
    /// does (`==` on its result is not a byte comparison; `isSameName` is).
    static func member(equivalentTo name: String, in names: Set<String>) -> String? {
        names.firstIndex(of: name).map { names[$0] }
    }

    /// Whether `names` holds `name` byte for byte.
    static func holds(_ names: Set<String>, exactly name: String) -> Bool {
        member(equivalentTo: name, in: names).map { isSameName($0, name) } ?? false
    }

    /// Whether two names are the same bytes (what a file system compares).
    static func isSameName(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// `name` with every code point past ASCII spelt out (`cafe<U+0301>.html`), to show two names
    /// that read the same apart.
    static func spelled(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII {
                text.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            }
        }
        return text
    }

    /// The names an older feedsite (before the marker) wrote at the top of a site, and whether each
    /// is a folder. A folder without a marker is adopted only when it holds nothing else (dotfiles
    /// aside, which are carried over) and has the parts every such site had.
    static let olderSiteNames: [String: Bool] = [
        "index.html": false, "atom.xml": false, "rss.xml": false, "feed.json": false, "opml.xml": false,
        "sitemap.xml": false, "robots.txt": false, "page": true, "feeds": true, "items": true, "archive": true,
        "status": true, "assets": true,
    ]

    /// The site whose bookkeeping folder `name` is (`Site` for `.Site.previous`, `.Site.new-12`
    /// or `.Site.old-12`), nil when it is no such name.
    static func siteKeeping(_ name: String) -> String? {
        guard name.hasPrefix("."), name.count > 1 else { return nil }
        let rest = name.dropFirst()
        if rest.hasSuffix(".previous"), rest.count > ".previous".count {
            return String(rest.dropLast(".previous".count))
        }
        for kind in [".new-", ".old-"] {
            guard let range = rest.range(of: kind, options: .backwards), range.lowerBound > rest.startIndex else {
                continue
            }
            let number = rest[range.upperBound...]
            if !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) {
                return String(rest[..<range.lowerBound])
            }
        }
        return nil
    }

    /// The longest name an output folder may have: `.<name>.new-<pid>` must fit in 255 bytes.
    static let maximumNameBytes = 255 - ".".utf8.count - ".new-".utf8.count - 7

    /// Resolves `directory` and checks that feedsite may write a site there.
    ///
    /// - Throws: `SiteWriter.WriteError` of kind `.refused` naming the folder and what to do.
    package static func check(_ directory: URL) async throws(SiteWriter.WriteError) -> OutputFolder {
        let identity = OutputFolder.resolveIdentity(directory)
        var folder = try await checkContents(directory)
        // Taken before the contents were read: a folder replaced in between is caught at the swap.
        folder.identity = identity
        return folder
    }

    private static func resolveIdentity(_ directory: URL) -> FolderIdentity? {
        (try? resolve(directory.standardizedFileURL.path)).flatMap { FolderIdentity(of: $0) }
    }

    private static func checkContents(_ directory: URL) async throws(SiteWriter.WriteError) -> OutputFolder {
        let requested = directory.standardizedFileURL.path
        let path = try resolve(requested)
        func refuse(_ message: String) -> SiteWriter.WriteError {
            // A link is named with the folder it leads to: that is where the files in question are.
            let shown = path == requested ? requested : "\(requested) (a link to \(path))"
            return SiteWriter.WriteError(path: shown, message: message, kind: .refused)
        }
        // Beside the folder go `.<name>.new-<pid>` (a pid has up to 7 digits) and `.<name>.previous`:
        // a name too long for those fails whatever the pid, not only on a machine with long pids.
        let nameBytes = Self.name(of: path).utf8.count
        guard nameBytes <= Self.maximumNameBytes else {
            throw refuse(
                "its name is \(nameBytes) bytes long, and feedsite keeps the next and the previous site beside it "
                    + "under names 13 bytes longer (.NAME.new-<pid>), past the file system's 255; pass an --output "
                    + "whose last part has at most \(Self.maximumNameBytes) bytes")
        }
        // `.Site.previous`, `.Site.new-<pid>`, `.Site.old-<pid>` are Site's: its next build reuses,
        // deletes or moves them, with a site written there.
        if let site = Self.siteKeeping(Self.name(of: path)) {
            throw refuse(
                "is a name feedsite gives a folder it keeps beside the site \(site) (the site before the current one, "
                    + "or one being written), which the next build of \(site) reuses or deletes; pass another --output")
        }
        // A site inside another site would be deleted, with whatever is put into it, by that
        // site's next build (everything below a site's top is feedsite's).
        if let site = enclosingSite(of: path) {
            throw refuse(
                "is inside \(site), a site feedsite wrote (it holds \(SiteMarker.fileName)), and every build of that "
                    + "site replaces it as a whole with everything in it; pass an --output outside it")
        }
        // The site is made beside the folder and renamed into place: its parent must take writes,
        // known before anything is fetched rather than when the fetched site is to be written.
        if let (folder, code) = unwritableAncestor(of: Self.parent(of: path)) {
            throw SiteWriter.WriteError(
                path: requested, doing: "cannot be written (in \(folder))", errno: code, kind: .refused)
        }
        let info: FileInfo?
        do {
            info = try await FileSystem.shared.info(forFileAt: FilePath(path), infoAboutSymbolicLink: true)
        } catch {
            throw SiteWriter.WriteError(path: requested, doing: "cannot be inspected", error, kind: .refused)
        }
        guard let info else {
            return OutputFolder(requested: requested, path: path, contents: .absent, foreignFiles: [])
        }
        guard info.type == .directory else {
            throw refuse(
                "is a file, not a folder; feedsite writes the site into a folder of its own (replaced as a whole by "
                    + "every build): pass another --output, such as Site")
        }
        // Known before anything is fetched: the swap renames the folder, which no mount point can be.
        if Self.isMountPoint(path) {
            throw refuse(
                "is a mount point (a volume or file system is mounted there, as a Docker volume is), and feedsite "
                    + "publishes a site by renaming its folder into place, which a mount point cannot take part in; "
                    + "pass a folder inside it, such as --output \(requested)/site, and publish or serve that")
        }
        let entries = try await FolderEntry.list(path, kind: .refused)
        // A name that is not UTF-8 could not be carried over or told apart: nothing is guessed.
        if let odd = entries.first(where: { !$0.isUTF8 }) {
            throw refuse(
                "holds \(odd.name.debugDescription), whose name is not UTF-8; move it out of the folder (feedsite "
                    + "replaces the folder as a whole)")
        }
        if let marker = SiteMarker.load(from: path) {
            let folder = OutputFolder(requested: requested, path: path, contents: .site(marker), foreignFiles: [])
            let foreign = entries.filter { folder.isForeign($0.name) }
            let folders = foreign.filter(\.isDirectory).map { $0.name + "/" }
            guard folders.isEmpty else {
                throw refuse(
                    "\(describe(folders)) not written by feedsite, and feedsite replaces this folder as a whole; "
                        + "move \(folders.count == 1 ? "it" : "them") out of it (files to publish with the site go in "
                        + "static/ beside feeds.yml)")
            }
            return OutputFolder(
                requested: requested, path: path, contents: .site(marker), foreignFiles: foreign.map(\.name).sorted())
        }
        let dotfiles = entries.filter { $0.name.hasPrefix(".") && !$0.isDirectory }
        let isAdoptable = dotfiles.count == entries.count ? true : await isOlderSite(path, entries)
        if isAdoptable {
            return OutputFolder(
                requested: requested, path: path, contents: .adopted, foreignFiles: dotfiles.map(\.name).sorted())
        }
        let others = entries.filter { !($0.name.hasPrefix(".") && !$0.isDirectory) }
        throw refuse(
            "the folder holds files feedsite did not write (\(describe(others.map { $0.name + ($0.isDirectory ? "/" : "") }, verb: false))), "
                + "and feedsite replaces its output folder as a whole; empty it, pass another --output, or put the "
                + "files to publish with the site in static/ beside feeds.yml")
    }

    /// Whether the folder at `path` (listed as `entries`) looks exactly like a site an older
    /// feedsite wrote: only its names, and its index, status page, published state and assets.
    static func isOlderSite(_ path: String, _ entries: [FolderEntry]) async -> Bool {
        var seen: Set<String> = []
        for entry in entries {
            if entry.name.hasPrefix(".") && !entry.isDirectory { continue }
            guard let isDirectory = olderSiteNames[entry.name], isDirectory == entry.isDirectory,
                entry.isDirectory || entry.isRegular
            else { return false }
            seen.insert(entry.name)
        }
        guard seen.isSuperset(of: ["index.html", "status", "assets"]) else { return false }
        guard await isRegularFile(path + "/status/index.html") else { return false }
        return await isPublishedState(path + "/status/state.json")
    }

    /// Whether the file at `path` begins as every state feedsite has published does (`{"feeds":`,
    /// its keys sorted), so a hand-made folder with a `status/state.json` of its own is not taken
    /// for a site (and replaced).
    static func isPublishedState(_ path: String) async -> Bool {
        guard await isRegularFile(path),
            let head = try? await FileSystem.shared.withFileHandle(
                forReadingAt: FilePath(path), options: .init(followSymbolicLinks: false),
                execute: { try await $0.readChunk(fromAbsoluteOffset: 0, length: .bytes(64)) })
        else { return false }
        let text = String(buffer: head).filter { !$0.isWhitespace }
        return text.hasPrefix(#"{"feeds":"#)
    }

    /// Whether a folder beside the site (`.Site.previous`, `.Site.old-<pid>`) is feedsite's: it
    /// carries a marker, or it is what an older feedsite kept (its `.gitignore` says so, or it
    /// looks exactly like its site). A link is never feedsite's.
    static func isOwnNeighbour(_ path: String) async -> Bool {
        guard await SiteWriter.info(path)?.type == .directory else { return false }
        if SiteMarker.load(from: path) != nil { return true }
        if await isRegularFile(path + "/.gitignore"),
            let head = try? await FileSystem.shared.withFileHandle(
                forReadingAt: FilePath(path + "/.gitignore"), options: .init(followSymbolicLinks: false),
                execute: { try await $0.readChunk(fromAbsoluteOffset: 0, length: .bytes(80)) }),
            String(buffer: head).hasPrefix("# feedsite: the site before the current one")
        {
            return true
        }
        guard let entries = try? await FolderEntry.list(path) else { return false }
        return await isOlderSite(path, entries)
    }

    static func isRegularFile(_ path: String) async -> Bool {
        await SiteWriter.info(path)?.type == .regular
    }

    /// `CNAME, about.html and 3 more` (at most five names), with "is"/"are" when `verb`.
    static func describe(_ names: [String], verb: Bool = true) -> String {
        let sorted = names.sorted()
        var text = sorted.prefix(5).joined(separator: ", ")
        if sorted.count > 5 { text += " and \(sorted.count - 5) more" }
        guard verb else { return text }
        return text + (sorted.count == 1 ? " is" : " are")
    }

    // MARK: - Paths

    /// The nearest folder of `path` that exists (itself, or the first ancestor that does), with
    /// the reason it cannot take new entries (read-only file system, permissions); nil when it can.
    static func unwritableAncestor(of path: String) -> (folder: String, errno: Int32)? {
        var folder = path
        var info = stat()
        while stat(folder, &info) != 0 {
            let up = parent(of: folder)
            guard up != folder else { return nil }
            folder = up
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return nil }  // said later, with its own words
        return access(folder, W_OK | X_OK) == 0 ? nil : (folder, errno)
    }

    /// The real path of `path`: symbolic links resolved, also in the part that does not exist yet
    /// (resolved up to its nearest existing folder). A link that leads nowhere is refused.
    static func resolve(_ path: String) throws(SiteWriter.WriteError) -> String {
        var info = stat()
        if lstat(path, &info) == 0 {
            if let real = realPath(path) { return real }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw SiteWriter.WriteError(
                    path: path,
                    message: "is a symbolic link to \(destination), which does not exist (or is a loop of links); "
                        + "create that folder or point the link at an existing one",
                    kind: .refused)
            }
            return path
        }
        let parentPath = parent(of: path)
        guard parentPath != path else { return path }
        let resolvedParent = try resolve(parentPath)
        return (resolvedParent == "/" ? "" : resolvedParent) + "/" + name(of: path)
    }

    /// `realpath(3)`, nil when it fails (a link that leads nowhere, or a real path past PATH_MAX).
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The nearest folder above `path` (a real path) that holds a feedsite site's marker: a live
    /// site, its previous site or a staging folder.
    static func enclosingSite(of path: String) -> String? {
        var folder = parent(of: path)
        while folder != "." {
            if SiteMarker.load(from: folder) != nil { return folder }
            if folder == "/" { return nil }
            folder = parent(of: folder)
        }
        return nil
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Whether the folder at `path` (a real path) is a mount point: named as one in
    /// `/proc/self/mountinfo` (bind mounts too, which share their file system's device), else, where
    /// that cannot be read, on another device than its parent.
    static func isMountPoint(_ path: String) -> Bool {
        if let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) {
            return table.split(separator: "\n").contains { line in
                let fields = line.split(separator: " ", maxSplits: 5)
                return fields.count > 4 && unescapedMountPath(fields[4]).utf8.elementsEqual(path.utf8)
            }
        }
        var folder = stat()
        var above = stat()
        guard stat(path, &folder) == 0, stat(parent(of: path), &above) == 0 else { return false }
        return folder.st_dev != above.st_dev
    }

    /// A path as `mountinfo` writes it: space, tab, newline and backslash as octal escapes (`\040`).
    static func unescapedMountPath(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        let raw = Array(field.utf8)
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "\\"), index + 3 < raw.count,
                let code = UInt8(String(decoding: raw[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(code)
                index += 4
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `inner` is `outer` or lies inside it (both real paths). Compared byte for byte, as
    /// the file system names files: Swift's `==` takes `café` and `cafe` + U+0301 for one string,
    /// which are two folders on Linux (a link into the other one was served as inside the site).
    package static func contains(_ outer: String, _ inner: String) -> Bool {
        let slash = UInt8(ascii: "/")
        if outer.utf8.elementsEqual([slash]) { return true }
        guard inner.utf8.starts(with: outer.utf8) else { return false }
        let rest = inner.utf8.dropFirst(outer.utf8.count)
        return rest.isEmpty || rest.first == slash
    }
}
