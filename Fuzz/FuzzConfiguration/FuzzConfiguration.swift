import Foundation
import FuzzerDriver

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → the `feeds.yml` loader (YAML through Yams, then validation).
/// Invalid configurations are refused with diagnostics; none may crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? SiteConfiguration.parse(yaml: text)
    return 0
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzConfiguration` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzConfiguration(data, size) })
    }
}
