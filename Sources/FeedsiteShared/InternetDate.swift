import Foundation

/// Dates as the published feeds write them, always in UTC and without `DateFormatter` (whose
/// output depends on the machine's locale): RFC 3339 for Atom, JSON Feed, sitemaps and
/// `feedsite parse --json`, RFC 822 (as amended by RFC 1123: four-digit years) for RSS.
package enum InternetDate {
    /// `2026-11-19T10:00:00Z`
    package static func rfc3339(_ date: Date) -> String {
        let c = CivilTime(utc: date)
        guard (1000...9999).contains(c.year) else {
            return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
        }
        // Hot path (every item's date on four pages and in the saved state): one buffer, no
        // intermediate strings.
        return String(unsafeUninitializedCapacity: 20) { buffer in
            var writer = ASCIIWriter(buffer)
            func field(_ separator: Unicode.Scalar, _ value: Int) {
                writer.byte(separator)
                writer.digits(value, count: 2)
            }
            writer.digits(c.year, count: 4)
            field("-", c.month)
            field("-", c.day)
            field("T", c.hour)
            field(":", c.minute)
            field(":", c.second)
            writer.byte("Z")
            return writer.count
        }
    }

    /// `Thu, 19 Nov 2026 10:00:00 +0000`
    package static func rfc822(_ date: Date) -> String {
        let c = CivilTime(utc: date)
        let weekday = CalendarNames.weekdayAbbreviations[max(0, min(6, c.weekday - 1))]
        let month = CalendarNames.monthAbbreviations[max(0, min(11, c.month - 1))]
        return "\(weekday), \(two(c.day)) \(month) \(c.year) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
