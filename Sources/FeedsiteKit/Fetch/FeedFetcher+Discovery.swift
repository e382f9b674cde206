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

/// What reading a fetched body came to.
public enum FeedReading: Sendable {
    case read(FeedDocument)
    /// The source is a web page whose feed answered 304 to the validators saved from it.
    case notModified(FetchInfo, discoveredFeedURL: URL)
    /// Not a feed, and no feed found behind it: the text completes `feed 'Name' (url): …`.
    /// `info` and `bytes` describe the last response received.
    case failed(String, info: FetchInfo, bytes: Int)
}

extension FeedFetcher {
    /// Parses a fetched body as a feed. When the body is a web page, the first http(s) feed it
    /// advertises with `<link rel="alternate">` is fetched with the same request (its headers, and
    /// its validators, which go to the URL that issued them) and parsed instead.
    ///
    /// The one place feed discovery happens: `feedsite build` and `feedsite parse` both read
    /// through it. A page never leads to a local file: only http(s) links are followed.
    public func read(_ fetched: FetchedFeed, request: FetchRequest, parser: FeedParser) async -> FeedReading {
        let pageError: FeedParseError
        do {
            let feed = try parser.parse(fetched.body, url: fetched.finalURL, contentType: fetched.contentType)
            return .read(FeedDocument(feed: feed, fetched: fetched, discoveredFeedURL: nil))
        } catch let error where error.isHTMLPage {
            pageError = error
        } catch {
            return .failed(error.description, info: fetched.info, bytes: fetched.body.count)
        }
        let candidates = FeedParser.discoverFeedLinks(inHTML: fetched.body, baseURL: fetched.finalURL)
        guard let feedURL = candidates.first(where: { ["http", "https"].contains($0.scheme?.lowercased() ?? "") })
        else {
            let reason =
                candidates.isEmpty
                ? "the page links to no feed either"
                : "the feed the page links (\(candidates[0].absoluteString)) is not an http(s) URL"
            return .failed("\(pageError.description); \(reason)", info: fetched.info, bytes: fetched.body.count)
        }
        var discovered = request
        discovered.url = feedURL
        if discovered.validatorURL == nil { discovered.validatorURL = request.url }
        let page = "the URL is a web page; its feed \(feedURL.absoluteString)"
        switch await fetch(discovered) {
        case .success(.fetched(let feedResponse)):
            do {
                let feed = try parser.parse(
                    feedResponse.body, url: feedResponse.finalURL, contentType: feedResponse.contentType)
                return .read(FeedDocument(feed: feed, fetched: feedResponse, discoveredFeedURL: feedURL))
            } catch {
                return .failed(
                    "\(page) is not a readable feed either: \(error)", info: feedResponse.info,
                    bytes: feedResponse.body.count)
            }
        case .success(.notModified(let info)):
            return .notModified(info, discoveredFeedURL: feedURL)
        case .failure(let error):
            return .failed("\(page) could not be fetched: \(error)", info: fetched.info, bytes: fetched.body.count)
        }
    }
}
