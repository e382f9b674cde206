import Foundation
import FuzzerDriver

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// libFuzzer entry point: a differential check of `HTMLSubsetParser` (the fast path) against
/// gumbo. Whenever the subset parser answers, its tree, and the depth it measured, must be
/// exactly gumbo's for the same input; a difference aborts, so libFuzzer keeps the input.
///
/// The input reaches both parsers as it does in production (`HTMLSanitiser.sanitise(html:)`, then
/// `HTMLFragment.init(parsing:)`): forbidden controls replaced when the byte scan finds anything
/// gumbo replaces, the nesting limited, then the subset parser told whether that scan was clean.
/// Checked at the tests' limit (200) and at a small one (8), where short inputs reach it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubsetParser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    let text = String(decoding: bytes, as: UTF8.self)
    guard !text.isEmpty else { return 0 }
    var input = text
    let isPlain = !input.withUTF8(HTMLSubsetParser.hasCharactersGumboReplaces)
    if !isPlain { input = HTMLSanitiser.replacingForbiddenControls(input) }
    for maxDepth in [200, 8] {
        SubsetOracle.check(input, original: text, maxDepth: maxDepth, hasNoReplacedCharacters: isPlain)
    }
    return 0
}

enum SubsetOracle {
    static func check(_ input: String, original: String, maxDepth: Int, hasNoReplacedCharacters: Bool) {
        let opaque = ContentBuilder.droppedElements
        // As gumbo's input is in production (`HTMLFragment`): attributes past the 256th left out
        // whatever the number of tags; the subset parser leaves out the same ones itself.
        let limited =
            NestingLimiter.limited(input, maxDepth: maxDepth, opaqueElements: opaque, scanningAlways: true) ?? input
        guard
            let subset = HTMLSubsetParser.parseMeasuringDepth(
                limited, maxDepth: maxDepth, hasNoReplacedCharacters: hasNoReplacedCharacters)
        else { return }
        let gumbo = HTMLFragment.gumboNodes(parsing: limited, maxDepth: maxDepth, opaqueElements: opaque)
        if subset.nodes != gumbo {
            fail(
                "trees differ (maxDepth \(maxDepth))\nsubset: \(subset.nodes)\ngumbo:  \(gumbo)",
                limited: limited, original: original)
        }
        // The depth decides whether the sanitiser caps its blocks (`ContentDepth.mayExceed`).
        if case .success(let parsed) = HTMLFragment.parseWithGumbo(limited, maxDepth: maxDepth, opaqueElements: opaque),
            parsed.depth != subset.depth
        {
            fail(
                "depths differ (maxDepth \(maxDepth)): subset \(subset.depth), gumbo \(parsed.depth)",
                limited: limited, original: original)
        }
    }

    /// A divergence is a crash to libFuzzer: it keeps the input as a reproducer.
    static func fail(_ message: String, limited: String, original: String) -> Never {
        FileHandle.standardError.write(
            Data(
                "subset parser differs from gumbo: \(message)\nparsed: \(limited.debugDescription)\ninput:  \(original.debugDescription)\n"
                    .utf8))
        abort()
    }
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzSubsetParser` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzSubsetParser(data, size) })
    }
}
