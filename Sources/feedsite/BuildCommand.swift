import ArgumentParser
import FeedsiteKit
import Foundation

/// `feedsite build`
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Fetch every feed in feeds.yml and write the site.",
        discussion: """
            Feeds that fail (HTTP errors, timeouts, unreadable XML) are reported as warnings and the
            site is built from the rest. The site is written into a temporary folder and swapped in
            whole, so an interrupted build never leaves half a site.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config = "feeds.yml"

    @Option(name: .long, help: ArgumentHelp("Where the site is written (replaced as a whole).", valueName: "dir"))
    var output = "Site"

    @Option(name: .long, help: ArgumentHelp("The templates folder (*.mustache and assets/).", valueName: "dir"))
    var templates = "Templates"

    @Option(name: .long, help: "How many feeds are fetched at the same time.")
    var concurrency = 16

    @Option(name: .long, help: ArgumentHelp("Seconds allowed for each feed's request.", valueName: "seconds"))
    var timeout = 30

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, got \(concurrency)") }
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second, got \(timeout)") }
    }

    func run() async throws {
        let generator = SiteGenerator(
            options: .init(
                configFile: URL(fileURLWithPath: config),
                outputDirectory: URL(fileURLWithPath: output),
                templatesDirectory: URL(fileURLWithPath: templates),
                concurrency: concurrency,
                timeoutSeconds: timeout))
        do {
            let report = try await generator.build()
            for diagnostic in report.diagnostics { Terminal.printError(diagnostic.description) }
            print(report.summary)
        } catch let error as ConfigurationError {
            Terminal.printError(error.description)
            throw ExitCode(64)
        } catch let error as TemplateError {
            Terminal.printError(error.description)
            throw ExitCode(64)
        } catch BuildError.nothingToPublish(let report) {
            for diagnostic in report.diagnostics { Terminal.printError(diagnostic.description) }
            Terminal.printError(BuildError.nothingToPublish(report).description)
            throw ExitCode(1)
        } catch let error as SiteWriter.WriteError {
            Terminal.printError(error.description)
            throw ExitCode(1)
        }
    }
}

/// Standard error, unbuffered: diagnostics interleave correctly with the summary on stdout.
enum Terminal {
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
