import Foundation
import Testing

@testable import FeedsiteKit

@Suite("Build fingerprint")
struct BuildFingerprintTests {
    @Test("a field digested in pieces equals the field digested whole, wherever it is cut")
    func piecesEqualWhole() {
        var random = SplitMix64(seed: 0xF1)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1_000, 4_099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            var whole = BuildFingerprint()
            whole.add(Data(bytes))
            for _ in 0..<20 {
                var pieces = BuildFingerprint()
                var start = 0
                while start < length {
                    let end = min(length, start + Int.random(in: 0...19, using: &random))
                    pieces.addBytes(Data(bytes[start..<end]))
                    start = end
                }
                pieces.endField()
                #expect(pieces.text == whole.text, "length \(length)")
            }
        }
    }

    @Test("different bytes, and the same bytes cut into different fields, give different digests")
    func separatesFields() {
        func digest(_ fields: [String]) -> String {
            var fingerprint = BuildFingerprint()
            for field in fields { fingerprint.add(field) }
            return fingerprint.text
        }
        let cases: [[String]] = [
            [], [""], ["", ""], ["a"], ["b"], ["ab", "c"], ["a", "bc"], ["abc"], ["abcdefgh"], ["abcdefg", "h"],
            ["abcdefghi"], ["\u{0}"], ["\u{0}\u{0}"], ["state 1"], ["state 2"],
        ]
        #expect(Set(cases.map(digest)).count == cases.count)
        #expect(digest(["abc"]) == digest(["abc"]))
    }
}
