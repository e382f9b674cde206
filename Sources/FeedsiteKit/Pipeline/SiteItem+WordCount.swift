extension SiteItem {
    /// Words in plain text: runs of letters or digits (CJK text without spaces counts as few
    /// long words, so its reading time is underestimated).
    ///
    /// Hot path (every item body, once per read): over the UTF-8 bytes, eight ASCII bytes at a
    /// time, other scalars decoded by hand and looked up in `basicPlaneAlphabetic`; see
    /// Benchmarks/RESULTS.md. It counts exactly as a loop over `unicodeScalars` asking
    /// `properties.isAlphabetic` does: `PaginationAndThemeTests` compares the two on every scalar
    /// of the Basic Multilingual Plane.
    static func wordCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            var inWord = false
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count, let base = bytes.baseAddress {
                    let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if chunk & 0x8080_8080_8080_8080 == 0 {
                        // Eight ASCII bytes at once: a high bit per letter or digit, then the
                        // ones not preceded by another (the previous byte's bit shifted in).
                        let wordBytes = Self.asciiWordBytes(chunk)
                        count += (wordBytes & ~(wordBytes << 8 | (inWord ? 0x80 : 0))).nonzeroBitCount
                        inWord = wordBytes >> 63 != 0
                        index += 8
                        continue
                    }
                }
                let byte = bytes[index]
                let isWordScalar: Bool
                if byte < 0x80 {
                    let folded = byte | 0x20
                    isWordScalar =
                        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                        || (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
                    index += 1
                } else {
                    // A Swift string is valid UTF-8: the lead byte gives the length.
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for offset in 1..<length where index + offset < bytes.count {
                        value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
                    }
                    index += length
                    isWordScalar =
                        value < 0x1_0000
                        ? basicPlaneAlphabetic[Int(value >> 6)] & (1 << (value & 63)) != 0
                        : Unicode.Scalar(value)?.properties.isAlphabetic ?? false
                }
                if isWordScalar && !inWord { count += 1 }
                inWord = isWordScalar
            }
            return count
        }
    }

    /// The high bit of each byte of `chunk` (all ASCII) that is a letter or a digit: "greater than"
    /// per byte is `(byte + 0x7F - n) & 0x80`, exact for bytes and bounds below 0x80.
    private static func asciiWordBytes(_ chunk: UInt64) -> UInt64 {
        func greater(_ value: UInt64, than bound: UInt64) -> UInt64 {
            (value &+ (0x7F - bound) &* 0x0101_0101_0101_0101) & 0x8080_8080_8080_8080
        }
        let digit = greater(chunk, than: 0x2F) & ~greater(chunk, than: 0x39)
        let folded = chunk | 0x2020_2020_2020_2020  // `A`…`Z` → `a`…`z` (and nothing else into that range)
        let letter = greater(folded, than: 0x60) & ~greater(folded, than: 0x7A)
        return digit | letter
    }

    /// `isAlphabetic` for every scalar of the Basic Multilingual Plane (one bit each, 8 KB), made
    /// once from the same property, so that European text and typographic punctuation (`—`, `’`,
    /// `…`) need no property lookup per scalar. An immutable constant, not a cache.
    private static let basicPlaneAlphabetic: [UInt64] = (0..<1024).map { word in
        var bits: UInt64 = 0
        for bit in 0..<64 where Unicode.Scalar(UInt32(word * 64 + bit))?.properties.isAlphabetic ?? false {
            bits |= 1 << UInt64(bit)
        }
        return bits
    }
}
