import FeedsiteShared
import Foundation

extension Site {
    /// The model stage's second half: what the site shows, from the merged feed records.
    ///
    /// Pure and deterministic. Feeds keep `feeds.yml` order. Items without a date take the time
    /// feedsite first saw them; items the `exclude:`/`include:` rules leave out are counted and
    /// skipped (before duplicates are looked for: another feed may show the post); future dates
    /// follow `future_dates`; a post that another feed earlier
    /// in `feeds.yml` shows (same absolute link, or same id unique by its form: `ItemIdentity`) is
    /// shown once, under that feed; each feed shows at most `max_items`. Within a feed nothing is
    /// merged here (its entries were told apart when it was read). Items are ordered by date
    /// (newest first), then by feed order, then by position in the feed. Every item is shown or
    /// counted in its feed's `FeedAccount`.
    package static func assemble(configuration: SiteConfiguration, records: [FeedRecord], now: Date) -> Site {
        var feeds: [SiteFeed] = []
        var accounts: [FeedAccount] = []
        accounts.reserveCapacity(records.count)
        var all: [(item: SiteItem, feedIndex: Int, position: Int)] = []
        // Grown once: growing it feed by feed copied every item several times into new memory.
        all.reserveCapacity(records.reduce(0) { $0 + $1.state.items.count })
        /// Identity → the feed that shows a post under it.
        var shownBy: [String: Int] = [:]
        // A few minutes of slack: a server clock slightly ahead is not "the future".
        let future = now.addingTimeInterval(600)
        let sameFeeds = FeedRecord.sameFeeds(records)
        // The forms under which each item is recognised in other feeds, normalised on all cores
        // (the bulk of this stage's work).
        let identities = records.concurrentMap { record in
            let homePage = record.state.channel.siteLink.map(Site.normalisedIdentity)
            return record.state.items.map {
                ItemIdentity.globalIdentities(key: $0.key, link: $0.item.link, homePage: homePage)
            }
        }
        let verdicts = filterVerdicts(configuration: configuration, records: records)
        for (feedIndex, record) in records.enumerated() {
            var account = FeedAccount(source: record.source.url, feedURL: record.feedURL)
            account.expired = record.expiredCount
            if case .fresh(let read) = record.run.outcome, record.failure == nil {
                // Entries repeating an id were read but never stored.
                account.repeated = read.repeatedCount
                account.read = read.repeatedCount
                account.isReadThisBuild = true
            }
            if record.isPending {
                accounts.append(account)
                continue
            }
            if let original = sameFeeds[feedIndex] {
                // The same feed as another entry: shown there, not twice (no empty twin).
                let owner = records[original]
                account.sameFeedAs = owner.displayName
                account.duplicates = record.state.items.map {
                    if $0.isInFeed { account.read += 1 } else { account.kept += 1 }
                    return FeedAccount.Duplicate(
                        title: $0.item.title, link: $0.item.link, feedName: owner.displayName,
                        feedURL: owner.source.url.absoluteString)
                }
                accounts.append(account)
                continue
            }
            let name = record.displayName
            let feedSlug = record.state.slug ?? "feed-\(feedIndex + 1)"
            var items: [(item: SiteItem, feedIndex: Int, position: Int)] = []
            items.reserveCapacity(record.state.items.count)
            for (position, stored) in record.state.items.enumerated() {
                if stored.isInFeed { account.read += 1 } else { account.kept += 1 }
                switch verdicts[feedIndex].isEmpty ? .passes : verdicts[feedIndex][position] {
                case .passes: break
                case .leftOut(let reason):
                    account.countFiltered(reason)
                    continue
                case .undecided(let rules): for rule in rules { account.countUndecided(rule) }
                }
                var item = stored.item
                switch item.date {
                case nil:
                    item.date = stored.firstSeen
                case let date? where date > future:
                    switch configuration.futureDates {
                    case .clamp: item.date = stored.firstSeen
                    case .keep: break
                    case .drop:
                        account.future += 1
                        continue
                    }
                default:
                    break
                }
                if let owner = identities[feedIndex][position].lazy.compactMap({ shownBy[$0] }).first {
                    account.duplicates.append(
                        FeedAccount.Duplicate(
                            title: item.title, link: item.link, feedName: records[owner].displayName,
                            feedURL: records[owner].source.url.absoluteString))
                    continue
                }
                item.feedSlug = feedSlug
                item.feedName = name
                items.append((item, feedIndex, position))
            }
            var order = newestFirst(items)
            if let limit = record.source.maxItems ?? configuration.maxItems, order.count > limit {
                account.overMaxItems = order.count - limit
                order.removeLast(order.count - limit)
                // The site-wide list keeps feed order within a feed (the final sort decides anyway).
                all += order.sorted().map { items[$0] }
            } else {
                all += items
            }
            // Only what this feed shows claims its identities: a post it drops (over `max_items`)
            // can still be shown by a later feed, and its own entries never hide one another. (No
            // earlier feed holds any of them: an item with a claimed identity was dropped above.)
            for index in order {
                for identity in identities[feedIndex][items[index].position] {
                    shownBy[identity] = feedIndex
                }
            }
            account.shown = order.count
            accounts.append(account)
            feeds.append(
                SiteFeed(
                    source: record.source, slug: feedSlug, name: name, description: record.state.channel.description,
                    siteLink: record.state.channel.siteLink, items: order.map { items[$0].item },
                    stale: record.stale, language: record.state.channel.language,
                    image: record.state.channel.image, feedLink: record.publishedFeedURL?.absoluteString,
                    avatar: record.avatar))
        }
        let order = newestFirst(all)
        return Site(configuration: configuration, feeds: feeds, items: order.map { all[$0].item }, accounts: accounts)
    }

    /// The form of a link or id under which duplicates are recognised: scheme, `www.`, a trailing
    /// slash and `utm_*` tracking parameters do not make two posts different; a fragment does
    /// (blogs that put a day's posts on one page link each as `…/26.html#a080605`).
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
        if components.percentEncodedFragment?.isEmpty == true { components.fragment = nil }
        if components.port == 80 || components.port == 443 { components.port = nil }
        let query = (components.queryItems ?? []).filter { !$0.name.lowercased().hasPrefix("utm_") }
        components.queryItems = query.isEmpty ? nil : query
        while components.path.count > 1 && components.path.hasSuffix("/") {
            components.path.removeLast()
        }
        if components.path == "/" { components.path = "" }
        return components.string ?? value
    }

    /// `normalisedIdentity` without `URLComponents` for the common case (hot path: every item's
    /// key and link, every build; see Benchmarks/RESULTS.md): a plain http(s) URL without port or
    /// percent-escapes, with at most a plain query (WordPress's `?p=123` ids) and a plain fragment.
    /// Nil for anything else, which takes `URLComponents`.
    static func plainIdentity(_ value: String) -> String? {
        guard let hash = value.utf8.firstIndex(of: UInt8(ascii: "#")) else { return plainIdentity(unfragmented: value) }
        let fragment = value.utf8[value.utf8.index(after: hash)...]
        guard fragment.allSatisfy(isPlainFragmentByte),
            let identity = plainIdentity(unfragmented: String(value[..<hash]))
        else { return nil }
        return fragment.isEmpty ? identity : identity + String(value[hash...])
    }

    private static func isPlainFragmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func plainIdentity(unfragmented value: String) -> String? {
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

    /// The indices of `entries`, newest first.
    private static func newestFirst(_ entries: [(item: SiteItem, feedIndex: Int, position: Int)]) -> [Int] {
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
        }
    }
}
