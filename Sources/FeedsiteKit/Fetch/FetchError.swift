/// Why one feed could not be downloaded. The text completes the sentence
/// `warning: feed 'Name' (url): …`.
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a non-2xx status.
    case http(status: Int, reason: String)
    /// The server asked to wait longer than feedsite is willing to (HTTP 429/503 `Retry-After`).
    case retryLater(status: Int, seconds: Int?)
    /// No complete response within the time limit.
    case timedOut(seconds: Int)
    /// The body was larger than the cap (compressed or decompressed).
    case tooLarge(limitBytes: Int)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect led back to a URL already visited.
    case redirectLoop(String)
    /// A redirect or URL with a scheme other than http(s).
    case unsupportedScheme(String)
    /// The host resolves to a loopback, private or link-local address and `deny_private_networks` is on.
    case privateNetwork(host: String)
    /// Connection refused, DNS failure, TLS failure, reset…
    case transport(String)
    /// The build was cancelled before this feed finished.
    case cancelled
    /// `--offline`: the network was not used.
    case offline

    public var description: String {
        switch self {
        case .http(let status, let reason):
            return "HTTP \(status) \(reason)"
        case .retryLater(let status, let seconds?):
            return
                "HTTP \(status): the server asks to retry after \(seconds) s, longer than max_retry_after; skipped this run"
        case .retryLater(let status, nil):
            return "HTTP \(status) \(status == 429 ? "Too Many Requests" : "Service Unavailable"); skipped this run"
        case .timedOut(let seconds):
            return "no complete response within \(seconds) s (timed out)"
        case .tooLarge(let limit):
            return "the response is larger than the \(limit / 1_000_000) MB limit (max_body_mb)"
        case .tooManyRedirects(let limit):
            return "more than \(limit) redirects"
        case .redirectLoop(let url):
            return "redirect loop: \(url) redirects back to itself"
        case .unsupportedScheme(let url):
            return "refusing to fetch \(url): only http and https are allowed"
        case .privateNetwork(let host):
            return
                "refusing to fetch from \(host): it is a loopback, private or link-local address (deny_private_networks)"
        case .transport(let message):
            return message
        case .cancelled:
            return "cancelled"
        case .offline:
            return "not fetched (--offline)"
        }
    }

    /// The HTTP status the server answered with, when the failure was an HTTP answer.
    public var httpStatus: Int? {
        switch self {
        case .http(let status, _), .retryLater(let status, _): return status
        default: return nil
        }
    }

    /// Worth another attempt: the next one may well succeed (network blips, overloaded servers).
    var isRetryable: Bool {
        switch self {
        case .timedOut, .transport: return true
        case .http(let status, _): return [502, 503, 504].contains(status)
        default: return false
        }
    }
}
