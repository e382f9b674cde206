import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// Fetches and reads every feed of a build: fetch → parse → sanitise, in one task group whose
/// children return outcomes and never throw, so a feed that fails cannot cancel or fail another.
/// `FeedSchedule` decides what starts when; this runs its actions. Results come back in
/// `feeds.yml` order.
struct FeedReader: Sendable {
    let sources: [FeedSource]
    /// Per feed, what to ask its server (or the file system) for.
    let requests: [FetchRequest]
    /// Feeds that keep their saved state without being fetched.
    let skipped: Set<Int>
    let fetchOptions: FeedFetcher.Options
    /// Bodies parsed and sanitised at once: one per core.
    let readLimit: Int
    let excerptLength: Int
    /// Called as feeds finish: (done, total).
    let progress: (@Sendable (Int, Int) -> Void)?
    /// The avatar step, begun for each feed as soon as it is read; nil: none (every feed keeps its
    /// saved avatar).
    let avatars: AvatarFetcher?
    /// Saved avatars and channels, for the avatar step.
    let savedFeeds: [String: FeedState]
    /// Per feed, the `User-Agent` its icon is asked for with (the feed's own headers are not sent to
    /// an icon's host).
    let userAgents: [String]

    /// - Parameters:
    ///   - state: the saved state: validators, and the feed a web page was found to link.
    ///   - savedItemCounts: saved items per feed (validators are sent only for feeds that have some).
    ///   - concurrency: requests at once (`--concurrency`).
    ///   - offline: no network: only local feed files are read (`--offline`, `serve` re-renders).
    ///   - onlyNewFeeds: fetch only feeds without saved state (`feedsite serve` after a `feeds.yml` edit).
    ///   A local feed file is always read: that costs no network, and an unchanged one is not parsed.
    init(
        configuration: SiteConfiguration, state: SiteState, savedItemCounts: [String: Int], concurrency: Int,
        offline: Bool = false, onlyNewFeeds: Bool, progress: (@Sendable (Int, Int) -> Void)?,
        avatars: AvatarFetcher? = nil
    ) {
        let sources = configuration.feeds
        let defaultAgent =
            configuration.fetch.userAgent ?? FeedFetcher.Options.userAgent(baseURL: configuration.baseURL)
        self.sources = sources
        self.requests = sources.map { source in
            let saved = state.feeds[source.url.absoluteString]
            // Validators only with saved items: a 304 is answered from those. A web page's feed,
            // once found, is read directly (its validators are the feed's).
            let validated = savedItemCounts[source.url.absoluteString, default: 0] > 0
            return FetchRequest(
                url: saved?.discoveredURL(onHostOf: source.location) ?? source.location,
                etag: validated ? saved?.etag : nil, lastModified: validated ? saved?.lastModified : nil,
                validatorURL: saved?.finalURL.flatMap(URL.init(string:)),
                userAgent: source.userAgent ?? defaultAgent, headers: source.headers)
        }
        self.skipped = Set(
            sources.indices.filter { index in
                !sources[index].isLocal
                    && (offline || (onlyNewFeeds && state.feeds[sources[index].url.absoluteString] != nil))
            })
        self.fetchOptions = FeedFetcher.Options(policy: configuration.fetch, concurrency: concurrency)
        self.readLimit = max(1, ProcessInfo.processInfo.activeProcessorCount)
        self.excerptLength = configuration.excerptLength
        self.progress = progress
        self.avatars = avatars
        self.savedFeeds = avatars == nil ? [:] : state.feeds
        self.userAgents = sources.map { $0.userAgent ?? defaultAgent }
    }

    /// Each feed's host and its `per_host` limit; a local file is not a host.
    var hosts: [FeedSchedule.Host?] {
        sources.map { source in
            guard !source.isLocal else { return nil }
            let name = source.location.host?.lowercased() ?? ""
            return FeedSchedule.Host(name: name, limit: fetchOptions.policy.perHostLimit(for: name))
        }
    }

    /// Every feed's outcome, in `feeds.yml` order; a feed the build was cancelled before finishing
    /// failed as `FetchError.cancelled`.
    func readAll() async throws -> [FeedRun] {
        try await FeedFetcher.withFetcher(options: fetchOptions) { fetcher in
            guard let avatars else { return await readAll(with: fetcher) { _, _ in } }
            // Each feed's icon is asked for as soon as the feed is read, beside the feeds still
            // being fetched, not after the slowest of them.
            let (jobs, queue) = AsyncStream.makeStream(of: (Int, AvatarFetcher.Job).self)
            async let found = avatars.avatars(for: jobs, count: sources.count, fetcher: fetcher)
            var runs = await readAll(with: fetcher) { index, run in queue.yield((index, avatarJob(run, at: index))) }
            queue.finish()
            for (index, avatar) in await found.enumerated() where avatar != nil { runs[index].avatar = avatar }
            return runs
        }
    }

