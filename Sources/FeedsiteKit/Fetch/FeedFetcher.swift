import AsyncHTTPClient
import FeedsiteParse
import FeedsiteShared
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Downloads feeds over HTTP(S), and reads local feed files. The only stage that talks to the
/// network.
///
/// One `FeedFetcher` wraps one `HTTPClient`, created and shut down by `withFetcher`, so the client
/// can never outlive the build (structured concurrency). Redirects are followed here rather than by
/// the client, so that every hop is checked (scheme, loops, private networks), validators go to the
/// URL that issued them, and permanent moves can be reported.
///
/// Retrying is feedsite's alone (`retries`, with backoff): the client is told not to retry
/// connection establishment, so a refused connection fails at once instead of being retried until
/// `connect_timeout`.
package struct FeedFetcher: Sendable {
    /// Limits applied to every request.
    package struct Options: Sendable, Hashable {
        package var policy: FetchPolicy
        /// Redirects followed before giving up.
        package var maxRedirects: Int
        /// Requests the caller runs at once (`--concurrency`): the connection pool allows that many
        /// connections to one host for feeds and as many for icons, so its own default (8) does not
        /// quietly cap the caller's limit (`per_host` is what limits requests to one host).
        package var concurrency: Int

        package init(policy: FetchPolicy = FetchPolicy(), maxRedirects: Int = 5, concurrency: Int = 64) {
            self.policy = policy
            self.maxRedirects = maxRedirects
            self.concurrency = concurrency
        }

        /// `feedsite/<version> (+<base_url or the project URL>)`: tells a server's owner who polls it.
        package static func userAgent(baseURL: URL?) -> String {
            "feedsite/\(Feedsite.version) (+\(baseURL?.absoluteString ?? Feedsite.projectURL))"
        }
    }

    package let options: Options
    private let client: HTTPClient

    private init(client: HTTPClient, options: Options) {
        self.client = client
        self.options = options
    }

    /// Runs `body` with a fetcher whose HTTP client is shut down when `body` returns or throws.
    package static func withFetcher<Result: Sendable>(
        options: Options,
        _ body: (FeedFetcher) async throws -> Result
    ) async throws -> Result {
        try await HTTPClient.withHTTPClient(configuration: configuration(options)) { client in
            try await body(FeedFetcher(client: client, options: options))
        }
    }

    /// The client's configuration: feedsite's limits, no redirects and no retries of its own.
    static func configuration(_ options: Options) -> HTTPClient.Configuration {
        let policy = options.policy
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .seconds(Int64(policy.connectTimeoutSeconds)),
                read: .seconds(Int64(policy.readTimeoutSeconds))),
            // Bodies are decompressed by feedsite (`CompressedBody`): the client's decoder refuses a
            // gzip of several members, raw deflate and a cut-off body, which browsers read.
            decompression: .disabled
        )
        configuration.httpVersion = .automatic
        // Feeds and their icons are fetched side by side, each kind within its own limits
        // (`FeedSchedule`, `AvatarQueue`): room for both, so icons do not hold up feeds.
        let connectionsPerHost = 2 * max(1, min(options.concurrency, policy.perHostConcurrency ?? .max))
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        // By default the pool retries a failed connection with backoff until the connect deadline:
        // a refused port then costs `connect_timeout` per attempt. feedsite's own policy retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Fetches one feed, with retries; a `file:` URL is read from disk instead (no network, no
    /// retries). Never throws: every failure is a `FetchError` value, so one feed can never cancel
    /// or fail another.
    package func fetch(_ request: FetchRequest) async -> Result<FetchResponse, FetchError> {
        if request.url.isFileURL {
            if Task.isCancelled { return .failure(.cancelled) }
            return LocalFeedReader.read(request, maxBodyBytes: options.policy.maxBodyBytes)
        }
        let policy = options.policy
        var attempt = 0
        var plain = false
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.cancelled) }
            // The last attempt reads a body the server cuts off as far as it goes.
            let isLast = attempt > min(request.retries ?? .max, policy.retries)
            let result = await fetchOnce(request, plain: plain, isLastAttempt: isLast)
            switch result {
            case .success(var response):
                switch response {
                case .fetched(var feed): feed.info.attempts = attempt; response = .fetched(feed)
                case .notModified(var info): info.attempts = attempt; response = .notModified(info)
                }
                return .success(response)
            case .failure(let failure):
                // A compressed body that does not decompress (raw deflate sent as `deflate`, a
                // damaged gzip): asked for once more, uncompressed, at once.
                if failure.isUndecodable, !plain {
                    plain = true
                    continue
                }
                // A server that asks for more patience than we have is skipped this run (its saved
                // items stay).
                if let retryAfter = failure.retryAfter, retryAfter > policy.maxRetryAfterSeconds {
                    return .failure(
                        .retryLater(
                            status: failure.status ?? 503,
                            cause: .retryAfterTooLong(seconds: retryAfter, limit: policy.maxRetryAfterSeconds)))
                }
                guard failure.error.isRetryable, attempt <= min(request.retries ?? .max, policy.retries) else {
                    if failure.status == 429 || (failure.status == 503 && failure.retryAfter != nil) {
                        return .failure(
                            .retryLater(
                                status: failure.status ?? 429,
                                cause: .retriesUsedUp(attempts: attempt, retryAfter: failure.retryAfter)))
                    }
                    return .failure(failure.error)
                }
                let wait: Double
                if let retryAfter = failure.retryAfter {
                    wait = Double(retryAfter)
                } else {
                    // Exponential backoff with full jitter: 0.5 s, 1 s, 2 s… spread so that many
                    // feeds on one overloaded host do not retry in lockstep.
                    let base = 0.5 * pow(2, Double(attempt - 1))
                    wait = base / 2 + Double.random(in: 0...(base / 2))
                }
                do {
                    try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                } catch {
                    return .failure(.cancelled)
                }
            }
        }
    }

    /// A failed attempt, with what the retry logic needs to know.
    struct AttemptFailure: Error {
        var error: FetchError
        var status: Int?
        /// Seconds from a `Retry-After` header on a 429 or 503.
        var retryAfter: Int?
        /// The body could not be decompressed (not the size limit).
        var isUndecodable = false

        init(error: FetchError, status: Int? = nil, retryAfter: Int? = nil) {
            self.error = error
            self.status = status
            self.retryAfter = retryAfter
        }

        /// A failure of the client: its `FetchError`, and whether decompressing failed.
        init(_ error: any Error, url: URL, policy: FetchPolicy) {
            self.init(error: FeedFetcher.classify(error, url: url, policy: policy))
            isUndecodable = FeedFetcher.isDecompressionFailure(error)
        }
    }

    /// One attempt, bounded as a whole by `timeout`: every hop of the redirect chain and the whole
    /// body. (The client's own deadline ends when the response head arrives, and `read_timeout`
    /// only bounds the gap between two bytes, so a server trickling a few bytes at a time would
    /// otherwise hold the build for as long as it liked.)
    /// - Parameter plain: ask for the body uncompressed (`Accept-Encoding: identity`).
    /// - Parameter isLastAttempt: no attempt follows: a body cut off is read as far as it goes.
    private func fetchOnce(
        _ request: FetchRequest, plain: Bool, isLastAttempt: Bool
    ) async -> Result<FetchResponse, AttemptFailure> {
        let seconds = options.policy.timeoutSeconds
        let deadline = NIODeadline.now() + .seconds(Int64(seconds))
        return await withTaskGroup(of: Result<FetchResponse, AttemptFailure>?.self) { group in
            group.addTask {
                await self.exchange(request, plain: plain, isLastAttempt: isLastAttempt, deadline: deadline)
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            // The first to finish wins; the other is cancelled (the client closes the connection).
            defer { group.cancelAll() }
            if let first = await group.next(), let result = first { return result }
            if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled)) }
            return .failure(AttemptFailure(error: .timedOut(.whole(seconds: seconds))))
        }
    }

    /// The request and its redirects, then the body.
    private func exchange(
        _ request: FetchRequest, plain: Bool, isLastAttempt: Bool, deadline: NIODeadline
    ) async -> Result<FetchResponse, AttemptFailure> {
        var chain = RedirectChain(from: request.url, limit: options.maxRedirects)
        while true {
            let url = chain.current
            if let refusal = refusal(for: url) { return .failure(AttemptFailure(error: refusal)) }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(httpRequest(request, url: url, plain: plain), deadline: deadline)
            } catch {
                return .failure(AttemptFailure(error, url: url, policy: options.policy))
            }
            let status = Int(response.status.code)
            do {
                if try chain.follow(status: status, location: response.headers.first(name: "Location")) { continue }
            } catch {
                return .failure(AttemptFailure(error: error))
            }
            let info = FetchInfo(finalURL: url, status: status, permanentRedirect: chain.permanentTarget)
            if status == 304 {
                // "Not modified" answers a conditional request only: to any other there is nothing
                // kept to stand for the feed, so it is a failure (the items of an earlier build stay).
                guard request.sendsValidators(to: url) || (request.hasOwnValidators && request.sendsHeaders(to: url))
                else {
                    return .failure(AttemptFailure(error: .notModifiedUnasked))
                }
                return .success(.notModified(info))
            }
            guard (200..<300).contains(status) else {
                let retryAfter =
                    (status == 429 || status == 503)
                    ? response.headers.first(name: "Retry-After").flatMap(Self.retryAfterSeconds) : nil
                return .failure(
                    AttemptFailure(
                        error: .http(status: status, reason: response.status.reasonPhrase), status: status,
                        retryAfter: retryAfter))
            }
            // The client decodes gzip and deflate; any other coding (`br`, `zstd`: never asked
            // for) would reach the parser as "binary data". Asked for once more, uncompressed.
            if let coding = Self.unreadableCoding(response.headers[canonicalForm: "Content-Encoding"]) {
                var failure = AttemptFailure(
                    error: .transport(
                        "the server sent the feed compressed as '\(coding)' (Content-Encoding), which feedsite did not "
                            + "ask for and does not read (it asks for gzip or deflate), even when asked for it "
                            + "uncompressed; tell the feed's owner"))
                failure.isUndecodable = true
                return .failure(failure)
            }
            let limit = min(request.maxBodyBytes ?? .max, options.policy.maxBodyBytes)
            let announced = response.headers.first(name: "Content-Length").flatMap(Int.init)
            if let announced, announced > limit {
                return .failure(AttemptFailure(error: .tooLarge(limitBytes: limit)))
            }
            var buffer = ByteBuffer()
            buffer.reserveCapacity(max(announced ?? 0, 0))
            var cutOff: String?
            do {
                for try await var chunk in response.body {
                    guard chunk.readableBytes <= limit - buffer.readableBytes else {
                        return .failure(AttemptFailure(error: .tooLarge(limitBytes: limit)))
                    }
                    buffer.writeBuffer(&chunk)
                }
            } catch {
                // A body cut short by cancellation (the whole-request timer) is not a feed.
                if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled)) }
                guard Self.isConnectionClosed(error) else {
                    return .failure(AttemptFailure(error, url: url, policy: options.policy))
                }
                let closed =
                    "the server closed the connection after \(buffer.readableBytes)"
                    + (announced.map { " of the feed's \($0) bytes (its Content-Length)" }
                        ?? " bytes of the feed, before its end")
                // Asked for again (`retries`); the last time, what arrived is read.
                guard isLastAttempt, buffer.readableBytes > 0 else {
                    return .failure(AttemptFailure(error: .transport(closed)))
                }
                cutOff =
                    "\(closed), on every attempt: read as far as it goes, so later items may be missing;"
                    + " tell the feed's owner"
            }
            if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled)) }
            let formats = CompressedBody.formats(response.headers[canonicalForm: "Content-Encoding"])
            let decoded: CompressedBody.Decoded
            switch CompressedBody.decode(
                Data(buffer.readableBytesView), formats, limitBytes: limit, acceptsPartial: plain || cutOff != nil)
            {
            case .success(let body): decoded = body
            case .failure(.tooLarge(let limit)): return .failure(AttemptFailure(error: .tooLarge(limitBytes: limit)))
            case .failure(.undecodable):
                var failure = AttemptFailure(error: .transport(Self.undecodableBody))
                failure.isUndecodable = true
                return .failure(failure)
            }
            var fetched = FetchedFeed(
                info: info, contentType: response.headers.first(name: "Content-Type"),
                etag: Self.validator(response.headers.first(name: "ETag")),
                lastModified: Self.validator(response.headers.first(name: "Last-Modified")), body: decoded.body)
            fetched.warnings = (cutOff.map { [$0] } ?? []) + decoded.warnings
            return .success(.fetched(fetched))
        }
    }

    private func httpRequest(_ request: FetchRequest, url: URL, plain: Bool) -> HTTPClientRequest {
        var http = HTTPClientRequest(url: url.absoluteString)
        http.method = .GET
        http.headers.add(name: "User-Agent", value: request.userAgent)
        http.headers.add(
            name: "Accept",
            value:
                "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"
        )
        http.headers.add(name: "Accept-Encoding", value: plain ? "identity" : "gzip, deflate")
        // Validators go to the URL that issued them, wherever the redirect chain reaches it (a
        // feed behind a 302 is revalidated at its target); every other hop gets a plain request.
        if request.sendsValidators(to: url) {
            if let etag = request.etag { http.headers.add(name: "If-None-Match", value: etag) }
            if let lastModified = request.lastModified {
                http.headers.add(name: "If-Modified-Since", value: lastModified)
            }
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where request.sendsHeaders(to: url) {
            http.headers.replaceOrAdd(name: name, value: value)
        }
        return http
    }

    /// Refuses URLs feedsite must not fetch: other schemes (a redirect to `file:` among them), no
    /// host or an impossible port, and (when asked) private networks.
    private func refusal(for url: URL) -> FetchError? {
        if let problem = url.httpProblem { return .unusableURL(url.absoluteString, problem) }
        // A feed's URLs are saved in the state, which holds URLs to this length.
        let length = url.absoluteString.utf8.count
        if length > StateLimits.urlBytes {
            return .transport(
                "a URL of \(length) bytes (\(url.absoluteString.prefix(60))…), longer than the \(StateLimits.urlBytes >> 10) KB "
                    + "feedsite follows")
        }
        if options.policy.denyPrivateNetworks, let host = url.host, NetworkAddress.isPrivate(host: host) {
            return .privateNetwork(host: host)
        }
        return nil
    }

    /// Why a compressed body that does not decompress, even when asked for uncompressed, is not read.
    static let undecodableBody =
        "the server's compressed body cannot be decompressed (damaged, cut off, or not the"
        + " Content-Encoding it names), even when asked for uncompressed"

    /// The connection ended before the body did: the server closed it in the middle of a
    /// `Content-Length` or chunked body.
    static func isConnectionClosed(_ error: any Error) -> Bool {
        if let error = error as? HTTPParserError { return error == .invalidEOFState || error == .closedConnection }
        if let error = error as? HTTPClientError { return error == .remoteConnectionClosed }
        return false
    }

    /// The client could not decompress the body (the size limit aside): a damaged or cut-off
    /// gzip, or raw deflate where `deflate` means zlib's format.
    static func isDecompressionFailure(_ error: any Error) -> Bool {
        if let error = error as? NIOHTTPDecompression.DecompressionError { return error != .limit }
        return error is NIOHTTPDecompression.ExtraDecompressionError
    }

    /// The first of a response's content codings (`Content-Encoding` in canonical form: one
    /// value each) that is a compression the client does not decode, lowercased; nil when there is
    /// none. Other names are left to the parser: servers send `Content-Encoding: utf-8` and the
    /// like over plain feeds, which read fine.
    static func unreadableCoding(_ codings: [Substring]) -> String? {
        codings.lazy.map { $0.lowercased() }.first(where: unreadableCodings.contains)
    }

    /// IANA's registered content codings that compress (or encrypt), less gzip and deflate.
    static let unreadableCodings: Set<String> = [
        "br", "zstd", "compress", "x-compress", "bzip2", "x-bzip2", "xz", "lzma", "pack200-gzip", "exi", "aes128gcm",
        "dcb", "dcz",
    ]

    /// A validator (`ETag`, `Last-Modified`) to send back next time, when it is one the state keeps
    /// (`StateLimits.isUsableHeader`); another is not kept (the feed is fetched whole next time).
    static func validator(_ value: String?) -> String? {
        value.flatMap { StateLimits.isUsableHeader($0) ? $0 : nil }
    }

    /// `Retry-After` as seconds: either a number or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Int? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return max(0, seconds) }
        guard let date = FeedDate.parse(trimmed) else { return nil }
        return max(0, Int(date.timeIntervalSinceNow.rounded(.up)))
    }

    /// Maps the client's many error types onto the few a feed's owner can act on, naming the
    /// limit in force where one ran out. `url` is the hop that failed.
    static func classify(_ error: any Error, url: URL, policy: FetchPolicy) -> FetchError {
        if error is CancellationError { return .cancelled }
        if error is NIOTooManyBytesError { return .tooLarge(limitBytes: policy.maxBodyBytes) }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return .tooLarge(limitBytes: policy.maxBodyBytes)
        }
        if isDecompressionFailure(error) { return .transport(undecodableBody) }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .writeTimeout:
                return .timedOut(.whole(seconds: policy.timeoutSeconds))
            case .readTimeout:
                return .timedOut(.read(seconds: policy.readTimeoutSeconds))
            case .connectTimeout:
                return .timedOut(.connect(seconds: policy.connectTimeoutSeconds))
            case .cancelled:
                return .cancelled
            case .remoteConnectionClosed:
                return .transport("the server closed the connection before the response was complete")
            default:
                return .transport("request failed: \(error)")
            }
        }
        if let error = error as? HTTPParserError {
            return .transport(
                "the server's response is not valid HTTP/1.1 (\(describe(error))); check that the URL names a web "
                    + "server's port (an https: URL for an HTTPS one) and tell the feed's owner")
        }
        if let error = error as? NIOConnectionError {
            return classify(error, policy: policy)
        }
        if isConnectTimeout(error) {
            return .timedOut(.connect(seconds: policy.connectTimeoutSeconds))
        }
        if let error = error as? IOError {
            if error.errnoCode == ECONNREFUSED {
                let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
                return .connectionRefused(host: url.host ?? url.absoluteString, port: port)
            }
            return .transport(describe(errno: error.errnoCode))
        }
        return .transport("request failed: \(error)")
    }

    /// What the HTTP parser found wrong, in words (its own descriptions are llhttp's, such as
    /// "invalid constant string" for a status line that is not HTTP).
    static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidConstant, .invalidVersion: "its first line is not an HTTP status line"
        case .invalidStatus: "its status code is not a number of three digits"
        case .headerOverflow: "its headers are too long"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected:
            "its headers hold bytes HTTP does not allow there"
        case .invalidContentLength, .unexpectedContentLength: "its Content-Length is invalid or given with chunks"
        case .invalidChunkSize: "its chunked body is damaged"
        case .trailingGarbage: "it is followed by bytes that are no response"
        case .invalidEOFState, .closedConnection: "the connection closed in the middle of it"
        default: "\(error)"
        }
    }

    /// A failed connection: DNS, refused, timed out, or another socket error.
    private static func classify(_ error: NIOConnectionError, policy: FetchPolicy) -> FetchError {
        let failures = error.connectionErrors.map(\.error)
        if failures.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
            return .cannotResolve(host: error.host)
        }
        let codes = failures.compactMap { ($0 as? IOError)?.errnoCode }
        if !codes.isEmpty, codes.allSatisfy({ $0 == ECONNREFUSED }) {
            return .connectionRefused(host: error.host, port: error.port)
        }
        if failures.contains(where: isConnectTimeout) {
            return .timedOut(.connect(seconds: policy.connectTimeoutSeconds))
        }
        if let code = codes.first {
            return .transport("cannot connect to \(error.host) port \(error.port): \(describe(errno: code))")
        }
        return .transport("cannot connect to \(error.host) port \(error.port)")
    }

    private static func isConnectTimeout(_ error: any Error) -> Bool {
        guard let error = error as? ChannelError, case .connectTimeout = error else { return false }
        return true
    }

    /// The socket errors a feed's owner meets, in words.
    private static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNRESET: return "the server reset the connection"
        case ECONNREFUSED: return "connection refused: is the server up and the port right?"
        case ENETUNREACH, EHOSTUNREACH: return "no route to the host (network unreachable)"
        case EPIPE: return "the server closed the connection while the request was sent"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}

