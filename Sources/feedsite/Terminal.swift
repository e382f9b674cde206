import FeedsiteKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where diagnostics go: standard error, in colour on a terminal (unless `NO_COLOR`), as GitHub
/// Actions annotations under `GITHUB_ACTIONS=true`, with the step summary appended to
/// `$GITHUB_STEP_SUMMARY`.
struct Terminal {
    let quiet: Bool
    let environment = ProcessInfo.processInfo.environment

    var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    var color: Bool { isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true }
    var isGitHubActions: Bool { environment["GITHUB_ACTIONS"] == "true" }
    var showsProgress: Bool { !quiet && isTerminal }

    func print(_ diagnostic: Diagnostic) {
        if quiet && diagnostic.severity == .warning && !diagnostic.concernsUserFiles { return }
        Self.printError(ReportFormatter.line(diagnostic, color: color))
        if isGitHubActions { Swift.print(ReportFormatter.annotation(diagnostic)) }
    }

    func report(_ report: BuildReport, verbose: Bool) {
        report.diagnostics.forEach(print)
        if verbose {
            ReportFormatter.feedLines(report).forEach { Self.printError(ReportFormatter.printable($0)) }
            let timings = report.timings.map {
                "\($0.stage) \($0.duration.formatted(.units(allowed: [.seconds, .milliseconds])))"
            }
            Self.printError("time: " + timings.joined(separator: ", "))
        }
        if isGitHubActions, let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty,
            let handle = FileHandle(forWritingAtPath: path)
        {
            handle.seekToEndOfFile()
            handle.write(Data(ReportFormatter.stepSummary(report).utf8))
            try? handle.close()
        }
    }

    /// Under GitHub Actions, an error that stopped the build before it had a report: a line in the
    /// step summary (the `::error` annotation comes with the error's diagnostic).
    func summarise(_ message: String) {
        guard isGitHubActions else { return }
        if let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty, let handle = FileHandle(forWritingAtPath: path)
        {
            handle.seekToEndOfFile()
            handle.write(Data("### feedsite: site not updated\n\n**Error:** \(message)\n".utf8))
            try? handle.close()
        }
    }

    func finishProgress() {
        if showsProgress { Self.printError("\r\u{1B}[K", newline: false) }
    }

    static func progress(done: Int, total: Int) {
        printError("\r\u{1B}[K" + ReportFormatter.progress(done: done, total: total), newline: false)
    }

    /// Standard error, unbuffered: diagnostics interleave correctly with the summary on stdout.
    static func printError(_ text: String, newline: Bool = true) {
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }
}
