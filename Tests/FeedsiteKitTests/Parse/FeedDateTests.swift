import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// Date strings as feeds write them → the instant they denote (ISO 8601 UTC, converted by
/// Foundation's `ISO8601DateFormatter`, so the oracle is independent of the scanner under test).
/// Offsets were worked out by hand: local time minus the zone's offset.
@Suite struct FeedDateTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var utc: String
        /// Sub-second part, added to `utc`.
        var fraction: Double = 0
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        // RFC 822 / 1123 / 2822
        .init(input: "Tue, 10 Jun 2003 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),
        .init(input: "Tue, 10 Jun 2003 04:00 GMT", utc: "2003-06-10T04:00:00Z"),  // no seconds
        .init(input: "10 Jun 2003 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),  // no weekday
        .init(input: "Tue 10 Jun 2003 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),  // no comma
        .init(input: "Tue, 10 Jun 03 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),  // 2-digit year
        .init(input: "Fri, 01 Jan 99 00:00:00 GMT", utc: "1999-01-01T00:00:00Z"),
        .init(input: "01 Jan 49 00:00:00 GMT", utc: "2049-01-01T00:00:00Z"),  // RFC 2822: 00–49 → 20xx
        .init(input: "01 Jan 50 00:00:00 GMT", utc: "1950-01-01T00:00:00Z"),  // 50–99 → 19xx
        .init(input: "Fri, 07 Jul 2017 11:06:10 +0000", utc: "2017-07-07T11:06:10Z"),
        .init(input: "Tue, 02 Mar 2021 23:39:15 +0100", utc: "2021-03-02T22:39:15Z"),
        .init(input: "Thu, 14 Mar 2019 17:10:02 +0200", utc: "2019-03-14T15:10:02Z"),
        .init(input: "Fri, 24 May 2019 00:00:00 -0700", utc: "2019-05-24T07:00:00Z"),
        .init(input: "Wed, 22 Jan 2014 20:31:31 +0600", utc: "2014-01-22T14:31:31Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 +05:30", utc: "2018-01-01T06:30:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 -0330", utc: "2018-01-01T15:30:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 UTC", utc: "2018-01-01T12:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 UT", utc: "2018-01-01T12:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 Z", utc: "2018-01-01T12:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 EST", utc: "2018-01-01T17:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 EDT", utc: "2018-07-01T16:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 CST", utc: "2018-01-01T18:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 CDT", utc: "2018-07-01T17:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 MST", utc: "2018-01-01T19:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 MDT", utc: "2018-07-01T18:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 PST", utc: "2018-01-01T20:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 PDT", utc: "2018-07-01T19:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 CET", utc: "2018-01-01T11:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 CEST", utc: "2018-07-01T10:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 BST", utc: "2018-07-01T11:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 GMT+0100", utc: "2018-01-01T11:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 +0000 (UTC)", utc: "2018-01-01T12:00:00Z"),  // trailing comment
        .init(input: "Tuesday, 10 June 2003 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),  // full names
        .init(input: "10 September 2019 08:15:00 +0000", utc: "2019-09-10T08:15:00Z"),
        .init(input: "Tue, 10 Sept 2019 08:15:00 GMT", utc: "2019-09-10T08:15:00Z"),
        .init(input: "Sat, 2 Mar 2024 7:05:09 GMT", utc: "2024-03-02T07:05:09Z"),  // 1-digit day and hour
        .init(input: "Tue, 10 Jun 2003 04:00:00", utc: "2003-06-10T04:00:00Z"),  // no zone: UTC
        .init(input: "mon, 01 jan 2018 12:00:00 gmt", utc: "2018-01-01T12:00:00Z"),  // lowercase
        .init(input: "  Mon,  01  Jan  2018  12:00:00  GMT \n", utc: "2018-01-01T12:00:00Z"),  // extra whitespace
        .init(input: "01 Jan 2018", utc: "2018-01-01T00:00:00Z"),  // date only
        .init(input: "Mon, 01-Jan-2018 12:00:00 GMT", utc: "2018-01-01T12:00:00Z"),  // dashes
        .init(input: "Thu, 29 Feb 2024 12:00:00 GMT", utc: "2024-02-29T12:00:00Z"),  // leap day
        .init(input: "Mon, 01 Jan 2018 03:15 PM GMT", utc: "2018-01-01T15:15:00Z"),  // 12-hour clock
        .init(input: "Mon, 01 Jan 2018 12:00:00.500 GMT", utc: "2018-01-01T12:00:00Z", fraction: 0.5),
        // asctime
        .init(input: "Sun Nov  6 08:49:37 1994", utc: "1994-11-06T08:49:37Z"),
        .init(input: "Thu Jan  1 00:00:00 1970", utc: "1970-01-01T00:00:00Z"),
        // Year-first with slashes (kc0011 / gb2312 fixture)
        .init(input: "2020/1/10 14:33:00", utc: "2020-01-10T14:33:00Z"),
        // W3C-DTF / ISO 8601 / dc:date
        .init(input: "2003-12-13T18:30:02Z", utc: "2003-12-13T18:30:02Z"),
        .init(input: "2003-12-13T18:30:02.25Z", utc: "2003-12-13T18:30:02Z", fraction: 0.25),
        .init(input: "2003-12-13T18:30:02+01:00", utc: "2003-12-13T17:30:02Z"),
        .init(input: "2003-12-13T18:30:02-05:00", utc: "2003-12-13T23:30:02Z"),
        .init(input: "2003-12-13T18:30:02+0100", utc: "2003-12-13T17:30:02Z"),
        .init(input: "2003-12-13T18:30:02+01", utc: "2003-12-13T17:30:02Z"),
        .init(input: "2003-12-13T18:30Z", utc: "2003-12-13T18:30:00Z"),
        .init(input: "2003-12-13T18:30:02", utc: "2003-12-13T18:30:02Z"),  // no zone: UTC
        .init(input: "2003-12-13 18:30:02", utc: "2003-12-13T18:30:02Z"),  // space for T
        .init(input: "2003-12-13 18:30:02 +01:00", utc: "2003-12-13T17:30:02Z"),
        .init(input: "2003-12-13 18:30:02 GMT", utc: "2003-12-13T18:30:02Z"),
        .init(input: "2003-12-13t18:30:02z", utc: "2003-12-13T18:30:02Z"),  // lowercase t/z
        .init(input: "2003-12-13", utc: "2003-12-13T00:00:00Z"),  // date only
        .init(input: "2003-12", utc: "2003-12-01T00:00:00Z"),  // W3C-DTF year-month
        .init(input: "2003", utc: "2003-01-01T00:00:00Z"),  // W3C-DTF year
        .init(input: "2007-12-14T23:15:00.000-08:00", utc: "2007-12-15T07:15:00Z"),  // Blogger
        .init(input: "2024-03-02T15:34:00+00:00", utc: "2024-03-02T15:34:00Z"),  // dc:date (Slashdot)
        .init(input: "2020-02-21T18:08:06+01:00", utc: "2020-02-21T17:08:06Z"),
        .init(input: "2003-12-13T18:30:02.123+02:00", utc: "2003-12-13T16:30:02Z", fraction: 0.123),
        .init(input: "1999-12-31T23:59:60Z", utc: "1999-12-31T23:59:59Z"),  // leap second folded
        .init(input: "2024-02-29", utc: "2024-02-29T00:00:00Z"),
        // Swapped day/month, extra commas, full names
        .init(input: "Tue, Jun 10 2003 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),
        .init(input: "Tuesday, June 10, 2003 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),
        .init(input: "Tue,, 10 Jun 2003,, 04:00:00 GMT", utc: "2003-06-10T04:00:00Z"),
        .init(input: "Jan 1, 2018", utc: "2018-01-01T00:00:00Z"),
        .init(input: "January 1, 2018 3:04 pm", utc: "2018-01-01T15:04:00Z"),
        .init(input: "Wednesday, 02-Oct-19 10:00:00 GMT", utc: "2019-10-02T10:00:00Z"),  // RFC 850
        // 2-digit years combined with other omissions
        .init(input: "Tue, 10 Jun 03 04:00 GMT", utc: "2003-06-10T04:00:00Z"),
        .init(input: "10 Jun 03 04:00", utc: "2003-06-10T04:00:00Z"),
        .init(input: "1 Jan 2018 12:00 +0100", utc: "2018-01-01T11:00:00Z"),
        .init(input: "Fri, 31 Dec 1999 23:59:59 GMT", utc: "1999-12-31T23:59:59Z"),
        // `GMT±hh:mm` and `UTC±h`
        .init(input: "Mon, 01 Jan 2018 12:00:00 GMT+01:00", utc: "2018-01-01T11:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 GMT-05:30", utc: "2018-01-01T17:30:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 UTC+5", utc: "2018-01-01T07:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 -00:00", utc: "2018-01-01T12:00:00Z"),
        // More named zones (US and European abbreviations, and a few others feeds use)
        .init(input: "Mon, 01 Jan 2018 12:00:00 AKST", utc: "2018-01-01T21:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 HST", utc: "2018-01-01T22:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 AST", utc: "2018-01-01T16:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 WET", utc: "2018-01-01T12:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 WEST", utc: "2018-07-01T11:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 MEZ", utc: "2018-01-01T11:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 MESZ", utc: "2018-07-01T10:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 EET", utc: "2018-01-01T10:00:00Z"),
        .init(input: "Sun, 01 Jul 2018 12:00:00 EEST", utc: "2018-07-01T09:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 MSK", utc: "2018-01-01T09:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 IST", utc: "2018-01-01T06:30:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 JST", utc: "2018-01-01T03:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 AEST", utc: "2018-01-01T02:00:00Z"),
        .init(input: "Mon, 01 Jan 2018 12:00:00 NZDT", utc: "2017-12-31T23:00:00Z"),
        // asctime variants (single space, zone before the year as `date(1)` prints it)
        .init(input: "Sun Nov 6 08:49:37 1994", utc: "1994-11-06T08:49:37Z"),
        .init(input: "Sun Nov  6 08:49:37 UTC 1994", utc: "1994-11-06T08:49:37Z"),
        .init(input: "Sun Nov 06 08:49:37 +0100 1994", utc: "1994-11-06T07:49:37Z"),
        // More W3C-DTF / ISO 8601
        .init(input: "2003-12-13T18:30:02.123456789Z", utc: "2003-12-13T18:30:02Z", fraction: 0.123456789),
        .init(input: "2003-12-13T18:30:02,5Z", utc: "2003-12-13T18:30:02Z", fraction: 0.5),
        .init(input: "2003-12-13T18:30", utc: "2003-12-13T18:30:00Z"),  // no seconds, no zone
        .init(input: "2003-12-13T00:00:00+14:00", utc: "2003-12-12T10:00:00Z"),
        .init(input: "2003-12-13T24:00:00Z", utc: "2003-12-14T00:00:00Z"),  // end of day
        .init(input: "2006-08-19T22:25:24+09:00", utc: "2006-08-19T13:25:24Z"),  // dc:date (tDiary)
        // One-digit fields between separators (rome's atom_1.0_b.xml; feedparser reads them)
        .init(input: "2006-01-17T12:35:9+01:00", utc: "2006-01-17T11:35:09Z"),
        .init(input: "2006-01-17T12:5:09+01:00", utc: "2006-01-17T11:05:09Z"),
        .init(input: "2006-01-17T2:35:09-05:00", utc: "2006-01-17T07:35:09Z"),
        .init(input: "2006-1-7T2:5:9Z", utc: "2006-01-07T02:05:09Z"),
        .init(input: "2006-1-7", utc: "2006-01-07T00:00:00Z"),
        .init(input: "2006-01-17 12:35:9.5Z", utc: "2006-01-17T12:35:09Z", fraction: 0.5),
        .init(input: "2006-01-17T23:59:9+01:00", utc: "2006-01-17T22:59:09Z"),
        .init(input: "2006-01-01T00:0:0+01:00", utc: "2005-12-31T23:00:00Z"),  // offset crosses the year
        .init(input: "Tue, 17 Jan 2006 12:35:9 +0100", utc: "2006-01-17T11:35:09Z"),  // same scanner for RFC 822
        // Month and weekday names in other languages (`CalendarNames`), with their filler words
        .init(input: "Mo, 24 Nov 2026 10:00:00 +0100", utc: "2026-11-24T09:00:00Z"),  // German
        .init(input: "Di, 24 Mär 2026 10:00:00 +0100", utc: "2026-03-24T09:00:00Z"),
        .init(input: "do, 31 dez 2026 23:00:00 +0100", utc: "2026-12-31T22:00:00Z"),
        .init(input: "mar., 24 nov. 2026 10:00:00 +0100", utc: "2026-11-24T09:00:00Z"),  // French: mar = mardi
        .init(input: "lundi 2 février 2026", utc: "2026-02-02T00:00:00Z"),
        .init(input: "1er décembre 2026", utc: "2026-12-01T00:00:00Z"),
        .init(input: "24 de noviembre de 2026 10:00", utc: "2026-11-24T10:00:00Z"),  // Spanish
        .init(input: "giovedì 7 maggio 2026 11:00", utc: "2026-05-07T11:00:00Z"),  // Italian
        .init(input: "woensdag 4 maart 2026 14:00 +0100", utc: "2026-03-04T13:00:00Z"),  // Dutch
        .init(input: "Qua, 7 Out 2026 12:00:00 -0300", utc: "2026-10-07T15:00:00Z"),  // Portuguese
        .init(input: "tis, 5 maj 2026 08:00:00 +0200", utc: "2026-05-05T06:00:00Z"),  // Swedish
        .init(input: "den 4 maj 2026 kl. 08:00", utc: "2026-05-04T08:00:00Z"),
        .init(input: "24 ноября 2026 10:00", utc: "2026-11-24T10:00:00Z"),  // Russian
        .init(input: "Вт, 24 ноя 2026 10:00:00 +0300", utc: "2026-11-24T07:00:00Z"),
        .init(input: "Κυρ, 11 Ιούλ 2004 12:00:00 EST", utc: "2004-07-11T17:00:00Z"),  // Greek
        .init(input: "2004-július-13T9:15-05:00", utc: "2004-07-13T14:15:00Z"),  // Hungarian
        .init(input: "2004년 05월 28일 01:31:15", utc: "2004-05-28T01:31:15Z"),  // Korean (no zone: UTC)
        .init(input: "2004-05-25 오후 11:23:17", utc: "2004-05-25T23:23:17Z"),
        .init(input: "Tuesday, November 24th, 2026 at 10:00 PM", utc: "2026-11-24T22:00:00Z"),
        // ISO 8601 basic format; numeric dates whose order is certain
        .init(input: "20260314T150926Z", utc: "2026-03-14T15:09:26Z"),
        .init(input: "20260314T1509+0100", utc: "2026-03-14T14:09:00Z"),
        .init(input: "20260314", utc: "2026-03-14T00:00:00Z"),
        .init(input: "24.11.2026 10:00", utc: "2026-11-24T10:00:00Z"),  // dots: day first
        .init(input: "11/24/2026 10:00 AM", utc: "2026-11-24T10:00:00Z"),  // 24 cannot be a month
        .init(input: "24/11/2026", utc: "2026-11-24T00:00:00Z"),
        // Unix time: seconds (10 digits) or milliseconds (13)
        .init(input: "1577872800", utc: "2020-01-01T10:00:00Z"),
        .init(input: " 1234567890 ", utc: "2009-02-13T23:31:30Z"),
        .init(input: "1577872800123", utc: "2020-01-01T10:00:00Z", fraction: 0.123),
        // ISO 8601's signed year: a plus sign is the year as written.
        .init(input: "+2024-03-15T00:00:00Z", utc: "2024-03-15T00:00:00Z"),
    ]

    @Test(arguments: cases)
    func parses(_ testCase: Case) throws {
        let expected = try #require(ISO8601DateFormatter().date(from: testCase.utc))
        let parsed = try #require(FeedDate.parse(testCase.input))
        #expect(abs(parsed.timeIntervalSince1970 - (expected.timeIntervalSince1970 + testCase.fraction)) < 0.0005)
    }

    static let garbage = [
        "", "   ", "yesterday", "not a date", "12:00", "123456789", "12345678901", "-1577872800", "1577872800.5",
        "Seg, 24 Foo 2018 19:42:40 -0300", "24 de noviembre de 2026 blah",
        "Mon, 24 Nov 2026 10:00:00 +0100 extra words", "03/04/2026", "2026-03-14T15:09:26Z garbage",
        "2003-13-01", "2003-02-30", "2023-02-29", "2003-12-13T25:00:00Z", "2003-12-13T18:61:00Z",
        "2003-12-13T18:30:02+25:00", "2003-12-13T18:30:02 garbage", "Mon, 32 Jan 2018 12:00:00 GMT",
        "Mon, 01 Foo 2018 12:00:00 GMT", "Mon, 01 Jan 2018 12:00:00 XYZ", "01/02/2003",
        // One digit is allowed between separators, never three, nor an empty field.
        "2006-01-17T12:35:009Z", "2006-01-17T12:350:09Z", "2006-01-17T12::09Z", "2006-01-17T12:35:Z",
        "2006-01-17T12:60:9Z", "2006-01-17T12:35:61Z",
        // The basic format has no separators: its digit counts delimit the fields.
        "20060117T12:35:9Z", "2006117T123509Z", "20060117T12359Z", "20060117T1235:9Z",
        // A year before the common era is no post's date (without its sign, -5000 read as 5000).
        "-5000-01-01T00:00:00Z", "-0044-03-15T00:00:00Z", "-2024-03-15",
    ]

    @Test(arguments: garbage)
    func rejects(_ input: String) {
        #expect(FeedDate.parse(input) == nil)
    }

    @Test func tableIsLargeEnough() {
        #expect(Self.cases.count >= 85)
    }

    /// No shared formatter state: many tasks parse at once and all agree.
    @Test func isThreadSafe() async {
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let testCase = Self.cases[index % Self.cases.count]
                    return FeedDate.parse(testCase.input) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 })
    }
}
