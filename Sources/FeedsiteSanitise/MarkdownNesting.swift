import FeedsiteShared

/// Bounds how deep plain text or Markdown nests block quotes and lists before cmark parses it.
///
/// In Markdown, containers open at the start of a line: `>>>>…` or `> - > - …` nests one level per
/// marker, and cmark builds (and we then walk) one node per level, at a cost per level far above
/// that of the text itself. Past `maxDepth` markers on one line, the rest are removed; the line's
/// text is kept. One scan of the line starts, and nothing is copied unless a line is cut.
enum MarkdownNesting {
    static func limited(_ text: String, maxDepth: Int) -> String {
        var text = text
        let cuts: [Range<Int>] = text.withUTF8 { bytes in
            var cuts: [Range<Int>] = []
            var lineStart = 0
            while lineStart < bytes.count {
                var index = lineStart
                var markers = 0
                var cutStart: Int?
                while let end = marker(in: bytes, at: index) {
                    markers += 1
                    if markers == maxDepth + 1 { cutStart = index }
                    index = end
                }
                if let cutStart { cuts.append(cutStart..<index) }
                guard let newline = ByteScan.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: index, to: bytes.count)
                else { break }
                lineStart = newline + 1
            }
            return cuts
        }
        return cuts.isEmpty ? text : text.removingUTF8Ranges(cuts)
    }

    /// The end of the container marker at `index` (up to three spaces, then `>` and an optional
    /// space, or a bullet or ordered list marker and its space), or nil when there is none.
    private static func marker(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var index = start
        while index < bytes.count, index - start < 3, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        if byte == UInt8(ascii: ">") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
            return index
        }
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "*") {
            index += 1
        } else {
            let digits = index
            while index < bytes.count, index - digits < 9, bytes[index] >= UInt8(ascii: "0"),
                bytes[index] <= UInt8(ascii: "9")
            {
                index += 1
            }
            guard index > digits, index < bytes.count,
                bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ")")
            else { return nil }
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")
        else { return nil }
        return index + 1
    }
}
