import Foundation

/// What happened to one feed this run.
public struct FeedRun: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// New content was fetched and read.
        case fresh(ReadFeed)
        /// HTTP 304: nothing changed since last time.
        case notModified
        /// Fetch, HTTP or parse error.
        case failed(FeedFailure)
        /// `--offline`: not fetched; the saved items are used.
        case skipped
    }

    public var source: FeedSource
    public var outcome: Outcome
    /// What the final response said (absent when no response arrived).
    public var info: FetchInfo?
    /// The HTTP status of the last response, also for failed ones (nil when none arrived).
    public var status: Int?
    /// Bytes received (decompressed).
    public var bytes: Int?
    public var etag: String?
    public var lastModified: String?
    /// Advice about the `feeds.yml` entry itself (printed after `feeds.yml:LINE: `), such as
    /// "… is a web page; its feed is … — use that".
    public var notices: [String]
    /// When the `feeds.yml` URL is a web page: the feed it links to, which this run read.
    public var discoveredURL: URL?

    public init(
        source: FeedSource, outcome: Outcome, info: FetchInfo? = nil, status: Int? = nil, bytes: Int? = nil,
        etag: String? = nil, lastModified: String? = nil, notices: [String] = [], discoveredURL: URL? = nil
    ) {
        self.discoveredURL = discoveredURL
        self.source = source
        self.outcome = outcome
        self.info = info
        self.status = status ?? info?.status
        self.bytes = bytes
        self.etag = etag
        self.lastModified = lastModified
        self.notices = notices
    }
}
