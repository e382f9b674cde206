/// A problem in a view-model file that would make the template glue wrong, worded as a compiler's
/// diagnostic so that `swift build` (and an editor) points at the line: `path:line:column: error: …`.
package struct TemplateGlueDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the generator was given it; empty when the problem is not in one file.
    package var path: String
    /// 1-based; 0 when the problem is not on one line.
    package var line: Int
    /// 1-based, in UTF-8 bytes (as swiftc counts); 0 when the problem is not at one place on the line.
    package var column: Int
    package var message: String

    package var description: String {
        var location = path
        if line > 0 { location += ":\(line)" }
        if line > 0 && column > 0 { location += ":\(column)" }
        return (location.isEmpty ? "TemplateGlueGenerator" : location) + ": error: " + message
    }
}

extension TemplateGlueDiagnostic {
    /// A problem with a whole file (it cannot be read).
    package init(file path: String, message: String) {
        self.init(path: path, line: 0, column: 0, message: message)
    }
}

/// Every problem the generator found; none of them leaves glue behind.
package struct TemplateGlueFailure: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [TemplateGlueDiagnostic]

    package init(diagnostics: [TemplateGlueDiagnostic]) {
        self.diagnostics = diagnostics
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
