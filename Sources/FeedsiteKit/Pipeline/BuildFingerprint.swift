import Foundation

/// A digest of everything a build's output depends on: the saved state (items, health), this run's
/// per-feed outcomes, the templates and assets, the configuration and feedsite's version.
///
/// When it equals the previous build's and that build's output folder is still the one on disk, the
/// site would come out byte-for-byte the same, so rendering and writing are skipped: a warm rebuild
/// where every feed answered 304 costs the fetches and the state, not 30,000 pages.
struct BuildFingerprint: Hashable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    /// Bytes of the current field not yet mixed in (fewer than 8), little-endian, and how many.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// A whole field: the bytes, then a separator, so that ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ data: Data) {
        addBytes(data)
        endField()
    }

    /// Part of a field that arrives in pieces; `endField()` after the last one. The digest equals
    /// `add` of the pieces joined, wherever the pieces are cut (the state is digested as it is
    /// streamed to disk and again, whole, when it is loaded).
    ///
    /// Hot path (the whole state, on every warm build): eight bytes per multiply; see
    /// Benchmarks/RESULTS.md.
    mutating func addBytes(_ data: some DataProtocol & ContiguousBytes) {
        data.withUnsafeBytes { buffer in
            var index = 0
            while pendingCount != 0 && index < buffer.count {
                takeByte(buffer[index])
                index += 1
            }
            var hash = value
            while index + 8 <= buffer.count {
                hash = Self.mix(
                    hash, UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                index += 8
            }
            value = hash
            while index < buffer.count {
                takeByte(buffer[index])
                index += 1
            }
        }
    }

    /// Ends a field: the bytes still pending, with their count, then the separator.
    mutating func endField() {
        value = Self.mix(value, pending ^ (UInt64(pendingCount) << 59))
        value = Self.mix(value, 0xFF)
        pending = 0
        pendingCount = 0
    }

    private mutating func takeByte(_ byte: UInt8) {
        pending |= UInt64(byte) << (8 * UInt64(pendingCount))
        pendingCount += 1
        if pendingCount == 8 {
            value = Self.mix(value, pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// One step: xor the word in, multiply by an odd 64-bit constant, fold the high bits down.
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 29)
    }

    mutating func add(_ text: String) {
        add(Data(text.utf8))
    }

    var text: String { String(value, radix: 16) }
}
