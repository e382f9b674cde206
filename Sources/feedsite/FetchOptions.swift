import ArgumentParser
import FeedsiteKit

/// How every command that builds fetches (`build`, and `serve` for each rebuild).
struct FetchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How many feeds are fetched at the same time.", valueName: "n"))
    var concurrency = 64

    @Option(
        name: .long, help: ArgumentHelp("Seconds allowed for each request (overrides 'timeout').", valueName: "seconds")
    )
    var timeout: Int?

    @Flag(name: .long, help: "Render from the saved state without touching the network.")
    var offline = false

    func validate() throws {
        let limits = SiteConfiguration.Limits.self
        guard (1...limits.concurrency).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and \(limits.concurrency), got \(concurrency)")
        }
        if let timeout, !(1...limits.seconds).contains(timeout) {
            throw ValidationError("--timeout must be between 1 and \(limits.seconds) seconds, got \(timeout)")
        }
    }
}
