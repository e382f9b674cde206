import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of `static/` (beside `feeds.yml`; `static_dir` moves it), published at the site root
/// as they are: `CNAME`, `.nojekyll`, `_headers`, `_redirects`, `.well-known/…`, images.
///
/// Listed before anything is fetched, so every problem is a configuration error up front: a name
/// feedsite generates (`index.html`, `items/…`, a theme asset), a link that leads out of the
/// folder, something that is not a file. A symbolic link is published as a copy of the file it
/// points to when that file is inside the folder; links to folders, and links out of it, are
/// refused (so nothing outside `static/` is published by accident).
public struct StaticFiles: Sendable {
    /// One file to publish.
    public struct File: Sendable, Hashable {
        /// Where it goes in the site (`CNAME`, `.well-known/security.txt`).
        public var sitePath: String
        /// Where its bytes are read from (for a link, the file it points to).
        public var source: String
        /// How messages name it (`static/CNAME`).
        public var displayPath: String
    }

    /// Sorted by site path.
    public let files: [File]
    /// Each file's path, size, modification time and inode: what a build's fingerprint needs to
    /// see that a file changed, without reading it.
    public let signature: String

    public static let none = StaticFiles(files: [], signature: "")

    /// Most files and folder depth accepted (a folder this large is a mistake, such as `static_dir: /`).
    static let maximumFiles = 100_000
    static let maximumDepth = 64

    /// What feedsite generates, that a static file may not replace.
    public struct Reserved: Sendable {
        /// Files at the top of the site that feedsite writes.
        public var files: Set<String>
        /// Folders at the top of the site that are feedsite's as a whole.
        public var folders: Set<String>
        /// Site paths of the theme's assets (`assets/style.css`); other files may go in `assets/`.
        public var assets: Set<String>

        /// The pages and files of DESIGN §5, the marker, `404.html` when the theme has one, and
        /// the theme's assets.
        public static func site(assets: some Sequence<String>, hasNotFoundPage: Bool) -> Reserved {
            var files: Set<String> = [
                "index.html", "atom.xml", "rss.xml", "feed.json", "opml.xml", "sitemap.xml", "robots.txt",
                SiteMarker.fileName, SiteMarker.temporaryName,
            ]
            if hasNotFoundPage { files.insert(PageRenderer.notFoundPath) }
            return Reserved(
                files: files, folders: ["page", "feeds", "items", "archive", "status"], assets: Set(assets))
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
    public static func list(
        _ folder: URL, displayName: String, reserved: Reserved
    ) throws(ConfigurationError) -> StaticFiles {
        let given = folder.standardizedFileURL.path
        var info = stat()
        guard lstat(given, &info) == 0 else { return .none }
        guard let root = OutputFolder.realPath(given), stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR
        else {
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
            guard let entries = OutputFolder.Entry.list(path) else {
                problems.append(.error(file: display(displayName, prefix), "cannot be read"))
                continue
            }
            for entry in entries.sorted(by: { $0.name < $1.name }) {
                let sitePath = prefix + entry.name
                let shown = display(displayName, sitePath)
                let source = path + "/" + entry.name
                guard isPublishable(entry.name) else {
                    problems.append(
                        .error(
                            file: shown,
                            "the name has control characters or is not UTF-8; rename it (web servers and deploy "
                                + "tools cannot publish it faithfully)"))
                    continue
                }
                var itemInfo = stat()
                guard lstat(source, &itemInfo) == 0 else { continue }
                let isDirectory = (itemInfo.st_mode & S_IFMT) == S_IFDIR
                if let generated = reserved.collision(sitePath, isDirectory: isDirectory) {
                    let what = generated.hasSuffix("/") ? "the folder \(generated) feedsite generates" : generated
                    problems.append(
                        .error(
                            file: shown,
                            "has the same path as \(what) in the site; rename or remove it (to change a generated "
                                + "page, edit its template in Templates/)"))
                    continue
                }
                switch itemInfo.st_mode & S_IFMT {
                case S_IFDIR:
                    guard depth < maximumDepth else {
                        problems.append(.error(file: shown, "is nested more than \(maximumDepth) folders deep"))
                        continue
                    }
                    pending.append((source, sitePath + "/", depth + 1))
                case S_IFREG:
                    files.append(File(sitePath: sitePath, source: source, displayPath: shown))
                    signature += "\(sitePath) \(itemInfo.st_size) \(modified(itemInfo)) \(itemInfo.st_ino)\n"
                case S_IFLNK:
                    guard let target = OutputFolder.realPath(source), OutputFolder.contains(root, target),
                        target != root, stat(target, &itemInfo) == 0, (itemInfo.st_mode & S_IFMT) == S_IFREG
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
                    signature += "\(sitePath) \(itemInfo.st_size) \(modified(itemInfo)) \(itemInfo.st_ino)\n"
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

    /// `static/CNAME`
    private static func display(_ folder: String, _ sitePath: String) -> String {
        sitePath.isEmpty ? folder : folder + "/" + sitePath
    }

    /// A name a web server can serve as it is: UTF-8 without control characters (the marker
    /// lists top-level names one per line, too).
    private static func isPublishable(_ name: String) -> Bool {
        !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
    }

    private static func modified(_ info: stat) -> String {
        #if canImport(Darwin)
            return "\(info.st_mtimespec.tv_sec).\(info.st_mtimespec.tv_nsec)"
        #else
            return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        #endif
    }
}
