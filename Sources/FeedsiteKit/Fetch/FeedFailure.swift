import FeedsiteParse
import Foundation

/// Why a feed gave the site nothing this run, kept typed from the stage that found it to the
/// report: the status page, `status.json`, the build's warnings and the failure policy read it.
/// The text completes the sentence `warning: feed 'Name' (url): …`.
package enum FeedFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// It could not be downloaded (or, for a local source, read).
    case fetch(FetchError)
    /// What was downloaded is not a feed feedsite can read.
    case parse(FeedParseError)
    /// The source is a web page (`page` says where it was found to be one) that links no http(s)
    /// feed; `linked` is the first feed it links, when that is not an http(s) URL.
    case pageWithoutFeed(page: FeedParseError, linked: URL?)
    /// The source is a web page; the feed it links could not be downloaded.
    case linkedFeedNotFetched(URL, FetchError)
    /// The source is a web page; the feed it links is not a feed feedsite can read.
    case linkedFeedNotRead(URL, FeedParseError)
    /// The feed was read but holds no items now, where the saved state had `previousCount`: far
    /// more often a broken export than a blog that deleted every post, so the items are kept.
    case emptied(previousCount: Int)

    /// The host whose name did not resolve, when that is why the feed failed.
    var unresolvedHost: String? {
        switch self {
        case .fetch(.cannotResolve(let host)), .linkedFeedNotFetched(_, .cannotResolve(let host)): host
        default: nil
        }
    }

    package var description: String {
        switch self {
        case .fetch(let error):
            return error.description
        case .parse(let error):
            return error.description
        case .pageWithoutFeed(let page, let linked):
            let position = page.line.map { "line \($0): " } ?? ""
            let reason =
                linked.map { "the feed it links (\($0.absoluteString)) is not an http(s) URL" }
                ?? "it links to no feed either"
            return "\(position)the document is an HTML page, not a feed, and \(reason); check the feed's address"
        case .linkedFeedNotFetched(let feed, let error):
            return "this is a web page; its feed \(feed.absoluteString) could not be fetched: \(error)"
        case .linkedFeedNotRead(let feed, let error):
            return "this is a web page; its feed \(feed.absoluteString) is not a readable feed either: \(error)"
        case .emptied(let previousCount):
            return "the feed has no items now (it had \(previousCount))"
        }
    }
}
