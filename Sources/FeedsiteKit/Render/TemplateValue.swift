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

/// A view model: answers `{{name}}` with a `switch` on the name's key. `nil` means "not here", so
/// the lookup goes on down the context stack, as Mustache specifies. feedsite's view types get
/// their conformance from `PageViews+Template.swift`, generated from their properties.
protocol TemplateObject: TemplateValueConvertible {
    /// The value of `name`, whose `key` was resolved when the template was parsed (nil: none of
    /// feedsite's view types has that name). feedsite's view types switch on `key`.
    func value(for key: TemplateKey?, named name: String) -> TemplateValue?
}

extension TemplateObject {
    func value(named name: String) -> TemplateValue? { value(for: TemplateKey(rawValue: name), named: name) }
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
