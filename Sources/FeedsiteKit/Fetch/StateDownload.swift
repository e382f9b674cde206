import AsyncHTTPClient
import FeedsiteShared
import Foundation
import NIOCore
import NIOHTTP1

/// Downloads a published state (`--restore-state URL`, `state_url`) into a file as it arrives: the
/// state of a large planet (hundreds of megabytes) is never held in memory, only decoded from the
/// file afterwards. Its size limit is the state's own (`StateLimits.fileBytes`), not `max_body_mb`.
enum StateDownload {
    /// What a download found.
    enum Outcome: Sendable, Hashable {
        /// The state is in the file: this many bytes.
        case saved(bytes: Int)
        /// The server has no state there (HTTP 404 or 410): nothing was published yet.
        case absent(status: Int)
    }

    /// Redirects followed before a download gives up.
    static let maxRedirects = 5

    /// Why a download failed; completes "cannot restore the state from URL: …".
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
        /// Worth another attempt (the network or an overloaded server).
        var isRetryable = false
        /// The body did not decompress: worth asking for uncompressed.
        var isUndecodable = false
    }

    /// Downloads `url` into `file` (created or truncated), with `policy`'s timeouts and retries.
    static func download(
        _ url: URL, to file: URL, limitBytes: Int, policy: FetchPolicy, userAgent: String
    ) async -> Result<Outcome, Failure> {
        var configuration = HTTPClient.Configuration(
            // Redirects are followed below, each target checked first (`URL.httpProblem`).
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .seconds(Int64(policy.connectTimeoutSeconds)),
                read: .seconds(Int64(policy.readTimeoutSeconds))),
            decompression: .enabled(limit: .size(limitBytes)))
        configuration.httpVersion = .automatic
        // A refused connection fails at once; retries are the loop's below.
        configuration.connectionPool.retryConnectionEstablishment = false
        do {
            return try await HTTPClient.withHTTPClient(configuration: configuration) { client in
                var attempt = 0
                var plain = false
                while true {
                    attempt += 1
                    let result = await downloadOnce(
                        url, to: file, limitBytes: limitBytes, client: client, userAgent: userAgent, policy: policy,
                        plain: plain)
                    // A body that does not decompress is asked for once more, uncompressed, at once.
                    if case .failure(let failure) = result, failure.isUndecodable, !plain {
                        plain = true
                        continue
                    }
                    guard case .failure(let failure) = result, failure.isRetryable, attempt <= policy.retries else {
                        return result
                    }
                    let base = 0.5 * pow(2, Double(attempt - 1))
                    try await Task.sleep(for: .milliseconds(Int((base / 2 + Double.random(in: 0...(base / 2))) * 1000)))
                }
            }
        } catch {
            return .failure(Failure(description: FeedFetcher.classify(error, url: url, policy: policy).description))
        }
    }

    private static func downloadOnce(
        _ url: URL, to file: URL, limitBytes: Int, client: HTTPClient, userAgent: String, policy: FetchPolicy,
        plain: Bool
    ) async -> Result<Outcome, Failure> {
        let tooLarge = Failure(description: "the state is larger than feedsite's \(limitBytes >> 20) MB state limit")
        var chain = RedirectChain(from: url, limit: maxRedirects)
        var received = 0
        var announced: Int?
        var isReadingBody = false
        do {
            var response: HTTPClientResponse
            while true {
                if let problem = chain.current.httpProblem {
                    return .failure(
                        Failure(description: FetchError.unusableURL(chain.current.absoluteString, problem).description))
                }
                var request = HTTPClientRequest(url: chain.current.absoluteString)
                request.headers.add(name: "User-Agent", value: userAgent)
                request.headers.add(name: "Accept", value: "application/json")
                request.headers.add(name: "Accept-Encoding", value: plain ? "identity" : "gzip, deflate")
                // The whole transfer has a generous deadline; a transfer that stalls fails after the read timeout.
                response = try await client.execute(request, timeout: .minutes(15))
                do {
                    let location = response.headers.first(name: "Location")
                    guard try chain.follow(status: Int(response.status.code), location: location) else { break }
                } catch {
                    return .failure(Failure(description: error.description))
                }
            }
            let status = Int(response.status.code)
            if status == 404 || status == 410 { return .success(.absent(status: status)) }
            guard (200..<300).contains(status) else {
                return .failure(
                    Failure(
                        description: FetchError.http(status: status, reason: response.status.reasonPhrase).description,
                        isRetryable: [429, 502, 503, 504].contains(status)))
            }
            announced = response.headers.first(name: "Content-Length").flatMap(Int.init)
            if let length = announced, length > limitBytes {
                return .failure(tooLarge)
            }
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                return .failure(Failure(description: "cannot create \(file.path)"))
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            isReadingBody = true
            for try await buffer in response.body {
                received += buffer.readableBytes
                guard received <= limitBytes else { return .failure(tooLarge) }
                try buffer.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            }
            return .success(.saved(bytes: received))
        } catch {
            if isReadingBody, FeedFetcher.isConnectionClosed(error) {
                // Not "the response is not valid HTTP/1.1 … tell the feed's owner": a state is no feed.
                let whole = announced.map { " of its \($0) (its Content-Length)" } ?? ""
                return .failure(
                    Failure(
                        description: "the server closed the connection after \(received) bytes of the state\(whole), "
                            + "before its end; the download is not used",
                        isRetryable: true))
            }
            let classified = FeedFetcher.classify(error, url: url, policy: policy)
            if case .tooLarge = classified { return .failure(tooLarge) }
            if case .timedOut = classified {
                return .failure(
                    Failure(
                        description:
                            "timed out (nothing arrived for \(policy.readTimeoutSeconds) s, 'read_timeout', or the transfer took 15 minutes)",
                        // Not again: a server that trickled or went silent once would hold the build
                        // for as long again on each retry.
                        isRetryable: false))
            }
            return .failure(
                Failure(
                    description: classified.description, isRetryable: classified.isRetryable,
                    isUndecodable: FeedFetcher.isDecompressionFailure(error)))
        }
    }
}
