extension String {
    /// The string without the UTF-8 byte ranges `ranges` (sorted, not overlapping, each starting and
    /// ending on a scalar boundary). `afterCut` may rewrite the output kept so far at each cut.
    func removingUTF8Ranges(_ ranges: [Range<Int>], afterCut: (inout [UInt8]) -> Void = { _ in }) -> String {
        var text = self
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var start = 0
            for range in ranges {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<range.lowerBound]))
                start = range.upperBound
                afterCut(&output)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return String(decoding: output, as: UTF8.self)
        }
    }
}
