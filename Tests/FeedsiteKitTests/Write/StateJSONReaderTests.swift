import Foundation
import Testing

@testable import FeedsiteKit

/// `StateJSONReader` must read feedsite's own state exactly as `JSONDecoder` does, and hand
/// anything else to it (nil) rather than guess.
@Suite("State JSON reader")
struct StateJSONReaderTests {
    static func decoded(_ bytes: [UInt8]) throws -> FeedState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[SanitisedHTML.isTrustedKey] = true
        return try decoder.decode(FeedState.self, from: Data(bytes))
    }

    /// True when every date of `feed` is one the writer writes in its own form (1900–9999).
    static func hasOnlyCivilDates(_ feed: FeedState) -> Bool {
        var dates = [feed.health.lastSuccess].compactMap { $0 }
        for stored in feed.items { dates += [stored.firstSeen, stored.item.date].compactMap { $0 } }
        return dates.allSatisfy { CivilTime($0) != nil }
    }

    @Test("random states read back exactly as JSONDecoder reads them")
    func matchesDecoder() throws {
        var random = SplitMix64(seed: 0x5EAD)
        var fast = 0
        for _ in 0..<400 {
            let state = StateJSONWriterTests.randomState(&random)
            for (url, feed) in state.feeds {
                var writer = StateJSONWriter()
                writer.feed(feed)
                let expected = try Self.decoded(writer.bytes)
                let read = StateJSONReader.feed(Data(writer.bytes))
                if let read {
                    #expect(read == expected)
                    fast += 1
                } else {
                    // Only dates the writer leaves to JSONEncoder send a feed to the slow path.
                    #expect(!Self.hasOnlyCivilDates(expected), "\(url.debugDescription)")
                }
                var key = StateJSONWriter()
                key.string(url)
                #expect(StateJSONReader.string(Data(key.bytes)) == url)
            }
        }
        #expect(fast > 200)
    }

    @Test("the real fixtures' state reads the same both ways")
    func fixtureState() throws {
        let feed = try Fixtures.data("real-feeds/substack-rss2.xml")
        let parsed = try FeedParser().parse(feed, url: URL(string: "https://example.substack.com/feed")!)
        let read = ReadFeed(
            feed: parsed, finalURL: URL(string: "https://example.substack.com/feed")!, sanitiser: HTMLSanitiser(),
            excerptLength: 280)
        var state = FeedState(channel: read.channel, slug: "substack")
        state.items = read.entries.map {
            StoredItem(
                key: $0.key, firstSeen: Date(timeIntervalSince1970: 1_795_000_000), isInFeed: true, item: $0.item)
        }
        var writer = StateJSONWriter()
        writer.feed(state)
        let fast = try #require(StateJSONReader.feed(Data(writer.bytes)))
        #expect(fast == (try Self.decoded(writer.bytes)))
        #expect(fast == state)
    }

    @Test(
        "anything but the writer's exact layout is left to JSONDecoder",
        arguments: [
            #"{"channel":{"title":"x"},"health":{"consecutiveFailures":0},"items":[] }"#,
            #"{ "channel":{"title":"x"},"health":{"consecutiveFailures":0},"items":[]}"#,
            #"{"health":{"consecutiveFailures":0},"channel":{"title":"x"},"items":[]}"#,
            #"{"channel":{"title":"\u00e9"},"health":{"consecutiveFailures":0},"items":[]}"#,
            #"{"channel":{"title":"x"},"health":{"consecutiveFailures":01},"items":[]}"#,
            #"{"channel":{"title":"x"},"health":{"consecutiveFailures":0,"lastSuccess":"2026-02-30T00:00:00Z"},"items":[]}"#,
            #"{"channel":{"title":"x"},"health":{"consecutiveFailures":0,"lastSuccess":"2026-01-01T00:00:00.5Z"},"items":[]}"#,
            #"{"channel":{"title":"x","extra":1},"health":{"consecutiveFailures":0},"items":[]}"#,
        ])
    func strictLayout(_ json: String) {
        #expect(StateJSONReader.feed(Data(json.utf8)) == nil)
    }

    @Test("the writer's minimal feed reads back")
    func minimal() {
        let json = #"{"channel":{"title":"x"},"health":{"consecutiveFailures":0},"items":[]}"#
        #expect(StateJSONReader.feed(Data(json.utf8)) == FeedState(channel: ChannelInfo(title: "x")))
    }
}
