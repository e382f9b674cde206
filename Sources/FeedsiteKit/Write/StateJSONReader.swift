import Foundation

/// Reads one feed's state back from the exact bytes `StateJSONWriter` writes: keys in the writer's
/// order, its escapes, its date format. Anything else (a file edited by hand, one from another
/// version, a damaged one) is not guessed at: the reader answers nil and `JSONDecoder` decodes that
/// feed instead, with its full grammar and its error messages.
///
/// A warm build (every feed answers 304) spends most of its time loading the state (90 MB of JSON at
/// 30,000 items); `JSONDecoder` was 62 % of such a build. A differential test (`StateJSONReaderTests`)
/// holds this reader to `JSONDecoder` on random states.
struct StateJSONReader {
    /// Why a read stopped: the bytes are not in the writer's layout.
    private struct Mismatch: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Reused for strings with escapes (item HTML has many: `<\/p>`, `\"`).
    private var scratch: [UInt8] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The feed state in `data`, or nil when it is not exactly as `StateJSONWriter` writes it.
    static func feed(_ data: some ContiguousBytes) -> FeedState? {
        data.withUnsafeBytes { raw in
            var reader = StateJSONReader(raw.bindMemory(to: UInt8.self))
            guard let feed = try? reader.feed(), reader.index == reader.bytes.count else { return nil }
            return feed
        }
    }

    /// The JSON string in `data` (a feed's key), or nil.
    static func string(_ data: some ContiguousBytes) -> String? {
        data.withUnsafeBytes { raw in
            var reader = StateJSONReader(raw.bindMemory(to: UInt8.self))
            guard let string = try? reader.string(), reader.index == reader.bytes.count else { return nil }
            return string
        }
    }

    // MARK: The state's types, in the writer's key order.

