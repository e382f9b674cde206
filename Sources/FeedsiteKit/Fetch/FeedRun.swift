import Foundation

/// What happened to one feed this run.
package struct FeedRun: Sendable, Hashable {
    package enum Outcome: Sendable, Hashable {
        /// New content was fetched and read.
        case fresh(ReadFeed)
        /// HTTP 304: nothing changed since last time.
        case notModified
        /// Fetch, HTTP or parse error.
        case failed(FeedFailure)
        /// `--offline`: not fetched; the saved items are used.
        case skipped
    }

    package var source: FeedSource
    package var outcome: Outcome
    /// What the final response said (absent when no response arrived).
    package var info: FetchInfo?
    /// The HTTP status of the last response, also for failed ones (nil when none arrived).
    package var status: Int?
    /// Bytes received (decompressed).
    package var bytes: Int?
    package var etag: String?
    package var lastModified: String?
    /// Advice about the `feeds.yml` entry itself (printed after `feeds.yml:LINE: `), such as
    /// "… is a web page; its feed is … — use that".
    package var notices: [String]
    /// When the `feeds.yml` URL is a web page: the feed it links to, which this run read.
    package var discoveredURL: URL?
    /// The feed's avatar this run; nil when the build has no avatar step (the saved one is kept).
    package var avatar: AvatarRun?

    package init(
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
