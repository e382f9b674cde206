import FeedsitePattern
import FeedsiteShared
import Foundation

extension Site {
    /// What the `exclude:`/`include:` rules decide for each stored item of each record, in record
    /// and item order; worked out on all cores, as a content rule reads the text of every item.
    /// Empty lists when no rule applies to a feed.
    static func filterVerdicts(configuration: SiteConfiguration, records: [FeedRecord]) -> [[FilterVerdict]] {
        let site = configuration.filter
        guard !site.isEmpty || records.contains(where: { !$0.source.filter.isEmpty }) else {
            return records.map { _ in [] }
        }
        let gaveUp = BoundedSearch.GaveUp()
        return records.concurrentMap { record in
            let feed = record.source.filter
            guard !site.isEmpty || !feed.isEmpty else { return [] }
            let readsContent = site.readsContent || feed.readsContent
            let search = BoundedSearch(sharing: gaveUp)
            return record.state.items.map { stored in
                let subject = FilterSubject(stored.item, readsContent: readsContent)
                let first = site.verdict(subject, search)
                if case .leftOut = first { return first }
                let second = feed.verdict(subject, search)
                if case .passes = second { return first }
                return second
            }
        }
    }
}

extension FeedAccount {
    /// One warning per rule whose pattern gave up on some items (`BoundedSearch`): those items are
    /// shown, and the rule should be simplified.
    static func gaveUpWarnings(_ accounts: [FeedAccount], file: String) -> [Diagnostic] {
        var rules: [(rule: String, line: Int?, items: Int, feeds: Int)] = []
        for account in accounts {
            for rule in account.undecided {
                if let index = rules.firstIndex(where: { $0.rule == rule.rule && $0.line == rule.line }) {
                    rules[index].items += rule.count
                    rules[index].feeds += 1
                } else {
                    rules.append((rule.rule, rule.line, rule.count, 1))
                }
            }
        }
        return rules.map { rule in
            let items = rule.items == 1 ? "1 item" : "\(rule.items) items"
            let feeds = rule.feeds == 1 ? "1 feed" : "\(rule.feeds) feeds"
            return .warning(
                file: file, line: rule.line,
                "\(rule.rule) gave up on the text of \(items) in \(feeds), which are shown: the pattern backtracks too "
                    + "much (nested repetition such as '(a+)+' can take exponential time); simplify it")
        }
    }
}
