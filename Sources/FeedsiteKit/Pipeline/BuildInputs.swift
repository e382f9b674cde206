import Foundation

/// Everything a build reads before it fetches anything: `feeds.yml`, the templates, the output
/// folder's check, and the saved state (or the state the live site published). A problem with
/// any of them stops the build before the network is used.
struct BuildInputs: Sendable {
    let configuration: SiteConfiguration
    let templates: SiteTemplates
    /// The output folder (checked to be feedsite's to write) and `static/`.
    let publication: Publication
    let store: StateStore
    /// Held until the build ends: no other build reads or writes this state meanwhile.
    let lock: FileLock?
    /// The state the build starts from; feeds' items are loaded as the merge needs them.
    var saved: SavedState
    /// Why the published state could not be restored, when `--allow-fresh-state` let the build
    /// go on without the site's history.
    let restoreFailure: String?
    /// Configuration, template and state warnings so far.
    var diagnostics: [Diagnostic]
    /// Pagefind, when the site is searched (`search: true` and it is installed).
    var search: SearchIndex? = nil

    /// No state was saved: the build cannot be skipped.
    var isFirstBuild: Bool { saved.digest == nil }

    /// Reads the inputs of a build with `options`.
    ///
    /// - Throws: `ConfigurationError`, `TemplateError`, `SiteWriter.WriteError` (the output
    ///   folder is refused), `StateError` (the state folder is), `BuildError.nothingSaved` and
    ///   `BuildError.stateNotRestored`.
    static func load(_ options: SiteGenerator.Options) async throws -> BuildInputs {
        var (configuration, diagnostics) = try SiteConfiguration.load(contentsOf: options.configFile)
        if let timeout = options.timeoutSeconds { configuration.fetch.timeoutSeconds = timeout }
        // Before anything is compared: without Pagefind, `search` is off (the build fingerprint sees it).
        let (search, searchWarning) = SearchIndex.prepare(&configuration)
        diagnostics += searchWarning.map { [$0] } ?? []
        let templates = try SiteTemplates.load(overriding: options.templatesDirectory, besides: options.configFile)
        let templatesFolder = options.templatesDirectory ?? SiteTemplates.defaultFolder(besides: options.configFile)
        diagnostics += templates.checkNames(folder: templatesFolder.lastPathComponent)
        diagnostics += templates.checkCatalogues(
            language: configuration.language, configFile: options.configFile.lastPathComponent,
            folder: templatesFolder.lastPathComponent)
        let stateDirectory = options.stateDirectory ?? URL(fileURLWithPath: configuration.stateDirectory)
        let publication = try await Publication.prepare(
            output: options.outputDirectory, configFile: options.configFile, templatesDirectory: templatesFolder,
            stateDirectory: stateDirectory, configuration: configuration, templates: templates)
        diagnostics += publication.diagnostics
        let store = StateStore(directory: stateDirectory)
        // An offline build without a state has nothing to protect (and fails below).
        let lock =
            options.offline && !FileManager.default.fileExists(atPath: store.directory.path)
            ? nil : try await StateLock.acquire(for: store) { options.notice?($0) }
        var (saved, restoreFailure) = try await loadState(store, configuration, options, &diagnostics)
        diagnostics += saved.adoptMovedFeeds(configuration.feeds).map { .warning($0) }
        return BuildInputs(
            configuration: configuration, templates: templates, publication: publication, store: store, lock: lock,
            saved: saved,
            restoreFailure: restoreFailure, diagnostics: diagnostics, search: search)
    }

    /// The saved state; when there is none, the state published by the live site (`--restore-state`
    /// or `state_url`), so a fresh CI runner keeps history and sends conditional requests.
    ///
    /// - Returns: the state, and why restoring failed when `--allow-fresh-state` let the build go on.
    /// - Throws: `StateError` when the state folder is refused; `BuildError.stateNotRestored` when
    ///   the published state could not be restored (anything but "there is none yet").
    private static func loadState(
        _ store: StateStore, _ configuration: SiteConfiguration, _ options: SiteGenerator.Options,
        _ diagnostics: inout [Diagnostic]
    ) async throws -> (SavedState, String?) {
        let (loaded, warnings) = store.load(now: options.now)
        diagnostics += warnings.map { .warning($0) }
        if let loaded { return (loaded, nil) }
        if options.offline {
            throw BuildError.nothingSaved(
                stateFile: store.file.path, wasUnreadable: !warnings.isEmpty, earlier: diagnostics)
        }
        guard let origin = options.restoreState ?? configuration.stateURL else { return (.none, nil) }
        let restore = StateRestore(
            store: store, configuration: configuration, limitBytes: options.stateSizeLimit, now: options.now)
        switch try await restore.restore(from: origin) {
        case .restored(let restored, let warnings):
            diagnostics += warnings.map { .warning($0) }
            let items = restored.state.feeds.values.reduce(0) { $0 + $1.items.count }
            diagnostics.append(
                .warning("restored state for \(restored.state.feeds.count) feeds from \(origin) (\(items) items)"))
            return (restored, nil)
        case .absent(let why):
            diagnostics.append(
                .warning(
                    "no state published at \(origin) yet (\(why)): starting without history, as a first deploy does"))
            return (.none, nil)
        case .failed(let reason):
            guard options.allowFreshState else {
                throw BuildError.stateNotRestored(origin: origin, reason: reason, earlier: diagnostics)
            }
            diagnostics.append(
                .error(
                    "cannot restore the state from \(origin): \(reason); building without the site's history (--allow-fresh-state): first-seen dates, kept items and validators start afresh"
                ))
            return (.none, reason)
        }
    }
}
