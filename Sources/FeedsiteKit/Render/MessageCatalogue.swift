import FeedsiteShared
import Foundation

/// The interface strings of one language: what the theme's `{{t.key}}` tags print and what
/// feedsite writes into pages itself (dates, day headings, reading time, pagination, the status
/// page's summary). Read from `Templates/strings/<language>.yml` (built in for en, de, fr, es,
/// pt, it, nl, ja, zh, ar, he; a file beside `feeds.yml` overrides or adds one); any key a
/// catalogue does not give is the English one.
struct MessageCatalogue: Sendable {
    /// The catalogue's language as its file names it (`de`, `pt-BR`).
    var language: String
    /// Plain texts and patterns with `{name}` placeholders, by key.
    var texts: [String: String]
    /// Texts with a form per CLDR plural category (`one`, `other`…), by key.
    var plurals: [String: [PluralRule.Category: String]]
    /// `January`… (12), `Jan`… (12), `Sunday`… (7), `Sun`… (7).
    var months: [String]
    var monthsShort: [String]
    var weekdays: [String]
    var weekdaysShort: [String]
    /// `rtl` for Arabic, Hebrew…; `ltr` otherwise.
    var isRightToLeft: Bool
    /// How `count` picks a plural form in this language.
    var pluralRule: PluralRule
    /// The date patterns, parsed once.
    var date: DatePattern
    var dateTime: DatePattern
    var dayHeading: DatePattern
    var monthHeading: DatePattern

    /// A text as the catalogue gives it (`{{t.key}}`); a plural key gives its `other` form.
    func text(_ key: String) -> String? {
        texts[key] ?? plurals[key].flatMap { $0[.other] }
    }

    /// `key`'s text with each `{name}` replaced by `values[name]` (placeholders without a value
    /// stay as written, so a typo shows on the page rather than vanishing).
    func format(_ key: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
        Self.fill(text(key) ?? key, values)
    }

    /// `key`'s form for `count` in this language (`{count}` and `values` filled in).
    func format(_ key: String, count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
        guard let forms = plurals[key] else {
            return Self.fill(text(key) ?? key, [("count", String(count))] + values.map { ($0.key, $0.value) })
        }
        let form = forms[pluralRule.category(count)] ?? forms[.other] ?? forms.values.first ?? key
        return Self.fill(form, [("count", String(count))] + values.map { ($0.key, $0.value) })
    }

    private static func fill(_ pattern: String, _ values: KeyValuePairs<String, String>) -> String {
        fill(pattern, values.map { ($0.key, $0.value) })
    }

    /// Replaces `{name}` by its value, in one pass (a value that contains `{x}` is not read again).
    static func fill(_ pattern: String, _ values: [(String, String)]) -> String {
        // A byte test: `contains` on a `String` goes through Foundation (UTF-16), once per text on every page.
        guard pattern.utf8.contains(UInt8(ascii: "{")) else { return pattern }
        var result = ""
        result.reserveCapacity(pattern.utf8.count + 16)
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if let value = values.first(where: { $0.0 == name })?.1 {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    /// `19 Nov 2026` (`date`) in this language.
    func date(_ time: CivilTime, zone: String = "") -> String { date.format(time, zone: zone, self) }

    /// `19 Nov 2026, 11:00 UTC+1` (`date_time`).
    func dateTime(_ time: CivilTime, zone: String) -> String { dateTime.format(time, zone: zone, self) }

    /// `Tuesday, 24 November 2026` (`day_heading`).
    func dayHeading(_ time: CivilTime) -> String { dayHeading.format(time, zone: "", self) }

    /// `November 2026` (`month_heading`); `time`'s day is not used.
    func monthHeading(year: Int, month: Int) -> String {
        monthHeading.format(
            CivilTime(year: year, month: month, day: 1, hour: 0, minute: 0, second: 0, weekday: 1), zone: "", self)
    }
}

/// A date pattern of a catalogue (`{weekday}, {day} {month} {year}`), split once into literal
/// text and fields.
struct DatePattern: Sendable {
    enum Part: Sendable, Equatable {
        case text(String)
        case day, day2, month, monthShort, monthNumber, month2, year, weekday, weekdayShort, time, zone
    }

    let parts: [Part]

    /// The field names a pattern may use.
    static let fields: [String: Part] = [
        "day": .day, "day2": .day2, "month": .month, "month_short": .monthShort, "month_number": .monthNumber,
        "month2": .month2, "year": .year, "weekday": .weekday, "weekday_short": .weekdayShort, "time": .time,
        "zone": .zone,
    ]

    /// Splits `pattern`; an unknown `{name}` is kept as text and returned in `unknown`.
    init(_ pattern: String, unknown: inout [String]) {
        var parts: [Part] = []
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            let name = String(rest[rest.index(after: open)..<close])
            if let field = Self.fields[name] {
                parts.append(field)
            } else {
                unknown.append(name)
                parts.append(.text(String(rest[open...close])))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
    }

    func format(_ time: CivilTime, zone: String, _ names: MessageCatalogue) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        func name(_ list: [String], _ index: Int) -> String { list.indices.contains(index) ? list[index] : "" }
        var result = ""
        result.reserveCapacity(40)
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .day: result += String(time.day)
            case .day2: result += two(time.day)
            case .month: result += name(names.months, time.month - 1)
            case .monthShort: result += name(names.monthsShort, time.month - 1)
            case .monthNumber: result += String(time.month)
            case .month2: result += two(time.month)
            case .year: result += String(time.year)
            case .weekday: result += name(names.weekdays, time.weekday - 1)
            case .weekdayShort: result += name(names.weekdaysShort, time.weekday - 1)
            case .time: result += two(time.hour) + ":" + two(time.minute)
            case .zone: result += zone
            }
        }
        return result
    }
}

extension MessageCatalogue {
    /// Some keys as a JSON object for a script: texts as strings, counted texts as an object of
    /// their forms by plural category (as `Intl.PluralRules` names them).
    func json(_ keys: [String]) -> String {
        var object: [String: JSONValue] = [:]
        for key in keys {
            if let forms = plurals[key] {
                object[key] = .forms(Dictionary(uniqueKeysWithValues: forms.map { ($0.key.rawValue, $0.value) }))
            } else if let text = texts[key] {
                object[key] = .text(text)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    private enum JSONValue: Encodable {
        case text(String)
        case forms([String: String])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .forms(let forms): try container.encode(forms)
            }
        }
    }
}
