import FeedsiteKit
import FeedsiteServe
import Foundation

/// One rebuild for `feedsite serve`, printed like `feedsite build` prints.
enum SiteRebuild {
    /// A rebuild that failed; its text is shown in the terminal and over the page.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Builds with `options`; returns the diagnostics and summary to print.
    ///
    /// What is fetched depends on why: a template or asset edit re-renders from the saved state
    /// (no network), a `feeds.yml` edit fetches only feeds that have no saved state yet (the new
    /// ones), and `--offline` never fetches.
    static func run(
        _ options: SiteGenerator.Options, reason: PreviewServer.RebuildReason, offline: Bool
    ) async throws -> String {
        var options = options
        options.now = Date()
        switch reason {
        case .initial: options.offline = offline
        case .templates: options.offline = true
        case .configuration:
            options.offline = offline
            options.onlyNewFeeds = true
        }
        do {
            let report = try await SiteGenerator(options: options).build()
            return (report.diagnostics.map(\.description) + [report.summary]).joined(separator: "\n")
        } catch let error as BuildError {
            var lines: [String] = []
            if case .tooManyFailures(let report, _) = error { lines = report.diagnostics.map(\.description) }
            throw Failure(description: (lines + [error.description]).joined(separator: "\n"))
        } catch let error as CancellationError {
            throw error
        } catch {
            throw Failure(description: String(describing: error))
        }
    }
}
