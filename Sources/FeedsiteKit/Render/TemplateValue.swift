import FeedsiteSanitise

/// What a template can read: the view models (`PageViews.swift`) answer names with these.
enum TemplateValue {
    /// Text: HTML-escaped by every tag, `{{{name}}}` included.
    case string(String)
    /// A page of this site by its path from the site's root (`items/a/b/index.html`): written as
    /// the way back to the root from the page being rendered, then the path, escaped as text is.
    /// A view that links pages this way is the same on every page that shows it (an item's summary
    /// on its feed's page, the index and the archive).
    case link(String)
    /// Sanitiser output: `{{{name}}}` emits it verbatim (`{{name}}` escapes it).
    case html(SanitisedHTML)
    /// A section shows when true; `{{name}}` prints `true`/`false`.
    case bool(Bool)
    case int(Int)
    /// A section repeats for each element; empty is false.
    case list([TemplateValue])
    /// A view model: names inside a section on it are looked up in it first.
    case object(any TemplateObject)
    /// A dotted name whose first part was found but whose rest leads nowhere: renders as a
    /// missing name does, and the lookup does not go on further out (as Mustache specifies).
    case nothing

    /// What hides a section and shows an inverted one.
    var isFalsey: Bool {
        switch self {
        case .bool(let value): !value
        case .list(let values): values.isEmpty
        case .html(let html): html.html.isEmpty
        case .nothing: true
        case .string, .link, .int, .object: false
        }
    }

    /// This value as part `position` of `name`: itself for the last part, else the rest looked up in it.
    func value(_ name: Template.NameView, after position: Int) -> TemplateValue {
        guard position + 1 < name.keys.count else { return self }
        guard case .object(let object) = self else { return .nothing }
        return object.value(name, at: position + 1) ?? .nothing
    }
}

/// A view model: answers `{{name}}` and `{{a.b.c}}`. feedsite's view types get their conformance
/// from `PageViews+Template.swift`, generated from their properties at build time by the
/// TemplateGlue plugin: a `switch` on the key each part of a name was resolved to when the template
/// was parsed, handing the rest of a dotted name to the field's own type (a struct is not copied
/// into a `TemplateValue` on the way).
protocol TemplateObject: TemplateValueConvertible {
    /// Part `position` of `name` in this object, and the rest of the name inside that. `nil`
    /// means this object has no (non-nil) value for that part: the lookup goes on down the
    /// context stack. A rest that leads nowhere is `.nothing`.
    func value(_ name: Template.NameView, at position: Int) -> TemplateValue?
}

extension TemplateObject {
    /// Part `position` of `name` in this object (what the renderer asks, for callers holding a `Name`).
    func value(_ name: Template.Name, at position: Int) -> TemplateValue? {
        name.withView { value($0, at: position) }
    }

    /// This object as part `position` of `name`: itself for the last part, else the rest looked up in it.
    func value(_ name: Template.NameView, after position: Int) -> TemplateValue {
        guard position + 1 < name.keys.count else { return templateValue }
        return value(name, at: position + 1) ?? .nothing
    }
}

extension TemplateValueConvertible {
    /// A value without fields as part `position` of `name`: itself for the last part, else nothing.
    func value(_ name: Template.NameView, after position: Int) -> TemplateValue {
        position + 1 < name.keys.count ? .nothing : templateValue
    }
}

/// Fields several view types share, declared once (`PageHead`): a view type's property of such a
/// type is not a field itself; the template glue makes the group's fields the view type's own.
protocol TemplateFieldGroup {}

/// Something a view model can hand to a template.
protocol TemplateValueConvertible {
    var templateValue: TemplateValue { get }
}

extension TemplateObject {
    var templateValue: TemplateValue { .object(self) }
}

/// A link to a page of this site, by its path from the site's root (`feeds/swift/index.html`):
/// templates read it as text, relative to the page they render (`../../feeds/swift/index.html`).
struct SitePath: Hashable, Sendable, TemplateValueConvertible {
    var path: String

    init(_ path: String) { self.path = path }

    var templateValue: TemplateValue { .link(path) }
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
