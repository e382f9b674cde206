import Foundation
import _NIOFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SiteWriter.Staging {
    /// What became of the files of the user's that the swap took out of the live site.
    struct Arrivals {
        /// For the build report: what could not be put back, and where it is.
        var warnings: [String] = []
        /// Whether the old site may become the next build's staging folder (it holds nothing of the user's).
        var mayReuseOldSite = true
    }

    /// Puts back into the live site what the user put at its top after `commit` last listed it:
    /// the exchange took it out with the old site (now at `old`), which the next build reuses and
    /// prunes. Each such file or folder is renamed back, never over anything; a file of the user's
    /// that was carried over and then replaced replaces the carried link. What cannot go back (the
    /// new site has that very name) stays with the old site, which is then set aside whole under
    /// a name feedsite never reuses, and the report says where.
    func restoreArrivals(from old: String, carried: [String: UInt64]) async -> Arrivals {
        guard let entries = try? await FolderEntry.list(old) else { return Arrivals() }
        // A carried file the user deleted after it was carried over: the new site's link to it
        // goes too (only while it is still that file).
        let present = Set(entries.filter(\.isUTF8).map { Array($0.name.utf8) })
        for (name, inode) in carried where !present.contains(Array(name.utf8)) {
            var info = stat()
            if lstat(target + "/" + name, &info) == 0, UInt64(info.st_ino) == inode { _ = unlink(target + "/" + name) }
        }
        var stranded: [String] = []
        for entry in entries where folder.isForeign(entry.name) {
            let source = FilePath(old).appending(entry.component)
            let destination = FilePath(target).appending(entry.component)
            var info = stat()
            guard source.withPlatformString({ lstat($0, &info) }) == 0 else { continue }
            if entry.isUTF8, let index = carried.index(forKey: entry.name),
                OutputFolder.isSameName(carried[index].key, entry.name)
            {
                // Carried over: the new site links this very file, and the old site's link goes
                // with it (as every carried file's does).
                if carried[index].value == UInt64(info.st_ino) { continue }
                // Replaced after it was carried over: the new file takes the carried one's place.
                let replaced = source.withPlatformString { from in
                    destination.withPlatformString { to in rename(from, to) == 0 }
                }
                if replaced { continue }
            } else if Self.moveBack(source, to: destination, isRegular: entry.isRegular) {
                continue
            }
            stranded.append(entry.name)
        }
        guard !stranded.isEmpty else { return Arrivals() }
        return await setAside(old, holding: stranded)
    }

    /// Renames `source` to `destination` when nothing is there: atomically where the kernel can
    /// (`RENAME_NOREPLACE`), else by a hard link (which never replaces) for a file, or a check then
    /// a rename for anything else.
    private static func moveBack(_ source: FilePath, to destination: FilePath, isRegular: Bool) -> Bool {
        source.withPlatformString { from in
            destination.withPlatformString { to in
                if let moved = SiteWriter.renameWithoutReplacing(from, to) { return moved }
                if isRegular { return link(from, to) == 0 && unlink(from) == 0 }
                var info = stat()
                return lstat(to, &info) != 0 && errno == ENOENT && rename(from, to) == 0
            }
        }
    }

    /// Moves the old site at `old`, holding files of the user's (`names`) that could not go back,
    /// to `<site>.rescued-<time>` beside the site, unmarked, so that no build ever reuses or
    /// deletes it; where that fails it stays where it is, unmarked all the same.
    private func setAside(_ old: String, holding names: [String]) async -> Arrivals {
        let base = OutputFolder.parent(of: target) + "/" + OutputFolder.name(of: target)
        var place = old
        let stamp = Int(Date().timeIntervalSince1970)
        for attempt in 0..<100 {
            let candidate = base + ".rescued-\(stamp)" + (attempt == 0 ? "" : "-\(attempt)")
            if (try? await SiteWriter.move(old, to: candidate)) != nil {
                place = candidate
                break
            }
        }
        _ = unlink(place + "/" + SiteMarker.fileName)
        let shown = names.map { folder.requested + "/" + $0 }
        return Arrivals(
            warnings: [
                "\(OutputFolder.describe(shown)) put into the site folder while the new site was swapped in, and "
                    + "the new site has \(names.count == 1 ? "a file" : "files") of \(names.count == 1 ? "that name" : "those names"); "
                    + "nothing was deleted: \(names.count == 1 ? "it is" : "they are") in \(place) (with the site "
                    + "\(names.count == 1 ? "it was" : "they were") put into); move \(names.count == 1 ? "it" : "them") "
                    + "where you want, then delete that folder"
            ], mayReuseOldSite: false)
    }
}
