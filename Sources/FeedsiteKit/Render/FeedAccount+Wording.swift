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
        parts.append(messages.format("status_shown", count: shown))
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
