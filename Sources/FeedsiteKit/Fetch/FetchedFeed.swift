import Foundation

/// The bytes of one feed as the server sent them (decompressed), with what the response said
/// about them. Nothing here is trusted yet: the parser decides what the bytes are.
public struct FetchedFeed: Sendable, Hashable {
    /// The URL after redirects: the base for relative links in the feed.
    public var finalURL: URL
    /// The HTTP status of the final response (2xx).
    public var status: Int
    /// The `Content-Type` header, when there was one (a hint for the charset, never for the format).
    public var contentType: String?
    public var body: Data

    public init(finalURL: URL, status: Int, contentType: String?, body: Data) {
        self.finalURL = finalURL
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
