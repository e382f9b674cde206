import FeedsiteShared
import Foundation
import Yams

extension MessageCatalogue {
    /// One value of a catalogue file.
    enum Entry: Sendable, Equatable {
        case text(String)
        /// A form per plural category.
        case plural([PluralRule.Category: String])
        /// Month or weekday names.
        case list([String])
    }

    /// The keys whose values are lists of names, and how many names each takes.
    static let listLengths = ["months": 12, "months_short": 12, "weekdays": 7, "weekdays_short": 7]
    /// The keys whose values are date patterns.
    static let datePatternKeys: Set<String> = ["date", "date_time", "day_heading", "month_heading"]

    /// Reads a catalogue file (`Templates/strings/de.yml`): every key with its line for warnings.
    /// Keys English does not have, values of the wrong shape and unknown date fields are warned
    /// about (at `file:line:column`, with the nearest key) and left out; nothing stops a build.
    ///
    /// - Parameter english: the English catalogue's entries (the keys a file may give); nil while
    ///   reading the English catalogue itself.
    static func read(
        yaml: String, file: String, english: [String: Entry]?
    ) -> (entries: [String: Entry], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func warn(_ node: Node?, _ message: String) {
            diagnostics.append(.warning(file: file, line: node?.mark?.line, column: node?.mark?.column, message))
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                diagnostics.append(
                    .warning(
                        file: file, line: mark.line, column: mark.column,
                        "not valid YAML: \(problem); the file is ignored"))
            default:
                diagnostics.append(.warning(file: file, "not valid YAML: \(error); the file is ignored"))
            }
            return ([:], diagnostics)
        } catch {
            return ([:], [.warning(file: file, "not valid YAML: \(error); the file is ignored")])
        }
        guard let root else { return ([:], []) }
        guard case .mapping(let mapping) = root else {
            warn(root, "expected a mapping of keys to texts, like en.yml; the file is ignored")
            return ([:], diagnostics)
        }
        var entries: [String: Entry] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                warn(keyNode, "a key must be a name like 'latest_items'")
                continue
            }
            if let english, english[key] == nil {
                let suggestion = Template.nearestName(key, in: english.keys.sorted())
                warn(
                    keyNode,
                    "unknown key '\(key)' is ignored"
                        + (suggestion.map { "; did you mean '\($0)'?" } ?? " (en.yml lists every key)"))
                continue
            }
            switch value {
            case .scalar(let scalar):
                guard listLengths[key] == nil else {
                    warn(value, "'\(key)' must be a list of \(listLengths[key] ?? 0) names; ignored")
                    continue
                }
                if datePatternKeys.contains(key) {
                    var unknown: [String] = []
                    _ = DatePattern(scalar.string, unknown: &unknown)
                    for name in unknown {
                        let suggestion = Template.nearestName(name, in: DatePattern.fields.keys.sorted())
                        warn(
                            value,
                            "'{\(name)}' is not a date field; it is printed as written"
                                + (suggestion.map { "; did you mean '{\($0)}'?" } ?? ""))
                    }
                }
                entries[key] = .text(scalar.string)
            case .sequence(let sequence):
                guard let length = listLengths[key] else {
                    warn(value, "'\(key)' must be a text, not a list; ignored")
                    continue
                }
                let names = sequence.compactMap(\.string)
                guard names.count == length, names.count == sequence.count else {
                    warn(value, "'\(key)' must list \(length) names, got \(sequence.count); ignored")
                    continue
                }
                entries[key] = .list(names)
            case .mapping(let forms):
                guard listLengths[key] == nil else {
                    warn(value, "'\(key)' must be a list of \(listLengths[key] ?? 0) names; ignored")
                    continue
                }
                var plural: [PluralRule.Category: String] = [:]
                for (formNode, text) in forms {
                    guard let name = formNode.string, let category = PluralRule.Category(rawValue: name) else {
                        warn(
                            formNode,
                            "'\(formNode.string ?? "?")' is not a plural form; use zero, one, two, few, many or other")
                        continue
                    }
                    guard let string = text.string else {
                        warn(text, "the '\(name)' form of '\(key)' must be a text")
                        continue
                    }
                    plural[category] = string
                }
                guard plural[.other] != nil else {
                    warn(value, "'\(key)' needs an 'other' form (used for every count without its own); ignored")
                    continue
                }
                entries[key] = .plural(plural)
            case .alias:
                warn(value, "'\(key)': YAML aliases are not read here; write the text")
            }
        }
        return (entries, diagnostics)
    }

    /// A catalogue from entries laid over each other (English first, then the language's own):
    /// every key English has is there.
    init(language: String, entries: [String: Entry]) {
        var texts: [String: String] = [:]
        var plurals: [String: [PluralRule.Category: String]] = [:]
        var lists: [String: [String]] = [:]
        for (key, entry) in entries {
            switch entry {
            case .text(let text): texts[key] = text
            case .plural(let forms): plurals[key] = forms
            case .list(let names): lists[key] = names
            }
        }
        func list(_ key: String, _ fallback: [String]) -> [String] {
            lists[key].flatMap { $0.count == fallback.count ? $0 : nil } ?? fallback
        }
        self.language = language
        self.months = list("months", CalendarNames.monthNames)
        self.monthsShort = list("months_short", CalendarNames.monthAbbreviations)
        self.weekdays = list("weekdays", CalendarNames.weekdayNames)
        self.weekdaysShort = list("weekdays_short", CalendarNames.weekdayAbbreviations)
        self.isRightToLeft = texts["direction"]?.lowercased() == "rtl"
        self.pluralRule = PluralRule(language: language)
        var ignored: [String] = []
        self.date = DatePattern(texts["date"] ?? "{day} {month_short} {year}", unknown: &ignored)
        self.dateTime = DatePattern(
            texts["date_time"] ?? "{day} {month_short} {year}, {time} {zone}", unknown: &ignored)
        self.dayHeading = DatePattern(texts["day_heading"] ?? "{weekday}, {day} {month} {year}", unknown: &ignored)
        self.monthHeading = DatePattern(texts["month_heading"] ?? "{month} {year}", unknown: &ignored)
        self.texts = texts
        self.plurals = plurals
    }

    /// The English catalogue compiled into feedsite (the keys every catalogue may give).
    static let builtInEnglish: [String: Entry] = {
        guard let base64 = BuiltInTheme.files.first(where: { $0.path == "strings/en.yml" })?.base64,
            let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters),
            let yaml = String(data: data, encoding: .utf8)
        else { return [:] }
        return read(yaml: yaml, file: "(built-in theme)/strings/en.yml", english: nil).entries
    }()

    /// English as compiled in: the catalogue of a render that names none.
    static let english = MessageCatalogue(language: "en", entries: builtInEnglish)
}

