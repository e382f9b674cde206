import Foundation

/// The modification times and sizes of every watched file, compared between polls.
///
/// Polling (every ~300 ms) rather than inotify/FSEvents keeps the watcher portable and free of
/// dependencies, and a few hundred stat calls per second cost nothing next to a browser.
struct FileSnapshot: Equatable, Sendable {
    struct Stamp: Equatable, Sendable {
        var modified: Date
        var size: Int
    }

    /// Absolute path → stamp, for every regular file under the watched paths.
    var files: [String: Stamp]

    /// Walks `paths` (files or folders, recursively). Hidden files and editor backups (`.x.swp`,
    /// `x~`) are skipped; paths that do not exist are simply absent.
    static func take(_ paths: [URL]) -> FileSnapshot {
        var files: [String: Stamp] = [:]
        let fileManager = FileManager.default
        for url in paths {
            let path = url.standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                if let stamp = stamp(path) { files[path] = stamp }
                continue
            }
            for relative in fileManager.subpaths(atPath: path) ?? [] {
                let name = (relative as NSString).lastPathComponent
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) || name.hasSuffix("~") {
                    continue
                }
                let full = path + "/" + relative
                if let stamp = stamp(full) { files[full] = stamp }
            }
        }
        return FileSnapshot(files: files)
    }

    /// Paths added, removed or changed since `earlier`, sorted.
    func changes(since earlier: FileSnapshot) -> [String] {
        Set(files.keys).union(earlier.files.keys).filter { files[$0] != earlier.files[$0] }.sorted()
    }

    private static func stamp(_ path: String) -> Stamp? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return Stamp(modified: modified, size: (attributes[.size] as? NSNumber)?.intValue ?? 0)
    }
}