    private mutating func feed() throws(Mismatch) -> FeedState {
        try expect(#"{"channel":"#)
        let channel = try self.channel()
        let discoveredURL = try optionalString(#","discoveredURL":"#)
        let etag = try optionalString(#","etag":"#)
        let finalURL = try optionalString(#","finalURL":"#)
        try expect(#","health":"#)
        let health = try self.health()
        try expect(#","items":["#)
        var items: [StoredItem] = []
        if !take(UInt8(ascii: "]")) {
            repeat { items.append(try storedItem()) } while take(UInt8(ascii: ","))
            try expect("]")
        }
        let lastModified = try optionalString(#","lastModified":"#)
        let slug = try optionalString(#","slug":"#)
        try expect("}")
        return FeedState(
            etag: etag, lastModified: lastModified, finalURL: finalURL, channel: channel, slug: slug, items: items,
            health: health, discoveredURL: discoveredURL)
    }

    private mutating func channel() throws(Mismatch) -> ChannelInfo {
        try expect("{")
        // Optional fields each end with the comma before the next one; the title always comes last.
        let description = try optionalString(#""description":"#, comma: true)
        let image = try optionalString(#""image":"#, comma: true)
        let language = try optionalString(#""language":"#, comma: true)
        let siteLink = try optionalString(#""siteLink":"#, comma: true)
        try expect(#""title":"#)
        let title = try string()
        try expect("}")
        return ChannelInfo(title: title, description: description, siteLink: siteLink, language: language, image: image)
    }

    private mutating func health() throws(Mismatch) -> FeedHealth {
        try expect(#"{"consecutiveFailures":"#)
        let failures = try int()
        let lastError = try optionalString(#","lastError":"#)
        let lastStatus: Int? = take(#","lastStatus":"#) ? try int() : nil
        let lastSuccess: Date? = take(#","lastSuccess":"#) ? try date() : nil
        try expect("}")
        return FeedHealth(
            lastSuccess: lastSuccess, consecutiveFailures: failures, lastError: lastError, lastStatus: lastStatus)
    }

    private mutating func storedItem() throws(Mismatch) -> StoredItem {
        try expect(#"{"firstSeen":"#)
        let firstSeen = try date()
        try expect(#","isInFeed":"#)
        let isInFeed: Bool
        if take("true") {
            isInFeed = true
        } else {
            try expect("false")
            isInFeed = false
        }
        try expect(#","item":"#)
        let item = try self.item()
        try expect(#","key":"#)
        let key = try string()
        try expect("}")
        return StoredItem(key: key, firstSeen: firstSeen, isInFeed: isInFeed, item: item)
    }

    private mutating func item() throws(Mismatch) -> SiteItem {
        try expect(#"{"authors":"#)
        let authors = try strings()
        try expect(#","categories":"#)
        let categories = try strings()
        try expect(#","content":{"html":"#)
        let content = try string()
        try expect("}")
        let date: Date? = take(#","date":"#) ? try self.date() : nil
        try expect(#","enclosures":["#)
        var enclosures: [Enclosure] = []
        if !take(UInt8(ascii: "]")) {
            repeat { enclosures.append(try enclosure()) } while take(UInt8(ascii: ","))
            try expect("]")
        }
        try expect(#","excerpt":"#)
        let excerpt = try string()
        try expect(#","feedName":"#)
        let feedName = try string()
        try expect(#","feedSlug":"#)
        let feedSlug = try string()
        let image = try optionalString(#","image":"#)
        let link = try optionalString(#","link":"#)
        try expect(#","slug":"#)
        let slug = try string()
        try expect(#","title":"#)
        let title = try string()
        try expect(#","wordCount":"#)
        let wordCount = try int()
        try expect("}")
        return SiteItem(
            slug: slug, feedSlug: feedSlug, feedName: feedName, title: title, link: link, authors: authors, date: date,
            content: SanitisedHTML(html: content), excerpt: excerpt, categories: categories, enclosures: enclosures,
            image: image, wordCount: wordCount)
    }

    private mutating func enclosure() throws(Mismatch) -> Enclosure {
        try expect("{")
        let length: Int? = take(#""length":"#) ? try int() : nil
        if length != nil { try expect(",") }
        let type = try optionalString(#""type":"#, comma: true)
        try expect(#""url":"#)
        let url = try string()
        try expect("}")
        return Enclosure(url: url, length: length, type: type)
    }

    // MARK: Values

    private mutating func strings() throws(Mismatch) -> [String] {
        try expect("[")
        var values: [String] = []
        if take(UInt8(ascii: "]")) { return values }
        repeat { values.append(try string()) } while take(UInt8(ascii: ","))
        try expect("]")
        return values
    }

    /// `key` and a string when `key` comes next (and, with `comma`, the comma after it); else nil.
    private mutating func optionalString(_ key: StaticString, comma: Bool = false) throws(Mismatch) -> String? {
        guard take(key) else { return nil }
        let value = try string()
        if comma { try expect(",") }
        return value
    }

    /// A string with the writer's escapes only (`\" \\ \/ \b \t \n \f \r \u00XX`), valid UTF-8.
    private mutating func string() throws(Mismatch) -> String {
        guard take(UInt8(ascii: "\"")) else { throw Mismatch() }
        let start = index
        // The common case: no escape before the closing quote.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let value = try Self.validated(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return value
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Mismatch() }
            index += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try scratch.withUnsafeBufferPointer { buffer throws(Mismatch) in try Self.validated(buffer) }
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw Mismatch() }
                let escaped = bytes[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "u"):
                    // The writer escapes control characters only: \u0000 to \u001f.
                    guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "0"),
                        bytes[index + 1] == UInt8(ascii: "0"), let high = Self.hexValue(bytes[index + 2]),
                        let low = Self.hexValue(bytes[index + 3]), high < 2
                    else { throw Mismatch() }
                    scratch.append(high << 4 | low)
                    index += 4
                default:
                    throw Mismatch()
                }
            default:
                if byte < 0x20 { throw Mismatch() }
                let runStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
                    bytes[index] >= 0x20
                {
                    index += 1
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
        }
        throw Mismatch()
    }

    private static func validated(_ buffer: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> String {
        guard let value = String(validating: buffer, as: UTF8.self) else { throw Mismatch() }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// A decimal integer as the writer writes it (`-` and digits, no leading zeros, no overflow).
    private mutating func int() throws(Mismatch) -> Int {
        let isNegative = take(UInt8(ascii: "-"))
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw Mismatch() }
            magnitude = sum
            index += 1
        }
        let count = index - start
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { throw Mismatch() }
        if isNegative {
            guard magnitude <= UInt64(Int.max) + 1, magnitude > 0 else { throw Mismatch() }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { throw Mismatch() }
        return Int(magnitude)
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"` for years 1900–9999, the form the writer uses (it leaves other years
    /// to `JSONEncoder`, and so does this reader, to `JSONDecoder`).
    private mutating func date() throws(Mismatch) -> Date {
        let length = 22  // the quotes included
        guard index + length <= bytes.count, bytes[index] == UInt8(ascii: "\""),
            bytes[index + 5] == UInt8(ascii: "-"), bytes[index + 8] == UInt8(ascii: "-"),
            bytes[index + 11] == UInt8(ascii: "T"), bytes[index + 14] == UInt8(ascii: ":"),
            bytes[index + 17] == UInt8(ascii: ":"), bytes[index + 20] == UInt8(ascii: "Z"),
            bytes[index + 21] == UInt8(ascii: "\"")
        else { throw Mismatch() }
        func number(_ offset: Int, _ count: Int) throws(Mismatch) -> Int {
            var value = 0
            for position in (index + offset)..<(index + offset + count) {
                let byte = bytes[position]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw Mismatch() }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let year = try number(1, 4)
        let month = try number(6, 2)
        let day = try number(9, 2)
        let hour = try number(12, 2)
        let minute = try number(15, 2)
        let second = try number(18, 2)
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard year >= 1900, (1...12).contains(month), day >= 1, day <= monthLengths[month - 1], hour < 24,
            minute < 60, second < 60
        else { throw Mismatch() }
        index += length
        // Howard Hinnant's `days_from_civil`, the inverse of `CivilTime`'s.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    // MARK: Bytes

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` if the bytes continue with it.
    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            memcmp(bytes.baseAddress! + index, expected.baseAddress!, count) == 0
        }
        if matches { index += count }
        return matches
    }

    private mutating func expect(_ literal: StaticString) throws(Mismatch) {
        guard take(literal) else { throw Mismatch() }
    }
}
