import ArgumentParser
import FeedsiteKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `feedsite build`
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Fetch every feed in feeds.yml and write the site.",
        discussion: """
            Feeds that fail (HTTP errors, timeouts, unreadable XML) are reported as warnings and keep
            their last good items from the state directory. The site is written into a temporary folder
            and swapped in whole, so an interrupted build never leaves half a site.

            Exit status:
              0   the site was written (warnings allowed)
              1   more feeds failed than --max-failed allows (default: all of them); the previous
                  site was left untouched
              64  usage, configuration (feeds.yml) or template error; nothing was fetched or written
              73  the output or state folder cannot be created or is refused
              74  an I/O error while writing the site or the state
            """
    )

    @OptionGroup var paths: SitePaths

    @Option(name: .long, help: ArgumentHelp("How many feeds are fetched at the same time.", valueName: "n"))
    var concurrency = 64

    @Option(
        name: .long, help: ArgumentHelp("Seconds allowed for each request (overrides 'timeout').", valueName: "seconds")
    )
    var timeout: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seed a missing state directory from a published status/state.json (URL or path; overrides 'state_url').",
            valueName: "url-or-path"))
    var restoreState: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Build even when the state cannot be restored (server down, file too large or unreadable), starting without history. Without it such a build exits 1 and publishes nothing."
        ))
    var allowFreshState = false

    @Flag(name: .long, help: "Re-render from the saved state without touching the network.")
    var offline = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Leave the site untouched (exit 1) when more than N feeds, or P% of them, failed. Default: only when all failed.",
            valueName: "N|P%"))
    var maxFailed: String?

    @Flag(name: .long, help: "Any failed feed fails the build (same as --max-failed 0).")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print each feed's outcome.")
    var verbose = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, got \(concurrency)") }
        if let timeout, timeout < 1 { throw ValidationError("--timeout must be at least 1 second, got \(timeout)") }
        if let maxFailed, FailurePolicy(argument: maxFailed) == nil {
            throw ValidationError("--max-failed takes a number of feeds or a percentage (3, 20%), got '\(maxFailed)'")
        }
        if strict && maxFailed != nil { throw ValidationError("--strict and --max-failed cannot be combined") }
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be combined") }
    }

    func run() async throws {
        let output = Terminal(quiet: quiet)
        var policy = FailurePolicy.allFailed
        if strict { policy = .count(0) }
        if let maxFailed, let parsed = FailurePolicy(argument: maxFailed) { policy = parsed }
        var progress: (@Sendable (Int, Int) -> Void)?
        if output.showsProgress {
            progress = { @Sendable done, total in Terminal.progress(done: done, total: total) }
        }
        let generator = SiteGenerator(
            options: .init(
                configFile: URL(fileURLWithPath: paths.config),
                outputDirectory: URL(fileURLWithPath: paths.output),
                templatesDirectory: paths.templates.map { URL(fileURLWithPath: $0) },
                stateDirectory: paths.state.map { URL(fileURLWithPath: $0) },
                restoreState: restoreState, allowFreshState: allowFreshState, concurrency: concurrency,
                timeoutSeconds: timeout, offline: offline, failurePolicy: policy, progress: progress))
        do {
            let report = try await generator.build()
            output.finishProgress()
            output.report(report, verbose: verbose)
            if !quiet { print(report.summary) }
        } catch let error as ConfigurationError {
            output.finishProgress()
            error.diagnostics.forEach(output.print)
            throw ExitCode(error.exitStatus.rawValue)
        } catch let error as TemplateError {
            output.finishProgress()
            output.print(.error(file: error.file, line: error.line, column: error.column, error.message))
            throw ExitCode(error.exitStatus.rawValue)
        } catch let error as BuildError {
            output.finishProgress()
            if case .tooManyFailures(let report, _) = error { output.report(report, verbose: verbose) }
            // A build stopped before it had a report (the state could not be restored) still gets
            // its line in the GitHub step summary.
            if case .stateNotRestored = error { output.summarise(error.message) }
            // Last, so the terminal's last line (and an `::error` annotation) says why.
            output.print(.error(error.message))
            throw ExitCode(error.exitStatus.rawValue)
        } catch let error as any ExitStatusError {
            output.finishProgress()
            output.print(.error(Terminal.message(of: error)))
            throw ExitCode(error.exitStatus.rawValue)
        }
    }
}

/// The paths every command that builds shares.
struct SitePaths: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config = "feeds.yml"

    @Option(name: .long, help: ArgumentHelp("Where the site is written (replaced as a whole).", valueName: "dir"))
    var output = "Site"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A folder whose *.mustache and assets/ files override the built-in theme (default: Templates/ beside the configuration file, if any).",
            valueName: "dir"))
    var templates: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The state directory (overrides 'state_dir', default .feedsite).", valueName: "dir"))
    var state: String?
}

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
        if quiet && diagnostic.severity == .warning { return }
        Self.printError(ReportFormatter.line(diagnostic, color: color))
        if isGitHubActions { Swift.print(ReportFormatter.annotation(diagnostic)) }
    }

    func report(_ report: BuildReport, verbose: Bool) {
        report.diagnostics.forEach(print)
        if verbose {
            ReportFormatter.feedLines(report).forEach { Self.printError($0) }
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

    /// An error's description without the `error: ` it starts with (a diagnostic adds it).
    static func message(of error: any ExitStatusError) -> String {
        let text = error.description
        return text.hasPrefix("error: ") ? String(text.dropFirst(7)) : text
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
