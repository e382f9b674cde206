/// How a language picks the form of a counted phrase (`1 min read`, `2 min read`): the CLDR
/// cardinal plural rules for whole numbers, for the languages feedsite ships catalogues for and
/// their close relatives. A language not listed counts like English (`one` for 1, else `other`).
enum PluralRule: Sendable, Equatable {
    /// `one` for 1, else `other` (English, German, Dutch, Italian, Spanish, Swedish…).
    case oneOther
    /// `one` for 0 and 1 (French, Portuguese, Hindi).
    case zeroOneOther
    /// Only `other` (Japanese, Chinese, Korean, Vietnamese, Thai, Indonesian).
    case otherOnly
    /// `zero`, `one`, `two`, `few` (3–10), `many` (11–99), by the last two digits (Arabic).
    case arabic
    /// `one`, `two`, else `other` (Hebrew).
    case hebrew
    /// `one` (…1 but not …11), `few` (…2–4 but not …12–14), `many` (Russian, Ukrainian).
    case eastSlavic
    /// `one` (1), `few` (…2–4 but not …12–14), `many` (Polish).
    case polish

    /// A CLDR plural category.
    enum Category: String, Sendable, CaseIterable {
        case zero, one, two, few, many, other
    }

    /// The rule of a language tag's primary language (`pt-BR` → Portuguese).
    init(language: String) {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        switch primary {
        case "fr", "pt", "hi", "bn", "fa", "ff", "kab", "am", "zu": self = .zeroOneOther
        case "ja", "zh", "ko", "vi", "th", "id", "ms", "lo", "my", "km", "yue": self = .otherOnly
        case "ar": self = .arabic
        case "he", "iw": self = .hebrew
        case "ru", "uk", "be": self = .eastSlavic
        case "pl": self = .polish
        default: self = .oneOther
        }
    }

    /// The category of a whole number `n` (negative numbers count as their absolute value).
    func category(_ n: Int) -> Category {
        let n = n.magnitude
        let lastTwo = n % 100
        let last = n % 10
        switch self {
        case .oneOther: return n == 1 ? .one : .other
        case .zeroOneOther: return n <= 1 ? .one : .other
        case .otherOnly: return .other
        case .arabic:
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                if (3...10).contains(lastTwo) { return .few }
                if (11...99).contains(lastTwo) { return .many }
                return .other
            }
        case .hebrew: return n == 1 ? .one : n == 2 ? .two : .other
        case .eastSlavic:
            if last == 1 && lastTwo != 11 { return .one }
            if (2...4).contains(last) && !(12...14).contains(lastTwo) { return .few }
            return .many
        case .polish:
            if n == 1 { return .one }
            if (2...4).contains(last) && !(12...14).contains(lastTwo) { return .few }
            return .many
        }
    }
}
