import Foundation

/// What `feedsite init` writes: a commented starter `feeds.yml` and, on request, the built-in
/// theme as a `Templates/` folder to edit. Never overwrites a file: an existing `feeds.yml` is an
/// error (unless only the theme is wanted), an existing theme file is kept and reported.
package enum StarterProject {
    /// The starter configuration: a few real feeds and every common key, commented.
    package static let configuration = """
        # feedsite configuration. Every key, with its default, is documented in feedsite's README
        # ("feeds.yml reference"); `feedsite build --help` lists the command-line options.

        title: My Planet                          # the site's title, on every page
        description: The feeds I read, in one place.
        # base_url: https://planet.example.org/   # where the site is published; needed for atom.xml,
        #                                         # rss.xml, feed.json and sitemap.xml
        # page_size: 25                           # items per page
        # timezone: UTC                           # dates are shown in this IANA time zone
        # language: en                            # the language of the site's own text
        # keep_days: 90                           # items that left their feed stay this many days

        # One entry per feed: an http(s) URL, or a path to a file (relative to this file's folder).
        # `name` is optional (the feed's own title is used); `feedsite import opml FILE` adds the
        # feeds of another reader's export.
        feeds:
          - url: https://www.swift.org/atom.xml
            name: Swift.org
          - url: https://blog.rust-lang.org/feed.xml
            name: Rust Blog
          - url: https://go.dev/blog/feed.atom
            name: The Go Blog

        """

    /// What was written and what was kept.
    package struct Outcome: Sendable, Equatable {
        /// Paths written, relative to the project folder (`feeds.yml`, `Templates/item.mustache`…).
        package var written: [String] = []
        /// Paths that existed already and were left as they were.
        package var kept: [String] = []
    }

    /// `feedsite init` could not do what was asked; reads like a compiler diagnostic.
    package struct InitError: Error, Sendable, CustomStringConvertible {
        package var path: String
        package var message: String

        package var description: String { Diagnostic.error(file: path, message).description }
    }

    /// Writes `feeds.yml` (and with `theme`, every file of the built-in theme under `Templates/`)
    /// into `folder`, creating it when needed.
    ///
    /// - Throws: `InitError` when `feeds.yml` exists and no theme was asked for, or a file or
    ///   folder cannot be created.
    package static func write(into folder: URL, theme: Bool) throws(InitError) -> Outcome {
        let fileManager = FileManager.default
        let configFile = folder.appendingPathComponent("feeds.yml")
        if fileManager.fileExists(atPath: configFile.path) && !theme {
            throw InitError(
                path: configFile.path,
                message: "already exists; not overwritten (edit it, or run feedsite init in another folder)")
        }
        var outcome = Outcome()
        try create(folder)
        try write(Data(configuration.utf8), to: configFile, as: "feeds.yml", &outcome)
        if theme {
            let templates = folder.appendingPathComponent("Templates", isDirectory: true)
            for (path, bytes) in SiteTemplates.builtInFiles() {
                let file = templates.appendingPathComponent(path)
                try create(file.deletingLastPathComponent())
                try write(bytes, to: file, as: "Templates/\(path)", &outcome)
            }
        }
        return outcome
    }

    private static func create(_ folder: URL) throws(InitError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw InitError(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    /// Writes a new file; one that exists (even one created a moment ago) is kept as it is.
    private static func write(_ data: Data, to file: URL, as name: String, _ outcome: inout Outcome) throws(InitError) {
        if FileManager.default.fileExists(atPath: file.path) {
            outcome.kept.append(name)
            return
        }
        do {
            try data.write(to: file, options: .withoutOverwriting)
            outcome.written.append(name)
        } catch {
            if FileManager.default.fileExists(atPath: file.path) {
                outcome.kept.append(name)
            } else {
                throw InitError(path: file.path, message: "cannot write the file: \(error.localizedDescription)")
            }
        }
    }
}
