import Foundation

/// Byte searches for the scans over every feed document and item body (Parse, Sanitise and Render
/// each scan them).
package enum ByteScan {
    /// The first `byte` in `bytes[start..<end]`, found with `memchr` (which reads many bytes a step).
    package static func firstIndex(
        of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int? {
        guard start < end, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), end - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// The index of the first byte at or after `start` that is below 0x20 or at least 0x7F (C0
    /// controls, tab and newline included; DEL; every byte of a multi-byte UTF-8 sequence), or
    /// `bytes.count` when there is none.
    package static func nextControlOrNonASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = min(start, bytes.count)
        while index < bytes.count, bytes[index] >= 0x20, bytes[index] < 0x7F { index += 1 }
        return index
    }
}
