import Foundation
import FuzzerDriver

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → `StateStore.decode` as restored from elsewhere (untrusted).
/// Kept to these lines so it follows the state codec wherever its entry point goes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateDecoder(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    _ = StateStore.decode(Data(buffer: bytes), origin: "fuzz", trusted: false)
    return 0
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzStateDecoder` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzStateDecoder(data, size) })
    }
}
