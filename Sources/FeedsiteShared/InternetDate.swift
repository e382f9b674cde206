import Foundation

/// Dates as the published feeds write them, always in UTC and without `DateFormatter` (whose
/// output depends on the machine's locale): RFC 3339 for Atom, JSON Feed, sitemaps and
/// `feedsite parse --json`, RFC 822 (as amended by RFC 1123: four-digit years) for RSS.
package enum InternetDate {
    /// `2026-11-19T10:00:00Z`
    package static func rfc3339(_ date: Date) -> String {
        let c = CivilTime(utc: date)
        return "\(c.fourDigitYear)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }

    /// `Thu, 19 Nov 2026 10:00:00 +0000`
    package static func rfc822(_ date: Date) -> String {
        let c = CivilTime(utc: date)
        let weekday = CalendarNames.weekdayAbbreviations[max(0, min(6, c.weekday - 1))]
        let month = CalendarNames.monthAbbreviations[max(0, min(11, c.month - 1))]
        return
            "\(weekday), \(two(c.day)) \(month) \(c.fourDigitYear) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
