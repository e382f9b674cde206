import Foundation

/// What to ask a server for one feed.
public struct FetchRequest: Sendable, Hashable {
    public var url: URL
    /// Validators from the last good response: sent back so an unchanged feed costs a 304.
    public var etag: String?
    public var lastModified: String?
    public var userAgent: String
    /// Extra headers from `feeds.yml`.
    public var headers: [String: String]

    public init(
        url: URL, etag: String? = nil, lastModified: String? = nil, userAgent: String, headers: [String: String] = [:]
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.userAgent = userAgent
        self.headers = headers
    }
}

/// A server's answer for one feed.
public enum FetchResponse: Sendable, Hashable {
    /// New bytes (HTTP 200).
    case fetched(FetchedFeed)
    /// HTTP 304: the feed did not change since the validators were saved.
    case notModified(FetchInfo)

    public var info: FetchInfo {
        switch self {
        case .fetched(let feed): return feed.info
        case .notModified(let info): return info
        }
    }
}

/// Facts about a response that the status page and the advice need.
public struct FetchInfo: Sendable, Hashable {
    /// The URL after redirects: the base for relative links in the feed.
    public var finalURL: URL
    /// The HTTP status of the final response.
    public var status: Int
    /// Where the feed now lives when the server answered with a permanent redirect (301/308).
    public var permanentRedirect: URL?
    /// Attempts made (1 when the first one succeeded).
    public var attempts: Int

    public init(finalURL: URL, status: Int, permanentRedirect: URL? = nil, attempts: Int = 1) {
        self.finalURL = finalURL
        self.status = status
        self.permanentRedirect = permanentRedirect
        self.attempts = attempts
    }
}

/// The bytes of one feed as the server sent them (decompressed), with what the response said
/// about them. Nothing here is trusted yet: the parser decides what the bytes are.
public struct FetchedFeed: Sendable, Hashable {
    public var info: FetchInfo
    /// The `Content-Type` header, when there was one (a hint for the charset, never for the format).
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    public var body: Data

    public var finalURL: URL { info.finalURL }

    public init(info: FetchInfo, contentType: String?, etag: String? = nil, lastModified: String? = nil, body: Data) {
        self.info = info
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.body = body
    }
}
