import Foundation

extension String {
    /// The text without leading and trailing Unicode whitespace (and newlines).
    ///
    /// Scans only the two ends and slices once (item bodies are hundreds of kilobytes), where
    /// Foundation's `trimmingCharacters(in:)` bridges through `NSString` on Linux and copies the
    /// whole string.
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !Self.isWhitespace($0) })
        else { return "" }
        // Most values need no trimming: return them as they are rather than copying (item bodies are large).
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }

    /// `trimmingCharacters(in: .whitespaces)` (spaces and tabs), without the trip through `NSString`
    /// when there is nothing to trim, the usual case for attribute values like `rel` and `type`.
    package var trimmingSpacesAndTabs: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        func isKept(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && scalar != " " && scalar != "\t" }
        return isKept(first) && isKept(last) ? self : trimmingCharacters(in: .whitespaces)
    }

    /// Unicode's `White_Space` property, spelled out, so excerpts of text with typographic
    /// punctuation (`’`, `—`) need no property lookup per scalar. `StringWhitespaceTests` compares
    /// it with `properties.isWhitespace` on every scalar.
    package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
