import Foundation
import FuzzerDriver

@testable import FeedsiteKit

/// libFuzzer entry point: bytes → the state decoder, every way a build reads state:
/// - as a restored `status/state.json` (`--restore-state`, `state_url`): `StateFile.decode` with
///   `trusted: false`, version 1 or 2, a record at a time, every value validated (`StateValidator`);
/// - as the local `.feedsite/state.json` (`trusted: true`);
/// - as the parts the fast path reads through `state-index.json`: the index itself, the feeds'
///   own fields (`[url: FeedEntry]`), and one feed's item list (`ItemList`), each validated.
///
/// Beyond "no crash, no trap, no input over a second" it checks that validation is a fixed point:
/// a restored state, saved again and restored again, is the same state with no warning (what
/// feedsite publishes, it can read back whole).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateDecoder(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(buffer: UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
    StateDecoderTarget.run(bytes)
    return 0
}

enum StateDecoderTarget {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(_ bytes: Data) {
        let restored = StateFile.decode(bytes, origin: "fuzz", trusted: false, now: now)
        if restored.failure == nil {
            let saved = StateStore.encode(restored.state)
            let again = StateFile.decode(saved, origin: "fuzz again", trusted: false, now: now)
            if again.failure != nil || again.state != restored.state || !again.warnings.isEmpty {
                fail(
                    "a restored state does not restore again as it was: \(again.failure.map { "\($0)" } ?? "")"
                        + " \(again.warnings.prefix(3))",
                    input: bytes)
            }
        }
        _ = StateFile.decode(bytes, origin: "fuzz", trusted: true, now: now)

        let decoder = StateFile.decoder(trusted: true)
        if let index = try? decoder.decode(StateIndex.self, from: bytes) {
            _ = StateIndex.isValid(index.feeds, size: index.file.size)
            for items in index.items.values { _ = StateIndex.isValid(items.range, size: index.file.size) }
        }
        if let entries = try? decoder.decode([String: StateFile.FeedEntry].self, from: bytes) {
            var validator = StateValidator(origin: "fuzz", now: now)
            for (url, entry) in entries {
                if case .success(var feed) = entry.feed { _ = validator.validate(&feed, url: url) }
            }
        }
        if let list = try? decoder.decode(StateFile.ItemList.self, from: bytes) {
            var validator = StateValidator(origin: "fuzz", now: now)
            var items = list.items
            validator.skippedItems(list.failures, feed: "https://fuzz.example/feed")
            validator.validate(&items, feed: "https://fuzz.example/feed")
        }
    }

    /// A broken invariant is a crash to libFuzzer: it keeps the input as a reproducer.
    static func fail(_ message: String, input: Data) -> Never {
        FileHandle.standardError.write(Data("state decoder: \(message)\ninput: \(input.count) bytes\n".utf8))
        abort()
    }
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
