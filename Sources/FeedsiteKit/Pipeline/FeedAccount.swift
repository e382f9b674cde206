import Foundation

/// What became of one configured feed's items in one build: every item read is shown or dropped
/// for a reason counted here, so nothing is lost silently (`status.json`, the status page and
/// `feedsite build -v` all print it).
///
/// `read − repeated + kept = shown + filtered + duplicates + overMaxItems + future` always holds; `expired`
/// counts items that left the archive this build (they were no longer in the feed).
package struct FeedAccount: Sendable, Hashable {
    /// One item not shown because another feed shows the same post.
    package struct Duplicate: Sendable, Hashable {
        package var title: String
        /// The item's link (the form under which it was recognised may be its id instead).
        package var link: String?
        /// The feed that shows the post: its name and the URL in `feeds.yml`.
        package var feedName: String
        package var feedURL: String
    }

    /// Items one filter rule left out.
    package struct Filtered: Sendable, Hashable {
        /// `exclude "sponsored"`, `exclude title ~ /^Ad:/`, `matched no include rule`.
        package var rule: String
        /// The rule's line in `feeds.yml`.
        package var line: Int?
        package var count: Int
    }

    /// The URL in `feeds.yml`.
    package var source: URL
    /// The feed read for it: `source`, or the feed a web page at `source` links to.
    package var feedURL: URL
    /// Entries in the feed as read this build; for a feed not read this build (not fetched, 304,
    /// failed), the items saved from its last read (repeated ids are not saved, so not counted).
    package var read: Int = 0
    /// Whether this build read the feed's document (false: not fetched, 304, failed), which is
    /// what `read` counts.
    package var isReadThisBuild = false
    /// Entries that repeated an earlier entry's id in the same document: one post, shown once.
    package var repeated: Int = 0
    /// Items no longer in the feed, kept from earlier builds for `keep_days`.
    package var kept: Int = 0
    package var shown: Int = 0
    /// Items the `exclude:`/`include:` rules left out, per rule, in the order of their lines.
    package var filtered: [Filtered] = []
    /// Items shown because a rule's pattern gave up on their text (`BoundedSearch`), per rule.
    package var undecided: [Filtered] = []
    /// Items another feed (earlier in `feeds.yml`) shows.
    package var duplicates: [Duplicate] = []
    /// Items beyond the feed's `max_items` newest.
    package var overMaxItems: Int = 0
    /// Items dated in the future under `future_dates: drop`.
    package var future: Int = 0
    /// Items that had left the feed and passed `keep_days`: removed from the archive this build.
    package var expired: Int = 0
    /// The `feeds.yml` entry that reads the same feed first (this one then shows nothing of its own).
    package var sameFeedAs: String?

    package init(source: URL, feedURL: URL) {
        self.source = source
        self.feedURL = feedURL
    }

    /// Items read or kept that are not shown.
    package var droppedCount: Int { filteredCount + duplicates.count + overMaxItems + future }

    /// Items the filter rules left out.
    package var filteredCount: Int { filtered.reduce(0) { $0 + $1.count } }

    /// Counts one item left out for `reason`.
    mutating func countFiltered(_ reason: FilterReason) {
        if let index = filtered.firstIndex(where: { $0.rule == reason.summary && $0.line == reason.line }) {
            filtered[index].count += 1
        } else {
            filtered.append(Filtered(rule: reason.summary, line: reason.line, count: 1))
            filtered.sort { ($0.line ?? 0, $0.rule) < ($1.line ?? 0, $1.rule) }
        }
    }

    /// Counts one item shown because `rule` gave up on it.
    mutating func countUndecided(_ rule: FilterRule) {
        if let index = undecided.firstIndex(where: { $0.rule == rule.summary && $0.line == rule.line }) {
            undecided[index].count += 1
        } else {
            undecided.append(Filtered(rule: rule.summary, line: rule.line, count: 1))
        }
    }

    /// `read 25, shown 23; dropped: 2 duplicates of posts in 'First', 1 over max_items`: one line
    /// for the terminal and `status.json`; `25 in the feed when last read, shown 23` when this build
    /// did not read it. The English catalogue's wording of `localisedSummary`, which the status page
    /// gives in the site's language.
    package var summary: String { localisedSummary(.english) }
}
