import ArgumentParser
import FeedsiteKit
import Foundation

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

    func validate() throws {
        // An empty path would be the current folder: never what was meant.
        for (option, value) in [
            ("--config", config), ("--output", output), ("--templates", templates), ("--state", state),
        ]
        where value?.allSatisfy(\.isWhitespace) == true {
            throw ValidationError("\(option) needs a path, got an empty one")
        }
    }
}
