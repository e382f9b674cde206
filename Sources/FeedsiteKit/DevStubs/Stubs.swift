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
