import FeedsiteCompression
import Foundation
import FuzzerDriver

/// libFuzzer entry point: bytes → `Decompression.decompress` as gzip and as deflate, as a
/// stranger's server sends a body under `Content-Encoding`. Beyond "no crash": the output never
/// passes the limit, and a body read whole is read the same way again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecompression(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
    for format in [Decompression.Format.gzip, .deflate] {
        let result = Decompression.decompress(bytes, format, limitBytes: 1 << 20)
        if case .success(let output) = result {
            precondition(output.body.count <= 1 << 20)
            precondition(output.trailingBytes >= 0 && output.trailingBytes <= bytes.count)
        }
        precondition(result == Decompression.decompress(bytes, format, limitBytes: 1 << 20))
    }
    return 0
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzDecompression` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzDecompression(data, size) })
    }
}
