import Foundation
import Testing

@testable import FeedsiteKit

/// `StateJSONWriter` must write exactly what `JSONEncoder` (sorted keys, ISO 8601 dates) writes:
/// saved states keep their digest across feedsite versions, and a field added to a `Codable` type
/// but not to the writer shows up here as a difference instead of as silently lost state.
@Suite("State JSON writer")
struct StateJSONWriterTests {
    static func reference(_ state: SiteState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(state)
    }

    /// Where the two differ, with some context, for a readable failure.
    static func firstDifference(_ actual: Data, _ expected: Data) -> String {
        let index =
            zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        let from = max(0, index - 60)
        func excerpt(_ data: Data) -> String {
            String(
                decoding: data[data.startIndex + from..<data.startIndex + min(data.count, index + 60)], as: UTF8.self)
        }
        return "byte \(index):\n  writer:  \(excerpt(actual))\n  encoder: \(excerpt(expected))"
    }

    @Test("every item of the real-feed fixtures, sanitised, encodes as JSONEncoder encodes it")
    func fixtures() throws {
        var state = SiteState()
        let directory = Fixtures.url("real-feeds")
        let sanitiser = HTMLSanitiser()
        var itemCount = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where file.hasSuffix(".xml") || file.hasSuffix(".atom") || file.hasSuffix(".rss") {
            guard let feed = try? FeedParser().parse(Data(contentsOf: directory.appendingPathComponent(file)), url: nil)
            else { continue }
            var items: [StoredItem] = []
            for (index, item) in feed.items.enumerated() {
                let body = item.content ?? item.description ?? ""
                let content =
                    (item.content != nil ? item.contentKind : item.descriptionKind) == .html
                    ? sanitiser.sanitise(html: body, baseURL: nil) : sanitiser.sanitise(plainText: body, baseURL: nil)
                let siteItem = SiteItem(
                    slug: "item-\(index)", feedSlug: file, feedName: feed.title, title: item.title,
                    link: item.link, authors: item.authors.map { $0.name ?? $0.email ?? "" },
                    date: item.published ?? item.updated,
                    content: content.html, excerpt: String(content.plainText.prefix(200)),
                    categories: item.categories,
                    enclosures: item.enclosures, image: item.image?.url, wordCount: content.plainText.count / 6)
                items.append(
                    StoredItem(
                        key: item.id, firstSeen: Date(timeIntervalSince1970: 1_795_000_000.25 + Double(index)),
                        isInFeed: index % 3 != 0, item: siteItem))
                itemCount += 1
            }
            state.feeds["https://fixtures.example/\(file)"] = FeedState(
                etag: "W/\"\(file)\"", lastModified: nil, finalURL: "https://fixtures.example/final/\(file)",
                channel: ChannelInfo(
                    title: feed.title, description: feed.description, siteLink: feed.link, language: feed.language,
                    image: feed.image?.url),
                slug: file, items: items,
                health: FeedHealth(lastSuccess: Date(timeIntervalSince1970: 1_794_960_000), consecutiveFailures: 0))
        }
        #expect(itemCount > 200)
        let actual = StateStore.encode(state)
        let expected = try Self.reference(state)
        #expect(actual == expected, "\(Self.firstDifference(actual, expected))")
    }

    @Test("random states: every optional present or absent, hostile strings, dates from 0001 to 12000")
    func randomised() throws {
        var random = SplitMix64(seed: 0x57A7_E5EED)
        for round in 0..<300 {
            let state = Self.randomState(&random)
            let actual = StateStore.encode(state)
            let expected = try Self.reference(state)
            #expect(actual == expected, "round \(round): \(Self.firstDifference(actual, expected))")
            if actual != expected { break }
        }
    }

    static let alphabet: [String] = [
        "a", "Z", "0", " ", "/", "\\", "\"", "'", "<", ">", "&", "é", "€", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}",
        "\u{7F}", "\u{85}", "\u{1F}", "\u{00}", "\u{08}", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{1B}", "e\u{301}",
        "<p>", "https://x.example/a?b=c&d", "\\u0041",
    ]

    static func randomString(_ random: inout SplitMix64) -> String {
        (0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
    }

    static func maybe<T>(_ random: inout SplitMix64, _ make: (inout SplitMix64) -> T) -> T? {
        Bool.random(using: &random) ? make(&random) : nil
    }

    static func randomDate(_ random: inout SplitMix64) -> Date {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            return Date(
                timeIntervalSince1970: Double(Int.random(in: -62_135_596_800...316_000_000_000, using: &random)))
        case 1: return Date(timeIntervalSince1970: Double.random(in: -3e9...3e9, using: &random))
        case 2:
            return Date(
                timeIntervalSince1970: [
                    -2_208_988_801, -2_208_988_800, -1, 0, 253_402_300_799, 253_402_300_800, 951_782_400, 4_107_542_400,
                ].randomElement(using: &random)!)
        case 3: return Date(timeIntervalSince1970: -Double.random(in: 0..<2, using: &random))
        default:
            return Date(
                timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800, using: &random)) + [0, 0.25, 0.999999]
                    .randomElement(using: &random)!)
        }
    }

    static func randomState(_ random: inout SplitMix64) -> SiteState {
        var state = SiteState(version: Int.random(in: 1...3, using: &random))
        for _ in 0..<Int.random(in: 0..<4, using: &random) {
            var items: [StoredItem] = []
            for _ in 0..<Int.random(in: 0..<4, using: &random) {
                let item = SiteItem(
                    slug: randomString(&random), feedSlug: randomString(&random), feedName: randomString(&random),
                    title: randomString(&random), link: maybe(&random, randomString),
                    authors: (0..<Int.random(in: 0..<3, using: &random)).map { _ in randomString(&random) },
                    date: maybe(&random, randomDate), content: SanitisedHTML(html: randomString(&random)),
                    excerpt: randomString(&random),
                    categories: (0..<Int.random(in: 0..<3, using: &random)).map { _ in randomString(&random) },
                    enclosures: (0..<Int.random(in: 0..<3, using: &random)).map { _ in
                        Enclosure(
                            url: randomString(&random),
                            length: maybe(&random) { Int.random(in: Int.min...Int.max, using: &$0) },
                            type: maybe(&random, randomString))
                    },
                    image: maybe(&random, randomString), wordCount: Int.random(in: -1...1_000_000, using: &random))
                items.append(
                    StoredItem(
                        key: randomString(&random), firstSeen: randomDate(&random),
                        isInFeed: Bool.random(using: &random),
                        item: item))
            }
            // Feed URLs are ASCII here: the top level is sorted with Swift's `<`, which orders
            // non-ASCII keys differently from Foundation's sorted keys (deterministic either way).
            let url = randomString(&random).unicodeScalars.filter(\.isASCII).map(String.init).joined()
            state.feeds[url] = FeedState(
                etag: maybe(&random, randomString), lastModified: maybe(&random, randomString),
                finalURL: maybe(&random, randomString),
                channel: ChannelInfo(
                    title: randomString(&random), description: maybe(&random, randomString),
                    siteLink: maybe(&random, randomString), language: maybe(&random, randomString),
                    image: maybe(&random, randomString)),
                slug: maybe(&random, randomString), items: items,
                health: FeedHealth(
                    lastSuccess: maybe(&random, randomDate), consecutiveFailures: Int.random(in: 0...9, using: &random),
                    lastError: maybe(&random, randomString)))
        }
        return state
    }
}

/// A small seeded generator (SplitMix64), so a failing round reproduces.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
