import Foundation

/// `feeds.yml` could not be used. Every problem found is listed at once, each with file, line and
/// column, so one edit fixes them all.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    package var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    /// The bytes of `url`, or the error that `what` (`the OPML file`) cannot be read, ended by
    /// `advice` when there is some.
    static func contents(of url: URL, what: String, advice: String? = nil) throws(ConfigurationError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let message = "cannot read \(what) at \(url.path): it does not exist or is not readable"
            throw ConfigurationError([
                .error(file: url.lastPathComponent, advice.map { "\(message); \($0)" } ?? message)
            ])
        }
    }
}