extension MessageCatalogue {
    /// How diagnostics name a file compiled into feedsite.
    static let builtInPrefix = "(built-in theme)/"

    /// `de` for `strings/de.yml`, `pt-br` for `strings/pt-BR.yml`; nil for any other path.
    static func language(ofPath path: String) -> String? {
        guard path.hasPrefix("strings/"), path.hasSuffix(".yml") else { return nil }
        let name = path.dropFirst("strings/".count).dropLast(".yml".count)
        guard !name.isEmpty, !name.contains("/"), LanguageTag.normalised(String(name)) != nil else { return nil }
        return name.lowercased()
    }

    /// The catalogues compiled into feedsite, by language, entries only.
    static let builtInEntries: [String: [String: Entry]] = {
        var result: [String: [String: Entry]] = [:]
        for (path, base64) in BuiltInTheme.files {
            guard let language = language(ofPath: path),
                let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters),
                let yaml = String(data: data, encoding: .utf8)
            else { continue }
            result[language] =
                language == "en"
                ? builtInEnglish
                : read(yaml: yaml, file: builtInPrefix + path, english: builtInEnglish).entries
        }
        return result
    }()

    /// The catalogues compiled into feedsite, complete (English under each).
    static let builtInCatalogues = catalogues(overriding: [:])

    /// Every language's catalogue: English, then the built-in catalogue of the tag's primary
    /// language, then its own, then the folder's files for each of these (`own`) on top.
    static func catalogues(overriding own: [String: [String: Entry]]) -> [String: MessageCatalogue] {
        var layers = builtInEntries
        for (language, entries) in own { layers[language, default: [:]].merge(entries) { _, mine in mine } }
        var result: [String: MessageCatalogue] = [:]
        for language in layers.keys {
            var entries = layers["en"] ?? builtInEnglish
            let primary = String(language.split(separator: "-").first ?? "")
            if primary != language, primary != "en", let base = layers[primary] {
                entries.merge(base) { _, mine in mine }
            }
            if language != "en" { entries.merge(layers[language] ?? [:]) { _, mine in mine } }
            result[language] = MessageCatalogue(language: language, entries: entries)
        }
        return result
    }
}
