/// Why one feed could not be downloaded. The text completes the sentence
/// `warning: feed 'Name' (url): …`.
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a non-2xx status.
    case http(status: Int, reason: String)
    /// No complete response within the time limit.
    case timedOut(seconds: Int)
    /// The body was larger than the cap (compressed or decompressed).
    case tooLarge(limitBytes: Int)
    /// More redirects than allowed, or a redirect cycle.
    case tooManyRedirects(limit: Int)
    /// Connection refused, DNS failure, TLS failure, reset…
    case transport(String)
    /// The build was cancelled before this feed finished.
    case cancelled

    public var description: String {
        switch self {
        case .http(let status, let reason):
            return "HTTP \(status) \(reason)"
        case .timedOut(let seconds):
            return "no complete response within \(seconds) s (timed out)"
        case .tooLarge(let limit):
            return "the response is larger than the \(limit / 1_000_000) MB limit"
        case .tooManyRedirects(let limit):
            return "more than \(limit) redirects (or a redirect loop)"
        case .transport(let message):
            return message
        case .cancelled:
            return "cancelled"
        }
    }
}
