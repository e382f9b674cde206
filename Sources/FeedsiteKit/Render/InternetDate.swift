import Foundation

/// Dates as the published feeds write them, always in UTC and without `DateFormatter` (whose
/// output depends on the machine's locale): RFC 3339 for Atom, JSON Feed and sitemaps, RFC 822
/// (as amended by RFC 1123: four-digit years) for RSS.
enum InternetDate {
    /// `2026-11-19T10:00:00Z`
    static func rfc3339(_ date: Date) -> String {
        let c = components(date)
        guard (1000...9999).contains(c.year) else {
            return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
        }
        // Written into one buffer: the interpolation built and joined a dozen strings, and every
        // item's date is written on four pages and in the saved state.
        return String(unsafeUninitializedCapacity: 20) { buffer in
            var writer = ASCIIWriter(buffer)
            writer.digits(c.year, count: 4)
            writer.byte("-")
            writer.digits(c.month, count: 2)
            writer.byte("-")
            writer.digits(c.day, count: 2)
            writer.byte("T")
            writer.digits(c.hour, count: 2)
            writer.byte(":")
            writer.digits(c.minute, count: 2)
            writer.byte(":")
            writer.digits(c.second, count: 2)
            writer.byte("Z")
            return writer.count
        }
    }

    /// `Thu, 19 Nov 2026 10:00:00 +0000`
    static func rfc822(_ date: Date) -> String {
        let c = components(date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = days[max(0, min(6, c.weekday - 1))]
        let month = months[max(0, min(11, c.month - 1))]
        return "\(weekday), \(two(c.day)) \(month) \(c.year) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    private typealias Parts = CivilTime

    private static func components(_ date: Date) -> Parts {
        if let parts = CivilTime(date) { return parts }
        let c = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        return Parts(
            year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1, hour: c.hour ?? 0, minute: c.minute ?? 0,
            second: c.second ?? 0, weekday: c.weekday ?? 5)
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}

/// A date's calendar fields at a fixed offset from UTC, by arithmetic: `Calendar.dateComponents`
/// was 2 % of a cold build (every item page shows a date, every feed entry two). Gregorian, whole
/// seconds rounded down; only for 1900–9999, where it agrees with Foundation's calendar (before
/// 1582 Foundation's turns Julian). Tested against `Calendar` in `CivilTimeTests`.
struct CivilTime: Equatable {
    var year, month, day, hour, minute, second: Int
    /// 1 = Sunday … 7 = Saturday, as `Calendar` numbers them.
    var weekday: Int

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second, self.weekday) = (hour, minute, second, weekday)
    }

    /// `date` seen at `offset` seconds east of UTC; nil outside 1900–9999.
    init?(_ date: Date, offset: Int = 0) {
        let seconds = date.timeIntervalSince1970.rounded(.down) + Double(offset)
        guard seconds >= -2_208_988_800, seconds < 253_402_300_800 else { return nil }
        let total = Int(seconds)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        // Howard Hinnant's `civil_from_days`.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        // 1970-01-01 was a Thursday (5).
        weekday = ((days % 7) + 7 + 4) % 7 + 1
    }
}

/// Writes ASCII into a buffer of known size (dates: fixed-width fields, no intermediate strings).
struct ASCIIWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func byte(_ character: Unicode.Scalar) {
        append(UInt8(ascii: character))
    }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func bytes(_ text: StaticString) {
        text.withUTF8Buffer { for byte in $0 { append(byte) } }
    }

    /// `value` (0 or more) in decimal, zero-padded to `count` digits; more digits when it needs them.
    mutating func digits(_ value: Int, count width: Int = 1) {
        var length = 1
        var limit = 10
        while length < 19, value >= limit {
            length += 1
            limit &*= 10
        }
        length = max(length, width)
        var rest = value
        for index in stride(from: count + length - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }
}
