import FeedsiteParse
import Foundation

extension FeedFetcher {
    /// Parses a fetched body as a feed. When the body is a web page, the first http(s) feed it
    /// advertises with `<link rel="alternate">` is fetched with the same request (its headers, and
    /// its validators, which go to the URL that issued them) and parsed instead.
    ///
    /// The one place feed discovery happens: `feedsite build` and `feedsite parse` both read
    /// through it. A page never leads to a local file: only http(s) links are followed.
    package func read(_ fetched: FetchedFeed, request: FetchRequest, parser: FeedParser) async -> FeedReading {
        let pageError: FeedParseError
        do {
            let feed = try parser.parse(fetched.body, url: fetched.finalURL, contentType: fetched.contentType)
            return .read(FeedDocument(feed: feed, fetched: fetched, discoveredFeedURL: nil))
        } catch let error where error.isHTMLPage {
            pageError = error
        } catch {
            return .failed(.parse(error), info: fetched.info, bytes: fetched.body.count)
        }
        let candidates = FeedParser.discoverFeedLinks(inHTML: fetched.body, baseURL: fetched.finalURL)
        guard let feedURL = candidates.first(where: { ["http", "https"].contains($0.scheme?.lowercased() ?? "") })
        else {
            return .failed(
                .pageWithoutFeed(page: pageError, linked: candidates.first), info: fetched.info,
                bytes: fetched.body.count)
        }
        var discovered = request
        discovered.url = feedURL
        if discovered.validatorURL == nil { discovered.validatorURL = request.url }
        switch await fetch(discovered) {
        case .success(.fetched(let feedResponse)):
            do {
                let feed = try parser.parse(
                    feedResponse.body, url: feedResponse.finalURL, contentType: feedResponse.contentType)
                return .read(FeedDocument(feed: feed, fetched: feedResponse, discoveredFeedURL: feedURL))
            } catch {
                return .failed(
                    .linkedFeedNotRead(feedURL, error), info: feedResponse.info, bytes: feedResponse.body.count)
            }
        case .success(.notModified(let info)):
            return .notModified(info, discoveredFeedURL: feedURL)
        case .failure(let error):
            return .failed(.linkedFeedNotFetched(feedURL, error), info: fetched.info, bytes: fetched.body.count)
        }
    }
}
