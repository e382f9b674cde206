import _NIOFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer's cold plumbing: whole folders removed, files copied, folders created and moved,
/// through swift-nio's file system (blocking calls on its thread pool), its errors mapped to
/// `WriteError`s that name the path and say what to do. None of it runs per page.
extension SiteWriter {
    /// Deletes the folder at `path` and everything in it, on several threads (a link there is
    /// removed, never followed). Nothing when nothing is there (or a file is where a folder on
    /// the way was).
    static func removeTree(_ path: String) async throws(WriteError) {
        do {
            try await FileSystem.shared.removeItem(at: FilePath(path), strategy: .platformDefault, recursively: true)
        } catch {
            if let code = WriteError.errno(in: error), code == ENOTDIR || code == ENOENT { return }
            throw WriteError(
                path: path, doing: "cannot delete this folder of feedsite's (delete it by hand, then build again)",
                error)
        }
    }

    /// Removes the folder at `path` when it is empty; false when it is not (or is not there).
    static func removeEmptyFolder(_ path: String) async -> Bool {
        (try? await FileSystem.shared.removeItem(at: FilePath(path), strategy: .sequential, recursively: false))
            == 1
    }

    /// Copies the regular file at `source` to `destination`, which must not exist.
    static func copyFile(_ source: String, to destination: String) async throws(WriteError) {
        do {
            try await FileSystem.shared.copyItem(at: FilePath(source), to: FilePath(destination))
        } catch {
            throw WriteError(path: destination, doing: "cannot copy \(source) here", error)
        }
    }

    /// Creates the folder at `path` (and its parents when `withParents`); nothing when it exists.
    /// A folder that cannot be made is `kind` (`.refused`: exit 73), unless the disk is full.
    static func createFolder(_ path: String, withParents: Bool, kind: WriteError.Kind) async throws(WriteError) {
        do {
            try await FileSystem.shared.createDirectory(
                at: FilePath(path), withIntermediateDirectories: withParents, permissions: nil)
        } catch {
            throw WriteError(path: path, doing: "cannot create the folder", error, kind: kind)
        }
    }

    /// Renames `source` to `destination`, which must not exist: never replaces anything.
    static func move(_ source: String, to destination: String) async throws(WriteError) {
        do {
            try await FileSystem.shared.moveItem(at: FilePath(source), to: FilePath(destination))
        } catch {
            throw WriteError(path: source, doing: "cannot move it to \(destination)", error)
        }
    }

    /// What is at `path` (a link itself, not what it points to); nil when nothing is.
    static func info(_ path: String) async -> FileInfo? {
        try? await FileSystem.shared.info(forFileAt: FilePath(path), infoAboutSymbolicLink: true)
    }
}
