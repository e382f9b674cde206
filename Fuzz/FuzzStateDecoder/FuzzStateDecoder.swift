import Foundation

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → `StateStore.decode` as restored from elsewhere (untrusted).
/// Kept to these lines so it follows the state codec wherever its entry point goes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = StateStore.decode(Data(bytes: bytes, count: count), origin: "fuzz", trusted: false)
    return 0
}
