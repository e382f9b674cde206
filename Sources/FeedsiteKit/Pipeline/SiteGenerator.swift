import Foundation

/// The whole pipeline, one line per stage:
/// load → restore state → fetch → parse → sanitise → merge → model → render → write.
///
/// Start reading here. Each stage lives in the folder of the same name; only Fetch and Write do
/// I/O (plus loading the inputs: `feeds.yml`, `Templates/` and the saved state).
public struct SiteGenerator: Sendable {
    /// Where things are and how hard to work.
    public struct Options: Sendable {
        public var configFile: URL
        public var outputDirectory: URL
        /// A folder whose files override the built-in theme; nil: `Templates/` beside the
        /// configuration file, when there is one.
        public var templatesDirectory: URL?
        /// Overrides `state_dir` from `feeds.yml`.
        public var stateDirectory: URL?
        /// Seeds a missing state directory from this URL or path (overrides `state_url`).
        public var restoreState: String?
        /// Build even when the state cannot be restored (`--allow-fresh-state`): the site then
        /// starts without its history. Without it such a build fails (`BuildError.stateNotRestored`).
        public var allowFreshState: Bool
        /// The largest state restored or loaded (`StateLimits.fileBytes`; smaller in tests).
        var stateSizeLimit = StateLimits.fileBytes
        /// Feeds fetched (and parsed, and sanitised) at the same time.
        public var concurrency: Int
        /// Overrides `timeout` from `feeds.yml`.
        public var timeoutSeconds: Int?
        /// Re-render from saved state without touching the network.
        public var offline: Bool
        /// Fetch only feeds that have no saved state yet (`feedsite serve` after a `feeds.yml` edit);
        /// the others render from their saved items.
        public var onlyNewFeeds: Bool = false
        /// When failed feeds keep the site from being replaced.
        public var failurePolicy: FailurePolicy
        /// "Now", injected so builds are reproducible and testable.
        public var now: Date
        /// Called as feeds finish: (done, total). For the terminal's progress line.
        public var progress: (@Sendable (Int, Int) -> Void)?

        public init(
            configFile: URL, outputDirectory: URL, templatesDirectory: URL? = nil, stateDirectory: URL? = nil,
            restoreState: String? = nil, allowFreshState: Bool = false, concurrency: Int = 64,
            timeoutSeconds: Int? = nil, offline: Bool = false, failurePolicy: FailurePolicy = .allFailed,
            now: Date = Date(), progress: (@Sendable (Int, Int) -> Void)? = nil
        ) {
            self.configFile = configFile
            self.outputDirectory = outputDirectory
            self.templatesDirectory = templatesDirectory
            self.stateDirectory = stateDirectory
            self.restoreState = restoreState
            self.allowFreshState = allowFreshState
            self.concurrency = concurrency
            self.timeoutSeconds = timeoutSeconds
            self.offline = offline
            self.failurePolicy = failurePolicy
            // Whole seconds: dates round-trip exactly through the saved state's ISO 8601.
            self.now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            self.progress = progress
        }
    }

