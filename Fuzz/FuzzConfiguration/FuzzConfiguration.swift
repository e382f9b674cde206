import Foundation
import FuzzerDriver

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → the `feeds.yml` loader (`SiteConfiguration+Loading`: YAML through
/// Yams, then every key validated).
/// Invalid configurations are refused with diagnostics; none may crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    let text = String(decoding: bytes, as: UTF8.self)
    // Feed paths resolve against a folder that does not exist, so no input reads a real file.
    _ = try? SiteConfiguration.parse(yaml: text, directory: URL(fileURLWithPath: "/nonexistent-fuzz"))
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
