/// A view-model file: its path (as diagnostics name it) and its text.
package struct ViewModelSource: Sendable {
    package var path: String
    package var text: String

    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// Reads the view types of `PageViews*.swift` line by line, counting braces outside comments and
/// string literals (the files are plain declarations; this is not a Swift parser):
///
/// - a view type is a top-level `struct` or `final class` (optionally `public`, `package` or
///   `internal`) whose `{` is on its declaration's line;
/// - its fields are its properties at the type's own level (`let`/`var`, stored or computed) that
///   are neither `static`/`class` nor `private`/`fileprivate`, each declared on one line as
///   `name: Type`;
/// - a type declared `: TemplateFieldGroup` is a field group, not a view type: a property of that
///   type gives its holder the group's fields (reached as `property.field`).
///
/// Whatever looks like a view type or field but cannot be read that way is an error, not a
/// field left out: the glue would silently be wrong.
package struct ViewTypeReader {
    package init() {}

    /// The view types of `sources` in file and declaration order, field groups inlined.
    package func read(_ sources: [ViewModelSource]) throws(TemplateGlueFailure) -> [ViewType] {
        var types: [ViewType] = []
        var groups: [String: ViewType] = [:]
        var diagnostics: [TemplateGlueDiagnostic] = []
        for source in sources {
            let file = read(source, diagnostics: &diagnostics)
            types += file.types
            for group in file.groups { groups[group.name] = group }
        }
        var inlined: [ViewType] = []
        for type in types {
            // Each field, and the property of `type` that gives it (itself, or a field group).
            var fields: [(field: ViewField, property: ViewField)] = []
            for property in type.fields {
                if let group = groups[property.swiftType] {
                    fields += group.fields.map {
                        let path = "\(property.accessPath).\($0.accessPath)"
                        return (
                            ViewField(name: $0.name, swiftType: $0.swiftType, accessPath: path, location: $0.location),
                            property
                        )
                    }
                } else {
                    fields.append((property, property))
                }
            }
            var seen: [String: ViewField] = [:]
            for (field, property) in fields {
                if let first = seen[field.name] {
                    diagnostics.append(
                        property.location.error(
                            "view type '\(type.name)' has the field '\(field.name)' twice: as '\(first.accessPath)' "
                                + "(\(first.location.path):\(first.location.line)) and as '\(field.accessPath)'; a "
                                + "field group's fields become the view type's own"))
                } else {
                    seen[field.name] = field
                }
            }
            inlined.append(ViewType(name: type.name, fields: fields.map(\.field), location: type.location))
        }
        guard diagnostics.isEmpty else { throw TemplateGlueFailure(diagnostics: diagnostics) }
        return inlined
    }

    /// One file's view types and field groups, fields as declared.
    private func read(
        _ source: ViewModelSource, diagnostics: inout [TemplateGlueDiagnostic]
    ) -> (types: [ViewType], groups: [ViewType]) {
        let patterns = Patterns()
        var types: [ViewType] = []
        var groups: [ViewType] = []
        // The type whose body is open, and whether it is a field group.
        var current: (type: ViewType, isGroup: Bool)?
        func close() {
            guard let open = current else { return }
            if open.isGroup { groups.append(open.type) } else { types.append(open.type) }
            current = nil
        }
        var depth = 0
        var commentDepth = 0
        let lines = Self.lines(of: source.text)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let (code, multilineString) = Self.code(of: line, commentDepth: &commentDepth)
            func location(_ position: String.Index) -> SourceLocation {
                let scalars = code.unicodeScalars.distance(from: code.startIndex, to: position)
                let column = String(line.unicodeScalars.prefix(scalars)).utf8.count + 1
                return SourceLocation(path: source.path, line: number, column: column)
            }
            let start = code.unicodeScalars.firstIndex { !$0.properties.isWhitespace } ?? code.startIndex
            if let multilineString {
                diagnostics.append(
                    location(code.unicodeScalars.index(code.startIndex, offsetBy: multilineString)).error(
                        "a multi-line string literal cannot be read by the template glue generator, which counts "
                            + "braces line by line; move it out of the view-model files"))
            }
            if depth == 0 {
                if let match = code.prefixMatch(of: patterns.typeDeclaration) {
                    let name = String(match.output.1)
                    if code.unicodeScalars.contains("{") {
                        let isGroup = code.firstMatch(of: patterns.fieldGroup) != nil
                        let type = ViewType(name: name, fields: [], location: location(match.output.1.startIndex))
                        current = (type, isGroup)
                    } else {
                        diagnostics.append(
                            location(match.output.1.startIndex).error(
                                "put the '{' of '\(name)' on its declaration's line: the template glue generator "
                                    + "reads view types line by line"))
                    }
                } else if let match = code.prefixMatch(of: patterns.openClass) {
                    diagnostics.append(
                        location(match.output.1.startIndex).error(
                            "view type '\(match.output.1)' must be a struct or a final class (or move it out of "
                                + "the view-model files)"))
                }
            } else if depth == 1, current != nil, code.prefixMatch(of: patterns.excluded) == nil {
                if let match = code.prefixMatch(of: patterns.property) {
                    current?.type.fields.append(
                        ViewField(
                            name: String(match.output.1), swiftType: Self.trimmed(match.output.2),
                            accessPath: String(match.output.1), location: location(match.output.1.startIndex)))
                } else if let match = code.prefixMatch(of: patterns.propertyLike),
                    !match.output.1.split(whereSeparator: \.isWhitespace).contains(where: {
                        Patterns.notFields.contains($0.prefix { $0 != "(" })
                    })
                {
                    diagnostics.append(
                        location(start).error(
                            "cannot read this property of view type '\(current?.type.name ?? "")' as a template "
                                + "field: declare it on one line as `let name: Type` or `var name: Type` (with no "
                                + "attribute or modifier but the access level), or make it private"))
                }
            }
            depth += code.unicodeScalars.count(where: { $0 == "{" }) - code.unicodeScalars.count(where: { $0 == "}" })
            if depth < 0 {
                diagnostics.append(
                    SourceLocation(path: source.path, line: number, column: 0).error("unbalanced braces"))
                return (types, groups)
            }
            if depth == 0 { close() }
        }
        if depth > 0 {
            diagnostics.append(
                SourceLocation(path: source.path, line: lines.count, column: 0).error(
                    "unbalanced braces: \(depth) '{' not closed at the end of the file"))
        }
        close()
        return (types, groups)
    }

    /// The regular expressions of a declaration line, matched on Unicode scalars with simple word
    /// boundaries.
    private struct Patterns {
        /// A view type's (or field group's) declaration.
        let typeDeclaration = /^\s*(?:(?:public|package|internal)\s+)?(?:final\s+class|struct)\s+(\w+)\b/
            .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
        /// Declared `: TemplateFieldGroup` (among its conformances).
        let fieldGroup = /:[^{]*\bTemplateFieldGroup\b/.matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
        /// A class that is not final: subclasses would answer with their parent's fields.
        let openClass = /^\s*(?:(?:public|package|internal|open)\s+)?class\s+(\w+)\b/
            .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
        /// A member that is not a field.
        let excluded = /^\s*(?:@\w+\s+)*(?:(?:public|package|internal)\s+)?(?:static|class|private|fileprivate)\b/
            .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
        /// A field: its name and its type (what stands before `=` or `{`).
        let property = /^\s*(?:(?:public|package|internal)\s+)?(?:let|var)\s+(\w+)\s*:\s*([^={]+?)\s*(?:=.*|\{.*)?$/
            .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
        /// A property declaration of any other form: its attributes and modifiers.
        let propertyLike = /^\s*((?:@?\w+(?:\([^)]*\))?\s+)*)(?:let|var)\b/
            .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
        /// Modifiers that make a property something other than a field.
        static let notFields: Set<Substring> = ["static", "class", "private", "fileprivate"]
    }

    /// `text`'s lines, broken at LF, CR, CR LF (one break), VT, FF, FS, GS, RS, NEL, LS and PS, as
    /// Python's `str.splitlines` broke them in the script this replaced (diagnostics' line numbers).
    static func lines(of text: String) -> [String] {
        let scalars = text.unicodeScalars
        var lines: [String] = []
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard Self.isLineBreak(scalar) else {
                index = scalars.index(after: index)
                continue
            }
            lines.append(String(scalars[start..<index]))
            index = scalars.index(after: index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
            start = index
        }
        if start < scalars.endIndex { lines.append(String(scalars[start...])) }
        return lines
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x1C...0x1E, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// The line with its comments and string literals blanked, one space a Unicode scalar (so
    /// positions in it are positions in the line), for brace counting and matching; and where it
    /// opens or closes a multi-line string literal (`"""`), whose lines it cannot tell from code.
    /// `commentDepth` is how many block comments (which nest) are open where the line starts, then
    /// where it ends.
    static func code(of line: String, commentDepth: inout Int) -> (text: String, multilineString: Int?) {
        let scalars = Array(line.unicodeScalars)
        var code = String.UnicodeScalarView()
        var inString = false
        var multilineString: Int?
        var index = 0
        func next(is scalar: Unicode.Scalar) -> Bool { index + 1 < scalars.count && scalars[index + 1] == scalar }
        while index < scalars.count {
            let scalar = scalars[index]
            if commentDepth > 0 {
                if scalar == "*" && next(is: "/") || scalar == "/" && next(is: "*") {
                    commentDepth += scalar == "/" ? 1 : -1
                    code.append(" ")
                    index += 1
                }
                code.append(" ")
            } else if inString {
                if scalar == "\\" {
                    if index + 1 < scalars.count { code.append(" ") }
                    index += 1
                } else if scalar == "\"" {
                    inString = false
                }
                code.append(" ")
            } else if scalar == "\"" {
                if scalars[index...].starts(with: ["\"", "\"", "\""]) { multilineString = multilineString ?? index }
                inString = true
                code.append(" ")
            } else if scalar == "/" && next(is: "/") {
                break
            } else if scalar == "/" && next(is: "*") {
                commentDepth = 1
                code.append(" ")
                code.append(" ")
                index += 1
            } else {
                code.append(scalar)
            }
            index += 1
        }
        return (String(code), multilineString)
    }

    /// `text` without leading and trailing white space.
    private static func trimmed(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