    public var options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Builds the site and swaps it into place.
    ///
    /// - Throws: `ConfigurationError` or `TemplateError` (nothing was fetched); `BuildError` when
    ///   too many feeds failed (the old site is kept, the state is still saved) or the output folder
    ///   cannot be made; `SiteWriter.WriteError` when writing fails. Each is an `ExitStatusError`.
    public func build() async throws -> BuildReport {
        var clock = StageClock()
        var (configuration, diagnostics) = try SiteConfiguration.load(contentsOf: options.configFile)
        if let timeout = options.timeoutSeconds { configuration.fetch.timeoutSeconds = timeout }
        let templates = try SiteTemplates.load(overriding: options.templatesDirectory, besides: options.configFile)
        let templatesFolder = options.templatesDirectory ?? SiteTemplates.defaultFolder(besides: options.configFile)
        diagnostics += templates.checkNames(folder: templatesFolder.lastPathComponent)
        // Before anything is fetched: the output folder is feedsite's to write, static/ can be published.
        let publication = try Publication.prepare(
            output: options.outputDirectory, configFile: options.configFile,
            templatesDirectory: templatesFolder,
            stateDirectory: stateDirectory(configuration), configuration: configuration, templates: templates)
        diagnostics += publication.diagnostics
        let store = StateStore(directory: stateDirectory(configuration))
        var (saved, restoreFailure) = try await loadState(configuration, store, &diagnostics)
        diagnostics += saved.adoptMovedFeeds(configuration.feeds).map { .warning($0) }
        clock.lap("load")
        // Without saved state the build cannot be skipped, so the staging folder (the previous
        // site, listed) is got ready while the feeds are fetched; else once the model is assembled.
        let output = options.outputDirectory
        let isFirstBuild = saved.digest == nil
        async let earlyStaging = isFirstBuild ? Self.stagingResult(output) : nil
        let runs = try await readFeeds(configuration, saved.state, savedItemCounts: saved.itemCounts)
        clock.lap("fetch+parse+sanitise")
        // The saved items the merge needs: a feed read afresh, failed or offline, or one whose old
        // items age out. A feed that answered 304 keeps its items as they are, left on disk.
        diagnostics += saved.loadItems(
            runs.filter { run in
                saved.needsItems(
                    for: run,
                    horizon: SiteState.keepHorizon(for: run.source, configuration: configuration, now: options.now))
            }.map(\.source.url.absoluteString)
        ).map { .warning($0) }
        var state = saved.state
        var records = state.merge(runs, configuration: configuration, now: options.now)
        let unloaded = saved.unloadedItemCounts
        for index in records.indices {
            records[index].unloadedItemCount = unloaded[records[index].source.url.absoluteString]
        }
        var report = BuildReport(
            records: records,
            diagnostics: diagnostics
                + BuildReport.diagnostics(for: records, configFile: options.configFile.lastPathComponent),
            itemCount: 0, pageCount: 0, write: nil, outputDirectory: options.outputDirectory)
        report.stateNotRestored = restoreFailure
        let isCrossed = options.failurePolicy.isCrossed(failed: report.failedFeedCount, total: records.count)
        // A build can only be skipped when the state is unchanged: any change gives the state a
        // new digest, and so the site a new fingerprint. The check needs no saved items.
        if !isCrossed, let savedDigest = saved.digest, state == saved.state,
            let previous = LastBuild.read(from: store.lastBuildFile),
            previous.fingerprint
                == Self.fingerprint(configuration, templates, publication.staticFiles, savedDigest, records),
            previous.outputIdentity == LastBuild.identity(of: options.outputDirectory)
        {
            // Same inputs as the build that wrote the site on disk: it would come out identical.
            SiteWriter().cleanUp(options.outputDirectory)
            report.itemCount = previous.itemCount
            report.pageCount = previous.pageCount
            report.write = SiteWriter.Report(totalFiles: previous.fileCount, changedFiles: 0)
            clock.lap("model+render+write (unchanged: skipped)")
            report.timings = clock.laps
            return report
        }
        // From here on every feed's items are needed: to save them and to render them. Those left
        // on disk belong to feeds the merge did not touch, so they go in as they were saved.
        if saved.hasUnloadedItems {
            report.diagnostics += saved.loadAllItems().map { .warning($0) }
            for index in records.indices where records[index].unloadedItemCount != nil {
                let key = records[index].source.url.absoluteString
                let savedFeed = saved.state.feeds[key]
                records[index].state.items = savedFeed?.items ?? []
                records[index].state.etag = savedFeed?.etag
                records[index].state.lastModified = savedFeed?.lastModified
                records[index].unloadedItemCount = nil
                state.feeds[key] = records[index].state
            }
            report.records = records
            clock.lap("load items")
        }
        // The state is encoded and saved (streamed to disk) on the other core while the site model
        // is assembled and the pages are rendered; it is awaited just before the new site is
        // committed, which publishes it as `status/state.json`. An unchanged state (every feed
        // answered 304) is neither encoded nor written, and the items of feeds that did not change
        // are copied from the saved file rather than encoded again.
        let isUnchanged = saved.digest != nil && state == saved.state
        let mergedState = state
        let unchangedItems = saved.unchangedItems(in: state)
        async let newDigest: String? = isUnchanged ? nil : store.save(mergedState, unchanged: unchangedItems)
        guard !isCrossed else {
            // The old site stays, but what was fetched is kept.
            _ = try await newDigest
            if case .success(let staging)? = await earlyStaging { staging.discard() }
            report.stopReason = BuildError.tooManyFailuresMessage(report, options.failurePolicy)
            throw BuildError.tooManyFailures(report, options.failurePolicy)
        }
        let site: Site
        var staging: SiteWriter.Staging
        if let early = await earlyStaging {
            site = Site.assemble(configuration: configuration, records: records, now: options.now)
            staging = try early.get()
        } else {
            async let beginning = Self.stagingResult(output)
            site = Site.assemble(configuration: configuration, records: records, now: options.now)
            staging = try await beginning.get()
        }
        report.itemCount = site.items.count
        report.accounts = site.accounts
        clock.lap("model")
        let stateDigest: String
        do {
            report.pageCount = try await render(
                site, records: records, renderer: PageRenderer(templates: templates, now: options.now),
                into: &staging)
            clock.lap("render+write")
            stateDigest = try await newDigest ?? saved.digest ?? ""
            try staging.add(publication.staticFiles)
            // The saved state is published as `status/state.json` (for `state_url`): linked or
            // copied from the state folder, never held in memory.
            try staging.addFile(copying: store.file.path, as: "status/state.json")
            clock.lap("state (rest of saving)")
        } catch {
            staging.discard()
            throw error
        }
        let written = try staging.commit()
        report.write = written
        clock.lap("swap")
        if let identity = LastBuild.identity(of: options.outputDirectory) {
            LastBuild(
                fingerprint: Self.fingerprint(
                    configuration, templates, publication.staticFiles, stateDigest, records),
                outputIdentity: identity, pageCount: report.pageCount, fileCount: written.totalFiles,
                itemCount: report.itemCount
            ).write(to: store.lastBuildFile)
        }
        report.timings = clock.laps
        return report
    }

