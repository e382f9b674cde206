import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise
@testable import FeedsiteShared

@Suite("Whitespace")
struct StringWhitespaceTests {
    @Test("isWhitespace is Unicode's White_Space property on every scalar")
    func everyScalar() {
        var whitespace = 0
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = scalar.properties.isWhitespace
            if expected { whitespace += 1 }
            #expect(String.isWhitespace(scalar) == expected, "U+\(String(value, radix: 16, uppercase: true))")
        }
        // The property's 25 code points (PropList.txt): the loop did test some that are.
        #expect(whitespace == 25)
    }

    @Test("trimming and excerpts treat no-break and ideographic spaces as space, not other punctuation")
    func usedByTrimmingAndExcerpts() {
        #expect("\u{3000}\u{A0} text\u{2009}—\u{2029}".trimmingWhitespace == "text\u{2009}—")
        #expect(HTMLSanitiser.excerpt("a\u{A0}\u{2003}b ’c’", maxLength: 20) == "a b ’c’")
    }
}
