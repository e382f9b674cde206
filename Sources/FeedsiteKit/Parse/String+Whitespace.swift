import Foundation

extension String {
    /// The text without leading and trailing Unicode whitespace (and newlines).
    ///
    /// Foundation's `trimmingCharacters(in:)` bridges through `NSString` on Linux and copies the
    /// whole string; on item bodies of hundreds of kilobytes that showed up at 13 % of a build's
    /// time. This scans only the two ends and slices once.
    var trimmingWhitespace: String {
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
    var trimmingSpacesAndTabs: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        func isKept(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && scalar != " " && scalar != "\t" }
        return isKept(first) && isKept(last) ? self : trimmingCharacters(in: .whitespaces)
    }

    /// ASCII fast path before the Unicode property lookup (which is comparatively slow).
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: return true
        case 0..<0x80: return false
        default: return scalar.properties.isWhitespace
        }
    }
}
