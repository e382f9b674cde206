import FeedsiteImage
import Foundation

/// The glue between the stages `build()` runs: what each stage is handed and what it hands on.
extension SiteGenerator {
    /// Fetch: every feed fetched, parsed and sanitised (`FeedReader`), then its avatar
    /// (`AvatarFetcher`); with `--offline` only the local feed files (no network).
    func readFeeds(_ inputs: BuildInputs) async throws -> [FeedRun] {
        let avatars =
            options.fetchesAvatars && inputs.configuration.avatars
            ? AvatarFetcher(
                liveSite: options.outputDirectory, library: options.imageLibrary, now: options.now,
                concurrency: options.concurrency, perHostLimit: inputs.configuration.fetch.perHostLimit) : nil
        let reader = FeedReader(
            configuration: inputs.configuration, state: inputs.saved.state, savedItemCounts: inputs.saved.itemCounts,
            concurrency: options.concurrency, offline: options.offline, onlyNewFeeds: options.onlyNewFeeds,
            progress: options.progress, avatars: avatars)
        return try await reader.readAll()
    }

    /// The one warning of a build that had icons to make and no libvips to make them with.
    static func avatarWarning(_ runs: [FeedRun], library: AvatarImage.Library) -> Diagnostic? {
        guard let reason = runs.lazy.compactMap(\.avatar?.libraryUnavailable).first else { return nil }
        return .warning(
            "avatars: libvips is not installed (\(library.path): \(reason)), so feeds show their monograms; "
                + "install it: apt-get install libvips42")
    }

    /// Merge: this run's outcomes folded into the saved state (`SiteState.merge`), with the saved
    /// items the merge needs loaded first: those of a feed read afresh, failed or offline, or one
    /// whose old items age out. A feed that answered 304 keeps its items as they are, on disk.
    ///
    /// - Returns: the new state, and the report so far (every feed's record and the diagnostics).
    func merge(_ runs: [FeedRun], _ inputs: inout BuildInputs) -> (SiteState, BuildReport) {
        let configuration = inputs.configuration
        let needed = runs.filter { run in
            inputs.saved.needsItems(
                for: run,
                horizon: SiteState.keepHorizon(for: run.source, configuration: configuration, now: options.now))
        }
        inputs.diagnostics += inputs.saved.loadItems(needed.map(\.source.url.absoluteString)).map { .warning($0) }
        if let warning = Self.avatarWarning(runs, library: options.imageLibrary) { inputs.diagnostics.append(warning) }
        var state = inputs.saved.state
        var records = state.merge(runs, configuration: configuration, now: options.now)
        let unloaded = inputs.saved.unloadedItemCounts
        for index in records.indices {
            records[index].unloadedItemCount = unloaded[records[index].source.url.absoluteString]
        }
        var report = BuildReport(
            records: records,
            diagnostics: inputs.diagnostics
                + BuildReport.diagnostics(for: records, configFile: options.configFile.lastPathComponent),
            itemCount: 0, pageCount: 0, write: nil, outputDirectory: options.outputDirectory)
        report.stateNotRestored = inputs.restoreFailure
        return (state, report)
    }

    /// The build that wrote the site on disk, when this one would write the same site: the state is
    /// unchanged (any change gives it a new digest, and so the site a new fingerprint) and so is
    /// everything else the output depends on. Needs no saved items.
    func unchangedBuild(_ state: SiteState, _ report: BuildReport, _ inputs: BuildInputs) -> LastBuild? {
        guard !options.failurePolicy.isCrossed(failed: report.failedFeedCount, total: report.records.count),
            let savedDigest = inputs.saved.digest, state == inputs.saved.state,
            let previous = LastBuild.read(from: inputs.store.lastBuildFile),
            previous.fingerprint == BuildFingerprint.site(inputs, stateDigest: savedDigest, records: report.records),
            previous.outputIdentity == LastBuild.identity(of: options.outputDirectory)
        else { return nil }
        return previous
    }

    /// Skip: the site on disk stays as `previous` wrote it; the report says what it holds.
    func keep(_ previous: LastBuild, in report: inout BuildReport) async {
        await SiteWriter().cleanUp(options.outputDirectory)
        report.itemCount = previous.itemCount
        report.pageCount = previous.pageCount
        report.write = SiteWriter.Report(totalFiles: previous.fileCount, changedFiles: 0)
    }

    /// Load items: from here on every feed's items are needed, to save them and to render them.
    /// Those still on disk belong to feeds the merge did not touch, so they go in as they were saved.
    func loadUnchangedItems(into state: inout SiteState, _ report: inout BuildReport, _ inputs: inout BuildInputs) {
        report.diagnostics += inputs.saved.loadAllItems().map { .warning($0) }
        for index in report.records.indices where report.records[index].unloadedItemCount != nil {
            let key = report.records[index].source.url.absoluteString
            let savedFeed = inputs.saved.state.feeds[key]
            report.records[index].state.items = savedFeed?.items ?? []
            report.records[index].state.etag = savedFeed?.etag
            report.records[index].state.lastModified = savedFeed?.lastModified
            report.records[index].unloadedItemCount = nil
            state.feeds[key] = report.records[index].state
        }
    }

