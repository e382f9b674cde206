import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a build publishes besides its pages, checked before anything is fetched: the output
/// folder (feedsite's to write, and none of the project's own folders) and the files of `static/`.
public struct Publication: Sendable {
    /// The output folder, resolved and checked.
    public let output: OutputFolder
    /// The files of `static/`, to copy to the site root.
    public let staticFiles: StaticFiles
    /// Warnings for the build report (files put into the site folder by hand).
    public let diagnostics: [Diagnostic]

    /// Checks the output folder and lists `static/`.
    ///
    /// - Throws: `SiteWriter.WriteError` of kind `.refused` when the output folder is not
    ///   feedsite's to write (exit 73); `ConfigurationError` when a static file cannot be
    ///   published or the static folder holds the project's own files (exit 64).
    public static func prepare(
        output: URL, configFile: URL, templatesDirectory: URL, stateDirectory: URL,
        configuration: SiteConfiguration, templates: SiteTemplates
    ) throws -> Publication {
        let requested = output.standardizedFileURL.path
        let outputPath = try OutputFolder.resolve(requested)
        let staticFolder = configuration.staticFolder(besides: configFile)
        func real(_ url: URL) -> String {
            let path = url.standardizedFileURL.path
            return (try? OutputFolder.resolve(path)) ?? path
        }
        let project: [(path: String, what: String, isFolder: Bool)] = [
            (real(configFile), "the configuration file \(configFile.lastPathComponent)", false),
            (real(templatesDirectory), "the templates folder \(templatesDirectory.lastPathComponent)/", true),
            (real(stateDirectory), "the state folder \(stateDirectory.lastPathComponent)/", true),
            (real(staticFolder), "the static folder \(configuration.staticDirectory)/", true),
        ]
        // Everything in the static folder is published: it must not hold the project's own files.
        let staticPath = real(staticFolder)
        var info = stat()
        if lstat(staticFolder.standardizedFileURL.path, &info) == 0 {
            for (path, what, _) in project.dropLast() where OutputFolder.contains(staticPath, path) {
                throw ConfigurationError([
                    .error(
                        file: configuration.staticDirectory,
                        "holds \(what), and everything in it is published; keep only the files to publish there "
                            + "(or set 'static_dir' in feeds.yml to another folder)")
                ])
            }
        }
        for (path, what, isFolder) in project {
            let problem: String? =
                if path == outputPath {
                    "is \(what)"
                } else if OutputFolder.contains(outputPath, path) {
                    "holds \(what)"
                } else if isFolder && OutputFolder.contains(path, outputPath) {
                    "is inside \(what)"
                } else {
                    nil
                }
            if let problem {
                throw SiteWriter.WriteError(
                    path: requested,
                    message: "\(problem), and feedsite replaces its output folder as a whole; the site needs a "
                        + "folder of its own: pass another --output, such as Site",
                    kind: .refused)
            }
        }
        let folder = try OutputFolder.check(output)
        let staticFiles = try StaticFiles.list(
            staticFolder, displayName: configuration.staticDirectory,
            reserved: .site(assets: templates.assets.keys, hasNotFoundPage: templates.hasNotFoundPage))
        let diagnostics = folder.foreignFiles.filter { !$0.hasPrefix(".") }.map { name in
            Diagnostic.warning(
                "\(requested)/\(name) was not written by feedsite; it is kept as it is, but files to publish with "
                    + "the site belong in \(configuration.staticDirectory)/ beside \(configFile.lastPathComponent)")
        }
        return Publication(output: folder, staticFiles: staticFiles, diagnostics: diagnostics)
    }
}

extension SiteConfiguration {
    /// The static folder: `static_dir`, relative to the folder holding `feeds.yml`.
    public func staticFolder(besides configFile: URL) -> URL {
        if staticDirectory.hasPrefix("/") { return URL(fileURLWithPath: staticDirectory) }
        return configFile.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(staticDirectory)
    }
}
