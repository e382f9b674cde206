import Foundation

/// What reading a fetched body came to.
package enum FeedReading: Sendable {
    case read(FeedDocument)
    /// The source is a web page whose feed answered 304 to the validators saved from it.
    case notModified(FetchInfo, discoveredFeedURL: URL)
    /// Not a feed, and no feed found behind it. `info` and `bytes` describe the last response
    /// received.
    case failed(FeedFailure, info: FetchInfo, bytes: Int)
}
