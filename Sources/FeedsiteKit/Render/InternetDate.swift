import Foundation

/// Dates as the published feeds write them, always in UTC and without `DateFormatter` (whose
/// output depends on the machine's locale): RFC 3339 for Atom, JSON Feed and sitemaps, RFC 822
/// (as amended by RFC 1123: four-digit years) for RSS.
enum InternetDate {
    /// `2026-11-19T10:00:00Z`
    static func rfc3339(_ date: Date) -> String {
        let c = components(date)
        return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
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

    private struct Parts {
        var year, month, day, hour, minute, second, weekday: Int
    }

    private static func components(_ date: Date) -> Parts {
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
