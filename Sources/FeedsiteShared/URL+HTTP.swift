import Foundation

/// Why a URL cannot be asked for over HTTP; each completes "refusing to fetch URL: …".
package enum HTTPURLProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not http or https (a `file:` redirect, a typo such as `htps:`).
    case scheme
    /// `https:/example.com/…`, `http:///…`: no host to connect to.
    case noHost
    /// A port no TCP connection can have (`:99999`, `:0`).
    case port(Int)

    package var description: String {
        switch self {
        case .scheme: "only http and https are allowed"
        case .noHost: "it names no host"
        case .port(let port): "port \(port) is not a TCP port (1–65535)"
        }
    }
}

extension URL {
    /// Why this URL cannot be requested over HTTP, or nil when it can: http or https, a host, and
    /// a port between 1 and 65535 when it names one. Every URL from outside (`feeds.yml`, a
    /// redirect, a feed's icon or a page's feed link, a published state) is checked before the
    /// HTTP client sees it: async-http-client stops the process on a port above 65535.
    package var httpProblem: HTTPURLProblem? {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else { return .scheme }
        guard let host, !host.isEmpty else { return .noHost }
        if let port, !(1...65535).contains(port) { return .port(port) }
        return nil
    }
}
