import FeedsiteImage
import Foundation
import FuzzerDriver

/// libFuzzer entry point: bytes → `IconFile.largestImage` (an `.ico` directory, then the chosen
/// PNG's bytes or a BMP decoded by hand), as a feed's `/favicon.ico` arrives from a stranger.
/// Beyond "no crash": decoded pixels are 1–256 on a side with exactly 4 bytes each.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIconFile(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
    if case .pixels(let pixels)? = IconFile.largestImage(in: bytes) {
        precondition((1...IconFile.maxSide).contains(pixels.width) && (1...IconFile.maxSide).contains(pixels.height))
        precondition(pixels.rgba.count == pixels.width * pixels.height * 4)
    }
    return 0
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzIconFile` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzIconFile(data, size) })
    }
}
