import Foundation

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → the `feeds.yml` loader (YAML through Yams, then validation).
/// Invalid configurations are refused with diagnostics; none may crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    _ = try? SiteConfiguration.parse(yaml: text)
    return 0
}
