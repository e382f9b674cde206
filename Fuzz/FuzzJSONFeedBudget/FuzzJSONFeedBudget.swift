import FeedsiteParse
import FeedsiteShared
import Foundation
import FuzzerDriver

/// libFuzzer entry point: bytes → `FeedParser().parse` with the JSON Feed value budget lowered to
/// 40 values (8 in an item or value), so that inputs of a few hundred bytes go through the rewrite
/// a stranger's 48 MB feed gets. Beyond "no crash": a document that `JSONSerialization` reads is
/// still read after the rewrite, and holds the values the rewrite counted, within the budget.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFeedBudget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
    let isJSON = (try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])) != nil
    guard let budget = try? JSONFeedBudget(bytes, lineOffset: 0, documentValues: 40, itemValues: 8) else {
        return 0
    }
    if isJSON {
        precondition((try? JSONSerialization.jsonObject(with: budget.data, options: [.fragmentsAllowed])) != nil)
        precondition(budget.values <= 40 && JSONShape(budget.data).values == budget.values)
    }
    return 0
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzJSONFeedBudget` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzJSONFeedBudget(data, size) })
    }
}
