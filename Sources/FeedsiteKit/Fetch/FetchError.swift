import FeedsiteShared

/// Why one feed could not be downloaded (or, for a local source, read). The text completes the
/// sentence `warning: feed 'Name' (url): …`.
package enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a non-2xx status.
    case http(status: Int, reason: String)
    /// HTTP 304 Not Modified to a request that sent no validators: no feed to read.
    case notModifiedUnasked
    /// The server asked to wait (HTTP 429, or 503 with `Retry-After`) and feedsite did not get the
    /// feed this run; `cause` says why it stopped asking.
    case retryLater(status: Int, cause: RetryLaterCause)
    /// One of the time limits ran out.
    case timedOut(TimeLimit)
    /// The body was larger than the cap (compressed or decompressed).
    case tooLarge(limitBytes: Int)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect led back to a URL already visited.
    case redirectLoop(String)
    /// A URL no HTTP request can be made to: another scheme (a redirect to `file:`), no host, a
    /// port out of range.
    case unusableURL(String, HTTPURLProblem)
    /// The host resolves to a loopback, private or link-local address and `deny_private_networks` is on.
    case privateNetwork(host: String)
    /// The host name does not resolve (DNS).
    case cannotResolve(host: String)
    /// Nothing listens on the port (the connection was refused at once).
    case connectionRefused(host: String, port: Int)
    /// A local feed file (a path or `file:` URL in `feeds.yml`) that cannot be read as one.
    case localFile(path: String, problem: LocalFileProblem)
    /// TLS failure, reset, a connection closed early…
    case transport(String)
    /// The build was cancelled before this feed finished.
    case cancelled
    /// `--offline`: the network was not used.
    case offline

    /// Which time limit ran out; each names its `feeds.yml` key and the value in force.
    package enum TimeLimit: Sendable, Hashable {
        /// `timeout`: the whole request, connection to last body byte, redirects included.
        case whole(seconds: Int)
        /// `connect_timeout`: establishing the connection.
        case connect(seconds: Int)
        /// `read_timeout`: no byte received for this long.
        case read(seconds: Int)
    }

    /// Why feedsite gave up on a server that asked it to wait.
    package enum RetryLaterCause: Sendable, Hashable {
        /// Every attempt `retries` allows was answered this way; `retryAfter` is the server's last
        /// `Retry-After`, when it sent one.
        case retriesUsedUp(attempts: Int, retryAfter: Int?)
        /// `Retry-After` asked for longer than `max_retry_after` allows.
        case retryAfterTooLong(seconds: Int, limit: Int)
    }

    /// What is wrong with a local feed file.
    package enum LocalFileProblem: Sendable, Hashable {
        case missing
        case notPermitted
        case directory
        /// A FIFO, socket, or device: never opened (a FIFO would block the build).
        case notRegularFile(kind: String)
        case unreadable(reason: String)
    }

    package var description: String {
        switch self {
        case .http(let status, let reason):
            // A status no RFC names (999) has no reason phrase: no trailing space.
            return reason.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(reason)"
        case .notModifiedUnasked:
            return
                "HTTP 304 Not Modified to a request without If-None-Match or If-Modified-Since: the server sent no feed (a caching proxy or server misconfiguration)"
        case .retryLater(let status, .retryAfterTooLong(let seconds, let limit)):
            return
                "HTTP \(status): the server asks to retry after \(seconds) s, longer than max_retry_after (\(limit) s); skipped this run"
        case .retryLater(let status, .retriesUsedUp(let attempts, let retryAfter)):
            let waited = retryAfter.map { ", the last asking to retry after \($0) s" } ?? ""
            let tries =
                attempts == 1
                ? "on the only attempt (retries: 0)" : "on all \(attempts) attempts (retries: \(attempts - 1))"
            return "\(Self.statusLine(status)) \(tries)\(waited); skipped this run"
        case .timedOut(.whole(let seconds)):
            return "timed out: no complete response within \(seconds) s (timeout)"
        case .timedOut(.connect(let seconds)):
            return "timed out: could not connect within \(seconds) s (connect_timeout)"
        case .timedOut(.read(let seconds)):
            // The client's timer restarts on a whole response head or a piece of body, not on each
            // byte: a server dripping its headers a byte at a time runs out of it too.
            return "timed out: no complete response headers, nor body data, came for \(seconds) s (read_timeout)"
        case .tooLarge(let limit):
            return "the response is larger than the \(Self.megabytes(limit)) limit (max_body_mb)"
        case .tooManyRedirects(let limit):
            return "more than \(limit) redirects"
        case .redirectLoop(let url):
            return "redirect loop: \(url) redirects back to itself"
        case .unusableURL(let url, let problem):
            return "refusing to fetch \(url): \(problem)"
        case .privateNetwork(let host):
            return
                "refusing to fetch from \(host): it is a loopback, private or link-local address (deny_private_networks)"
        case .cannotResolve(let host):
            return "cannot resolve host \(host): check the host name"
        case .connectionRefused(let host, let port):
            return "connection refused by \(host) port \(port): is the server up and the port right?"
        case .localFile(let path, .missing):
            return "cannot read \(path): no such file"
        case .localFile(let path, .notPermitted):
            return "cannot read \(path): permission denied"
        case .localFile(let path, .directory):
            return "cannot read \(path): it is a directory, not a feed file"
        case .localFile(let path, .notRegularFile(let kind)):
            return "refusing to read \(path): it is a \(kind), not a regular file"
        case .localFile(let path, .unreadable(let reason)):
            return "cannot read \(path): \(reason)"
        case .transport(let message):
            return message
        case .cancelled:
            return "cancelled"
        case .offline:
            return "not fetched (--offline)"
        }
    }

    private static func statusLine(_ status: Int) -> String {
        switch status {
        case 429: "HTTP 429 Too Many Requests"
        case 503: "HTTP 503 Service Unavailable"
        default: "HTTP \(status)"
        }
    }

    /// `10 MB`, or `0.1 MB` for limits under a megabyte (tests use small ones).
    static func megabytes(_ bytes: Int) -> String {
        bytes % 1_000_000 == 0 || bytes >= 10_000_000
            ? "\(bytes / 1_000_000) MB" : "\(Double(bytes / 1000) / 1000) MB"
    }

    /// The HTTP status the server answered with, when the failure was an HTTP answer.
    package var httpStatus: Int? {
        switch self {
        case .http(let status, _), .retryLater(let status, _): return status
        case .notModifiedUnasked: return 304
        default: return nil
        }
    }

    /// Worth another attempt: the next one may well succeed (network blips, overloaded servers).
    /// A refused connection is retried too (a server restarting), but only by feedsite's own
    /// policy (`retries`, with backoff), never by the HTTP client until `connect_timeout`.
    var isRetryable: Bool {
        switch self {
        // A request that used the whole `timeout` (a trickling server) is not retried: `timeout` is
        // what one feed may cost a build.
        case .timedOut(.whole): return false
        case .timedOut, .transport, .connectionRefused: return true
        case .http(let status, _): return [429, 502, 503, 504].contains(status)
        default: return false
        }
    }
}