    /// A staging folder for `output` (`SiteWriter.begin`), or why there is none.
    /// A folder that cannot be made there is `BuildError.outputFolder` (exit status 73), unlike a
    /// write that fails later (74).
    private static func stagingResult(_ output: URL) -> Result<SiteWriter.Staging, BuildError> {
        Result { () throws(SiteWriter.WriteError) in try SiteWriter().begin(output) }.mapError(BuildError.outputFolder)
    }

    /// Renders every page into `staging`, streamed: feeds are rendered in parallel (one child task
    /// per feed, as many at a time as there are cores), each task writing its own pages into the
    /// staging folder, so the whole site is never held in memory at once.
    /// Returns the number of HTML pages.
    private func render(
        _ site: Site, records: [FeedRecord], renderer: PageRenderer, into staging: inout SiteWriter.Staging
    ) async throws -> Int {
        var pages = 0
        // The shared pages (index, archive, status, the planet's feeds) in a few jobs, then one
        // job per feed; as many at a time as there are cores, each result written as it comes.
        enum Job {
            case shared(PageRenderer.SharedJob)
            case feed(SiteFeed)
        }
        let jobs = renderer.sharedJobs(site).map(Job.shared) + site.feeds.map(Job.feed)
        let limit = max(2, ProcessInfo.processInfo.activeProcessorCount)
        // Made once: making it per feed was quadratic at 10,000 feeds (it indexes every feed).
        let context = renderer.context(for: site)
        // Each job writes its own pages (on its own core) and hands back what it wrote.
        let area = staging.area
        try await withThrowingTaskGroup(of: (pages: Int, batch: SiteWriter.Staging.Area.Batch).self) { group in
            var next = 0
            func addTask() {
                let job = jobs[next]
                next += 1
                group.addTask {
                    let files =
                        switch job {
                        case .shared(let shared): try renderer.render(shared, in: context, records: records)
                        case .feed(let feed): try renderer.renderFeed(feed, in: context)
                        }
                    return (files.keys.filter { $0.hasSuffix(".html") }.count, try area.write(files))
                }
            }
            while next < min(limit, jobs.count) { addTask() }
            for try await (jobPages, batch) in group {
                pages += jobPages
                try staging.record(batch)
                if next < jobs.count { addTask() }
            }
        }
        return pages
    }

