import ArgumentParser
import FeedsiteKit
import FeedsiteServe
import Foundation

/// `feedsite serve`
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the site in a browser; rebuild and reload on every edit.",
        discussion: """
            Builds the site (unless --no-build), serves the output folder on a local port and watches \
            the templates folder (assets included) and the configuration file. Every edit rebuilds the \
            site and the open pages reload themselves. A failed rebuild is shown in the terminal and \
            over the page, and the last good site keeps being served. Ctrl-C stops the server.
            Exit status: 0 stopped, 1 the port is in use or cannot be bound, 64 usage error.
            """
    )

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 8000

    @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Flag(name: .long, help: "Serve the output folder as it is: no build at start (edits still rebuild).")
    var noBuild = false

    @Flag(name: .long, help: "Never fetch feeds: build and rebuild from the saved state only.")
    var offline = false

    @Flag(name: .long, help: "Open the site in the default browser (xdg-open) once it is ready.")
    var open = false

    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config = "feeds.yml"

    @Option(name: .long, help: ArgumentHelp("Where the site is written and served from.", valueName: "dir"))
    var output = "Site"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A folder whose *.mustache and assets/ files override the built-in theme (default: Templates/ beside the configuration file, if any).",
            valueName: "dir"))
    var templates: String?

    @Option(name: .long, help: "How many feeds are fetched at the same time.")
    var concurrency = 64

    @Option(name: .long, help: ArgumentHelp("Seconds allowed for each feed's request.", valueName: "seconds"))
    var timeout = 30

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, got \(concurrency)") }
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second, got \(timeout)") }
    }

    func run() async throws {
        let configFile = URL(fileURLWithPath: config)
        let templatesDirectory = templates.map { URL(fileURLWithPath: $0) }
        let generatorOptions = SiteGenerator.Options(
            configFile: configFile, outputDirectory: URL(fileURLWithPath: output),
            templatesDirectory: templatesDirectory, concurrency: concurrency, timeoutSeconds: timeout)
        let offline = offline
        let server = PreviewServer(
            options: .init(
                host: host, port: port, siteDirectory: URL(fileURLWithPath: output), configFile: configFile,
                watchedPaths: [templatesDirectory ?? SiteTemplates.defaultFolder(besides: configFile), configFile],
                buildsFirst: !noBuild),
            log: { Terminal.printError($0) },
            rebuild: { reason in
                try await SiteRebuild.run(generatorOptions, reason: reason, offline: offline)
            })
        let opensBrowser = open
        do {
            try await server.run(handlesSignals: true) { url in
                // Written unbuffered: scripts (and tests) wait for this line to learn the port.
                FileHandle.standardOutput.write(Data("serving \(url.absoluteString)  (Ctrl-C to stop)\n".utf8))
                if opensBrowser { Browser.open(url) }
            }
        } catch let error as PreviewServerError {
            Terminal.printError(error.description)
            throw ExitCode(1)
        }
        Terminal.printError("stopped")
    }
}

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

/// Opens a URL in the desktop's browser, when there is one.
enum Browser {
    static func open(_ url: URL) {
        let candidates = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open", "/usr/bin/open"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Terminal.printError("warning: --open: xdg-open is not installed; open \(url.absoluteString) yourself")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [url.absoluteString]
        do {
            try process.run()
        } catch {
            Terminal.printError("warning: --open: \(tool) failed: \(error.localizedDescription)")
        }
    }
}
