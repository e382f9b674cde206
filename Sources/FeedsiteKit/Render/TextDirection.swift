/// Which way a language is written, for `dir` attributes: text from a feed that declares a
/// right-to-left language is `rtl`; any other is `auto` (the browser reads the first strong
/// character), because many feeds declare no language or a wrong one (`en-us`, a blog engine's
/// default, over Hebrew posts).
enum TextDirection {
    /// Languages written right to left (primary subtags; ISO 639-1 and -3).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "nqo", "ps", "sd", "syr", "ug", "ur", "yi",
    ]

    /// Whether a language tag's primary language is written right to left (`ur-PK`, `he`).
    static func isRightToLeft(_ language: String?) -> Bool {
        guard let language, let primary = language.split(separator: "-").first else { return false }
        return rightToLeftLanguages.contains(primary.lowercased())
    }

    /// `rtl` for a right-to-left language, else `auto`.
    static func attribute(forLanguage language: String?) -> String {
        isRightToLeft(language) ? "rtl" : "auto"
    }
}
