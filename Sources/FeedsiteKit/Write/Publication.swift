import Foundation

/// What a build publishes besides its pages, checked before anything is fetched: the output
/// folder (feedsite's to write, and none of the project's own folders) and the files of `static/`.
package struct Publication: Sendable {
    /// The output folder, resolved and checked.
    package let output: OutputFolder
    /// The files of `static/`, to copy to the site root.
    package let staticFiles: StaticFiles
    /// Warnings for the build report (files put into the site folder by hand).
    package let diagnostics: [Diagnostic]

    /// Checks the output folder and lists `static/`.
    ///
    /// - Throws: `SiteWriter.WriteError` of kind `.refused` when the output folder is not
    ///   feedsite's to write (exit 73); `ConfigurationError` when a static file cannot be
    ///   published or the static folder holds the project's own files (exit 64).
    package static func prepare(
        output: URL, configFile: URL, templatesDirectory: URL, stateDirectory: URL,
        configuration: SiteConfiguration, templates: SiteTemplates
    ) async throws -> Publication {
        let requested = output.standardizedFileURL.path
        let outputPath = try OutputFolder.resolve(requested)
        let staticFolder = configuration.staticFolder(besides: configFile)
        // A static folder named in feeds.yml must exist: else its files would silently vanish from the site.
        let staticExists = await SiteWriter.info(staticFolder.standardizedFileURL.path) != nil
        if configuration.staticDirectory != SiteConfiguration.Defaults.staticDirectory, !staticExists {
            throw ConfigurationError([
                .error(
                    file: configFile.lastPathComponent,
                    "'static_dir: \(configuration.staticDirectory)' names a folder that does not exist "
                        + "(\(staticFolder.standardizedFileURL.path)); create it, or remove 'static_dir' to publish "
                        + "no files of your own")
            ])
        }
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
        if staticExists {
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
                let example = URL(fileURLWithPath: outputPath).lastPathComponent == "Site" ? "" : ", such as Site"
                throw SiteWriter.WriteError(
                    path: requested,
                    message: "\(problem), and feedsite replaces its output folder as a whole; the site needs a "
                        + "folder of its own: pass another --output\(example), or keep \(what) elsewhere",
                    kind: .refused)
            }
        }
        let folder = try await OutputFolder.check(output)
        let staticFiles = try await StaticFiles.list(
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
    package func staticFolder(besides configFile: URL) -> URL {
        if staticDirectory.hasPrefix("/") { return URL(fileURLWithPath: staticDirectory) }
        return configFile.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(staticDirectory)
    }
}
