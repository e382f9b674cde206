import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise
@testable import FeedsiteShared

@Suite("Whitespace")
struct StringWhitespaceTests {
    @Test("isWhitespace is Unicode's White_Space property: the 25 code points of PropList.txt")
    func everyScalar() {
        // PropList.txt (Unicode 15), White_Space, copied by hand.
        let whiteSpace: Set<UInt32> = [
            0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
            0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
        ]
        #expect(whiteSpace.count == 25)
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(
                String.isWhitespace(scalar) == whiteSpace.contains(value),
                "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    @Test("trimming and excerpts treat no-break and ideographic spaces as space, not other punctuation")
    func usedByTrimmingAndExcerpts() {
        #expect("\u{3000}\u{A0} text\u{2009}—\u{2029}".trimmingWhitespace == "text\u{2009}—")
        #expect(HTMLSanitiser.excerpt("a\u{A0}\u{2003}b ’c’", maxLength: 20) == "a b ’c’")
    }
}
