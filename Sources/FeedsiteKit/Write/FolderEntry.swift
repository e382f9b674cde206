import _NIOFileSystem

/// One entry of a folder, as the output-folder check, `static/` and the writer's recovery see it:
/// its name and what it is, links never followed.
struct FolderEntry: Sendable {
    /// The name; bytes that are not UTF-8 read as U+FFFD (see `isUTF8`).
    var name: String
    /// Whether the name is UTF-8 (a name that is not cannot be carried over or told apart).
    var isUTF8: Bool
    var isDirectory: Bool
    var isRegular: Bool
    /// The name as the file system has it, byte for byte (to reach an entry whose name is not UTF-8).
    var component: FilePath.Component

    /// The entries of the folder at `path` (not followed when it is a link): every entry, even
    /// one that cannot be inspected, so callers refuse what they cannot place.
    ///
    /// - Throws: `SiteWriter.WriteError` of `kind` when it is not a folder that can be read.
    static func list(
        _ path: String, kind: SiteWriter.WriteError.Kind = .io
    ) async throws(SiteWriter.WriteError)
        -> [FolderEntry]
    {
        let fileSystem = FileSystem.shared
        do {
            return try await fileSystem.withDirectoryHandle(
                atPath: FilePath(path), options: .init(followSymbolicLinks: false)
            ) { directory in
                var entries: [FolderEntry] = []
                for try await batch in directory.listContents().batched() {
                    for entry in batch {
                        var type = entry.type
                        if type == .unknown {
                            // The file system does not say in its listing (some do not).
                            type =
                                (try? await fileSystem.info(forFileAt: entry.path, infoAboutSymbolicLink: true))?
                                .type ?? .unknown
                        }
                        entries.append(
                            FolderEntry(
                                name: String(decoding: entry.name), isUTF8: String(validating: entry.name) != nil,
                                isDirectory: type == .directory, isRegular: type == .regular,
                                component: entry.name))
                    }
                }
                return entries
            }
        } catch {
            throw SiteWriter.WriteError(path: path, doing: "cannot list the folder", error, kind: kind)
        }
    }
}
