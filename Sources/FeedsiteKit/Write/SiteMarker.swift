import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file that makes a folder feedsite's: `.feedsite-site` at the top of every site it writes,
/// of the previous site kept beside it and of every staging folder.
///
/// feedsite moves or deletes only folders that carry it, so a folder it did not make (a `docs/`
/// holding the user's `CNAME`, the project folder itself) is never taken over. The marker says
/// whether the folder holds a whole site (`complete`: the live site, or the one before it) or one
/// being written (`incomplete`: a staging folder, or what a failed or killed build left, which is
/// deleted rather than reused). A complete marker lists the names feedsite wrote at the top of
/// the folder; anything else there is someone else's and is carried over, never deleted.
///
/// It is published with the site (a deploy of `Site/` uploads it): it holds nothing but this
/// header and names that are themselves published.
struct SiteMarker: Sendable, Hashable {
    /// The marker's file name, at the top of the folder.
    static let fileName = ".feedsite-site"
    /// Where a new marker is written before it is renamed over the old one, so a folder is never
    /// without one (a crash between an unlink and a write would leave it unmarked, and so kept
    /// forever).
    static let temporaryName = ".feedsite-site.new"
    /// The first line's first word.
    static let magic = "feedsite-site"
    /// Larger files are not read (a marker lists a few dozen names; `static/` may add thousands).
    static let maximumSize = 16 << 20
    /// The line after which every line is a name (names may start with `#`).
    static let namesHeading = "# The names feedsite wrote at the top of this folder:"

    enum State: String, Sendable {
        /// A whole site, as a build finished it.
        case complete
        /// A folder being written (or left by a build that failed or was killed): not a site.
        case incomplete
    }

    var state: State
    /// The names feedsite wrote at the top of the folder (empty for an incomplete folder).
    var names: Set<String>

    static let incomplete = SiteMarker(state: .incomplete, names: [])

    /// The file's bytes: a line for programs, a note for people, then one name per line.
    var data: Data {
        var text = "\(Self.magic) 1 \(state.rawValue)\n"
        text += """
            # This folder is written by feedsite and replaced as a whole by every build. Do not put files
            # here: put files to publish with the site in static/ beside feeds.yml (README: "The output
            # folder"). feedsite moves or deletes only folders that carry this file.

            """
        if state == .complete {
            text += Self.namesHeading + "\n"
            for name in names.sorted() { text += name + "\n" }
        }
        return Data(text.utf8)
    }

    /// Parses a marker; nil when `data` is not one.
    static func parse(_ data: Data) -> SiteMarker? {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst() else { return nil }
        let words = first.split(separator: " ")
        guard words.first == Substring(magic) else { return nil }
        // Anything but a complete marker (a newer one we cannot read among them) counts as
        // incomplete: still feedsite's, never reused as a whole site.
        guard words.count >= 3, words[2] == "complete" else { return .incomplete }
        var names: Set<String> = []
        while let line = lines.popFirst(), line != Substring(namesHeading) {}
        for line in lines where !line.isEmpty { names.insert(String(line)) }
        return SiteMarker(state: .complete, names: names)
    }

    /// The marker of the folder at `folder`: nil when it has none (no such file, not a regular
    /// file, or not a marker). Links are not followed.
    ///
    /// Hand-written, for safety: opened without blocking and checked through the descriptor, so a
    /// FIFO at the marker's path cannot hang the build (swift-nio's reads block on one).
    static func load(from folder: String) -> SiteMarker? {
        parseFile(folder + "/" + fileName)
    }

    /// The marker of a folder feedsite left behind (a dead build's staging folder): its marker, or
    /// the one it was writing when it was killed (which says the folder was being made, so
    /// `.incomplete`), or nil.
    static func loadLeftover(from folder: String) -> SiteMarker? {
        load(from: folder) ?? parseFile(folder + "/" + temporaryName).map { _ in .incomplete }
    }

    /// The marker in the file at `path`, nil when it is not one.
    private static func parseFile(_ path: String) -> SiteMarker? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maximumSize
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress.map { $0 + filled }, raw.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return parse(Data(bytes[..<filled]))
    }

    /// Marks the folder at `folder` (replacing its marker atomically): written to a temporary
    /// file, then renamed over the old one. A file at the marker's path may be a hard link to the
    /// live site's, so it is never written into.
    static func save(_ marker: SiteMarker, in folder: String) async throws(SiteWriter.WriteError) {
        let temporary = folder + "/" + temporaryName
        do {
            try await FilePlacement.writeFile(marker.data, to: temporary)
        } catch {
            _ = unlink(temporary)
            throw error
        }
        guard rename(temporary, folder + "/" + fileName) == 0 else {
            let code = errno
            _ = unlink(temporary)
            throw SiteWriter.WriteError(path: folder + "/" + fileName, doing: "cannot mark the folder", errno: code)
        }
    }
}
