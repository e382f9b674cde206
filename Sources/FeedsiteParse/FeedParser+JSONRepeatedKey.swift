import FeedsiteShared
import Foundation

extension FeedParser {
    /// Where each value of the top-level key `key` lies in a JSON document `JSONSerialization` has
    /// read (indices of `data`), when the document gives that key more than once; nil when it gives it once or never.
    ///
    /// `JSONSerialization` keeps only the last value of a repeated key, so a feed whose generator
    /// wrote `"items"` twice (two loops over two queries) would lose the first list's items without
    /// a word. The byte ranges let each value be read on its own. A key written with escapes
    /// (`"\u0069tems"`) is decoded before it is compared, as the parser decodes it.
    ///
    /// One pass over the bytes, strings skipped whole, no recursion: the document is well-formed
    /// JSON (it has just been parsed), so its brackets balance.
    static func repeatedTopLevelValues(of key: String, in data: Data) -> [Range<Int>]? {
        let wanted = Array(key.utf8)
        let base = data.startIndex
        return data.withUnsafeBytes { raw -> [Range<Int>]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var ranges: [Range<Int>] = []
            var depth = 0
            var isAtKey = false
            var isMatchingKey = false
            var valueStart: Int?
            JSONShape.walk(bytes) { index, byte, token in
                switch byte {
                case UInt8(ascii: "\""):
                    if depth == 1, isAtKey, let token {
                        isAtKey = false
                        isMatchingKey = decodedKey(UnsafeBufferPointer(rebasing: bytes[token])) == wanted
                    }
                case UInt8(ascii: ":") where depth == 1:
                    if isMatchingKey { valueStart = index + 1 }
                    isMatchingKey = false
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth == 1, byte == UInt8(ascii: "{") { isAtKey = true }
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 1 {
                        if let start = valueStart { ranges.append((base + start)..<(base + index)) }
                        valueStart = nil
                        isAtKey = byte == UInt8(ascii: ",")
                    }
                    if byte != UInt8(ascii: ",") {
                        depth -= 1
                        if depth <= 0 { return false }
                    }
                default:
                    break
                }
                return true
            }
            return ranges.count > 1 ? ranges : nil
        }
    }

    /// The keys an item of the top-level `items` list (or lists) gives more than once, by item
    /// (0-based, every element counted, across repeated lists in document order) and key, each once, at most
    /// `limit` in all. `JSONSerialization` keeps only the last value of a repeated key; this says
    /// which were lost. One pass, strings skipped whole; `data` has just been parsed, so it is
    /// well-formed and nests at most 512 deep.
    static func repeatedItemKeys(in data: Data, limit: Int = 100) -> [(item: Int, key: String)] {
        data.withUnsafeBytes { raw -> [(item: Int, key: String)] in
            let bytes = raw.bindMemory(to: UInt8.self)
            var found: [(item: Int, key: String)] = []
            var containers: [UInt8] = []  // the open `{` and `[`, outermost first
            var isKeyNext = false
            var topLevelKey: [UInt8] = []
            var itemsListDepth: Int?  // the depth of an `items` list being read
            // Items are numbered as the parser numbers them: every element of the lists counts.
            var earlierElements = 0  // in the `items` lists already read
            var elements = 0  // in the one being read
            var isElementNext = false
            var item = -1
            var itemKeys: Set<[UInt8]> = []
            var reported: Set<[UInt8]> = []
            JSONShape.walk(bytes) { _, byte, token in
                if isElementNext, containers.count == itemsListDepth, byte != UInt8(ascii: "]"),
                    ![0x20, 0x09, 0x0A, 0x0D].contains(byte)
                {
                    isElementNext = false
                    item = earlierElements + elements
                    elements += 1
                }
                switch byte {
                case UInt8(ascii: "\""):
                    guard isKeyNext, let token else { break }
                    isKeyNext = false
                    if containers.count == 1 {
                        topLevelKey = decodedKey(UnsafeBufferPointer(rebasing: bytes[token]))
                    } else if let depth = itemsListDepth, containers.count == depth + 1 {
                        let key = decodedKey(UnsafeBufferPointer(rebasing: bytes[token]))
                        if !itemKeys.insert(key).inserted, reported.insert(key).inserted {
                            found.append((item, String(decoding: key, as: UTF8.self)))
                        }
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    containers.append(byte)
                    isKeyNext = byte == UInt8(ascii: "{")
                    if containers.count == 2, byte == UInt8(ascii: "["), topLevelKey == Array("items".utf8) {
                        itemsListDepth = 2
                        elements = 0
                        isElementNext = true
                    } else if let depth = itemsListDepth, containers.count == depth + 1, byte == UInt8(ascii: "{") {
                        itemKeys = []
                        reported = []
                    }
                case UInt8(ascii: ","):
                    isKeyNext = containers.last == UInt8(ascii: "{")
                    isElementNext = containers.count == itemsListDepth
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if containers.count == itemsListDepth {
                        itemsListDepth = nil
                        earlierElements += elements
                    }
                    containers.removeLast()
                    isKeyNext = false
                default:
                    break
                }
                return found.count < limit
            }
            return found
        }
    }

    /// A key's bytes, its escapes decoded (by `JSONSerialization`) when it has any.
    package static func decodedKey(_ token: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard token.contains(UInt8(ascii: "\\")) else { return Array(token.dropFirst().dropLast()) }
        let decoded = try? JSONSerialization.jsonObject(with: Data(token), options: .fragmentsAllowed) as? String
        return decoded.map { Array($0.utf8) } ?? Array(token.dropFirst().dropLast())
    }
}
