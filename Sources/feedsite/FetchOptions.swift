import ArgumentParser

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
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, got \(concurrency)") }
        if let timeout, timeout < 1 { throw ValidationError("--timeout must be at least 1 second, got \(timeout)") }
    }
}
