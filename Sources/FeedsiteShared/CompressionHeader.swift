import Foundation

/// The compressed container some bytes start with: what the parser names when a feed body is
/// compressed without saying so, and what the decompressor tells apart from bytes that were never
/// compressed. No feed starts like either: a feed starts with `<`, `{`, a byte order mark or white
/// space, and zlib's first byte is `x` (or below `x`, which is no text) followed by a byte that
/// makes the pair a multiple of 31.
package enum CompressionHeader: Sendable, Equatable {
    /// gzip (RFC 1952): `1F 8B`.
    case gzip
    /// zlib (RFC 1950), HTTP's `deflate`: compression method 8, a window of at most 32 KB, no
    /// preset dictionary, and a header that is a multiple of 31 (`78 9C`, `78 DA`, …).
    case zlib

    /// The header `data` starts with, nil when it starts with neither.
    package init?(startOf data: Data) {
        guard data.count >= 2 else { return nil }
        let first = data[data.startIndex]
        let second = data[data.startIndex + 1]
        if first == 0x1F, second == 0x8B {
            self = .gzip
        } else if first & 0x0F == 8, first >> 4 <= 7, second & 0x20 == 0, (Int(first) << 8 | Int(second)) % 31 == 0 {
            self = .zlib
        } else {
            return nil
        }
    }

    /// The name HTTP's `Content-Encoding` gives it.
    package var contentEncoding: String {
        switch self {
        case .gzip: "gzip"
        case .zlib: "deflate"
        }
    }
}
