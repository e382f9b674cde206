import Foundation

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → `FeedParser().parse`. Any input may be refused (a thrown
/// `FeedParseError`); none may crash, trap or take over a second.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = try? FeedParser().parse(data, url: URL(string: "https://fuzz.example/feed"))
    // The content-type path (HTTP charset) too, when the input starts with a marker byte.
    if count > 0, bytes[0] == 0x21 {
        _ = try? FeedParser().parse(data, url: nil, contentType: "text/xml; charset=iso-8859-1")
    }
    return 0
}
