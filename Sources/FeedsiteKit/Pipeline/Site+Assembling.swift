import Foundation

extension Site {
    /// The model stage's second half: what the site shows, from the merged feed records.
    ///
    /// Pure and deterministic. Feeds keep `feeds.yml` order. Items without a date take the time
    /// feedsite first saw them; future dates follow `future_dates`; an item that appears in several
    /// feeds (same normalised link or id) is shown once, under the first feed in `feeds.yml`; each
    /// feed contributes at most `max_items`. Items are ordered by date (newest first), then by feed
    /// order, then by position in the feed.
    public static func assemble(configuration: SiteConfiguration, records: [FeedRecord], now: Date) -> Site {
        var feeds: [SiteFeed] = []
        var all: [(item: SiteItem, feedIndex: Int, position: Int)] = []
        // Grown once: growing it feed by feed copied every item several times into new memory.
        all.reserveCapacity(records.reduce(0) { $0 + $1.state.items.count })
        var seen: Set<String> = []
        // A few minutes of slack: a server clock slightly ahead is not "the future".
        let future = now.addingTimeInterval(600)
        // The forms under which each item is recognised as a duplicate, normalised on all cores
        // (normalising every key and link was most of this stage); the key is usually the link itself.
        let identities = records.concurrentMap { record in
            record.state.items.map { stored in
                var identities = stored.key.isEmpty ? [] : [Self.normalisedIdentity(stored.key)]
                if let link = stored.item.link, !link.isEmpty, link != stored.key {
                    identities.append(Self.normalisedIdentity(link))
                }
                return identities
            }
        }
        for (feedIndex, record) in records.enumerated() {
            let name = record.displayName
            let feedSlug = record.state.slug ?? "feed-\(feedIndex + 1)"
            var items: [(item: SiteItem, feedIndex: Int, position: Int)] = []
            for (position, stored) in record.state.items.enumerated() {
                var item = stored.item
                switch item.date {
                case nil:
                    item.date = stored.firstSeen
                case let date? where date > future:
                    switch configuration.futureDates {
                    case .clamp: item.date = stored.firstSeen
                    case .keep: break
                    case .drop: continue
                    }
                default:
                    break
                }
                let identities = identities[feedIndex][position]
                guard !identities.contains(where: seen.contains) else { continue }
                seen.formUnion(identities)
                item.feedSlug = feedSlug
                item.feedName = name
                items.append((item, feedIndex, position))
            }
            var sorted = sortedNewestFirst(items)
            if let limit = record.source.maxItems ?? configuration.maxItems, sorted.count > limit {
                sorted = Array(sorted.prefix(limit))
                let kept = Set(sorted.map(\.slug))
                all += items.filter { kept.contains($0.item.slug) }
            } else {
                all += items
            }
            feeds.append(
                SiteFeed(
                    source: record.source, slug: feedSlug, name: name, description: record.state.channel.description,
                    siteLink: record.state.channel.siteLink, items: sorted, staleNote: record.staleNote,
                    language: record.state.channel.language, image: record.state.channel.image))
        }
        return Site(configuration: configuration, feeds: feeds, items: sortedNewestFirst(all))
    }

    /// The form of a link or id under which duplicates are recognised: scheme, `www.`, a trailing
    /// slash, fragments and `utm_*` tracking parameters do not make two posts different.
    static func normalisedIdentity(_ value: String) -> String {
        if let plain = plainIdentity(value) { return plain }
        // Without `//` there is no authority, so `URLComponents` finds no host and the value is
        // its own identity (`tag:` and `urn:` ids, the usual Atom keys): no parse needed.
        return hasDoubleSlash(value) ? componentsIdentity(value) : value
    }

    private static func hasDoubleSlash(_ value: String) -> Bool {
        var previous: UInt8 = 0
        for byte in value.utf8 {
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return true }
            previous = byte
        }
        return false
    }

    static func componentsIdentity(_ value: String) -> String {
        guard var components = URLComponents(string: value.trimmingCharacters(in: .whitespaces)),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return value }
        components.scheme = nil
        components.host = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        components.fragment = nil
        if components.port == 80 || components.port == 443 { components.port = nil }
        let query = (components.queryItems ?? []).filter { !$0.name.lowercased().hasPrefix("utm_") }
        components.queryItems = query.isEmpty ? nil : query
        while components.path.count > 1 && components.path.hasSuffix("/") {
            components.path.removeLast()
        }
        if components.path == "/" { components.path = "" }
        return components.string ?? value
    }

    /// `normalisedIdentity` without `URLComponents` (14 % of a warm build) for the common case: a
    /// plain http(s) URL without port or percent-escapes, and with at most a plain query (WordPress's
    /// `?p=123` ids). Nil for anything else.
    static func plainIdentity(_ value: String) -> String? {
        // Byte searches: `contains(_: StringProtocol)` goes through Foundation's string search.
        guard let url = SimpleURL(value), url.query.isEmpty || isPlainQuery(url.query),
            !url.authority.utf8.contains(UInt8(ascii: ":")), !url.path.utf8.contains(UInt8(ascii: "%"))
        else { return nil }
        var host = url.authority.lowercased()
        if host.hasPrefix("www.") { host.removeFirst(4) }
        guard !host.isEmpty else { return nil }
        var path = url.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return "//" + host + (path == "/" ? "" : path) + url.query
    }

    /// `?name=value&…` of letters, digits and `-._~`, every name non-empty and none `utm_…`:
    /// `URLComponents` gives such a query back unchanged (`identityParity` checks it).
    private static func isPlainQuery(_ query: Substring) -> Bool {
        let body = query.utf8.dropFirst()  // the "?"
        guard !body.isEmpty else { return false }
        for item in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            guard let first = item.first, first != UInt8(ascii: "=") else { return false }
            var equalSigns = 0
            for byte in item {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    continue
                case UInt8(ascii: "="): equalSigns += 1
                default: return false
                }
            }
            // `utm_` in any case (letters fold with 0x20; `_` is the only other byte here).
            let isTracking = item.count >= 4 && zip(item, "utm_".utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
            guard equalSigns <= 1, !isTracking else { return false }
        }
        return true
    }

    private static func sortedNewestFirst(_ entries: [(item: SiteItem, feedIndex: Int, position: Int)]) -> [SiteItem] {
        // The positions are sorted, not the entries: an entry is some twenty words that a sort
        // would move many times. The order is total (feed and position break ties), so this is the
        // order sorting the entries gave.
        entries.indices.sorted { i, j in
            switch (entries[i].item.date, entries[j].item.date) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (entries[i].feedIndex, entries[i].position) < (entries[j].feedIndex, entries[j].position)
            }
        }.map { entries[$0].item }
    }
}