/// Classifies IP addresses for the `deny_private_networks` guard.
enum NetworkAddress {
    /// True when `host` is, or resolves to, a loopback, private, link-local, CGNAT or unspecified
    /// address. A host that does not resolve is not private (the fetch then fails on its own).
    static func isPrivate(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare.lowercased() == "localhost" || bare.lowercased().hasSuffix(".localhost") { return true }
        return resolve(bare).contains(where: isPrivate(address:))
    }

    /// One resolved address, as bytes (4 for IPv4, 16 for IPv6).
    static func isPrivate(address bytes: [UInt8]) -> Bool {
        if bytes.count == 4 {
            let (a, b) = (bytes[0], bytes[1])
            return a == 0 || a == 10 || a == 127 || (a == 169 && b == 254) || (a == 172 && (16...31).contains(b))
                || (a == 192 && b == 168) || (a == 100 && (64...127).contains(b))
        }
        guard bytes.count == 16 else { return false }
        if bytes.allSatisfy({ $0 == 0 }) { return true }  // ::
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
        if bytes[0] & 0xFE == 0xFC { return true }  // fc00::/7 unique local
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10 link-local
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return isPrivate(address: Array(bytes[12..<16]))  // IPv4-mapped
        }
        // Addresses that carry an IPv4 address and reach it through a translator or tunnel.
        if bytes[0..<12].allSatisfy({ $0 == 0 }) {
            return isPrivate(address: Array(bytes[12..<16]))  // IPv4-compatible ::a.b.c.d
        }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return isPrivate(address: Array(bytes[12..<16]))  // NAT64 64:ff9b::/96
        }
        if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return true }  // local NAT64 64:ff9b:1::/48
        if bytes[0] == 0x20 && bytes[1] == 0x02 {
            return isPrivate(address: Array(bytes[2..<6]))  // 6to4 2002::/16
        }
        if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] {
            return isPrivate(address: bytes[12..<16].map { ~$0 })  // Teredo 2001::/32, the client's address inverted
        }
        return false
    }

    /// The host's addresses via `getaddrinfo` (a literal address resolves to itself).
    static func resolve(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let sockaddr = entry.pointee.ai_addr {
                if entry.pointee.ai_family == AF_INET {
                    sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        var address = pointer.pointee.sin_addr
                        addresses.append(withUnsafeBytes(of: &address) { Array($0) })
                    }
                } else if entry.pointee.ai_family == AF_INET6 {
                    sockaddr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        var address = pointer.pointee.sin6_addr
                        addresses.append(withUnsafeBytes(of: &address) { Array($0) })
                    }
                }
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }
}
