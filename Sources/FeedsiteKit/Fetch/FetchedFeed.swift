import Foundation

/// What to ask a server (or the file system) for one feed.
package struct FetchRequest: Sendable, Hashable {
    /// An http(s) URL, or a `file:` URL for a local feed file (never reached by a redirect).
    package var url: URL
    /// Validators from the last good response: sent back so an unchanged feed costs a 304. For a
    /// local file, its content digest (`etag`) and its modification time and size (`lastModified`).
    package var etag: String?
    package var lastModified: String?
    /// The URL that issued the validators (the last good response's final URL, after redirects):
    /// they are sent on the request to that URL only, wherever the redirect chain reaches it.
    /// Nil: `url` itself.
    package var validatorURL: URL?
    package var userAgent: String
    /// Extra headers from `feeds.yml` (an icon's request: its `Accept`), sent only to the origin
    /// they were given for (`headersOrigin`): a redirect or a page's feed link to another scheme,
    /// host or port gets none, as browsers and curl drop `Authorization` and cookies there.
    package var headers: [String: String]
    /// The URL whose origin `headers` belong to. Nil: `url` itself.
    package var headersOrigin: URL?
    /// A smaller body limit than `max_body_mb` for this request (an icon's), in bytes.
    package var maxBodyBytes: Int?
    /// Fewer retries than `retries` for this request (an icon's: none, it is optional).
    package var retries: Int?

    package init(
        url: URL, etag: String? = nil, lastModified: String? = nil, validatorURL: URL? = nil, userAgent: String,
        headers: [String: String] = [:]
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.validatorURL = validatorURL
        self.userAgent = userAgent
        self.headers = headers
    }

    /// True when the request carries validators for `hop` (a URL on its redirect chain).
    func sendsValidators(to hop: URL) -> Bool {
        (etag != nil || lastModified != nil) && hop.absoluteString == (validatorURL ?? url).absoluteString
    }

    /// True when `headers` go to `hop`: it has the scheme, host and port of `headersOrigin ?? url`.
    func sendsHeaders(to hop: URL) -> Bool {
        Self.origin(of: hop) == Self.origin(of: headersOrigin ?? url)
    }

    /// Scheme, host (lowercased) and port (the scheme's default when none is written).
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// True when `feeds.yml` gives the feed validators of its own (`headers:` with `If-None-Match`
    /// or `If-Modified-Since`).
    var hasOwnValidators: Bool {
        headers.keys.contains { ["if-none-match", "if-modified-since"].contains($0.lowercased()) }
    }
}

/// A server's answer for one feed (or what a local feed file holds).
package enum FetchResponse: Sendable, Hashable {
    /// New bytes (HTTP 200; a local file that changed).
    case fetched(FetchedFeed)
    /// HTTP 304: the feed did not change since the validators were saved (a local file: the same
    /// modification time and size, or the same content).
    case notModified(FetchInfo)

    package var info: FetchInfo {
        switch self {
        case .fetched(let feed): return feed.info
        case .notModified(let info): return info
        }
    }
}

/// Facts about a response that the status page and the advice need.
package struct FetchInfo: Sendable, Hashable {
    /// The URL after redirects: the base for relative links in the feed.
    package var finalURL: URL
    /// The HTTP status of the final response. A local file reports 200 when read and 304 when
    /// unchanged, so the status page and `status.json` read the same for both kinds of source.
    package var status: Int
    /// Where the feed now lives when the server answered with a permanent redirect (301/308).
    package var permanentRedirect: URL?
    /// Attempts made (1 when the first one succeeded).
    package var attempts: Int

    package init(finalURL: URL, status: Int, permanentRedirect: URL? = nil, attempts: Int = 1) {
        self.finalURL = finalURL
        self.status = status
        self.permanentRedirect = permanentRedirect
        self.attempts = attempts
    }
}

/// The bytes of one feed as the server sent them (decompressed), with what the response said
/// about them. Nothing here is trusted yet: the parser decides what the bytes are.
package struct FetchedFeed: Sendable, Hashable {
    package var info: FetchInfo
    /// The `Content-Type` header, when there was one (a hint for the charset, never for the format).
    package var contentType: String?
    package var etag: String?
    package var lastModified: String?
    package var body: Data
    /// What the transfer got wrong and was read anyway (a body cut off, a wrong
    /// `Content-Encoding`): warnings on the feed.
    package var warnings: [String] = []

    package var finalURL: URL { info.finalURL }

    package init(info: FetchInfo, contentType: String?, etag: String? = nil, lastModified: String? = nil, body: Data) {
        self.info = info
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.body = body
    }
}
