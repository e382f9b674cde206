import FeedsiteParse
import FeedsiteShared
import Foundation

extension StateFile {
    /// The feed URLs that a state file gives more than once in its `feeds` or `items` object,
    /// with the object's name, in order; empty for a file feedsite wrote.
    ///
    /// Hand-written: `JSONDecoder` keeps the first value of a repeated key without a word, so a
    /// state edited by hand (or restored from elsewhere) with a feed's items listed twice would
    /// lose the second list silently. One pass over the bytes, strings skipped whole, no
    /// recursion; run only when the whole file is decoded (never on the indexed path) and only
    /// after it decoded, so it is well-formed JSON and its brackets balance.
    static func repeatedRecordKeys(in data: Data, limit: Int = 20) -> [(object: String, key: String)] {
        data.withUnsafeBytes { raw -> [(object: String, key: String)] in
            let bytes = raw.bindMemory(to: UInt8.self)
            var found: [(object: String, key: String)] = []
            var depth = 0
            var expectsKey = false
            var topKey = ""
            var seen: Set<String> = []
            JSONShape.walk(bytes) { _, byte, token in
                switch byte {
                case UInt8(ascii: "\""):
                    guard expectsKey, depth == 1 || depth == 2, let token else { break }
                    expectsKey = false
                    let key = String(
                        decoding: FeedParser.decodedKey(UnsafeBufferPointer(rebasing: bytes[token])), as: UTF8.self)
                    if depth == 1 {
                        topKey = key
                    } else if topKey == "feeds" || topKey == "items", !seen.insert(key).inserted {
                        found.append((topKey, key))
                    }
                case UInt8(ascii: "{"):
                    depth += 1
                    expectsKey = true
                    if depth == 2 { seen = [] }
                case UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                case UInt8(ascii: ":"):
                    expectsKey = false
                case UInt8(ascii: ","):
                    // In an object a comma is followed by a key; in an array the flag is unused
                    // (only depths 1 and 2, objects there, read it).
                    expectsKey = true
                default:
                    break
                }
                return found.count < limit
            }
            return found
        }
    }
}