    /// Save state: `state` is encoded and streamed to disk in a child task (on the other core)
    /// while `body` runs; `body` awaits it through `savedDigest` (the new state's digest; nil when
    /// the state is unchanged, every feed having answered 304, and nothing was written). The items
    /// of feeds that did not change are copied from the saved file rather than encoded again.
    func savingState<Result>(
        _ state: SiteState, _ inputs: BuildInputs,
        _ body: (_ savedDigest: () async throws -> String?) async throws -> Result
    ) async throws -> Result {
        let isUnchanged = inputs.saved.digest != nil && state == inputs.saved.state
        let unchangedItems = inputs.saved.unchangedItems(in: state)
        let store = inputs.store
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { isUnchanged ? nil : try store.save(state, unchanged: unchangedItems) }
            return try await body { try await group.next() ?? nil }
        }
    }

    /// Too many feeds failed (`--max-failed`): the site is not replaced.
    func stop(_ report: inout BuildReport, _ inputs: BuildInputs) -> BuildError {
        if case .absent = inputs.publication.output.contents { report.hadSite = false }
        report.stopReason = BuildError.tooManyFailuresMessage(report, options.failurePolicy)
        return .tooManyFailures(report, options.failurePolicy)
    }

    /// Assemble: the site model (`Site.assemble`), while the staging folder is got ready, unless
    /// it was while the feeds were fetched (`early`).
    func assemble(
        _ report: inout BuildReport, _ inputs: BuildInputs, _ early: Result<SiteWriter.Staging, BuildError>?
    ) async throws -> (Site, SiteWriter.Staging) {
        let site: Site
        let staging: SiteWriter.Staging
        if let early {
            site = Site.assemble(configuration: inputs.configuration, records: report.records, now: options.now)
            staging = try Self.staging(early)
        } else {
            async let beginning = await Self.beginStaging(options.outputDirectory, notice: options.notice)
            site = Site.assemble(configuration: inputs.configuration, records: report.records, now: options.now)
            staging = try Self.staging(await beginning)
        }
        report.itemCount = site.items.count
        report.accounts = site.accounts
        report.diagnostics += FeedAccount.gaveUpWarnings(site.accounts, file: options.configFile.lastPathComponent)
        if inputs.configuration.categoryPages, let warning = Taxonomy.categoryPagesWarning(site) {
            report.diagnostics.append(.warning(file: options.configFile.lastPathComponent, warning))
        }
        return (site, staging)
    }

    /// The staging folder begun, or why there is none: the build's cancellation when it was
    /// stopped while the folder was being got ready (waiting for another build, say).
    private static func staging(_ begun: Result<SiteWriter.Staging, BuildError>) throws -> SiteWriter.Staging {
        if case .failure = begun { try Task.checkCancellation() }
        return try begun.get()
    }

    /// A staging folder for `output` (`SiteWriter.begin`), or why there is none. A folder that
    /// cannot be made there is `BuildError.outputFolder` (exit status 73), unlike a write that
    /// fails later (74).
    static func beginStaging(
        _ output: URL, notice: (@Sendable (String) -> Void)?
    ) async -> Result<SiteWriter.Staging, BuildError> {
        do {
            return .success(try await SiteWriter().begin(output) { notice?($0) })
        } catch {
            return .failure(.outputFolder(error))
        }
    }

    /// Write: the static files and the saved state join the rendered pages, the new site is swapped
    /// in, and what it was built from is noted for the next build's `unchangedBuild`.
    func write(
        _ staging: inout SiteWriter.Staging, _ report: BuildReport, _ inputs: BuildInputs, stateDigest: String
    ) async throws -> SiteWriter.Report {
        do {
            try await staging.add(inputs.publication.staticFiles)
            // The saved state is published as `status/state.json` (for `state_url`): copied from the
            // state folder (linked from the live site when unchanged), never held in memory, and
            // never a link to the state itself, which an edit of the published copy in place (a
            // deploy step blanking it, `rsync --inplace`) would destroy.
            try await staging.addFile(copying: inputs.store.file.path, as: "status/state.json")
        } catch {
            await staging.discard()
            throw error
        }
        let written = try await staging.commit()
        if let identity = LastBuild.identity(of: options.outputDirectory) {
            LastBuild(
                fingerprint: BuildFingerprint.site(inputs, stateDigest: stateDigest, records: report.records),
                outputIdentity: identity, pageCount: report.pageCount, fileCount: written.totalFiles,
                itemCount: report.itemCount
            ).write(to: inputs.store.lastBuildFile)
        }
        return written
    }
}

extension BuildReport {
    /// The report with the stages' wall times.
    func timed(by clock: StageClock) -> BuildReport {
        var report = self
        report.timings = clock.laps
        return report
    }
}
