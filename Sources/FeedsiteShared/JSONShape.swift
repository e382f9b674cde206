import Foundation

/// What a JSON text would cost a parser, measured in one pass before any parser sees it.
///
/// Foundation's `JSONDecoder` and `JSONSerialization` build the whole document before the first
/// value is looked at: about 50 bytes a value for the decoder's index (510 MB of `0,` in a state
/// took 13 GB and 68 s), 60–190 bytes for `JSONSerialization`'s objects (48 MB of `{},` in a JSON
/// Feed took 3 GB). Counting first lets a text past a bound be refused or cut for the cost of a scan.
package struct JSONShape: Sendable {
    /// Values (containers, keys, strings, numbers, literals), counted from what separates them: the
    /// first value, one for each `[` and `{` (their first element), one for each `,` and `:`. An
    /// empty container counts one more than it holds. Counting stops once past `maxValues`.
    package private(set) var values = 1
    /// The deepest nesting of arrays and objects; counting stops once past `maxDepth`.
    package private(set) var depth = 0

    package init(_ data: Data, maxValues: Int = .max, maxDepth: Int = .max) {
        var values = 1
        var depth = 0
        var level = 0
        data.withUnsafeBytes { raw in
            Self.walk(raw.bindMemory(to: UInt8.self)) { _, byte, _ in
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    level += 1
                    values += 1
                    depth = max(depth, level)
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    level -= 1
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    values += 1
                default:
                    break
                }
                return values <= maxValues && depth <= maxDepth
            }
        }
        self.values = values
        self.depth = depth
    }

    /// Walks a JSON text once, each string skipped whole: `visit` gets each byte outside strings
    /// (whitespace too) with its index, and each string at its opening quote with `token`, its
    /// bytes from quote to quote (to the end of the text when it is not closed). It returns false
    /// to stop. The one loop under every JSON scan feedsite makes (counting, repeated keys, the
    /// JSON Feed budget).
    @inlinable
    package static func walk(
        _ bytes: UnsafeBufferPointer<UInt8>, _ visit: (_ index: Int, _ byte: UInt8, _ token: Range<Int>?) -> Bool
    ) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = endOfString(bytes, from: index)
                guard visit(index, byte, index..<min(end + 1, bytes.count)) else { return }
                index = end + 1
            } else {
                guard visit(index, byte, nil) else { return }
                index += 1
            }
        }
    }

    /// The index of the `"` that ends the string starting at `start` (a backslash escapes the byte
    /// after it), or `bytes.count` when the text ends first.
    @inlinable
    package static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(index, bytes.count)
    }
}
