import Foundation
import FuzzerDriver

@testable import FeedsiteParse

/// libFuzzer entry point: bytes → `FeedParser().parse`. Any input may be refused (a thrown
/// `FeedParseError`); none may crash, trap or take over a second.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    let document = Data(buffer: bytes)
    _ = try? FeedParser().parse(document, url: URL(string: "https://fuzz.example/feed"))
    // The content-type path (HTTP charset) too, when the input starts with a marker byte.
    if bytes.first == 0x21 {
        _ = try? FeedParser().parse(document, url: nil, contentType: "text/xml; charset=iso-8859-1")
    }
    return 0
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzFeedParser` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzFeedParser(data, size) })
    }
}
