import FeedsiteShared

extension FeedAccount {
    /// `summary` in the site's language, for the status page: `read 25, shown 23; dropped: 2
    /// duplicates of posts in 'First'` from the catalogue's `status_read`, `status_shown`,
    /// `status_dropped`… keys, each counted by its own number. The English catalogue gives the
    /// same words as `summary` (the terminal's and `status.json`'s wording). Feed names are quoted
    /// with `quoted`; filter rules stay as `feeds.yml` writes them.
    func localisedSummary(_ messages: MessageCatalogue) -> String {
        var text =
            isReadThisBuild
            ? messages.format("status_read", count: read) : messages.format("status_read_before", count: read)
        if repeated > 0 { text += " " + messages.format("status_repeated", count: repeated) }
        var parts = [text]
        if kept > 0 { parts.append(messages.format("status_kept", count: kept)) }
        var shownPart = messages.format("status_shown", count: shown)
        for rule in undecided {
            // Items a rule's pattern gave up on (`BoundedSearch`): shown, and said so.
            shownPart +=
                " "
                + (rule.line.map {
                    messages.format(
                        "status_undecided_line", count: rule.count, ["rule": rule.rule, "line": String($0)])
                } ?? messages.format("status_undecided", count: rule.count, ["rule": rule.rule]))
        }
        parts.append(shownPart)
        let separator = messages.format("list_separator")
        text = parts.joined(separator: separator)
        var dropped: [String] = []
        for rule in filtered {
            if let line = rule.line {
                dropped.append(
                    messages.format(
                        "status_filtered_line", count: rule.count, ["rule": rule.rule, "line": String(line)]))
            } else {
                dropped.append(messages.format("status_filtered", count: rule.count, ["rule": rule.rule]))
            }
        }
        if !duplicates.isEmpty {
            var owners: [String] = []
            for duplicate in duplicates where !owners.contains(duplicate.feedName) {
                owners.append(duplicate.feedName)
            }
            let names = owners.map { messages.format("quoted", ["text": $0]) }.joined(separator: separator)
            dropped.append(messages.format("status_duplicates", count: duplicates.count, ["feeds": names]))
        }
        if overMaxItems > 0 { dropped.append(messages.format("status_over_max", count: overMaxItems)) }
        if future > 0 { dropped.append(messages.format("status_future", count: future)) }
        if expired > 0 { dropped.append(messages.format("status_expired", count: expired)) }
        if !dropped.isEmpty {
            text +=
                messages.format("clause_separator")
                + messages.format("status_dropped", ["list": dropped.joined(separator: separator)])
        }
        return text
    }
}

extension StaleNote {
    /// The note in the site's language (`stale_since`, `stale_not_refreshed`), the date in its
    /// order and names; the reason stays English, as diagnostics do.
    func worded(_ messages: MessageCatalogue) -> String {
        guard let day = lastSuccess.flatMap({ CivilTime($0) }) else {
            return messages.format("stale_not_refreshed", ["reason": reason])
        }
        return messages.format("stale_since", ["date": messages.date(day), "reason": reason])
    }
}
