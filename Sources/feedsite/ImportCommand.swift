import ArgumentParser
import FeedsiteKit
import Foundation

/// `feedsite import …`: bring subscriptions from elsewhere into feeds.yml.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add feeds to feeds.yml from another reader's export.",
        subcommands: [ImportOPMLCommand.self]
    )
}

/// `feedsite import opml FILE [--config feeds.yml]`
struct ImportOPMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opml",
        abstract: "Add the feeds of an OPML subscription list to feeds.yml.",
        discussion: """
            Every outline with an xmlUrl that feeds.yml does not list yet is appended at the end of its \
            feeds: list as '- url:', 'name:' and 'tags:' lines (the folders it is in become its tags; a \
            feed in two folders gets both); the rest of the file, comments included, is left as it is. feeds.yml is created when it does not exist. Feeds \
            already listed and outlines without an http(s) URL are reported and skipped.
            Exit status: 0 done (warnings allowed), 64 the OPML file or feeds.yml could not be used.
            """
    )

    @Argument(help: ArgumentHelp("The OPML file to import.", valueName: "file"))
    var file: String

    @Option(name: .long, help: ArgumentHelp("The configuration file to add the feeds to.", valueName: "file"))
    var config = "feeds.yml"

    func run() throws {
        let outcome: OPMLImport.Outcome
        do {
            outcome = try OPMLImport.importFile(URL(fileURLWithPath: file), into: URL(fileURLWithPath: config))
        } catch {
            Terminal.printError(error.description)
            throw ExitCode(64)
        }
        for diagnostic in outcome.diagnostics { Terminal.printError(diagnostic.description) }
        print(OPMLImportSummary(outcome: outcome, config: config).text)
    }
}

/// The one line `feedsite import opml` prints on success.
struct OPMLImportSummary {
    var outcome: OPMLImport.Outcome
    var config: String

    var text: String {
        let added = outcome.added.count
        let duplicates = outcome.duplicates.count
        let feeds = added == 1 ? "feed" : "feeds"
        var line =
            added == 0
            ? "\(config): nothing to add"
            : "\(config): \(outcome.configExisted ? "added" : "created with") \(added) \(feeds)"
        if duplicates > 0 { line += " (\(duplicates) already listed)" }
        return line
    }
}
