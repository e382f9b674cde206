import Foundation

/// The whole pipeline, one line per stage:
/// load → fetch → parse → sanitise → model → render → write.
///
/// Start reading here. Each stage lives in the folder of the same name; only Fetch and Write do
/// I/O (plus loading the inputs: `feeds.yml` and `Templates/`).
public struct SiteGenerator: Sendable {
    /// Where things are and how hard to work.
    public struct Options: Sendable {
        public var configFile: URL
        public var outputDirectory: URL
        public var templatesDirectory: URL
        /// Feeds fetched (and parsed, and sanitised) at the same time.
        public var concurrency: Int
        public var timeoutSeconds: Int
        public var maxBodyBytes: Int
        /// "Now", injected so builds are reproducible and testable.
        public var now: Date

        public init(
            configFile: URL, outputDirectory: URL, templatesDirectory: URL, concurrency: Int = 16,
            timeoutSeconds: Int = 30, maxBodyBytes: Int = 10_000_000, now: Date = Date()
        ) {
            self.configFile = configFile
            self.outputDirectory = outputDirectory
            self.templatesDirectory = templatesDirectory
            self.concurrency = concurrency
            self.timeoutSeconds = timeoutSeconds
            self.maxBodyBytes = maxBodyBytes
            self.now = now
        }
    }

    public var options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Builds the site and swaps it into place.
    ///
    /// - Throws: `ConfigurationError` or `TemplateError` (nothing was fetched), `BuildError` when
    ///   no feed could be read (the old site is kept), `SiteWriter.WriteError`.
    public func build() async throws -> BuildReport {
        let (configuration, configWarnings) = try SiteConfiguration.load(contentsOf: options.configFile)
        let templates = try SiteTemplates.load(from: options.templatesDirectory)
        let results = try await readFeeds(configuration)
        let site = Site.assemble(configuration: configuration, feeds: results.compactMap { try? $0.get() })
        var report = makeReport(configuration, results, site, configWarnings)
        guard report.failedFeedCount < report.feeds.count else { throw BuildError.nothingToPublish(report) }
        let files = try PageRenderer(templates: templates, now: options.now).render(site)
        report.pageCount = files.keys.filter { $0.hasSuffix(".html") }.count
        report.write = try SiteWriter().write(files, to: options.outputDirectory)
        return report
    }

    /// Fetch → parse → sanitise, one child task per feed in one task group, at most
    /// `concurrency` at a time. Children return `Result`s, so a feed that fails (or crashes the
    /// parser with bad input) cannot cancel or fail another. Results come back in `feeds.yml` order.
    func readFeeds(_ configuration: SiteConfiguration) async throws -> [Result<ReadFeed, FeedFailure>] {
        let fetchOptions = FeedFetcher.Options(
            timeoutSeconds: options.timeoutSeconds, maxBodyBytes: options.maxBodyBytes,
            userAgent: FeedFetcher.Options.userAgent(baseURL: configuration.baseURL))
        let sanitiser = HTMLSanitiser()
        let parser = FeedParser()
        let sources = configuration.feeds
        let limit = max(1, options.concurrency)
        return try await FeedFetcher.withFetcher(options: fetchOptions) { fetcher in
            await withTaskGroup(of: (Int, Result<ReadFeed, FeedFailure>).self) { group in
                var results = [Result<ReadFeed, FeedFailure>?](repeating: nil, count: sources.count)
                var next = 0
                func addTask() {
                    let index = next
                    let source = sources[index]
                    next += 1
                    group.addTask {
                        let result = await Self.read(
                            source, fetcher: fetcher, parser: parser, sanitiser: sanitiser,
                            excerptLength: configuration.excerptLength)
                        return (index, result)
                    }
                }
                while next < min(limit, sources.count) { addTask() }
                for await (index, result) in group {
                    results[index] = result
                    if next < sources.count && !Task.isCancelled { addTask() }
                }
                return results.enumerated().map { index, result in
                    result ?? .failure(FeedFailure(source: sources[index], reason: FetchError.cancelled.description))
                }
            }
        }
    }

