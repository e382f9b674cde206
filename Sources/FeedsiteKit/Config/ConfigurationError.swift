/// `feeds.yml` could not be used. Every problem found is listed at once, each with file, line and
/// column, so one edit fixes them all.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
