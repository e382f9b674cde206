import ArgumentParser
import FeedsiteKit

/// `feedsite`: the command line. It only declares options, validates them and calls FeedsiteKit.
@main
struct FeedsiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedsite",
        abstract: "Turn a list of feeds into a static website.",
        discussion: """
            Reads feeds.yml, fetches every feed, sanitises every item and writes a browsable site.
            Exit status: 0 site written (warnings allowed), 1 nothing could be built (the old site is kept),
            64 usage or configuration error.
            """,
        version: Feedsite.version,
        subcommands: [
            BuildCommand.self, InitCommand.self, ParseCommand.self, ServeCommand.self, ImportCommand.self,
        ]
    )
}
