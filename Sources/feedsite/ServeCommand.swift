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
            the templates folder (assets included), the configuration file, static/ and local feed \
            files. Every edit rebuilds the \
            site and the open pages reload themselves. A failed rebuild is shown in the terminal and \
            over the page, and the last good site keeps being served. Ctrl-C stops the server. \
            A folder that build would refuse to write (one holding files feedsite did not write, \
            such as a home folder) is never served.
            Exit status: 0 stopped, 1 the port is in use or cannot be bound, 64 usage error, \
            73 the output folder is refused.
            """
    )

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 8000

    @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Flag(name: .long, help: "Serve the output folder as it is: no build at start (edits still rebuild).")
    var noBuild = false

    @Flag(name: .long, help: "Open the site in the default browser (xdg-open) once it is ready.")
    var open = false

    @OptionGroup var paths: SitePaths

    @OptionGroup var fetching: FetchOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--host must name an address to listen on, such as 127.0.0.1")
        }
    }

    /// What else a rebuild reads from disk: the static folder and the local feed files named in
    /// `feeds.yml` when serving starts (a feed file added later is watched after a restart).
    static func watchedInputs(besides configFile: URL) -> [URL] {
        guard let (configuration, _) = try? SiteConfiguration.load(contentsOf: configFile) else { return [] }
        return [configuration.staticFolder(besides: configFile)]
            + configuration.feeds.filter(\.isLocal).map(\.location)
    }

    func run() async throws {
        let generatorOptions = {
            var options = SiteGenerator.Options(paths: paths, fetching: fetching)
            options.notice = { @Sendable text in Terminal.printError("note: " + text) }
            return options
        }()
        let configFile = generatorOptions.configFile
        let offline = fetching.offline
        let server = PreviewServer(
            options: .init(
                host: host, port: port, siteDirectory: generatorOptions.outputDirectory, configFile: configFile,
                watchedPaths: [
                    generatorOptions.templatesDirectory ?? SiteTemplates.defaultFolder(besides: configFile), configFile,
                ] + Self.watchedInputs(besides: configFile),
                buildsFirst: !noBuild),
            log: { Terminal.printError($0) },
            rebuild: { reason in
                try await SiteRebuild.run(generatorOptions, reason: reason, offline: offline)
            })
        // Only a folder build would write is served: a site feedsite wrote, an empty or absent
        // one, or an older feedsite's site. Anything else (a home folder named by mistake) would
        // put files that are not the site on the port, so it is refused as build refuses it.
        do {
            _ = try await OutputFolder.check(generatorOptions.outputDirectory)
        } catch {
            error.diagnostics.forEach(Terminal(quiet: false).print)
            throw ExitCode(error.exitStatus.rawValue)
        }
        let opensBrowser = open
        do {
            try await server.run(
                handlesSignals: true,
                onGraceOver: {
                    // Ended here rather than by cancelling the stalled responses (see `run`).
                    Terminal.printError("stopped (responses still being sent 2 seconds later were cut off)")
                    _exit(0)
                }
            ) { url in
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
