import Foundation

/// `2026-11-19`, in UTC: the day granularity people read in warnings, stale notes and the names of
/// files kept aside.
package enum DayFormat {
    package static func string(_ date: Date) -> String {
        let time = CivilTime(utc: date)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(time.fourDigitYear)-\(two(time.month))-\(two(time.day))"
    }

    /// Midnight UTC of the day `date` falls on.
    package static func startOfDay(_ date: Date) -> Date {
        CivilTime.startOfDay(date)
    }
}
