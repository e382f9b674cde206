/// A problem found while building, printed like a compiler diagnostic:
/// `feeds.yml:4:7: error: 'url' must be an http(s) URL, got "htp:/x"`.
///
/// Stages collect diagnostics and keep going (swift-format's `DiagnosticsEngine` model): a broken
/// feed is a warning in the build report, never an abort.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    package var severity: Severity
    /// The file the problem is in (`feeds.yml`), when it is in one.
    package var file: String?
    package var line: Int?
    package var column: Int?
    package var message: String
    /// Printed even with `--quiet`: it says where files of the user's are (set aside, or left
    /// in place where feedsite would have deleted them).
    package var concernsUserFiles = false

    package init(_ severity: Severity, file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    package static func error(file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String) -> Self {
        Diagnostic(.error, file: file, line: line, column: column, message)
    }

    package static func warning(
        file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String
    )
        -> Self
    {
        Diagnostic(.warning, file: file, line: line, column: column, message)
    }

    /// `file:line:column: ` (as much of it as is known), empty when the problem has no location.
    package var location: String {
        guard let file else { return "" }
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text + ": "
    }

    package var description: String {
        "\(location)\(severity.rawValue): \(message)"
    }
}
