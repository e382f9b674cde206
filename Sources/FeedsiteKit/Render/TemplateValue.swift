/// What a template can read: the view models (`PageViews.swift`) answer names with these.
enum TemplateValue {
    /// Text: HTML-escaped by every tag, `{{{name}}}` included.
    case string(String)
    /// Sanitiser output: `{{{name}}}` emits it verbatim (`{{name}}` escapes it).
    case html(SanitisedHTML)
    /// A section shows when true; `{{name}}` prints `true`/`false`.
    case bool(Bool)
    case int(Int)
    /// A section repeats for each element; empty is false.
    case list([TemplateValue])
    /// A view model: names inside a section on it are looked up in it first.
    case object(any TemplateObject)

    /// What hides a section and shows an inverted one.
    var isFalsey: Bool {
        switch self {
        case .bool(let value): !value
        case .list(let values): values.isEmpty
        case .html(let html): html.html.isEmpty
        case .string, .int, .object: false
        }
    }
}

/// A view model: answers `{{name}}` with a switch (no reflection). `nil` means "not here", so the
/// lookup goes on down the context stack, as Mustache specifies.
protocol TemplateObject: TemplateValueConvertible {
    /// The value of `name`, whose `key` was resolved when the template was parsed (nil: none of
    /// feedsite's view models has that name). feedsite's view models switch on `key`.
    func value(for key: TemplateKey?, named name: String) -> TemplateValue?
}

extension TemplateObject {
    func value(named name: String) -> TemplateValue? { value(for: TemplateKey(rawValue: name), named: name) }
}

/// Every name feedsite's view models answer, so that a template's names are resolved once, when it
/// is parsed: a lookup was a chain of string comparisons per object on the context stack (a
/// `switch` over string literals), 14 % of rendering.
enum TemplateKey: String, Sendable {
    case accounting, archiveURL, authors, buildTime, bytes, canonical, categories, configuredURL
    case consecutiveFailures, content, current, date, description, display, dropped, duplicates, enclosures
    case excerpt, feed, feedImage, feedLink, feedName, feedSiteLink, feedURL, feeds, futureDate, generator
    case hasCategories, hasEnclosures, hasFeeds, hasOtherMonths, heading, health, httpStatus, image, isAudio
    case isFetched, isFirstPage, isNeeded, isStale, isVideo, iso, item, itemCount, items, keepDays, kept, kind
    case label, lang, language, lastError, lastSuccess, link, long, maxItems, meta, months, name, newItems, newer
    case newerMonth, next, noindex, note, older, olderMonth, page, pageTitle, pagination, prev, read, readingTime
    case repeatedId, root, site, siteLink, size, staleNote, summary, timeZone, title, total, type, url, warnings
    case year, years
}

/// Something a view model can hand to a template.
protocol TemplateValueConvertible {
    var templateValue: TemplateValue { get }
}

extension TemplateObject {
    var templateValue: TemplateValue { .object(self) }
}

extension String: TemplateValueConvertible {
    var templateValue: TemplateValue { .string(self) }
}

extension Int: TemplateValueConvertible {
    var templateValue: TemplateValue { .int(self) }
}

extension Bool: TemplateValueConvertible {
    var templateValue: TemplateValue { .bool(self) }
}

extension SanitisedHTML: TemplateValueConvertible {
    var templateValue: TemplateValue { .html(self) }
}

extension Array: TemplateValueConvertible where Element: TemplateValueConvertible {
    var templateValue: TemplateValue { .list(map(\.templateValue)) }
}
