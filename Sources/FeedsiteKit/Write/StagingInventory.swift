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
                    Entry(
                        name: name, isDirectory: type == UInt8(DT_DIR), isRegular: type == UInt8(DT_REG), inode: inode))
            }
            return entries
        }
    }
}
