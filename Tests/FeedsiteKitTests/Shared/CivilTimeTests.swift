import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteShared

/// `CivilTime` stands in for `Calendar.dateComponents` on the render's hot path and in the state
/// writer: it must give the same fields, in every zone the site can be configured with, and
/// `daysSinceEpoch` must invert it.
@Suite("Civil time")
struct CivilTimeTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Kiritimati",
        "America/St_Johns", "Asia/Kathmandu",
    ]

    static func randomDate(_ random: inout SplitMix64) -> Date {
        switch Int.random(in: 0..<4, using: &random) {
        // 1897 to the end of 9999 (later dates are held to it).
        case 0: return Date(timeIntervalSince1970: Double.random(in: -2.3e9...253_402_214_400, using: &random))
        case 1: return Date(timeIntervalSince1970: Double(Int.random(in: 946_684_800...4_102_444_800, using: &random)))
        case 2:
            // Around midnights, month ends and leap days.
            let base = [951_782_400, 1_709_164_800, 1_735_689_600, 4_107_542_400, 0, -2_208_988_800].randomElement(
                using: &random)!
            return Date(timeIntervalSince1970: Double(base + Int.random(in: -90_000...90_000, using: &random)))
        default: return Date(timeIntervalSince1970: Double.random(in: 1.7e9...1.8e9, using: &random))
        }
    }

    @Test("the same fields as Calendar, in zones with odd offsets and DST, 1900 to 9999")
    func matchesCalendar() throws {
        var random = SplitMix64(seed: 0xC1_F11)
        for identifier in Self.zones {
            let zone = try #require(TimeZone(identifier: identifier))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for _ in 0..<2_000 {
                let date = Self.randomDate(&random)
                let reference = calendar.dateComponents(
                    [.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
                guard let time = CivilTime(date, offset: zone.secondsFromGMT(for: date)) else {
                    // Outside the years it answers for, callers ask Calendar.
                    #expect(reference.year.map { $0 < 1901 || $0 > 9998 } ?? true, "\(date) in \(identifier)")
                    continue
                }
                let expected = CivilTime(
                    year: reference.year ?? 0, month: reference.month ?? 0, day: reference.day ?? 0,
                    hour: reference.hour ?? 0, minute: reference.minute ?? 0, second: reference.second ?? 0,
                    weekday: reference.weekday ?? 0)
                #expect(time == expected, "\(date.timeIntervalSince1970) in \(identifier)")
                if time != expected { return }
            }
        }
    }

    @Test("date views on pages read as they did through Calendar")
    func dateViews() {
        var random = SplitMix64(seed: 0xDA7E)
        for identifier in Self.zones {
            let site = Site(
                configuration: SiteConfiguration(timeZone: TimeZone(identifier: identifier) ?? .current, feeds: []),
                feeds: [], items: [])
            let context = RenderContext(site: site, now: Date(timeIntervalSince1970: 1_795_000_000))
            for _ in 0..<500 {
                let date = Self.randomDate(&random)
                let zone = site.configuration.timeZone
                let (actual, expected) = (context.dateView(date), Self.referenceDateView(date, in: zone))
                #expect(
                    [actual.iso, actual.display, actual.long] == [expected.iso, expected.display, expected.long],
                    "\(date.timeIntervalSince1970) in \(identifier)")
            }
        }
        #expect(InternetDate.rfc3339(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
        #expect(InternetDate.rfc822(Date(timeIntervalSince1970: 1_795_000_000)) == "Wed, 18 Nov 2026 11:06:40 +0000")
    }

    /// Found in session 24: before 1900 Foundation's calendar was asked, which turns Julian
    /// before 1582 (a feed's 0500-03-01 was published as `500-02-27`), and years below 1000 had
    /// fewer than four digits. The expected values are Python's `datetime` (proleptic Gregorian).
    @Test("dates before 1900 are proleptic Gregorian, with four-digit years")
    func earlyDates() {
        let year1 = Date(timeIntervalSince1970: -62_135_596_800)
        let year500 = Date(timeIntervalSince1970: -46_383_535_795)
        #expect(InternetDate.rfc3339(year1) == "0001-01-01T00:00:00Z")
        #expect(InternetDate.rfc822(year1) == "Mon, 01 Jan 0001 00:00:00 +0000")
        #expect(InternetDate.rfc3339(year500) == "0500-03-01T12:30:05Z")
        #expect(InternetDate.rfc822(year500) == "Mon, 01 Mar 0500 12:30:05 +0000")
        #expect(DayFormat.string(Date(timeIntervalSince1970: -12_219_724_800)) == "1582-10-10")
        #expect(CivilTime(Date(timeIntervalSince1970: -12_219_724_800), in: CivilTime.utc).weekday == 1)
        // Out of 1–9999, or not a number: held to the ends, never a trap.
        #expect(InternetDate.rfc3339(Date(timeIntervalSince1970: -1e15)) == "0001-01-01T00:00:00Z")
        #expect(InternetDate.rfc3339(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(InternetDate.rfc3339(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
        #expect(DayFormat.startOfDay(Date(timeIntervalSince1970: -.infinity)) == year1)
    }

    @Test("daysSinceEpoch inverts the fields, and every day and month has its length")
    func daysSinceEpoch() throws {
        #expect(CivilTime.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilTime.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilTime.daysSinceEpoch(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilTime.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilTime.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilTime.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilTime.daysIn(month: 4, year: 2026) == 30)
        for year in [1900, 1999, 2000, 2024, 2100, 9999] {
            var days = CivilTime.daysSinceEpoch(year: year, month: 1, day: 1)
            for month in 1...12 {
                for day in 1...CivilTime.daysIn(month: month, year: year) {
                    let time = try #require(CivilTime(Date(timeIntervalSince1970: Double(days) * 86_400 + 43_200)))
                    let fields: [Int] = [time.year, time.month, time.day, time.hour]
                    #expect(fields == [year, month, day, 12])
                    #expect(CivilTime.daysSinceEpoch(year: year, month: month, day: day) == days)
                    days += 1
                }
            }
        }
    }

    @Test("DayFormat and startOfDay: UTC days, before 1970 too")
    func days() {
        #expect(DayFormat.string(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18")
        #expect(
            DayFormat.startOfDay(Date(timeIntervalSince1970: 1_795_000_000.5)).timeIntervalSince1970 == 1_794_960_000)
        #expect(DayFormat.string(Date(timeIntervalSince1970: -1)) == "1969-12-31")
        #expect(DayFormat.startOfDay(Date(timeIntervalSince1970: -1)).timeIntervalSince1970 == -86_400)
        // Year 1, proleptic Gregorian (Python's `datetime(1, 1, 1)`); Foundation's Julian calendar
        // made it "1-01-03".
        #expect(DayFormat.string(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01")
    }

    /// `RenderContext.dateView` all through `Calendar`: the reference its test compares with.
    static func referenceDateView(_ date: Date, in zone: TimeZone) -> DateView {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let day = "\(parts.day ?? 1) \(months[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.year ?? 1970)"
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return DateView(
            iso: InternetDate.rfc3339(date), display: day,
            long:
                "\(day), \(two(parts.hour)):\(two(parts.minute)) \(RenderContext.offsetName(zone.secondsFromGMT(for: date)))"
        )
    }
}
