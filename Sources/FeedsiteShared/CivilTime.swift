import Foundation

/// A date's calendar fields at a fixed offset from UTC: the one calendar arithmetic of the code
/// base (Howard Hinnant's `civil_from_days` and `days_from_civil`), in the proleptic Gregorian
/// calendar for every year, as ISO 8601, RFC 3339 and HTML's dates are (and as feeds' dates are
/// read): a feed's `0500-03-01` is 1 March 500 on its page and in the published feeds, not
/// Foundation's Julian 27 February. Years are held to 1–9999, what four digits can say.
///
/// Hot path (every page shows dates, every published feed entry two): fields come from arithmetic,
/// not `Calendar.dateComponents`; see Benchmarks/RESULTS.md. `CivilTimeTests` compares them with
/// Foundation's calendar from 1900 to 9999, where both are Gregorian.
package struct CivilTime: Equatable {
    package var year, month, day, hour, minute, second: Int
    /// 1 = Sunday … 7 = Saturday, as `Calendar` numbers them.
    package var weekday: Int

    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second, self.weekday) = (hour, minute, second, weekday)
    }

    /// `date` seen at `offset` seconds east of UTC, whole seconds rounded down; nil outside
    /// 1900–9999 (the callers on hot paths take other years through `init(_:in:)`).
    package init?(_ date: Date, offset: Int = 0) {
        let seconds = date.timeIntervalSince1970.rounded(.down) + Double(offset)
        guard seconds >= -2_208_988_800, seconds < 253_402_300_800 else { return nil }
        self.init(seconds: Int(seconds))
    }

    /// `date` in `zone`, for any date (held to years 1–9999).
    package init(_ date: Date, in zone: TimeZone) {
        let offset = zone.secondsFromGMT(for: date)
        self = CivilTime(date, offset: offset) ?? CivilTime(seconds: Self.heldSeconds(date, offset: offset))
    }

    /// `date` in UTC, for any date (as `init(_:in:)`), without asking a time zone for its offset.
    package init(utc date: Date) {
        self = CivilTime(date) ?? CivilTime(seconds: Self.heldSeconds(date, offset: 0))
    }

    /// Seconds since 1970 at `offset`, rounded down and held to 0001-01-01T00:00:00 through
    /// 9999-12-31T23:59:59 (a date out of that range, or not a number, cannot trap the conversion).
    private static func heldSeconds(_ date: Date, offset: Int) -> Int {
        let seconds = date.timeIntervalSince1970.rounded(.down) + Double(offset)
        guard !seconds.isNaN else { return 0 }
        return Int(Swift.min(Swift.max(seconds, -62_135_596_800), 253_402_300_799))
    }

    /// `civil_from_days` and the time of day, for `total` seconds since 1970 (UTC at the offset).
    private init(seconds total: Int) {
        let days = Self.floorDivide(total, 86_400)
        let secondOfDay = total - days * 86_400
        // `civil_from_days`.
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

    /// The year as ISO 8601 writes it: four digits (`0500`).
    package var fourDigitYear: String {
        guard year < 1000 else { return String(year) }
        let digits = String(year)
        return String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
    }

    package static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current

    /// Days since 1970-01-01 of a day in the proleptic Gregorian calendar (`days_from_civil`).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days in `month` (1–12) of `year`.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Midnight UTC of the day `date` falls on (day boundaries in UTC do not depend on the calendar).
    package static func startOfDay(_ date: Date) -> Date {
        let seconds = heldSeconds(date, offset: 0)
        return Date(timeIntervalSince1970: Double(floorDivide(seconds, 86_400) * 86_400))
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : (value - (divisor - 1)) / divisor
    }
}
