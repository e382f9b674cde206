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
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let start = index
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    if depth == 1, isAtKey {
                        isAtKey = false
                        let end = min(index + 1, bytes.count)
                        isMatchingKey = isKey(UnsafeBufferPointer(rebasing: bytes[start..<end]), equalTo: wanted)
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
                        if depth <= 0 { index = bytes.count }
                    }
                default:
                    break
                }
                index += 1
            }
            return ranges.count > 1 ? ranges : nil
        }
    }

    /// Whether a JSON string token (quotes included) spells `wanted`; one with escapes is decoded
    /// by `JSONSerialization` first.
    private static func isKey(_ token: UnsafeBufferPointer<UInt8>, equalTo wanted: [UInt8]) -> Bool {
        guard token.contains(UInt8(ascii: "\\")) else {
            return token.count == wanted.count + 2 && token.dropFirst().prefix(wanted.count).elementsEqual(wanted)
        }
        let decoded = try? JSONSerialization.jsonObject(with: Data(token), options: .fragmentsAllowed) as? String
        return decoded.map { Array($0.utf8) == wanted } ?? false
    }
}
