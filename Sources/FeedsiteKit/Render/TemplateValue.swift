import FeedsiteSanitise

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
        case .string, .int, .object: false
        }
    }

    /// This value as part `position` of `name`: itself for the last part, else the rest looked up in it.
    func value(_ name: Template.Name, after position: Int) -> TemplateValue {
        guard position + 1 < name.keys.count else { return self }
        guard case .object(let object) = self else { return .nothing }
        return object.value(name, at: position + 1) ?? .nothing
    }
}

/// Something a template can look names up in: `{{name}}` and `{{a.b.c}}`. feedsite's view types
/// are `TemplateView`s; the globals (`TemplateGlobals`) answer by hand.
protocol TemplateObject: TemplateValueConvertible {
    /// Part `position` of `name` in this object, and the rest of the name inside that. `nil`
    /// means this object has no (non-nil) value for that part: the lookup goes on down the
    /// context stack. A rest that leads nowhere is `.nothing`.
    func value(_ name: Template.Name, at position: Int) -> TemplateValue?
}

extension TemplateObject {
    /// This object as part `position` of `name`: itself for the last part, else the rest looked up
    /// in it (a struct is not copied into a `TemplateValue` on the way).
    func value(_ name: Template.Name, after position: Int) -> TemplateValue? {
        guard position + 1 < name.keys.count else { return templateValue }
        return value(name, at: position + 1) ?? .nothing
    }

    var templateValue: TemplateValue { .object(self) }

    static var templateKind: TemplateSchema.Kind { .object(String(describing: Self.self)) }
}

/// Something a view model can hand to a template. (`SendableMetatype`: a view type's table of
/// fields, shared by every render task, calls its fields' conformances.)
protocol TemplateValueConvertible: SendableMetatype {
    var templateValue: TemplateValue { get }
    /// What the load-time check of a theme knows a field of this type to hold.
    static var templateKind: TemplateSchema.Kind { get }
    /// This value as part `position` of `name`; nil when it is absent (a nil optional), so the
    /// lookup goes on down the context stack.
    func value(_ name: Template.Name, after position: Int) -> TemplateValue?
}

extension TemplateValueConvertible {
    /// A value without fields as part `position` of `name`: itself for the last part, else nothing.
    func value(_ name: Template.Name, after position: Int) -> TemplateValue? {
        position + 1 < name.keys.count ? .nothing : templateValue
    }
}

/// A view model: a plain struct in `PageViews*.swift` whose properties are its template fields.
/// Its conformance, the table of its fields, is generated into `PageViews+Template.swift`.
protocol TemplateView: TemplateObject {
    static var templateFields: TemplateFields<Self> { get }
}

extension TemplateView {
    func value(_ name: Template.Name, at position: Int) -> TemplateValue? {
        Self.templateFields.value(of: self, name, at: position)
    }

    /// Each field's name and what it holds.
    static var templateKinds: [String: TemplateSchema.Kind] { templateFields.kinds }
}

/// Fields several view types share, declared once (`PageHead`): a view type's property of such a
/// type is not a field itself; the template glue makes the group's fields the view type's own.
protocol TemplateFieldGroup {}

/// One field of a view type: how to read it from a value of the type, and what it holds.
struct TemplateField<Object>: Sendable {
    let kind: TemplateSchema.Kind
    let value: @Sendable (Object, Template.Name, Int) -> TemplateValue?

    /// The field `read` returns (a key path: `\.title`), handing the rest of a dotted name to it.
    init<Value: TemplateValueConvertible>(_ read: @escaping @Sendable (Object) -> Value) {
        kind = Value.templateKind
        value = { object, name, position in read(object).value(name, after: position) }
    }
}

/// A view type's fields, by the key each part of a template's names was resolved to when it was
/// parsed: a lookup is an array index, not string comparisons (hot path).
struct TemplateFields<Object>: Sendable, ExpressibleByDictionaryLiteral {
    /// Indexed by `TemplateKey.rawValue`.
    private let byKey: [(@Sendable (Object, Template.Name, Int) -> TemplateValue?)?]
    let kinds: [String: TemplateSchema.Kind]

    init(dictionaryLiteral fields: (TemplateKey, TemplateField<Object>)...) {
        var byKey = [(@Sendable (Object, Template.Name, Int) -> TemplateValue?)?](
            repeating: nil, count: TemplateKey.allCases.count)
        for (key, field) in fields { byKey[key.rawValue] = field.value }
        self.byKey = byKey
        kinds = Dictionary(uniqueKeysWithValues: fields.map { ($0.0.name, $0.1.kind) })
    }

    /// Part `position` of `name` in `object` (see `TemplateObject.value(_:at:)`).
    func value(of object: Object, _ name: Template.Name, at position: Int) -> TemplateValue? {
        guard let key = name.keys[position], let field = byKey[key.rawValue] else { return nil }
        return field(object, name, position)
    }
}

extension TemplateKey {
    /// The key of the field `name`, if a view type has one.
    init?(name: String) {
        guard let key = Self.byName[name] else { return nil }
        self = key
    }

    /// The field name this key stands for: the case's own name.
    var name: String { Self.names[rawValue] }

    private static let names = allCases.map { String(describing: $0) }
    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { (String(describing: $0), $0) })
}

extension String: TemplateValueConvertible {
    var templateValue: TemplateValue { .string(self) }
    static var templateKind: TemplateSchema.Kind { .string }
}

extension Int: TemplateValueConvertible {
    var templateValue: TemplateValue { .int(self) }
    static var templateKind: TemplateSchema.Kind { .int }
}

extension Bool: TemplateValueConvertible {
    var templateValue: TemplateValue { .bool(self) }
    static var templateKind: TemplateSchema.Kind { .bool }
}

extension SanitisedHTML: TemplateValueConvertible {
    var templateValue: TemplateValue { .html(self) }
    static var templateKind: TemplateSchema.Kind { .html }
}

extension Array: TemplateValueConvertible where Element: TemplateValueConvertible {
    var templateValue: TemplateValue { .list(map(\.templateValue)) }
    static var templateKind: TemplateSchema.Kind { .list(Element.templateKind) }
}

/// An optional field: absent, the lookup goes on down the context stack.
extension Optional: TemplateValueConvertible where Wrapped: TemplateValueConvertible {
    var templateValue: TemplateValue { self?.templateValue ?? .nothing }
    static var templateKind: TemplateSchema.Kind { .optional(Wrapped.templateKind) }

    func value(_ name: Template.Name, after position: Int) -> TemplateValue? {
        self?.value(name, after: position)
    }
}
