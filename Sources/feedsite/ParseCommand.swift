import ArgumentParser
import FeedsiteKit
import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// `feedsite parse`: shows what feedsite reads in a feed, and why.
struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Show how feedsite reads a feed (a file or an http(s) URL).",
        discussion: """
            Prints the format and version, title, link, item count and parse warnings, then one line per \
            item; with --json, the parsed feed as JSON (raw values after one XML decode, ISO 8601 \
            UTC dates, warnings). URLs and files are read exactly as `feedsite build` reads them: a web page \
            is followed to the feed it links (`<link rel="alternate">`), with a note. With several \
            inputs and --stats, prints parse (and with --sanitise, sanitise) throughput in MB/s.
            Exit status: 0 every input parsed, 1 one did not, 64 usage error.
            """
    )

    @Argument(help: ArgumentHelp("Feed files (paths or file: URLs) or http(s) URLs.", valueName: "file|url"))
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
        let stats = stats
        let json = json
        let inputs = inputs
        let (failed, documents) = try await FeedFetcher.withFetcher(options: .init()) { fetcher in
            var failed = false
            var documents: [(data: Data, url: URL?, contentType: String?)] = []
            for input in inputs {
                let request = FetchRequest(
                    url: Self.location(of: input), userAgent: FeedFetcher.Options.userAgent(baseURL: nil))
                let fetched: FetchedFeed
                switch await fetcher.fetch(request) {
                case .success(.fetched(let value)):
                    fetched = value
                case .success(.notModified):
                    // No validators are sent, so a 304 is the server's mistake.
                    Terminal.printError("\(input): error: HTTP 304 Not Modified to an unconditional request")
                    failed = true
                    continue
                case .failure(let error):
                    Terminal.printError("\(input): error: \(error)")
                    failed = true
                    continue
                }
                if stats {
                    documents.append((fetched.body, fetched.finalURL, fetched.contentType))
                    continue
                }
                // The same reading `build` does: a web page is followed to the feed it links.
                switch await fetcher.read(fetched, request: request, parser: parser) {
                case .read(let document):
                    if let feedURL = document.discoveredFeedURL {
                        Terminal.printError(
                            "\(input): note: this is a web page; its feed is \(feedURL.absoluteString) (read below)")
                    }
                    if json {
                        FileHandle.standardOutput.write(document.feed.inspectionJSON())
                        print()
                    } else {
                        if inputs.count > 1 { print("== \(input)") }
                        print(ReportFormatter.printable(document.feed.humanDescription))
                    }
                case .notModified:
                    Terminal.printError("\(input): error: HTTP 304 Not Modified to an unconditional request")
                    failed = true
                case .failed(let reason, _, _):
                    Terminal.printError("\(input): error: \(reason)")
                    failed = true
                }
            }
            return (failed, documents)
        }
        let statsFailed = stats && Self.printStats(documents, parser: parser, sanitise: sanitise)
        if failed || statsFailed { throw ExitCode(1) }
    }

    /// An http(s) or `file:` URL as given; anything else is a path (relative to the current
    /// directory). Read exactly as `build` reads a feed from `feeds.yml`: same limits, same refusal
    /// of anything but a regular file.
    static func location(of input: String) -> URL {
        if let url = URL(string: input), let scheme = url.scheme?.lowercased(),
            ["http", "https", "file"].contains(scheme)
        {
            return url
        }
        return URL(fileURLWithPath: input).standardizedFileURL
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
