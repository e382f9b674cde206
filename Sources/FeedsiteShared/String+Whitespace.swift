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

    /// Unicode's `White_Space` property: what trimming and excerpts treat as space.
    package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }
}
