import Foundation
import Testing

@testable import FeedsiteKit

/// `CivilTime` stands in for `Calendar.dateComponents` on the render's hot path and in the state
/// writer: it must give the same fields, in every zone the site can be configured with.
@Suite("Civil time")
struct CivilTimeTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Kiritimati",
        "America/St_Johns", "Asia/Kathmandu",
    ]

    static func randomDate(_ random: inout SplitMix64) -> Date {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Date(timeIntervalSince1970: Double.random(in: -2.3e9...2.6e11, using: &random))
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
                let (actual, expected) = (context.dateView(date), context.referenceDateView(date))
                #expect(
                    [actual.iso, actual.display, actual.long] == [expected.iso, expected.display, expected.long],
                    "\(date.timeIntervalSince1970) in \(identifier)")
            }
        }
        #expect(InternetDate.rfc3339(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
        #expect(InternetDate.rfc822(Date(timeIntervalSince1970: 1_795_000_000)) == "Wed, 18 Nov 2026 11:06:40 +0000")
    }
}