    /// Everything the output depends on besides the state: per-feed outcomes (the status page),
    /// templates, configuration, `now` when pages show it, and feedsite's version.
    private static func fingerprint(
        _ configuration: SiteConfiguration, _ templates: SiteTemplates, _ staticFiles: StaticFiles,
        _ stateDigest: String, _ records: [FeedRecord]
    ) -> String {
        var fingerprint = BuildFingerprint()
        fingerprint.add(Feedsite.version)
        fingerprint.add(String(reflecting: configuration))
        fingerprint.add(staticFiles.signature)
        for source in templates.sources {
            fingerprint.add(source.name)
            fingerprint.add(source.bytes)
        }
        fingerprint.add(stateDigest)
        for record in records {
            fingerprint.add(
                "\(record.run.status ?? 0) \(record.run.bytes ?? -1) \(record.newItemCount) \(record.failure ?? "")"
                    + " \(record.warnings) \(record.run.notices) \(record.run.info?.permanentRedirect?.absoluteString ?? "")"
            )
        }
        return fingerprint.text
    }

    /// The state directory: `--state`, else `state_dir` relative to the current directory.
    private func stateDirectory(_ configuration: SiteConfiguration) -> URL {
        options.stateDirectory ?? URL(fileURLWithPath: configuration.stateDirectory)
    }

    /// The saved state; when there is none, the state published by the live site (`--restore-state`
    /// or `state_url`), so a fresh CI runner keeps history and sends conditional requests.
    ///
    /// - Returns: the state, and why restoring failed when `--allow-fresh-state` let the build go on.
    /// - Throws: `StateError` when the state folder is refused; `BuildError.stateNotRestored` when
    ///   the published state could not be restored (anything but "there is none yet").
    private func loadState(
        _ configuration: SiteConfiguration, _ store: StateStore, _ diagnostics: inout [Diagnostic]
    ) async throws -> (SavedState, String?) {
        try store.checkFolder()
        let (loaded, warnings) = store.load(now: options.now)
        diagnostics += warnings.map { .warning($0) }
        if let loaded { return (loaded, nil) }
        if options.offline { throw BuildError.nothingSaved(stateFile: store.file.path) }
        guard let origin = options.restoreState ?? configuration.stateURL else { return (.none, nil) }
        switch try await restore(from: origin, configuration, store) {
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
            guard options.allowFreshState else { throw BuildError.stateNotRestored(origin: origin, reason: reason) }
            diagnostics.append(
                .error(
                    "cannot restore the state from \(origin): \(reason); building without the site's history (--allow-fresh-state): first-seen dates, kept items and validators start afresh"
                ))
            return (.none, reason)
        }
    }

    /// What restoring a published state gave.
    private enum Restore {
        case restored(SavedState, [String])
        /// Nothing is published there yet (HTTP 404, no such file).
        case absent(String)
        case failed(String)
    }

