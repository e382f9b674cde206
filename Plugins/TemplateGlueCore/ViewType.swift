/// Where a declaration stands in a view-model file.
package struct SourceLocation: Equatable, Sendable {
    package var path: String
    package var line: Int
    package var column: Int

    /// `message` as an error at this place.
    func error(_ message: String) -> TemplateGlueDiagnostic {
        TemplateGlueDiagnostic(path: path, line: line, column: column, message: message)
    }
}

/// A view type as the templates see it: a top-level `struct` or `final class` of
/// `PageViews*.swift` and its fields, a field group's (`PageHead`) in the group's place.
package struct ViewType: Equatable, Sendable {
    package var name: String
    package var fields: [ViewField]
    package var location: SourceLocation
}

/// A property a template reads as `{{name}}`.
package struct ViewField: Equatable, Sendable {
    package var name: String
    /// As declared: `String?`, `[ItemSummaryView]`.
    package var swiftType: String
    /// How the view type reaches it: `name`, or `head.name` for a field group's field.
    package var accessPath: String
    package var location: SourceLocation
}
