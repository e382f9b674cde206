import Foundation

/// One request's redirects, followed by feedsite rather than the HTTP client, so that each target
/// is checked (`URL.httpProblem`, and for feeds the private-network rule) before it is asked for:
/// at most `limit` hops, never a URL already visited. Feeds and a published state share it.
struct RedirectChain {
    /// The answers that redirect (when they carry a `Location`).
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    let limit: Int
    /// The URL to ask next: the start, then each redirect's target.
    private(set) var current: URL
    /// Where the chain's permanent part (301 and 308 from the start, before any other) led.
    private(set) var permanentTarget: URL?
    private var isPermanentSoFar = true
    private var visited: Set<String>

    init(from url: URL, limit: Int) {
        self.limit = limit
        current = url
        visited = [url.absoluteString]
    }

    /// Follows an answer: true when it redirects (`current` is then its target), false when it is
    /// the final one.
    mutating func follow(status: Int, location: String?) throws(FetchError) -> Bool {
        guard Self.statuses.contains(status), let location else { return false }
        guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
            throw .transport("redirect to an invalid URL: \(location)")
        }
        guard visited.count <= limit else { throw .tooManyRedirects(limit: limit) }
        guard visited.insert(next.absoluteString).inserted else { throw .redirectLoop(next.absoluteString) }
        if (status == 301 || status == 308) && isPermanentSoFar {
            permanentTarget = next
        } else {
            isPermanentSoFar = false
        }
        current = next
        return true
    }
}
