import FeedsiteShared
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a reused staging folder (the previous site) holds when the build begins: its regular
/// files (site path → inode) and folders, so each page is checked against what is already there.
/// Anything else in it (symlinks, FIFOs) is deleted as it is listed, so no page is ever written
/// through a link out of the folder.
///
/// Hot path on a rebuild over an existing site: tens of thousands of folders, listed with
/// `readdir` (the inode comes with each name) on all cores.
struct StagingInventory: Sendable {
    var files: [String: UInt64] = [:]
    var folders: Set<String> = []

    /// Lists the folder at `path`, the folders below the second level on all cores; nil when
    /// it cannot be opened as a folder.
    static func take(_ path: String) -> StagingInventory? {
        let root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { return nil }
        defer { close(root) }
        var inventory = StagingInventory()
        // First and second level here, their folders kept open for the parts below them.
        var topFolders: [Int32] = []
        defer { for folder in topFolders { close(folder) } }
        var units: [(parent: Int32, name: String, site: String)] = []
        for entry in Entry.list(root) {
            guard inventory.add(entry, at: entry.name, in: root) else { continue }
            let folder = openat(root, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { continue }
            topFolders.append(folder)
            for child in Entry.list(folder) {
                let site = entry.name + "/" + child.name
                if inventory.add(child, at: site, in: folder) { units.append((folder, child.name, site)) }
            }
        }
        let parts = units.concurrentMap { unit in
            var part = StagingInventory()
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
    private mutating func add(_ entry: Entry, at site: String, in folder: Int32) -> Bool {
        // Paths are told apart byte for byte (`inode(at:)`); a dictionary takes two that read the
        // same (NFC and NFD) for one, so the second of such a pair is set aside to be deleted.
        if entry.isRegular {
            if let index = files.index(forKey: site), !OutputFolder.isSameName(files[index].key, site) {
                _ = unlinkat(folder, entry.name, 0)
                return false
            }
            files[site] = entry.inode
            return false
        }
        guard entry.isDirectory else {
            _ = unlinkat(folder, entry.name, 0)
            return false
        }
        if folders.contains(site) && !OutputFolder.holds(folders, exactly: site) {
            let aside = Entry.unreusedName(entry.inode)
            guard renameat(folder, entry.name, folder, aside) == 0 else { return false }
            folders.insert(String(decoding: site.utf8.dropLast(entry.name.utf8.count), as: UTF8.self) + aside)
            return false
        }
        folders.insert(site)
        return true
    }

    /// The inode of the file the folder holds at `path` (byte for byte), nil when none.
    func inode(at path: String) -> UInt64? {
        guard let index = files.index(forKey: path), OutputFolder.isSameName(files[index].key, path) else { return nil }
        return files[index].value
    }

    /// Whether the folder holds a folder at `path` (byte for byte).
    func hasFolder(_ path: String) -> Bool {
        OutputFolder.holds(folders, exactly: path)
    }

    /// Adds what the folder `name` in the open folder `parent` holds (site path `site`).
    private mutating func list(_ parent: Int32, _ name: String, site: String) {
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(stream) }
        let folder = dirfd(stream)
        for entry in Entry.read(stream, of: folder) {
            let path = site + "/" + entry.name
            if add(entry, at: path, in: folder) { list(folder, entry.name, site: path) }
        }
    }

    /// One entry of a folder being listed.
    private struct Entry {
        /// A name for an entry that is not reused (renamed so it can be deleted by name): a
        /// control character keeps it apart from every site path (`StaticFiles` refuses those).
        static func unreusedName(_ inode: UInt64) -> String {
            "\u{1}feedsite-unreused-\(inode)"
        }

        var name: String
        var isDirectory: Bool
        var isRegular: Bool
        var inode: UInt64

        /// The entries of the open folder `descriptor` (left open).
        static func list(_ descriptor: Int32) -> [Entry] {
            let copy = dup(descriptor)
            guard copy >= 0, let stream = fdopendir(copy) else { return [] }
            defer { closedir(stream) }
            rewinddir(stream)
            return read(stream, of: descriptor)
        }

        /// The entries of the folder `stream` reads (open as `descriptor`), from where it is.
        static func read(_ stream: OpaquePointer, of descriptor: Int32) -> [Entry] {
            var entries: [Entry] = []
            while let entry = readdir(stream) {
                let decoded = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    let bytes = raw.prefix { $0 != 0 }
                    return (String(decoding: bytes, as: UTF8.self), String(validating: bytes, as: UTF8.self) != nil)
                }
                var name = decoded.0
                guard name != ".", name != ".." else { continue }
                var type = entry.pointee.d_type
                var inode = UInt64(entry.pointee.d_ino)
                if !decoded.1 {
                    // A name that is not UTF-8 (feedsite never writes one) cannot be matched or
                    // removed by its decoded name: renamed, it is deleted as a stale entry.
                    let aside = unreusedName(inode)
                    let moved = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        renameat(descriptor, raw.baseAddress!.assumingMemoryBound(to: CChar.self), descriptor, aside)
                    }
                    guard moved == 0 else { continue }
                    name = aside
                    type = UInt8(DT_UNKNOWN)
                }
                if type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                    let format = info.st_mode & S_IFMT
                    type = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : 0
                    inode = UInt64(info.st_ino)
                }
                entries.append(
                    Entry(
                        name: name, isDirectory: type == UInt8(DT_DIR), isRegular: type == UInt8(DT_REG), inode: inode))
            }
            return entries
        }
    }
}
