import FeedsiteShared
import Foundation

/// Parses the date strings feeds contain into instants.
///
/// Feeds are written by hand, by templates and by twenty years of blogging software, so this
/// accepts far more than the specs: RFC 822/1123/2822 with or without weekday, seconds or zone,
/// 2-digit years, full day and month names, named zones (`GMT`, `EST`, `CEST`, `BST`…) and numeric
/// offsets; W3C-DTF/ISO 8601 (`2003-12-13T18:30:02.25+01:00`, date only, space instead of `T`,
/// `+0100`); asctime (`Sun Nov  6 08:49:37 1994`); `2020/1/10 14:33:00`; and Unix time in seconds
/// or milliseconds.
///
/// It is a hand-written scanner over UTF-8 bytes with pure calendar arithmetic: no
/// `DateFormatter` (slow to create and to run, and not thread-safe to share) and no `Calendar`, so it
/// is safe to call from any task. A string with no time zone is taken as UTC.
package enum FeedDate {
    /// The instant `string` denotes, or nil when it is not a date this recognises.
    package static func parse(_ string: String) -> Date? {
        var bytes = Array(string.utf8)
        trimWhitespace(&bytes)
        guard bytes.count >= 4, bytes.count <= 100 else { return nil }
        // ISO 8601's signed years: `+2024-03-15` is 2024; `-0044-03-15` is 45 BC, no post's date
        // (read without its sign it would be a date in year 44, or -5000 one in the year 5000).
        if bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), isDigit(bytes[1]) {
            guard bytes[0] == UInt8(ascii: "+") else { return nil }
            bytes.removeFirst()
        }
        // Seconds since 1970 (`1577872800`: 10 digits, 2001–2286) or milliseconds (13 digits), as
        // a script that prints its database's timestamp writes them; 8 digits are `20200101`.
        if bytes.count == 10 || bytes.count == 13, bytes.allSatisfy(isDigit),
            let number = Int(String(decoding: bytes, as: UTF8.self))
        {
            return Date(timeIntervalSince1970: bytes.count == 13 ? Double(number) / 1000 : Double(number))
        }
        let components: Components?
        if bytes.count >= 4, bytes[0..<4].allSatisfy(isDigit), bytes.count == 4 || bytes[4] == UInt8(ascii: "-") {
            // `2004-05-25 오후 11:23:17`, `2004-július-13`: not ISO after all, but maybe still a date.
            components = parseISO(bytes) ?? parseLoose(bytes)
        } else if bytes.count >= 8, bytes[0..<8].allSatisfy(isDigit),
            bytes.count == 8 || bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t")
        {
            components = parseISOBasic(bytes)
        } else {
            components = parseLoose(bytes)
        }
        return components?.date
    }

    /// The broken-down date a scanner produced; `date` validates it.
    struct Components {
        var year = 0
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        /// Seconds east of UTC.
        var offset = 0

        var date: Date? {
            guard (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year),
                (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second),
                hour < 24 || (minute == 0 && second == 0), abs(offset) < 24 * 3600
            else { return nil }
            // A leap second (23:59:60) is folded into the next second's neighbour rather than rejected.
            let days = CivilTime.daysSinceEpoch(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }
    }

    // MARK: - W3C-DTF / ISO 8601

    /// `YYYY[-MM[-DD[(T| )hh:mm[:ss[.f]][zone]]]]`, zone = `Z`, `±hh:mm`, `±hhmm`, `±hh` or a name.
    /// Month, day, hour, minute and second may have one digit (`2006-1-7T2:5:9`, as feedparser reads
    /// it): the separators, not the digit counts, delimit the fields here.
    private static func parseISO(_ b: [UInt8]) -> Components? {
        var c = Components()
        var i = 0
        guard let year = number(b, &i, digits: 4) else { return nil }
        c.year = year
        if i < b.count, b[i] == UInt8(ascii: "-") {
            i += 1
            guard let month = number(b, &i, minDigits: 1, maxDigits: 2) else { return nil }
            c.month = month
            if i < b.count, b[i] == UInt8(ascii: "-") {
                i += 1
                guard let day = number(b, &i, minDigits: 1, maxDigits: 2) else { return nil }
                c.day = day
            }
        }
        guard i < b.count else { return c }
        // The date/time separator: `T`, `t`, or whitespace.
        guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || isSpace(b[i]) else { return nil }
        while i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || isSpace(b[i]) { i += 1 }
        guard i < b.count else { return c }
        guard scanTime(b, &i, into: &c) else { return nil }
        while i < b.count, isSpace(b[i]) { i += 1 }
        guard i < b.count else { return c }
        guard let offset = scanZone(b, &i) else { return nil }
        c.offset = offset
        while i < b.count, isSpace(b[i]) { i += 1 }
        return i == b.count ? c : nil
    }

    /// ISO 8601 basic format: `YYYYMMDD[Thhmm[ss[.f]][zone]]` (`20260314T150926Z`).
    private static func parseISOBasic(_ b: [UInt8]) -> Components? {
        var c = Components()
        var i = 0
        guard let year = number(b, &i, digitsExactly: 4), let month = number(b, &i, digitsExactly: 2),
            let day = number(b, &i, digitsExactly: 2)
        else { return nil }
        (c.year, c.month, c.day) = (year, month, day)
        guard i < b.count else { return c }
        i += 1  // `T`
        guard let hour = number(b, &i, digitsExactly: 2), let minute = number(b, &i, digitsExactly: 2) else {
            return nil
        }
        (c.hour, c.minute) = (hour, minute)
        if i < b.count, isDigit(b[i]) {
            guard let second = number(b, &i, digitsExactly: 2) else { return nil }
            c.second = second
        }
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            while i < b.count, isDigit(b[i]) {
                c.fraction += Double(b[i] - UInt8(ascii: "0")) * scale
                scale /= 10
                i += 1
            }
        }
        guard i < b.count else { return c }
        guard let offset = scanZone(b, &i), i == b.count else { return nil }
        c.offset = offset
        return c
    }

    /// Exactly `digits` digits at `i`, whatever follows them.
    private static func number(_ b: [UInt8], _ i: inout Int, digitsExactly digits: Int) -> Int? {
        guard i + digits <= b.count, b[i..<(i + digits)].allSatisfy(isDigit) else { return nil }
        defer { i += digits }
        return value(b[i..<(i + digits)])
    }

    // MARK: - RFC 822 and friends

    /// Token-based: weekday words (in the languages of `CalendarNames`) and filler words (`de`,
    /// `um`) are skipped, a month word fixes the month, `h:m[:s]` is the time, the remaining
    /// numbers are day and year (or year/month/day when the first has four digits; day.month.year
    /// with dots; month/day/year with slashes only when the day shows it, as in `11/24/2026`), and
    /// zone names or `±hhmm` give the offset. Any unknown word makes the string unparseable, so
    /// prose is not mistaken for a date.
    private static func parseLoose(_ b: [UInt8]) -> Components? {
        var c = Components()
        var monthWords: [(month: Int, isAlsoWeekday: Bool)] = []
        var numbers: [(value: Int, digits: Int)] = []
        var sawTime = false
        var sawZone = false
        var sawSlash = false
        var sawDot = false
        var meridiem: Int?  // 0 = AM, 12 = PM
        var i = 0
        while i < b.count {
            let ch = b[i]
            if isSpace(ch) || ch == UInt8(ascii: ",") || ch == UInt8(ascii: ".") || ch == UInt8(ascii: "/") {
                if !sawTime, !numbers.isEmpty {
                    if ch == UInt8(ascii: "/") { sawSlash = true }
                    if ch == UInt8(ascii: "."), i + 1 < b.count, isDigit(b[i + 1]) { sawDot = true }
                }
                i += 1
            } else if ch == UInt8(ascii: "(") {
                // RFC 822 comment, e.g. `+0000 (UTC)`.
                while i < b.count, b[i] != UInt8(ascii: ")") { i += 1 }
                i += 1
            } else if isLetter(ch) {
                let start = i
                while i < b.count, isLetter(b[i]) { i += 1 }
                let word = String(decoding: b[start..<i], as: UTF8.self).lowercased()
                if let m = CalendarNames.months[word] {
                    monthWords.append((m, CalendarNames.weekdays.contains(word)))
                } else if CalendarNames.weekdays.contains(word) {
                    continue
                } else if let hours = meridiemWords[word] {
                    meridiem = hours
                } else if let zone = zoneOffsets[word], !sawZone {
                    c.offset = zone
                    sawZone = true
                    // `GMT+0100`: a numeric offset may follow the name.
                    if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                        guard let extra = scanZone(b, &i) else { return nil }
                        c.offset += extra
                    }
                } else if CalendarNames.fillers.contains(word) || dateMarkers.contains(word) {
                    continue
                } else {
                    return nil
                }
            } else if ch == UInt8(ascii: "+") || (ch == UInt8(ascii: "-") && sawTime) {
                guard !sawZone || c.offset == 0, let offset = scanZone(b, &i) else { return nil }
                c.offset = offset
                sawZone = true
            } else if ch == UInt8(ascii: "-") {
                i += 1  // `01-Jan-2020`
            } else if isDigit(ch) {
                let start = i
                while i < b.count, isDigit(b[i]) { i += 1 }
                if i < b.count, b[i] == UInt8(ascii: ":"), !sawTime {
                    i = start
                    guard scanTime(b, &i, into: &c) else { return nil }
                    sawTime = true
                } else {
                    guard i - start <= 4, let value = Int(String(decoding: b[start..<i], as: UTF8.self)) else {
                        return nil
                    }
                    numbers.append((value, i - start))
                }
            } else {
                return nil
            }
        }
        // `mar., 24 nov. 2026`: `mar` is Tuesday when another word names the month.
        if monthWords.count == 2, let index = monthWords.firstIndex(where: \.isAlsoWeekday) {
            monthWords.remove(at: index)
        }
        if let month = monthWords.first?.month {
            guard monthWords.count == 1, numbers.count == 2 else { return nil }
            c.month = month
            if numbers[0].digits == 4 {
                (c.year, c.day) = (numbers[0].value, numbers[1].value)
            } else {
                c.day = numbers[0].value
                c.year = expandYear(numbers[1])
            }
        } else {
            guard numbers.count == 3 else { return nil }
            if numbers[0].digits == 4 {
                (c.year, c.month, c.day) = (numbers[0].value, numbers[1].value, numbers[2].value)
            } else if numbers[2].digits == 4, sawDot, !sawSlash {
                // `24.11.2026`: day first, as everywhere dots separate a date's numbers.
                (c.day, c.month, c.year) = (numbers[0].value, numbers[1].value, numbers[2].value)
            } else if numbers[2].digits == 4, sawSlash, numbers[0].value > 12 || numbers[1].value > 12 {
                // `24/11/2026` or `11/24/2026`: only when the day shows which number it is.
                let (first, second) = (numbers[0].value, numbers[1].value)
                (c.day, c.month) = first > 12 ? (first, second) : (second, first)
                c.year = numbers[2].value
            } else {
                return nil
            }
        }
        if let meridiem {
            guard sawTime, (1...12).contains(c.hour) else { return nil }
            c.hour = c.hour % 12 + meridiem
        }
        return c
    }

    /// RFC 2822 §4.3: two-digit years 00–49 are 20xx, 50–99 are 19xx; three digits add 1900.
    private static func expandYear(_ year: (value: Int, digits: Int)) -> Int {
        switch year.digits {
        case 1, 2: year.value < 50 ? 2000 + year.value : 1900 + year.value
        case 3: 1900 + year.value
        default: year.value
        }
    }

    // MARK: - Shared pieces

    /// `hh:mm[:ss[.fraction]]`, each of `hh`, `mm` and `ss` one or two digits (`12:35:9`): the
    /// colons delimit them.
    private static func scanTime(_ b: [UInt8], _ i: inout Int, into c: inout Components) -> Bool {
        guard let hour = number(b, &i, minDigits: 1, maxDigits: 2), i < b.count, b[i] == UInt8(ascii: ":")
        else { return false }
        i += 1
        guard let minute = number(b, &i, minDigits: 1, maxDigits: 2) else { return false }
        c.hour = hour
        c.minute = minute
        if i < b.count, b[i] == UInt8(ascii: ":") {
            i += 1
            guard let second = number(b, &i, minDigits: 1, maxDigits: 2) else { return false }
            c.second = second
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                var scale = 0.1
                var fraction = 0.0
                let start = i
                while i < b.count, isDigit(b[i]) {
                    fraction += Double(b[i] - UInt8(ascii: "0")) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return false }
                c.fraction = fraction
            }
        }
        return true
    }

    /// `Z`, `±hh:mm`, `±hhmm`, `±hh`, or a zone name; returns seconds east of UTC.
    private static func scanZone(_ b: [UInt8], _ i: inout Int) -> Int? {
        guard i < b.count else { return nil }
        let sign: Int
        switch b[i] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default:
            let start = i
            while i < b.count, isLetter(b[i]) { i += 1 }
            return zoneOffsets[String(decoding: b[start..<i], as: UTF8.self).lowercased()]
        }
        i += 1
        let start = i
        while i < b.count, isDigit(b[i]) { i += 1 }
        let digits = Array(b[start..<i])
        var hours = 0
        var minutes = 0
        switch digits.count {
        case 1, 2:
            hours = value(digits[...])
            if i < b.count, b[i] == UInt8(ascii: ":") {
                i += 1
                guard let m = number(b, &i, digits: 2) else { return nil }
                minutes = m
            }
        case 3: (hours, minutes) = (value(digits[0..<1]), value(digits[1..<3]))
        case 4: (hours, minutes) = (value(digits[0..<2]), value(digits[2..<4]))
        default: return nil
        }
        guard hours <= 18, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func number(_ b: [UInt8], _ i: inout Int, digits: Int) -> Int? {
        number(b, &i, minDigits: digits, maxDigits: digits)
    }

    private static func number(_ b: [UInt8], _ i: inout Int, minDigits: Int, maxDigits: Int) -> Int? {
        let start = i
        while i < b.count, i - start < maxDigits, isDigit(b[i]) { i += 1 }
        guard i - start >= minDigits else { return nil }
        // Reject `123` where two digits were wanted instead of silently splitting it.
        if i < b.count, isDigit(b[i]) { return nil }
        return value(b[start..<i])
    }

    private static func value(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func trimWhitespace(_ b: inout [UInt8]) {
        while let last = b.last, isSpace(last) { b.removeLast() }
        let leading = b.prefix(while: isSpace).count
        if leading > 0 { b.removeFirst(leading) }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    /// ASCII letters and every byte of a non-ASCII UTF-8 character (`mär`, `ноября`).
    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b >= 0x80 }
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// `am`/`pm` in the forms feeds write them (and Korean 오전/오후) → hours to add.
    private static let meridiemWords: [String: Int] = ["am": 0, "pm": 12, "오전": 0, "오후": 12]

    /// Korean date markers (`2004년 05월 28일`): like fillers, they only join the numbers.
    private static let dateMarkers: Set<String> = ["년", "월", "일", "시", "분", "초"]

    /// Named zones seen in feeds. Ambiguous abbreviations take their most common feed meaning
    /// (`CST` = US Central, `IST` = India, `BST` = British Summer Time).
    private static let zoneOffsets: [String: Int] = {
        let hours: [String: Double] = [
            "z": 0, "ut": 0, "utc": 0, "gmt": 0, "wet": 0,
            "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
            "akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3, "nst": -3.5, "ndt": -2.5,
            "bst": 1, "ist": 5.5, "west": 1, "cet": 1, "cest": 2, "met": 1, "mest": 2, "mez": 1, "mesz": 2,
            "eet": 2, "eest": 3, "msk": 3, "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "awst": 8,
            "et": -5, "ct": -6, "mt": -7, "pt": -8,
            "acst": 9.5, "acdt": 10.5, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
        ]
        return hours.mapValues { Int($0 * 3600) }
    }()
}
