/// Writes ASCII into a buffer of known size: fixed-width date fields without intermediate strings
/// (dates are written on every page and in every published feed).
package struct ASCIIWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    package private(set) var count = 0

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    package mutating func byte(_ character: Unicode.Scalar) {
        append(UInt8(ascii: character))
    }

    package mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// The UTF-8 bytes of `text` (the caller sized the buffer for them).
    package mutating func bytes(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }

    /// `value` (0 or more) in decimal, zero-padded to `count` digits; more digits when it needs them.
    package mutating func digits(_ value: Int, count width: Int = 1) {
        var length = 1
        var limit = 10
        while length < 19, value >= limit {
            length += 1
            limit &*= 10
        }
        length = max(length, width)
        var rest = value
        for index in stride(from: count + length - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }
}
