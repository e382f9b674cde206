import ArgumentParser
import FeedsiteKit
import Foundation

/// `feedsite parse`: shows what feedsite reads in a feed, and why.
struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Show how feedsite reads a feed (a file or an http(s) URL).",
        discussion: """
            Prints the format and version, title, link, item count and parse warnings, then one line per
            item; with --json, the parsed feed as JSON (the schema of DESIGN §2: raw values, ISO 8601 UTC
            dates, warnings). URLs are fetched exactly as `feedsite build` fetches them. With several
            inputs and --stats, prints parse (and with --sanitise, sanitise) throughput in MB/s.
            Exit status: 0 every input parsed, 1 one did not, 64 usage error.
            """
    )

    @Argument(help: ArgumentHelp("Feed files or http(s) URLs.", valueName: "file|url"))
    var inputs: [String]

    @Flag(name: .long, help: "Print the parsed feed as JSON.")
    var json = false

    @Flag(name: .long, help: "Print only timing: bytes, seconds and MB/s over all inputs.")
    var stats = false

    @Flag(name: .long, help: "With --stats: also sanitise every item body and time that.")
    var sanitise = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one feed file or URL") }
        if json && stats { throw ValidationError("--json and --stats cannot be combined") }
        if sanitise && !stats { throw ValidationError("--sanitise goes with --stats") }
    }

    func run() async throws {
        let parser = FeedParser()
        var failed = false
        var documents: [(data: Data, url: URL?, contentType: String?)] = []
        for input in inputs {
            do {
                let (data, url, contentType) = try await Self.read(input)
                if stats {
                    documents.append((data, url, contentType))
                    continue
                }
                let feed = try parser.parse(data, url: url, contentType: contentType)
                if json {
                    FileHandle.standardOutput.write(feed.inspectionJSON())
                    print()
                } else {
                    if inputs.count > 1 { print("== \(input)") }
                    print(feed.humanDescription)
                }
            } catch {
                Terminal.printError("\(input): error: \(error)")
                failed = true
            }
        }
        if stats { failed = Self.printStats(documents, parser: parser, sanitise: sanitise) || failed }
        if failed { throw ExitCode(1) }
    }

    /// The same fetch `build` uses for URLs; files are read as they are.
    static func read(_ input: String) async throws -> (Data, URL?, String?) {
        if let url = URL(string: input), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let response = try await FeedFetcher.withFetcher(options: .init()) { fetcher in
                await fetcher.fetch(FetchRequest(url: url, userAgent: FeedFetcher.Options.userAgent(baseURL: nil)))
            }
            switch response {
            case .success(.fetched(let feed)): return (feed.body, feed.finalURL, feed.contentType)
            case .success(.notModified): throw FetchError.http(status: 304, reason: "Not Modified")
            case .failure(let error): throw error
            }
        }
        guard let data = FileManager.default.contents(atPath: input) else {
            throw ValidationError("cannot read \(input): no such file")
        }
        return (data, URL(fileURLWithPath: input), nil)
    }

    /// Parses (and sanitises) every document, timing each stage. Returns true if any failed.
    static func printStats(
        _ documents: [(data: Data, url: URL?, contentType: String?)], parser: FeedParser, sanitise: Bool
    ) -> Bool {
        var failed = false
        var feeds: [(Feed, URL?)] = []
        let bytes = documents.map(\.data.count).reduce(0, +)
        let clock = ContinuousClock()
        let parseTime = clock.measure {
            for document in documents {
                do {
                    feeds.append(
                        (
                            try parser.parse(document.data, url: document.url, contentType: document.contentType),
                            document.url
                        ))
                } catch {
                    failed = true
                }
            }
        }
        let items = feeds.map(\.0.items.count).reduce(0, +)
        print("parse:    \(documents.count) documents, \(items) items, \(Self.rate(bytes, parseTime))")
        if sanitise {
            let sanitiser = HTMLSanitiser()
            var bodyBytes = 0
            let sanitiseTime = clock.measure {
                for (feed, url) in feeds {
                    for item in feed.items {
                        bodyBytes += (item.content ?? item.description ?? "").utf8.count
                        _ = ReadFeed.sanitisedBody(of: item, finalURL: url, sanitiser: sanitiser)
                    }
                }
            }
            print("sanitise: \(items) item bodies, \(Self.rate(bodyBytes, sanitiseTime))")
        }
        return failed
    }

    static func rate(_ bytes: Int, _ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let megabytes = Double(bytes) / 1_000_000
        return String(
            format: "%.1f MB in %.2f s = %.1f MB/s (one core)", megabytes, seconds, megabytes / max(seconds, 1e-9))
    }
}
