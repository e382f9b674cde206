/// Writes the template glue of the view types (`PageViews+Template.swift`):
///
/// - `TemplateKey`, every field name the view types have, so a template's names are resolved once,
///   when it is parsed;
/// - each view type's `value(_:at:)`, a `switch` on that key (what `{{name}}` answers), handing
///   the rest of a dotted name to the field's own type;
/// - `TemplateSchema.viewTypes`, each type's fields and what they hold, for the load-time check of
///   a theme's names (`Template+Checking.swift`).
///
/// A field's type must be `String`, `SitePath` (read as text), `Int`, `Bool`, `SanitisedHTML`,
/// another view type, or an optional or array of these; anything else is an error at the field.
package struct TemplateGlueWriter {
    /// The first lines of the generated file.
    static let header = [
        "// Generated at build time by the TemplateGlue plugin (Plugins/TemplateGlue) from the view types in",
        "// PageViews*.swift: do not edit. A new template variable is a new property of a view type.",
    ]

    /// The Swift type of a field → its `TemplateSchema.Kind` case.
    static let scalars = [
        "String": ".string", "SitePath": ".string", "Int": ".int", "Bool": ".bool", "SanitisedHTML": ".html",
    ]

    package init() {}

    /// The glue of the view types of `sources`, or every reason there can be none.
    package func glue(for sources: [ViewModelSource]) throws(TemplateGlueFailure) -> String {
        try glue(for: ViewTypeReader().read(sources))
    }

    /// The glue of `types`, or every reason there can be none.
    package func glue(for types: [ViewType]) throws(TemplateGlueFailure) -> String {
        guard !types.isEmpty else {
            throw TemplateGlueFailure(diagnostics: [
                TemplateGlueDiagnostic(
                    path: "", line: 0, column: 0, message: "no view types (top-level structs) in the files given")
            ])
        }
        let viewNames = Set(types.map(\.name))
        var diagnostics: [TemplateGlueDiagnostic] = []
        var lines = Self.header
        lines += [
            "",
            "/// Every name a view type answers: a template's names are resolved to these once, when it is",
            "/// parsed, so a lookup is a `switch`, not string comparisons.",
            "enum TemplateKey: String, Sendable {",
        ]
        let keys = Set(types.flatMap { $0.fields.map(\.name) }).sorted(by: Self.codePointOrder)
        for var line in Self.wrap(keys, indent: "    case ") {
            while line.hasSuffix(",") { line.removeLast() }
            lines.append(line)
        }
        lines.append("}")
        for type in types {
            if type.fields.isEmpty {
                diagnostics.append(type.location.error("view type '\(type.name)' has no fields"))
            }
            lines += [
                "",
                "extension \(type.name): TemplateObject {",
                "    func value(_ name: Template.NameView, at position: Int) -> TemplateValue? {",
                "        switch name.keys[position] {",
            ]
            for field in type.fields {
                let optional = field.swiftType.filter { $0 != " " }.hasSuffix("?") ? "?" : ""
                lines.append(
                    "        case .\(field.name)?: self.\(field.accessPath)\(optional).value(name, after: position)")
            }
            lines += ["        default: nil", "        }", "    }", "}"]
        }
        lines += [
            "",
            "extension TemplateSchema {",
            "    /// Each view type's fields and what they hold.",
            "    static let viewTypes: [String: [String: Kind]] = [",
        ]
        for type in types {
            lines.append("        \"\(type.name)\": [")
            for field in type.fields {
                do {
                    let kind = try Self.kind(of: field.swiftType.filter { $0 != " " }, viewNames: viewNames)
                    lines.append("            \"\(field.name)\": \(kind),")
                } catch {
                    diagnostics.append(field.location.error(error.message))
                }
            }
            lines.append("        ],")
        }
        lines += ["    ]", "}", ""]
        guard diagnostics.isEmpty else { throw TemplateGlueFailure(diagnostics: diagnostics) }
        return lines.joined(separator: "\n")
    }

    /// Why a field's type cannot be read by a template.
    struct KindError: Error {
        var message: String
    }

    /// The `TemplateSchema.Kind` expression for a Swift type written without spaces.
    static func kind(of swiftType: String, viewNames: Set<String>) throws(KindError) -> String {
        if swiftType.hasSuffix("?") {
            let inner = String(swiftType.dropLast())
            if inner.hasSuffix("?") {
                throw KindError(message: "a double optional ('\(swiftType)') cannot be read by a template")
            }
            return ".optional(\(try kind(of: inner, viewNames: viewNames)))"
        }
        if swiftType.hasPrefix("[") && swiftType.hasSuffix("]") && !swiftType.contains(":") {
            return ".list(\(try kind(of: String(swiftType.dropFirst().dropLast()), viewNames: viewNames)))"
        }
        if let scalar = scalars[swiftType] { return scalar }
        if viewNames.contains(swiftType) { return ".object(\"\(swiftType)\")" }
        throw KindError(
            message: "'\(swiftType)' is not a type a template can read; use String, SitePath, Int, Bool, "
                + "SanitisedHTML, a view type from PageViews*.swift, or an optional or array of these (or make the "
                + "property private)"
        )
    }

    /// Comma-separated words on lines of at most `width` columns (counted in Unicode scalars).
    static func wrap(_ words: [String], indent: String, width: Int = 120) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in words {
            let piece = word + ","
            if line != indent && line.unicodeScalars.count + 1 + piece.unicodeScalars.count > width {
                lines.append(line)
                line = indent
            }
            line += (line == indent ? "" : " ") + piece
        }
        lines.append(line)
        return lines
    }

    /// Ordered as Python orders `str`s: by Unicode scalar values.
    static func codePointOrder(_ left: String, _ right: String) -> Bool {
        left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars)
    }
}
