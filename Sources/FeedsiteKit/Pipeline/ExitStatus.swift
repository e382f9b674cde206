/// How a command ends when it cannot do its job: the codes of BSD's `sysexits.h` that feedsite
/// documents (`feedsite --help`, README "Exit status").
public enum ExitStatus: Int32, Sendable, Hashable {
    /// More feeds failed than the failure policy allows; the previous site was left as it was.
    case feedsFailed = 1
    /// A usage, configuration (`feeds.yml`) or template error: nothing was fetched or written.
    case usage = 64
    /// The output or state folder cannot be created, or is refused (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Reading or writing a file failed while writing the site or the state (`EX_IOERR`).
    case ioError = 74
}

/// An error that ends a command, with the exit status it ends it with. Each stage's error types
/// conform, so the command line maps errors to exit statuses by type, in one place.
public protocol ExitStatusError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

extension ConfigurationError: ExitStatusError {
    public var exitStatus: ExitStatus { .usage }
}

extension TemplateError: ExitStatusError {
    public var exitStatus: ExitStatus { .usage }
}

extension SiteWriter.WriteError: ExitStatusError {
    /// A refused or uncreatable output folder is `cannotCreate`; a write that failed half-way
    /// (or a page path that would leave the site) is `ioError`.
    public var exitStatus: ExitStatus {
        switch kind {
        case .refused: .cannotCreate
        case .io, .invalidSite: .ioError
        }
    }
}

extension StateError: ExitStatusError {
    /// A state folder that cannot be created or is refused is `cannotCreate`; a state that cannot
    /// be read or written is `ioError`.
    public var exitStatus: ExitStatus {
        switch kind {
        case .refused: .cannotCreate
        case .io: .ioError
        }
    }
}
