/// An error that ends a command, with the exit status it ends it with and the diagnostics it is
/// printed as. Each stage's error types conform, so the command line maps errors to exit statuses
/// and messages by type, in one place.
package protocol ExitStatusError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
    /// The error as the command line prints it (`description` is the same text, one line each).
    var diagnostics: [Diagnostic] { get }
}

extension ConfigurationError: ExitStatusError {
    package var exitStatus: ExitStatus { .usage }
}

extension TemplateError: ExitStatusError {
    package var exitStatus: ExitStatus { .usage }
    package var diagnostics: [Diagnostic] { [.error(file: file, line: line, column: column, message)] }
}

extension SiteWriter.WriteError: ExitStatusError {
    /// A refused or uncreatable output folder is `cannotCreate`; a write that failed half-way
    /// (or a page path that would leave the site) is `ioError`.
    package var exitStatus: ExitStatus {
        switch kind {
        case .refused: .cannotCreate
        case .io, .invalidSite: .ioError
        }
    }

    package var diagnostics: [Diagnostic] { [.error("\(path): \(message)")] }
}

extension StateError: ExitStatusError {
    /// A state folder that cannot be created or is refused is `cannotCreate`; a state that cannot
    /// be read or written is `ioError`.
    package var exitStatus: ExitStatus {
        switch kind {
        case .refused: .cannotCreate
        case .io: .ioError
        }
    }

    package var diagnostics: [Diagnostic] { [.error("\(path): \(message)")] }
}
