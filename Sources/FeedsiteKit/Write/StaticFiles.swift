import Foundation
import _NIOFileSystem

/// The files of `static/` (beside `feeds.yml`; `static_dir` moves it), published at the site root
/// as they are: `CNAME`, `.nojekyll`, `_headers`, `_redirects`, `.well-known/…`, images.
///
/// Listed before anything is fetched, so every problem is a configuration error up front: a name
/// feedsite generates (`index.html`, `items/…`, a theme asset), a link that leads out of the
/// folder, something that is not a file. A symbolic link is published as a copy of the file it
/// points to when that file is inside the folder; links to folders, and links out of it, are
/// refused (so nothing outside `static/` is published by accident).
package struct StaticFiles: Sendable {
    /// One file to publish.
    package struct File: Sendable, Hashable {
        /// Where it goes in the site (`CNAME`, `.well-known/security.txt`).
        package var sitePath: String
        /// Where its bytes are read from (for a link, the file it points to).
        package var source: String
        /// How messages name it (`static/CNAME`).
        package var displayPath: String
    }

    /// Sorted by site path.
    package let files: [File]
    /// Each file's path, size, modification time and inode: what a build's fingerprint needs to
    /// see that a file changed, without reading it.
    package let signature: String

    package static let none = StaticFiles(files: [], signature: "")

    /// Most files and folder depth accepted (a folder this large is a mistake, such as `static_dir: /`).
    static let maximumFiles = 100_000
    static let maximumDepth = 64

    /// What feedsite generates, that a static file may not replace.
    package struct Reserved: Sendable {
        /// Files at the top of the site that feedsite writes.
        package var files: Set<String>
        /// Folders at the top of the site that are feedsite's as a whole.
        package var folders: Set<String>
        /// Site paths of the theme's assets (`assets/style.css`); other files may go in `assets/`.
        package var assets: Set<String>

        /// The pages and files of DESIGN §5, the marker, `404.html` when the theme has one, and
        /// the theme's assets.
        package static func site(assets: some Sequence<String>, hasNotFoundPage: Bool) -> Reserved {
            var files: Set<String> = [
                "index.html", "atom.xml", "rss.xml", "feed.json", "opml.xml", "sitemap.xml", "robots.txt",
                SiteMarker.fileName, SiteMarker.temporaryName,
            ]
            if hasNotFoundPage { files.insert(PageRenderer.notFoundPath) }
            // Every folder feedsite may generate, whether or not this build does (`tags/` without
            // tags, `search/` with search off): a file there would be replaced the day it does.
            return Reserved(
                files: files,
                folders: [
                    "page", "feeds", "items", "archive", "status", "avatars", "tags", "categories", "search",
                    "pagefind",
                ], assets: Set(assets))
        }

        /// What generated file or folder (`items/`) a static file (or folder) at `path` would
        /// collide with, nil when none.
        func collision(_ path: String, isDirectory: Bool = false) -> String? {
            let top = path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path
            if folders.contains(top) { return top + "/" }
            if files.contains(top) { return top }
            if assets.contains(path) { return path }
            // A file where a folder of theme assets is (a folder there is simply shared).
            guard !isDirectory else { return nil }
            return assets.sorted().first { $0.hasPrefix(path + "/") }
        }
    }

    /// Lists the folder at `folder` (nothing when it does not exist); `displayName` is how
    /// messages name it (`static`).
    ///
    /// - Throws: `ConfigurationError` listing every file that cannot be published, and why.
    package static func list(
        _ folder: URL, displayName: String, reserved: Reserved
    ) async throws(ConfigurationError) -> StaticFiles {
        let given = folder.standardizedFileURL.path
        guard await SiteWriter.info(given) != nil else { return .none }
        guard let root = OutputFolder.realPath(given), await Self.info(following: root)?.type == .directory else {
            throw ConfigurationError([
                .error(
                    file: displayName,
                    "is not a folder; static files are published from a folder (set 'static_dir' in feeds.yml to move it)"
                )
            ])
        }
        var files: [File] = []
        var problems: [Diagnostic] = []
        var signature = ""
        // Depth first, without recursion: (real folder path, site path prefix, depth).
        var pending: [(String, String, Int)] = [(root, "", 0)]
        while let next = pending.popLast() {
            let (path, prefix, depth) = next
            guard let entries = try? await FolderEntry.list(path) else {
                problems.append(.error(file: display(displayName, prefix), "cannot be read"))
                continue
            }
            // Names that read the same (`café` in NFC and in NFD): two files here, one to many
            // file systems and hosts (and to Swift's `==`).
            var spellings: [String: String] = [:]
            for entry in entries.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes($1.name.utf8) }) {
                let sitePath = prefix + entry.name
                let shown = display(displayName, sitePath)
                let source = path + "/" + entry.name
                guard entry.isUTF8, isPublishable(entry.name) else {
                    problems.append(
                        .error(
                            file: shown,
                            "the name has control characters, begins with a combining mark (or ends with a sign that joins what "
                                + "follows), or is not UTF-8; rename "
                                + "it (web servers and deploy tools cannot publish it faithfully)"))
                    continue
                }
                if let other = spellings[entry.name], !OutputFolder.isSameName(other, entry.name) {
                    problems.append(
                        .error(
                            file: shown,
                            "reads the same as \(display(displayName, prefix + other)) but is spelt with other Unicode "
                                + "code points (\(OutputFolder.spelled(entry.name)), \(OutputFolder.spelled(other))); "
                                + "many file systems and hosts take the two for one: rename one of them"))
                    continue
                }
                spellings[entry.name] = entry.name
                guard let info = await SiteWriter.info(source) else { continue }
                if let generated = reserved.collision(sitePath, isDirectory: info.type == .directory) {
                    let what = generated.hasSuffix("/") ? "the folder \(generated) feedsite generates" : generated
                    problems.append(
                        .error(
                            file: shown,
                            "has the same path as \(what) in the site; rename or remove it (to change a generated "
                                + "page, edit its template in Templates/)"))
                    continue
                }
                switch info.type {
                case .directory:
                    guard depth < maximumDepth else {
                        problems.append(.error(file: shown, "is nested more than \(maximumDepth) folders deep"))
                        continue
                    }
                    pending.append((source, sitePath + "/", depth + 1))
                case .regular:
                    files.append(File(sitePath: sitePath, source: source, displayPath: shown))
                    signature += Self.signature(sitePath, info)
                case .symlink:
                    guard let target = OutputFolder.realPath(source), OutputFolder.contains(root, target),
                        target != root, let targetInfo = await Self.info(following: target), targetInfo.type == .regular
                    else {
                        problems.append(
                            .error(
                                file: shown,
                                "is a symbolic link that does not lead to a file inside \(displayName)/; links are "
                                    + "only followed to files in the folder (nothing outside it is published): copy "
                                    + "the file in instead"))
                        continue
                    }
                    files.append(File(sitePath: sitePath, source: target, displayPath: shown))
                    signature += Self.signature(sitePath, targetInfo)
                default:
                    problems.append(
                        .error(file: shown, "is not a file or folder (a pipe, socket or device); remove it"))
                }
                if files.count > maximumFiles {
                    throw ConfigurationError([
                        .error(
                            file: displayName,
                            "holds more than \(maximumFiles) files; is 'static_dir' the folder you meant?")
                    ])
                }
            }
        }
        guard problems.isEmpty else { throw ConfigurationError(problems) }
        files.sort { $0.sitePath < $1.sitePath }
        return StaticFiles(files: files, signature: signature)
    }

    /// What `path` is, links followed; nil when it cannot be reached.
    private static func info(following path: String) async -> FileInfo? {
        try? await FileSystem.shared.info(forFileAt: FilePath(path), infoAboutSymbolicLink: false)
    }

    /// One file's line of `signature`: path, size, modification time and inode.
    private static func signature(_ sitePath: String, _ info: FileInfo) -> String {
        let modified = info.lastDataModificationTime
        let inode = info.platformSpecificStatus.map { UInt64($0.st_ino) } ?? 0
        return "\(sitePath) \(info.size) \(modified.seconds).\(modified.nanoseconds) \(inode)\n"
    }

    /// `static/CNAME`
    private static func display(_ folder: String, _ sitePath: String) -> String {
        sitePath.isEmpty ? folder : folder + "/" + sitePath
    }

    /// A name a web server can serve as it is: UTF-8 without control characters (the marker
    /// lists top-level names one per line, too), and no mark that joins a `/` beside it into one
    /// character (a combining accent first, a prepended sign last): paths are split at characters.
    static func isPublishable(_ name: String) -> Bool {
        let wrapped = "/" + name + "/"
        guard wrapped.first == "/", wrapped.last == "/" else { return false }
        return !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
    }
}