    /// One feed, start to finish. Pure except for the fetch.
    ///
    /// When the URL serves a web page instead of a feed, the page's `<link rel="alternate">` feed is
    /// fetched instead and the user is told to put that URL in `feeds.yml`.
    static func read(
        _ source: FeedSource, fetcher: FeedFetcher, parser: FeedParser, sanitiser: HTMLSanitiser, excerptLength: Int
    ) async -> Result<ReadFeed, FeedFailure> {
        var fetched: FetchedFeed
        switch await fetcher.fetch(source.url) {
        case .success(let value): fetched = value
        case .failure(let error): return .failure(FeedFailure(source: source, reason: error.description))
        }
        if Task.isCancelled { return .failure(FeedFailure(source: source, reason: FetchError.cancelled.description)) }
        var notices: [String] = []
        let feed: Feed
        do {
            feed = try parser.parse(fetched.body, url: fetched.finalURL, contentType: fetched.contentType)
        } catch let error where error.isHTMLPage {
            let candidates = FeedParser.discoverFeedLinks(inHTML: fetched.body, baseURL: fetched.finalURL)
            guard let feedURL = candidates.first else {
                return .failure(
                    FeedFailure(source: source, reason: "\(error.description); the page links to no feed either"))
            }
            switch await fetcher.fetch(feedURL) {
            case .success(let value): fetched = value
            case .failure(let fetchError):
                return .failure(
                    FeedFailure(
                        source: source,
                        reason: "the URL is a web page; its feed \(feedURL.absoluteString) failed: \(fetchError)"))
            }
            do {
                feed = try parser.parse(fetched.body, url: fetched.finalURL, contentType: fetched.contentType)
            } catch {
                return .failure(
                    FeedFailure(
                        source: source,
                        reason: "the URL is a web page; its feed \(feedURL.absoluteString) failed: \(error.description)"
                    ))
            }
            notices.append(
                "\(source.url.absoluteString) is a web page; its feed is \(feedURL.absoluteString) — use that")
        } catch {
            return .failure(FeedFailure(source: source, reason: error.description))
        }
        var read = ReadFeed(
            source: source, feed: feed, finalURL: fetched.finalURL, sanitiser: sanitiser, excerptLength: excerptLength)
        read.notices = notices
        return .success(read)
    }

    private func makeReport(
        _ configuration: SiteConfiguration, _ results: [Result<ReadFeed, FeedFailure>], _ site: Site,
        _ configWarnings: [Diagnostic]
    ) -> BuildReport {
        let file = options.configFile.lastPathComponent
        var diagnostics = configWarnings
        var outcomes: [BuildReport.FeedOutcome] = []
        for (source, result) in zip(configuration.feeds, results) {
            let label = "feed '\(source.name ?? source.url.host ?? "?")' (\(source.url.absoluteString))"
            switch result {
            case .success(let read):
                outcomes.append(.init(source: source, itemCount: read.items.count, failure: nil))
                for notice in read.notices {
                    diagnostics.append(.warning(file: file, line: source.line, notice))
                }
                for warning in read.warnings {
                    diagnostics.append(.warning(file: file, line: source.line, "\(label): \(warning)"))
                }
                if read.items.isEmpty {
                    diagnostics.append(.warning(file: file, line: source.line, "\(label): the feed has no items"))
                }
            case .failure(let failure):
                outcomes.append(.init(source: source, itemCount: nil, failure: failure.reason))
                diagnostics.append(.warning(file: file, line: source.line, "\(label): \(failure.reason)"))
            }
        }
        return BuildReport(
            feeds: outcomes, diagnostics: diagnostics, itemCount: site.items.count, pageCount: 0, write: nil,
            outputDirectory: options.outputDirectory)
    }
}

/// Why one feed produced nothing this run.
public struct FeedFailure: Error, Sendable, Hashable {
    public var source: FeedSource
    /// Completes `feed 'Name' (url): …`.
    public var reason: String
}
