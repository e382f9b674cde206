import ArgumentParser
import FeedsiteKit
import Foundation

/// `feedsite build`
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Fetch every feed in feeds.yml and write the site.",
        discussion: """
            Feeds that fail (HTTP errors, timeouts, unreadable XML) are reported as warnings and keep \
            their last good items from the state directory. The site is written into a temporary folder \
            and swapped in whole, so an interrupted build never leaves half a site.

            Exit status:
              0   the site was written (warnings allowed)
              1   more feeds failed than --max-failed allows (default: all of them);
                  the previous site was left untouched
              64  usage, configuration (feeds.yml) or template error;
                  nothing was fetched or written
              73  the output or state folder cannot be created or is refused
              74  an I/O error while writing the site or the state
            """
    )

    @OptionGroup var paths: SitePaths

    @OptionGroup var fetching: FetchOptions

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
        if let maxFailed, FailurePolicy(argument: maxFailed) == nil {
            throw ValidationError("--max-failed takes a number of feeds or a percentage (3, 20%), got '\(maxFailed)'")
        }
        if strict && maxFailed != nil { throw ValidationError("--strict and --max-failed cannot be combined") }
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be combined") }
        if let restoreState, let problem = SiteConfiguration.stateOriginProblem(restoreState) {
            throw ValidationError("--restore-state \(problem)")
        }
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
        var options = SiteGenerator.Options(paths: paths, fetching: fetching)
        options.restoreState = restoreState
        options.allowFreshState = allowFreshState
        options.failurePolicy = policy
        options.progress = progress
        if !quiet { options.notice = { @Sendable text in Terminal.printError("note: " + text) } }
        let generator = SiteGenerator(options: options)
        do {
            let report = try await generator.build()
            output.finishProgress()
            output.report(report, verbose: verbose)
            if !quiet { print(report.summary) }
        } catch let error as BuildError {
            output.finishProgress()
            if case .tooManyFailures(let report, _) = error { output.report(report, verbose: verbose) }
            // A build stopped before it had a report (the state could not be restored) still gets
            // its line in the GitHub step summary.
            if case .stateNotRestored = error { output.summarise(error.message) }
            // Last, so the terminal's last line (and an `::error` annotation) says why; after the
            // warnings given before the build stopped (where an unreadable state was kept).
            error.diagnostics.forEach(output.print)
            throw ExitCode(error.exitStatus.rawValue)
        } catch let error as any ExitStatusError {
            output.finishProgress()
            error.diagnostics.forEach(output.print)
            throw ExitCode(error.exitStatus.rawValue)
        }
    }
}
