import Foundation
public struct FeedParser: Sendable {
    public init() {}
    public func parse(_ data: Data, url: URL?) throws(FeedParseError) -> Feed {
        throw FeedParseError(line: nil, message: "stub")
    }
}
public struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int?
    public var message: String
    public var description: String { message }
}
public struct SanitisedHTML: Sendable, Hashable, Codable, CustomStringConvertible {
    public let html: String
    public var description: String { html }
}
public struct SanitisedContent: Sendable, Hashable { public var html: SanitisedHTML; public var plainText: String }
public struct HTMLSanitiser: Sendable {
    public struct Limits: Sendable { public init() {} }
    public init(limits: Limits = .init()) {}
    public func sanitise(html: String, baseURL: URL?) -> SanitisedContent { .init(html: .init(html: ""), plainText: html) }
    public func sanitise(plainText: String, baseURL: URL?) -> SanitisedContent { .init(html: .init(html: ""), plainText: plainText) }
    public static func excerpt(_ plainText: String, maxLength: Int) -> String { String(plainText.prefix(maxLength)) }
}
enum URLPolicy { enum Purpose { case link, image }; static func resolve(_ raw: String, against base: URL?, for purpose: Purpose) -> String? { raw } }
