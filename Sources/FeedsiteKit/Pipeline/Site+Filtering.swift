import FeedsiteShared
import Foundation

extension Site {
    /// Why each stored item of each record is left out by the `exclude:`/`include:` rules (nil:
    /// it passes), in record and item order; worked out on all cores, as a content rule reads the
    /// text of every item. Empty lists when no rule applies to a feed.
    static func filterVerdicts(configuration: SiteConfiguration, records: [FeedRecord]) -> [[FilterReason?]] {
        let site = configuration.filter
        guard !site.isEmpty || records.contains(where: { !$0.source.filter.isEmpty }) else {
            return records.map { _ in [] }
        }
        return records.concurrentMap { record in
            let feed = record.source.filter
            guard !site.isEmpty || !feed.isEmpty else { return [] }
            let readsContent = site.readsContent || feed.readsContent
            return record.state.items.map { stored in
                let subject = FilterSubject(stored.item, readsContent: readsContent)
                return site.verdict(subject) ?? feed.verdict(subject)
            }
        }
    }
}
