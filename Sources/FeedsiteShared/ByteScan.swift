import Foundation

/// Byte searches that skip instead of stepping a byte at a time, for the scans over every feed
/// document and item body (Parse, Sanitise and Render each scan them; see Benchmarks/RESULTS.md).
package enum ByteScan {
    /// The first `byte` in `bytes[start..<end]`, found with `memchr` (which reads many bytes a step).
    package static func firstIndex(
        of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int? {
        guard start < end, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), end - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Where `literal` first starts in `bytes[start...]`: each candidate first byte found with
    /// `memchr`, then the rest compared.
    package static func firstIndex(of literal: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = literal.first, start >= 0 else { return nil }
        var from = start
        while let candidate = firstIndex(of: first, in: bytes, from: from, to: bytes.count - literal.count + 1) {
            if bytes[candidate..<candidate + literal.count].elementsEqual(literal) { return candidate }
            from = candidate + 1
        }
        return nil
    }

    /// Where `literal` (lowercase ASCII) first starts in `bytes[start...]`, its letters matched in
    /// either case.
    package static func firstIndex(
        ofCaseless literal: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Int? {
        guard !literal.isEmpty, start >= 0, start <= bytes.count - literal.count else { return nil }
        return (start...(bytes.count - literal.count)).first { candidate in
            literal.indices.allSatisfy { offset in
                let byte = bytes[candidate + offset]
                return (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == literal[offset]
            }
        }
    }

    /// The index of the first byte at or after `start` that is below 0x20 or at least 0x7F (C0
    /// controls, tab and newline included; DEL; every byte of a multi-byte UTF-8 sequence), or
    /// `bytes.count` when there is none.
    package static func nextControlOrNonASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let count = bytes.count
        var index = start
        while index < count {
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                // Some byte < 0x20 (exact as a yes/no: "hasless" from Bit Twiddling Hacks), or some
                // byte > 0x7E (adding 1 sets the high bit of 0x7F; 0x80 and up have it already).
                let below = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
                let above = ((word &+ 0x0101_0101_0101_0101) | word) & 0x8080_8080_8080_8080
                if below | above == 0 {
                    index += 8
                    continue
                }
            }
            for candidate in index..<min(index + 8, count) where bytes[candidate] < 0x20 || bytes[candidate] >= 0x7F {
                return candidate
            }
            index += 8
        }
        return count
    }
}
