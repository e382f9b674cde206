import FeedsiteParse
import Foundation

/// A feed as read from what its source served: the document itself, or, when the source served a
/// web page, the feed that page advertises.
package struct FeedDocument: Sendable {
    package var feed: Feed
    /// The bytes the feed was parsed from, and what the response said about them.
    package var fetched: FetchedFeed
    /// Set when the source served a web page: the feed the page links (`<link rel="alternate">`),
    /// which was fetched and read instead.
    package var discoveredFeedURL: URL?
}
