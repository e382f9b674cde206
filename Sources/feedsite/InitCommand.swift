import ArgumentParser
import FeedsiteKit
import Foundation

/// `feedsite init [DIR] [--theme]`
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a planet: write a commented feeds.yml, and with --theme the theme to edit.",
        discussion: """
            Writes DIR/feeds.yml (DIR is created when needed), a starter listing a few feeds with every \
            common key explained. An existing feeds.yml is never overwritten. With --theme it also writes \
            the built-in theme into DIR/Templates/ (the templates and assets/); edit any file there and \
            delete the ones you leave alone: every file missing from Templates/ comes from the built-in \
            theme. Existing files are kept. Then run `feedsite build` in DIR.
            Exit status: 0 done, 64 usage error, 73 feeds.yml exists (without --theme) or a file cannot \
            be written.
            """
    )

    @Argument(help: ArgumentHelp("The folder to start the planet in.", valueName: "dir"))
    var directory = "."

    @Flag(name: .long, help: "Also write the built-in theme into DIR/Templates/ to customise.")
    var theme = false

    func run() throws {
        let folder = URL(fileURLWithPath: directory)
        let outcome: StarterProject.Outcome
        do {
            outcome = try StarterProject.write(into: folder, theme: theme)
        } catch {
            Terminal.printError(String(describing: error))
            throw ExitCode(73)
        }
        let prefix = directory == "." ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
        for path in outcome.kept { Terminal.printError("\(prefix)\(path): exists; kept as it is") }
        let templates = outcome.written.filter { $0.hasPrefix("Templates/") }.count
        if outcome.written.contains("feeds.yml") { print("wrote \(prefix)feeds.yml: list your feeds there") }
        if templates > 0 {
            print("wrote \(templates) files into \(prefix)Templates/: edit them; delete those you leave alone")
        }
        let inFolder = directory == "." ? "" : "cd \(directory) && "
        print("then build the site: \(inFolder)feedsite build")
    }
}
