import FeedsiteShared
import Foundation

/// One calendar month of items, in the configured time zone.
struct ArchiveMonth: Hashable {
    var year: Int
    /// 1–12.
    var month: Int
    /// Newest first.
    var items: [SiteItem]

    /// `November 2026` (`month_heading` of the catalogue: `2026年11月`).
    func name(_ messages: MessageCatalogue = .english) -> String {
        messages.monthHeading(year: year, month: month)
    }

    /// The months that have items, newest first; items keep their order (newest first). Items
    /// without a date are not in any month (they are still on the index and feed pages).
    static func months(_ items: [SiteItem], timeZone: TimeZone) -> [ArchiveMonth] {
        var byMonth: [Int: ArchiveMonth] = [:]
        for item in items {
            guard let date = item.date else { continue }
            let time = CivilTime(date, in: timeZone)
            let (year, month) = (time.year, time.month)
            byMonth[year * 100 + month, default: ArchiveMonth(year: year, month: month, items: [])].items.append(item)
        }
        return byMonth.keys.sorted(by: >).compactMap { byMonth[$0] }
    }
}
