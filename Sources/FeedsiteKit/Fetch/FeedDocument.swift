import FeedsiteParse
import Foundation

/// A feed as read from what its source served: the document itself, or, when the source served a
/// web page, the feed that page advertises.
public struct FeedDocument: Sendable {
    public var feed: Feed
    /// The bytes the feed was parsed from, and what the response said about them.
    public var fetched: FetchedFeed
    /// Set when the source served a web page: the feed the page links (`<link rel="alternate">`),
    /// which was fetched and read instead.
    public var discoveredFeedURL: URL?
}
