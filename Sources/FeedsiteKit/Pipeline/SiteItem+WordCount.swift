extension SiteItem {
    /// Words in plain text: runs of letters or digits (ASCII letters and digits, and any other
    /// scalar that is alphabetic; CJK text without spaces counts as few long words, so its reading
    /// time is underestimated).
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let isWordScalar =
                switch scalar.value {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
                case 0..<0x80: false
                default: scalar.properties.isAlphabetic
                }
            if isWordScalar && !inWord { count += 1 }
            inWord = isWordScalar
        }
        return count
    }
}
