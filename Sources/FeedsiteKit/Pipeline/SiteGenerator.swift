import Foundation

/// The whole pipeline, as its stages: load → fetch (parse, sanitise) → merge → assemble → render →
/// save state → write.
///
/// Start reading here. `build()` says which stage runs when, which run side by side, and when a
/// build stops or is skipped; each stage's work lives in its folder (`Config/`, `Fetch/`,
/// `Pipeline/` for the model, `Render/`, `Write/`) or, for the two stages with a C library, in its
/// own target (`FeedsiteParse`, `FeedsiteSanitise`), and the glue between them in
/// `SiteGenerator+Stages.swift`. Only Fetch and Write do I/O (plus loading the inputs:
/// `feeds.yml`, `Templates/` and the saved state).
package struct SiteGenerator: Sendable {
    package var options: Options

    package init(options: Options) {
        self.options = options
    }

    /// Builds the site and swaps it into place.
    ///
    /// - Throws: `ConfigurationError` or `TemplateError` (nothing was fetched); `BuildError` when
    ///   too many feeds failed (the old site is kept, the state is still saved), the output folder
    ///   cannot be made or a stage failed in a way its own errors do not cover; `StateError` or
    ///   `SiteWriter.WriteError` when the state or the site cannot be written. Each is an
    ///   `ExitStatusError`.
    package func build() async throws -> BuildReport {
        var clock = StageClock()
        var inputs = try await clock.time(.load) { try await BuildInputs.load(options) }
        // A first build cannot be skipped: its staging folder (the previous site, listed) is got
        // ready while the feeds are fetched; any other build's while its site is assembled.
        let isFirstBuild = inputs.isFirstBuild
        async let firstStaging =
            isFirstBuild ? await Self.beginStaging(options.outputDirectory, notice: options.notice) : nil
        let runs = try await clock.time(.fetch) { try await readFeeds(inputs) }
        var (state, report) = await clock.time(.merge) { merge(runs, &inputs) }
        if let previous = unchangedBuild(state, report, inputs) {
            await clock.time(.skip) { await keep(previous, in: &report) }
            return report.timed(by: clock)
        }
        if inputs.saved.hasUnloadedItems {
            await clock.time(.loadItems) { loadUnchangedItems(into: &state, &report, &inputs) }
        }
        let earlyStaging = await firstStaging
        // The state is saved (streamed to disk) on the other core while the site is assembled and
        // rendered; the swap publishes it as `status/state.json`.
        return try await savingState(state, inputs) { savedDigest in
            guard !options.failurePolicy.isCrossed(failed: report.failedFeedCount, total: report.records.count) else {
                // The old site stays, but what was fetched is kept.
                _ = try await clock.time(.saveState) { try await savedDigest() }
                if case .success(let staging)? = earlyStaging { await staging.discard() }
                throw stop(&report, inputs)
            }
            let (site, begun) = try await clock.time(.assemble) { try await assemble(&report, inputs, earlyStaging) }
            var staging = begun
            let stateDigest: String
            do {
                let renderer = PageRenderer(
                    templates: inputs.templates, now: options.now, hasSearch: inputs.search != nil)
                report.pageCount = try await clock.time(.render) {
                    try await renderer.render(site, records: report.records, into: &staging)
                }
                if let search = inputs.search {
                    report.diagnostics += try await clock.time(.search) {
                        try await search.build(
                            site, into: &staging, liveSite: options.outputDirectory,
                            stateDirectory: inputs.store.directory)
                    }
                }
                stateDigest = try await clock.time(.saveState) { try await savedDigest() ?? inputs.saved.digest ?? "" }
            } catch {
                await staging.discard()
                throw error
            }
            let written = try await clock.time(.write) {
                try await write(&staging, report, inputs, stateDigest: stateDigest)
            }
            report.write = written
            report.diagnostics += written.warnings.map {
                var warning = Diagnostic.warning($0)
                warning.concernsUserFiles = true
                return warning
            }
            return report.timed(by: clock)
        }
    }
}
