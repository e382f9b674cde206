import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// Downloads feeds over HTTP(S). The only stage that talks to the network.
///
/// One `FeedFetcher` wraps one `HTTPClient`, created and shut down by `withFetcher`, so the client
/// can never outlive the build (structured concurrency).
public struct FeedFetcher: Sendable {
    /// Limits applied to every request.
    public struct Options: Sendable, Hashable {
        /// Time allowed for a whole request, from connecting to the last body byte.
        public var timeoutSeconds: Int
        /// Largest body accepted, after decompression.
        public var maxBodyBytes: Int
        /// Redirects followed before giving up.
        public var maxRedirects: Int
        /// The `User-Agent` header sent with every request.
        public var userAgent: String

        public init(timeoutSeconds: Int = 30, maxBodyBytes: Int = 10_000_000, maxRedirects: Int = 5, userAgent: String)
        {
            self.timeoutSeconds = timeoutSeconds
            self.maxBodyBytes = maxBodyBytes
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
        }

        /// `feedsite/<version> (+<base_url or the project URL>)`: tells a server's owner who polls it.
        public static func userAgent(baseURL: URL?) -> String {
            "feedsite/\(Feedsite.version) (+\(baseURL?.absoluteString ?? Feedsite.projectURL))"
        }
    }

    public let options: Options
    private let client: HTTPClient

    private init(client: HTTPClient, options: Options) {
        self.client = client
        self.options = options
    }

    /// Runs `body` with a fetcher whose HTTP client is shut down when `body` returns or throws.
    public static func withFetcher<Result: Sendable>(
        options: Options,
        _ body: (FeedFetcher) async throws -> Result
    ) async throws -> Result {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: options.maxRedirects, allowCycles: false),
            timeout: .init(
                connect: .seconds(Int64(min(options.timeoutSeconds, 10))),
                read: .seconds(Int64(options.timeoutSeconds))),
            decompression: .enabled(limit: .size(options.maxBodyBytes))
        )
        configuration.httpVersion = .automatic
        return try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            try await body(FeedFetcher(client: client, options: options))
        }
    }

    /// Fetches one feed. Never throws: every failure is a `FetchError` value, so one feed can
    /// never cancel or fail another.
    public func fetch(_ url: URL) async -> Result<FetchedFeed, FetchError> {
        if Task.isCancelled { return .failure(.cancelled) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: options.userAgent)
        request.headers.add(
            name: "Accept",
            value:
                "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"
        )
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        do {
            let response = try await client.execute(request, timeout: .seconds(Int64(options.timeoutSeconds)))
            let finalURL = response.url ?? url
            guard (200..<300).contains(Int(response.status.code)) else {
                return .failure(.http(status: Int(response.status.code), reason: response.status.reasonPhrase))
            }
            if let length = response.headers.first(name: "Content-Length").flatMap(Int.init),
                length > options.maxBodyBytes
            {
                return .failure(.tooLarge(limitBytes: options.maxBodyBytes))
            }
            let buffer = try await response.body.collect(upTo: options.maxBodyBytes)
            let body = Data(buffer.readableBytesView)
            return .success(
                FetchedFeed(
                    finalURL: finalURL, status: Int(response.status.code),
                    contentType: response.headers.first(name: "Content-Type"), body: body))
        } catch {
            return .failure(Self.classify(error).withLimits(options))
        }
    }

    /// Maps the client's many error types onto the few a feed's owner can act on.
    static func classify(_ error: any Error) -> FetchError {
        if error is CancellationError { return .cancelled }
        if error is NIOTooManyBytesError { return .tooLarge(limitBytes: 0) }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return .tooLarge(limitBytes: 0)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return .timedOut(seconds: 0)
            case .redirectLimitReached, .redirectCycleDetected:
                return .tooManyRedirects(limit: 0)
            case .cancelled:
                return .cancelled
            default:
                break
            }
            return .transport(Self.describe(error))
        }
        return .transport(Self.describe(error))
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") {
            return "connection refused: is the server up and the port right?"
        }
        if text.contains("NIOConnectionError") || text.contains("lookup") || text.contains("resolve") {
            return "cannot connect (DNS lookup or connection failed): check the host name"
        }
        return "request failed: \(text)"
    }
}

extension FetchError {
    /// Fills in the limits `classify` cannot know (the error types do not carry them).
    func withLimits(_ options: FeedFetcher.Options) -> FetchError {
        switch self {
        case .timedOut: return .timedOut(seconds: options.timeoutSeconds)
        case .tooLarge: return .tooLarge(limitBytes: options.maxBodyBytes)
        case .tooManyRedirects: return .tooManyRedirects(limit: options.maxRedirects)
        default: return self
        }
    }
}
