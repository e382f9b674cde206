import FeedsiteShared
import Foundation

extension RenderContext {
    /// A list's items grouped under the days they are dated, in the site's `timezone`: runs of
    /// consecutive items of the same day (lists are newest first, so each day is one run). Items
    /// without a date come under "Undated". `summaries` are the same items' views, in order.
    func days(_ items: some Collection<SiteItem>, _ summaries: [ItemSummaryView]) -> [DayView] {
        var days: [DayView] = []
        /// The day of the last group (`year * 10000 + month * 100 + day`, nil: undated); nil before the first.
        var lastKey: Int??
        for (item, summary) in zip(items, summaries) {
            let time = item.date.flatMap { CivilTime($0, offset: timeZone.secondsFromGMT(for: $0)) }
            let key = time.map { $0.year * 10_000 + $0.month * 100 + $0.day }
            if let lastKey, lastKey == key, !days.isEmpty {
                days[days.count - 1].items.append(summary)
                continue
            }
            lastKey = .some(key)
            days.append(
                DayView(
                    date: time.map(Self.isoDay),
                    display: time.map { messages.dayHeading($0) } ?? messages.format("undated"),
                    items: [summary]))
        }
        return days
    }

    /// `2026-11-24`: a valid `<time datetime>` date.
    static func isoDay(_ time: CivilTime) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(time.fourDigitYear)-\(two(time.month))-\(two(time.day))"
    }

    /// `Tuesday, 24 November 2026`, in English (the site's language: `messages.dayHeading`).
    static func dayName(_ time: CivilTime) -> String {
        MessageCatalogue.english.dayHeading(time)
    }
}