    /// Reads a published state from a URL (downloaded, streamed into the state folder) or a path,
    /// as untrusted input: every item's HTML is sanitised again and every value validated.
    private func restore(
        from origin: String, _ configuration: SiteConfiguration, _ store: StateStore
    ) async throws(StateError) -> Restore {
        let limit = options.stateSizeLimit
        let file: URL
        var download: URL?
        if let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            try store.createFolder()
            let temporary = store.directory.appendingPathComponent(".restore-\(getpid()).json")
            let agent = configuration.fetch.userAgent ?? FeedFetcher.Options.userAgent(baseURL: configuration.baseURL)
            let result = await StateDownload.download(
                url, to: temporary, limitBytes: limit, policy: configuration.fetch, userAgent: agent)
            switch result {
            case .success(.saved):
                file = temporary
                download = temporary
            case .success(.absent(let status)):
                try? FileManager.default.removeItem(at: temporary)
                return .absent("HTTP \(status)")
            case .failure(let failure):
                try? FileManager.default.removeItem(at: temporary)
                return .failed(failure.description)
            }
        } else {
            let path = origin.hasPrefix("file:") ? (URL(string: origin)?.path ?? origin) : origin
            guard FileManager.default.fileExists(atPath: path) else { return .absent("no such file") }
            file = URL(fileURLWithPath: path)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size <= limit else {
                return .failed("the file is larger than feedsite's \(limit >> 20) MB state limit")
            }
        }
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            if let download { try? FileManager.default.removeItem(at: download) }
            return .failed("cannot read \(file.path): \(error.localizedDescription)")
        }
        let decoded = StateFile.decode(data, origin: origin, trusted: false, now: options.now)
        let day = DayFormat.string(options.now)
        func keep(_ name: String) -> String {
            guard let download, let kept = store.place(download, as: name, keepingSource: false) else { return "" }
            return "; the download is kept as \(kept.path)"
        }
        switch decoded.failure {
        case .unreadable(let reason)?:
            return .failed("not a feedsite state file (\(reason))" + keep("restored-state.json.unreadable-\(day)"))
        case .newer(let version)?:
            return .failed(
                "it is state version \(version), newer than this feedsite reads (\(SiteState.currentVersion)): upgrade feedsite"
                    + keep("restored-state.v\(version).json"))
        case nil:
            break
        }
        var warnings = decoded.warnings
        if !warnings.isEmpty, download != nil {
            warnings.append("\(origin): skipped or repaired records" + keep("restored-state.json.damaged-\(day)"))
        }
        if let download { try? FileManager.default.removeItem(at: download) }
        return .restored(SavedState(state: decoded.state, store: store, now: options.now), warnings)
    }

    /// Fetch → parse → sanitise, in one task group whose children return outcomes, never throw, so
    /// a feed that fails cannot cancel or fail another. Results come back in `feeds.yml` order.
    ///
    /// Each feed is two child tasks: its fetch (network: at most `concurrency` at a time overall
    /// and `per_host` per host) and, once the body is in, its parse and sanitise (CPU: at most one
    /// per core). A fetch's slot is freed as soon as its body has arrived, so slow servers keep
    /// `concurrency` requests in flight while the cores work through what came back, instead of
    /// each slot waiting for its feed's CPU work as well. Bodies waiting for a core count against
    /// a second bound (`concurrency` again), so memory stays bounded when the network outpaces
    /// the CPU.
    func readFeeds(
        _ configuration: SiteConfiguration, _ state: SiteState, savedItemCounts: [String: Int]
    ) async throws -> [FeedRun] {
        let sources = configuration.feeds
        if options.offline {
            return sources.map { FeedRun(source: $0, outcome: .skipped) }
        }
        let skipped = Set(
            options.onlyNewFeeds ? sources.map(\.url.absoluteString).filter { state.feeds[$0] != nil } : [])
        let sanitiser = HTMLSanitiser()
        let parser = FeedParser()
        let limit = max(1, options.concurrency)
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let policy = configuration.fetch
        let defaultAgent =
            configuration.fetch.userAgent ?? FeedFetcher.Options.userAgent(baseURL: configuration.baseURL)
        let progress = options.progress
        let excerptLength = configuration.excerptLength
        let fetchOptions = FeedFetcher.Options(policy: configuration.fetch, concurrency: options.concurrency)
        /// What a child task hands back: a body to read, or the feed's final outcome.
        enum Step: Sendable {
            case fetched(Int, FetchStep)
            case read(Int, FeedRun)
        }
        return try await FeedFetcher.withFetcher(options: fetchOptions) { fetcher in
            await withTaskGroup(of: Step.self) { group in
                var runs = [FeedRun?](repeating: nil, count: sources.count)
                var pending = sources.indices.filter { !skipped.contains(sources[$0].url.absoluteString) }
                for index in sources.indices where skipped.contains(sources[index].url.absoluteString) {
                    runs[index] = FeedRun(source: sources[index], outcome: .skipped)
                }
                var inFlightPerHost: [String: Int] = [:]
                var fetching = 0
                var reading = 0
                /// Fetched bodies waiting for a core, in arrival order.
                var waiting: [(index: Int, fetched: FetchedFeed, request: FetchRequest)] = []
                var done = 0
                // Local files are not a host: they are read without a per-host limit.
                func host(_ index: Int) -> String {
                    sources[index].isLocal ? "" : sources[index].location.host?.lowercased() ?? ""
                }
                func hostLimit(_ index: Int) -> Int {
                    sources[index].isLocal ? .max : policy.perHostLimit(for: host(index))
                }
                func request(_ index: Int) -> FetchRequest {
                    let source = sources[index]
                    let saved = state.feeds[source.url.absoluteString]
                    // Validators only with saved items: a 304 is answered from those. A web page's feed,
                    // once found, is read directly (its validators are the feed's).
                    let validated = savedItemCounts[source.url.absoluteString, default: 0] > 0
                    return FetchRequest(
                        url: saved?.discoveredURL.flatMap(URL.init(string:)) ?? source.location,
                        etag: validated ? saved?.etag : nil, lastModified: validated ? saved?.lastModified : nil,
                        validatorURL: saved?.finalURL.flatMap(URL.init(string:)),
                        userAgent: source.userAgent ?? defaultAgent, headers: source.headers)
                }
                // Starts the first waiting feeds whose host has a free slot, in feeds.yml order, while
                // fewer than `limit` are fetching and fewer than `limit` bodies wait for a core.
                func startFetches() {
                    var position = 0
                    while fetching < limit && fetching + waiting.count < 2 * limit && position < pending.count {
                        let index = pending[position]
                        guard inFlightPerHost[host(index), default: 0] < hostLimit(index) else {
                            position += 1
                            continue
                        }
                        pending.remove(at: position)
                        fetching += 1
                        inFlightPerHost[host(index), default: 0] += 1
                        let source = sources[index]
                        let request = request(index)
                        group.addTask {
                            .fetched(index, await Self.fetch(source, request: request, fetcher: fetcher))
                        }
                    }
                }
                // Gives waiting bodies to free cores.
                func startReads() {
                    while reading < cores && !waiting.isEmpty {
                        let (index, fetched, request) = waiting.removeFirst()
                        reading += 1
                        let source = sources[index]
                        group.addTask {
                            .read(
                                index,
                                await Self.read(
                                    source, fetched: fetched, request: request, fetcher: fetcher, parser: parser,
                                    sanitiser: sanitiser, excerptLength: excerptLength))
                        }
                    }
                }
                func finish(_ index: Int, _ run: FeedRun) {
                    runs[index] = run
                    done += 1
                    progress?(done, sources.count)
                }
                startFetches()
                for await step in group {
                    switch step {
                    case .fetched(let index, let outcome):
                        fetching -= 1
                        inFlightPerHost[host(index), default: 1] -= 1
                        switch outcome {
                        case .body(let fetched, let request): waiting.append((index, fetched, request))
                        case .done(let run): finish(index, run)
                        }
                    case .read(let index, let run):
                        reading -= 1
                        finish(index, run)
                    }
                    if !Task.isCancelled {
                        startReads()
                        startFetches()
                    }
                }
                return sources.indices.map { index in
                    runs[index] ?? FeedRun(source: sources[index], outcome: .failed(FetchError.cancelled.description))
                }
            }
        }
    }

    /// A feed's network half: a body to read, or its final outcome (304, failure).
    enum FetchStep: Sendable {
        /// The body, and the request that got it (its URL may differ from the source's after a refetch).
        case body(FetchedFeed, FetchRequest)
        case done(FeedRun)
    }

    /// Fetches one feed (downloads it, or reads its local file). A 304 reuses the saved items
    /// without parsing (validators are only sent when there are saved items). When the request is
    /// for the feed a web page linked to and that feed is gone (404, 410), the page is read again
    /// for the feed it links to now.
    static func fetch(_ source: FeedSource, request: FetchRequest, fetcher: FeedFetcher) async -> FetchStep {
        let isDiscovered = request.url != source.location
        switch await fetcher.fetch(request) {
        case .success(.fetched(let value)):
            return .body(value, request)
        case .success(.notModified(let info)):
            return .done(
                FeedRun(
                    source: source, outcome: .notModified, info: info,
                    notices: isDiscovered ? [webPageNotice(source, feed: request.url)] : [],
                    discoveredURL: isDiscovered ? request.url : nil))
        case .failure(let error) where isDiscovered && [404, 410].contains(error.httpStatus):
            var page = request
            page.url = source.location
            page.etag = nil
            page.lastModified = nil
            page.validatorURL = nil
            return await fetch(source, request: page, fetcher: fetcher)
        case .failure(let error):
            return .done(
                FeedRun(
                    source: source, outcome: .failed(error.description), status: error.httpStatus,
                    notices: isDiscovered ? [webPageNotice(source, feed: request.url)] : [],
                    discoveredURL: isDiscovered ? request.url : nil))
        }
    }

    /// The advice repeated every build while `feeds.yml` names a web page instead of its feed.
    static func webPageNotice(_ source: FeedSource, feed: URL) -> String {
        "\(source.url.absoluteString) is a web page; its feed is \(feed.absoluteString) — use that"
    }

    /// One fetched feed, read: parsed and sanitised. When the URL serves a web page instead of a
    /// feed, `FeedFetcher.read` follows the page's `<link rel="alternate">` to its feed, and the
    /// user is told to put that URL in `feeds.yml`.
    static func read(
        _ source: FeedSource, fetched: FetchedFeed, request: FetchRequest, fetcher: FeedFetcher,
        parser: FeedParser, sanitiser: HTMLSanitiser, excerptLength: Int
    ) async -> FeedRun {
        if Task.isCancelled { return FeedRun(source: source, outcome: .failed(FetchError.cancelled.description)) }
        // Set when the feed read is not the `feeds.yml` URL but the feed its web page links to.
        let requested = request.url != source.location ? request.url : nil
        switch await fetcher.read(fetched, request: request, parser: parser) {
        case .read(let document):
            let body = document.fetched
            let discoveredURL = document.discoveredFeedURL ?? requested
            let read = ReadFeed(
                feed: document.feed, finalURL: body.finalURL, sanitiser: sanitiser, excerptLength: excerptLength)
            return FeedRun(
                source: source, outcome: .fresh(read), info: body.info, bytes: body.body.count, etag: body.etag,
                lastModified: body.lastModified,
                notices: discoveredURL.map { [webPageNotice(source, feed: $0)] } ?? [], discoveredURL: discoveredURL)
        case .notModified(let info, let feedURL):
            return FeedRun(
                source: source, outcome: .notModified, info: info, notices: [webPageNotice(source, feed: feedURL)],
                discoveredURL: feedURL)
        case .failed(let reason, let info, let bytes):
            return FeedRun(source: source, outcome: .failed(reason), info: info, bytes: bytes)
        }
    }
}

/// Wall time per stage, for `--verbose` and the benchmark: measure, don't guess.
struct StageClock {
    private var last = ContinuousClock.now
    private(set) var laps: [(stage: String, duration: Duration)] = []

    mutating func lap(_ stage: String) {
        let now = ContinuousClock.now
        laps.append((stage, now - last))
        last = now
    }
}
