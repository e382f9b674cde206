/// How a command ends when it cannot do its job: the codes of BSD's `sysexits.h` that feedsite
/// documents (`feedsite --help`, README "Exit status").
package enum ExitStatus: Int32, Sendable, Hashable {
    /// More feeds failed than the failure policy allows; the previous site was left as it was.
    case feedsFailed = 1
    /// A usage, configuration (`feeds.yml`) or template error: nothing was fetched or written.
    case usage = 64
    /// The output or state folder cannot be created, or is refused (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Reading or writing a file failed while writing the site or the state (`EX_IOERR`).
    case ioError = 74
}