    /// A feed's inputs to the avatar step: its image and home page as this run read them (or as
    /// saved, after a 304), and whether its icon may be downloaded (a web feed that was fetched).
    func avatarJob(_ run: FeedRun, at index: Int) -> AvatarFetcher.Job {
        let saved = savedFeeds[run.source.url.absoluteString]
        let channel: ChannelInfo?
        let mayFetch: Bool
        switch run.outcome {
        case .fresh(let read):
            (channel, mayFetch) = (read.channel, !run.source.isLocal)
        case .notModified:
            (channel, mayFetch) = (saved?.channel, !run.source.isLocal)
        case .failed, .skipped:
            (channel, mayFetch) = (saved?.channel, false)
        }
        return AvatarFetcher.Job(
            mayFetch: mayFetch, image: channel?.image.flatMap(PageRenderer.httpURL),
            siteLink: channel?.siteLink.flatMap(PageRenderer.httpURL),
            feedHost: (run.info?.finalURL ?? run.discoveredURL ?? run.source.location).host, saved: saved?.avatar,
            userAgent: userAgents[index])
    }

    /// What a child task hands back: a body to read, or the feed's final outcome.
    private enum Step: Sendable {
        case fetched(Int, FetchStep)
        case read(Int, FeedRun)
    }

    /// - Parameter finished: called once for every feed with its final outcome, as soon as it has one.
    private func readAll(
        with fetcher: FeedFetcher, finished: (Int, FeedRun) -> Void
    ) async -> [FeedRun] {
        let parser = FeedParser()
        let sanitiser = HTMLSanitiser()
        return await withTaskGroup(of: Step.self) { group in
            var schedule = FeedSchedule(
                hosts: hosts, skipping: skipped, fetchLimit: fetchOptions.concurrency, readLimit: readLimit)
            var runs = sources.indices.map {
                skipped.contains($0) ? FeedRun(source: sources[$0], outcome: .skipped) : nil
            }
            for (index, run) in runs.enumerated() { if let run { finished(index, run) } }
            /// Fetched bodies waiting to be read, and the requests that got them.
            var bodies: [Int: (FetchedFeed, FetchRequest)] = [:]
            func finish(_ index: Int, _ run: FeedRun) {
                runs[index] = run
                finished(index, run)
                progress?(schedule.finishedCount, sources.count)
            }
            running: while true {
                if Task.isCancelled { schedule.cancel() }
                switch schedule.next() {
                case .fetch(let index):
                    let (source, request) = (sources[index], requests[index])
                    group.addTask { .fetched(index, await Self.fetch(source, request: request, fetcher: fetcher)) }
                case .read(let index):
                    // Always there: the schedule reads only bodies reported as arrived.
                    guard case let (fetched, request)? = bodies.removeValue(forKey: index) else { continue }
                    let source = sources[index]
                    group.addTask {
                        .read(
                            index,
                            await Self.read(
                                source, fetched: fetched, request: request, fetcher: fetcher, parser: parser,
                                sanitiser: sanitiser, excerptLength: excerptLength))
                    }
                case .wait:
                    guard let step = await group.next() else { break running }
                    switch step {
                    case .fetched(let index, .body(let fetched, let request)):
                        bodies[index] = (fetched, request)
                        schedule.fetchFinished(index, hasBody: true)
                    case .fetched(let index, .done(let run)):
                        schedule.fetchFinished(index, hasBody: false)
                        finish(index, run)
                    case .read(let index, let run):
                        schedule.readFinished(index)
                        finish(index, run)
                    }
                case .done:
                    break running
                }
            }
            return sources.indices.map { index in
                if let run = runs[index] { return run }
                let cancelled = FeedRun(source: sources[index], outcome: .failed(.fetch(.cancelled)))
                finished(index, cancelled)
                return cancelled
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
                    source: source, outcome: .failed(.fetch(error)), status: error.httpStatus,
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
        if Task.isCancelled { return FeedRun(source: source, outcome: .failed(.fetch(.cancelled))) }
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
        case .failed(let failure, let info, let bytes):
            return FeedRun(source: source, outcome: .failed(failure), info: info, bytes: bytes)
        }
    }
}
