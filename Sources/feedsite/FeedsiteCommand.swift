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

            Exit status:
              0   the site was written (warnings allowed)
              1   too many feeds failed (see build --max-failed);
                  the previous site was left untouched
              64  usage, configuration (feeds.yml) or template error
              73  the output or state folder cannot be created or is refused
              74  an I/O error while writing
            """,
        version: Feedsite.version,
        subcommands: [
            BuildCommand.self, InitCommand.self, ParseCommand.self, ServeCommand.self, ImportCommand.self,
        ]
    )
}
