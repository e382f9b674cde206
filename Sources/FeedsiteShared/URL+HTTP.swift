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
    /// The URL as compared for duplicate feeds (`feeds.yml`, `feedsite import`): what reaches the
    /// same server for the same resource is one feed. Scheme and host are case-insensitive, the
    /// scheme's default port (`https://h:443/`) and an empty path (`https://h`) are the same as
    /// none and `/`, dot segments (`/./`, `/a/../`) are resolved, and the fragment, never sent, is
    /// left out; the rest is compared as written.
    package var sameFeedKey: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return absoluteString }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme, components.port) == ("http", 80)
            || (components.scheme, components.port) == ("https", 443)
        {
            components.port = nil
        }
        components.fragment = nil
        components.percentEncodedPath = SimpleURL.removingDotSegments(components.percentEncodedPath)
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        return components.string ?? absoluteString
    }

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
