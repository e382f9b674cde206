import Foundation

/// Writes the state as JSON by hand, byte for byte what `JSONEncoder` writes with sorted keys and
/// ISO 8601 dates (the decoder is still `JSONDecoder`). The state of a 30,000-item planet is 90 MB
/// of JSON, almost all of it item HTML; `JSONEncoder` spent about a tenth of a cold build's CPU
/// boxing and sorting it. A differential test (`StateJSONTests`) holds this to the reference
/// encoder, so a field added to a `Codable` type and not here fails a test instead of going missing.
struct StateJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity (one buffer serves every feed of a save).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A JSON string: `"` and `\` escaped, `/` as `\/`, control characters as `\b \t \n \f \r` or
    /// `\u00xx`, everything else as its UTF-8 bytes (as Foundation's encoder writes them).
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time past text that needs no escape (most of every item body).
                if index + 8 <= utf8.count, let base = utf8.baseAddress,
                    !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                index += 1
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                        || byte == UInt8(ascii: "/")
                else { continue }
                let index = index - 1
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    hex.withUTF8Buffer { digits in
                        bytes.append(digits[Int(byte >> 4)])
                        bytes.append(digits[Int(byte & 0xF)])
                    }
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Whether any of eight bytes is below 0x20 or is `"`, `\\` or `/` (exact for "no": the
    /// "has zero byte" and "has byte less than" tests from Bit Twiddling Hacks).
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let below = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
        return below || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
            || hasZero(word ^ (ones &* 0x2F))
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `"2026-11-21T13:20:00Z"`: whole seconds, rounded down, UTC. Dates outside 1900–9999 are left
    /// to Foundation (its calendar turns Julian before 1582 and years grow a fifth digit).
    mutating func date(_ value: Date) {
        guard let time = CivilTime(value) else {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            if let encoded = try? encoder.encode(value) { bytes.append(contentsOf: encoded) }
            return
        }
        bytes.append(UInt8(ascii: "\""))
        digits(time.year, count: 4)
        bytes.append(UInt8(ascii: "-"))
        digits(time.month, count: 2)
        bytes.append(UInt8(ascii: "-"))
        digits(time.day, count: 2)
        bytes.append(UInt8(ascii: "T"))
        digits(time.hour, count: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(time.minute, count: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(time.second, count: 2)
        raw("Z\"")
    }

    private mutating func digits(_ value: Int, count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    // MARK: The state's types, their keys in sorted order, nil optionals left out.

    mutating func feed(_ feed: FeedState) {
        raw(#"{"channel":"#)
        channel(feed.channel)
        if let discoveredURL = feed.discoveredURL {
            raw(#","discoveredURL":"#)
            string(discoveredURL)
        }
        if let etag = feed.etag {
            raw(#","etag":"#)
            string(etag)
        }
        if let finalURL = feed.finalURL {
            raw(#","finalURL":"#)
            string(finalURL)
        }
        raw(#","health":"#)
        health(feed.health)
        raw(#","items":["#)
        for (index, item) in feed.items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            storedItem(item)
        }
        bytes.append(UInt8(ascii: "]"))
        if let lastModified = feed.lastModified {
            raw(#","lastModified":"#)
            string(lastModified)
        }
        if let slug = feed.slug {
            raw(#","slug":"#)
            string(slug)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func channel(_ channel: ChannelInfo) {
        bytes.append(UInt8(ascii: "{"))
        var separator = false
        optionalField("description", channel.description, &separator)
        optionalField("image", channel.image, &separator)
        optionalField("language", channel.language, &separator)
        optionalField("siteLink", channel.siteLink, &separator)
        if separator { bytes.append(UInt8(ascii: ",")) }
        raw(#""title":"#)
        string(channel.title)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func optionalField(_ key: StaticString, _ value: String?, _ separator: inout Bool) {
        guard let value else { return }
        if separator { bytes.append(UInt8(ascii: ",")) }
        separator = true
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw(#"":"#)
        string(value)
    }

    private mutating func health(_ health: FeedHealth) {
        raw(#"{"consecutiveFailures":"#)
        int(health.consecutiveFailures)
        if let lastError = health.lastError {
            raw(#","lastError":"#)
            string(lastError)
        }
        if let lastStatus = health.lastStatus {
            raw(#","lastStatus":"#)
            int(lastStatus)
        }
        if let lastSuccess = health.lastSuccess {
            raw(#","lastSuccess":"#)
            date(lastSuccess)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func storedItem(_ stored: StoredItem) {
        raw(#"{"firstSeen":"#)
        date(stored.firstSeen)
        raw(#","isInFeed":"#)
        bool(stored.isInFeed)
        raw(#","item":"#)
        item(stored.item)
        raw(#","key":"#)
        string(stored.key)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func item(_ item: SiteItem) {
        raw(#"{"authors":"#)
        strings(item.authors)
        raw(#","categories":"#)
        strings(item.categories)
        raw(#","content":{"html":"#)
        string(item.content.html)
        bytes.append(UInt8(ascii: "}"))
        if let date = item.date {
            raw(#","date":"#)
            self.date(date)
        }
        raw(#","enclosures":["#)
        for (index, enclosure) in item.enclosures.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            self.enclosure(enclosure)
        }
        raw(#"],"excerpt":"#)
        string(item.excerpt)
        raw(#","feedName":"#)
        string(item.feedName)
        raw(#","feedSlug":"#)
        string(item.feedSlug)
        if let image = item.image {
            raw(#","image":"#)
            string(image)
        }
        if let link = item.link {
            raw(#","link":"#)
            string(link)
        }
        raw(#","slug":"#)
        string(item.slug)
        raw(#","title":"#)
        string(item.title)
        raw(#","wordCount":"#)
        int(item.wordCount)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func enclosure(_ enclosure: Enclosure) {
        bytes.append(UInt8(ascii: "{"))
        if let length = enclosure.length {
            raw(#""length":"#)
            int(length)
            bytes.append(UInt8(ascii: ","))
        }
        if let type = enclosure.type {
            raw(#""type":"#)
            string(type)
            bytes.append(UInt8(ascii: ","))
        }
        raw(#""url":"#)
        string(enclosure.url)
        bytes.append(UInt8(ascii: "}"))
    }
}
