import FeedsiteShared
import Foundation

/// BCP 47 language tags as HTML's `lang` attribute accepts them.
///
/// Feeds write their language loosely (`en_US`, `EN-us`, ` de `, sometimes prose); a value that
/// does not look like a tag is dropped rather than published as an invalid `lang`.
enum LanguageTag {
    /// `en-US` for `en_US`; nil when the text is not a plausible tag (a 2–3 letter ISO 639 language,
    /// then 1–8 letter or digit subtags).
    static func normalised(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace.replacingOccurrences(of: "_", with: "-")
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = parts.first, (2...3).contains(primary.count),
            primary.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        for part in parts.dropFirst() {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return nil
            }
        }
        return trimmed
    }
}
