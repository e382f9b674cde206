import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise
@testable import FeedsiteShared

@Suite("Byte scans")
struct ByteScanTests {
    /// Bytes that exercise every branch: printable ASCII, whitespace controls, other controls, DEL,
    /// C1 and noncharacter sequences, ordinary UTF-8.
    static let pieces: [[UInt8]] = [
        Array("plain ascii text".utf8), Array("<p>".utf8), [0x0A], [0x09], [0x0D], [0x0C], [0x00], [0x01], [0x1F],
        [0x7F], [0xC2, 0x85], [0xC2, 0xA0], Array("é".utf8), Array("’".utf8), [0xEF, 0xB7, 0x90], [0xEF, 0xBF, 0xBE],
        [0xF4, 0x8F, 0xBF, 0xBF], Array("😀".utf8), Array("12345678".utf8),
    ]

    static func randomBytes(_ generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<Int.random(in: 0...12, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
    }

    @Test("finds the first control or non-ASCII byte from any start, across and inside 8-byte words")
    func nextControlOrNonASCII() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let bytes = Self.randomBytes(&generator)
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...bytes.count {
                    let expected = bytes[start...].firstIndex { $0 < 0x20 || $0 >= 0x7F } ?? bytes.count
                    #expect(ByteScan.nextControlOrNonASCII(in: buffer, from: start) == expected, "\(bytes) \(start)")
                }
            }
        }
        // Every byte value in every position of a word.
        for value in 0...255 {
            for position in 0..<17 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
                bytes[position] = UInt8(value)
                let expected = value < 0x20 || value >= 0x7F ? position : 17
                let found = bytes.withUnsafeBufferPointer { ByteScan.nextControlOrNonASCII(in: $0, from: 0) }
                #expect(found == expected, "\(value) at \(position)")
            }
        }
    }

    @Test("the control and noncharacter checks answer as the byte-at-a-time loops they replaced")
    func checksMatchTheirReferences() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let bytes = Self.randomBytes(&generator)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(HTMLSanitiser.mayContainForbiddenControl(text) == Self.referenceForbiddenControl(text), "\(bytes)")
            bytes.withUnsafeBufferPointer { buffer in
                #expect(
                    HTMLSubsetParser.hasCharactersGumboReplaces(buffer) == Self.referenceGumboReplaces(buffer),
                    "\(bytes)")
            }
        }
    }

    static func referenceForbiddenControl(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0xA0 || (byte >= 0x20 && byte < 0x7F) { continue }
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D: continue
            case 0x00...0x1F, 0x7F: return true
            default: if index > 0 && bytes[index - 1] == 0xC2 { return true }
            }
        }
        return false
    }

    static func referenceGumboReplaces(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        for index in 0..<count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D { return true }
            } else if byte >= 0x7F {
                let second = index + 1 < count ? bytes[index + 1] : 0
                let third = index + 2 < count ? bytes[index + 2] : 0
                switch byte {
                case 0x7F: return true
                case 0xC2 where second < 0xA0: return true
                case 0xEF where second == 0xB7 && (0x90...0xAF).contains(third): return true
                case 0xEF where second == 0xBF && third >= 0xBE: return true
                case 0xF0...0xF4 where second & 0x0F == 0x0F && third == 0xBF:
                    if index + 3 < count, bytes[index + 3] >= 0xBE { return true }
                default: break
                }
            }
        }
        return false
    }

    @Test("a caseless search matches ASCII letters in either case, and nothing past the end")
    func caseless() {
        let needle = Array("youtu".utf8)
        for (text, expected) in [
            ("https://www.YouTube.com/x", 12), ("https://youtu.be/x", 8), ("YOUTU", 0), ("youT", nil),
            ("https://vimeo.com/1", nil), ("", nil), ("xyoutuyoutu", 1),
        ] as [(String, Int?)] {
            let found = Array(text.utf8).withUnsafeBufferPointer {
                ByteScan.firstIndex(ofCaseless: needle, in: $0, from: 0)
            }
            #expect(found == expected, "\(text)")
        }
        let from = Array("youtu youtu".utf8).withUnsafeBufferPointer {
            ByteScan.firstIndex(ofCaseless: needle, in: $0, from: 1)
        }
        #expect(from == 6)
    }
}
