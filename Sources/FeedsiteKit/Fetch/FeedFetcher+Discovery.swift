import FeedsiteCompression
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
            let feed = try parse(fetched, request: request, parser: parser)
            return .read(FeedDocument(feed: feed, fetched: fetched, discoveredFeedURL: nil))
        } catch let error where error.isHTMLPage {
            pageError = error
        } catch {
            // A local file's text is not quoted: the failure is published on the status page.
            let failure = fetched.finalURL.isFileURL ? error.withoutQuotedText : error
            return .failed(.parse(failure), info: fetched.info, bytes: fetched.body.count)
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
        if discovered.headersOrigin == nil { discovered.headersOrigin = request.url }
        switch await fetch(discovered) {
        case .success(.fetched(let feedResponse)):
            do {
                let feed = try parse(feedResponse, request: discovered, parser: parser)
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

    /// Parses a body (`parseBody`), with what the transfer got wrong (`FetchedFeed.warnings`: a
    /// body cut off, a wrong `Content-Encoding`) first among the feed's warnings, or in its error.
    private func parse(_ fetched: FetchedFeed, request: FetchRequest, parser: FeedParser) throws(FeedParseError) -> Feed
    {
        do {
            var feed = try parseBody(fetched, request: request, parser: parser)
            feed.warnings.insert(contentsOf: fetched.warnings, at: 0)
            return feed
        } catch {
            // What went wrong in transfer (a body cut off) is most likely why it does not read.
            guard !fetched.warnings.isEmpty else { throw error }
            var error = error
            error.message += " (\(fetched.warnings.joined(separator: "; ")))"
            throw error
        }
    }

    /// Parses a body, decompressing it first (once, through `Decompression`, under the same body
    /// limit) when it is gzip or zlib data the response did not declare: a `.gz` file served as the
    /// feed, or a response compressed twice. The feed is read, with a warning that names the
    /// server's mistake. A local `.gz` or `.z` file is read the same way, without the warning (a
    /// compressed file is no mistake).
    private func parseBody(
        _ fetched: FetchedFeed, request: FetchRequest, parser: FeedParser
    ) throws(FeedParseError) -> Feed {
        guard let compression = FeedParser.compression(of: fetched.body) else {
            return try parser.parse(fetched.body, url: fetched.finalURL, contentType: fetched.contentType)
        }
        let isFile = fetched.finalURL.isFileURL
        let what =
            isFile
            ? "the file is \(compression)-compressed data"
            : "the document is \(compression)-compressed data that the server did not declare (no Content-Encoding:"
                + " \(compression.contentEncoding))"
        let limit = min(request.maxBodyBytes ?? .max, options.policy.maxBodyBytes)
        switch Decompression.decompress(fetched.body, compression == .gzip ? .gzip : .deflate, limitBytes: limit) {
        case .success(let output):
            let shortfall = output.shortfall.map {
                "\($0 == .cutOff ? "cut off" : "damaged") after \(output.body.count) bytes of the feed"
            }
            var feed: Feed
            do {
                feed = try parser.parse(output.body, url: fetched.finalURL, contentType: fetched.contentType)
            } catch {
                guard let shortfall else { throw error }
                var error = error
                error.message = "\(what), \(shortfall), and what arrived does not read: \(error.message)"
                throw error
            }
            var warnings: [String] = []
            if !isFile {
                warnings.append(
                    "\(what): read after decompressing it; the server should declare the encoding or send the"
                        + " feed uncompressed")
            }
            if let shortfall {
                warnings.append(
                    "the \(isFile ? "file" : "document")'s \(compression) data is \(shortfall): read as far as it"
                        + " goes, so later items may be missing")
            }
            feed.warnings.insert(contentsOf: warnings, at: 0)
            return feed
        case .failure(.tooLarge(let limit)):
            throw FeedParseError(
                message: "\(what), and decompressed it is larger than the \(FetchError.megabytes(limit)) limit"
                    + " (max_body_mb)")
        case .failure(.damaged), .failure(.notCompressed):
            throw FeedParseError(message: "\(what), and it does not decompress: it is damaged or cut off")
        }
    }
}
