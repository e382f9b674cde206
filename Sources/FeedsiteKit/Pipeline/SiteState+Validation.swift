import FeedsiteImage
import FeedsiteParse
import FeedsiteSanitise
import FeedsiteShared
import Foundation

/// The bounds every value of a saved or restored state is held to.
///
/// State comes from outside: a restored `status/state.json` is anyone's file, and the local one can
/// be edited or damaged. Each value is checked once, when it is loaded, so that no later stage can
/// trap on a number, write outside the site through a slug, or publish a URL a fresh read would
/// have refused.
package enum StateLimits {
    /// The largest state file read or restored: 512 MiB. A planet's state takes about 3 KB per item
    /// (sanitised HTML is most of it; 89 MB for the benchmark's 30,000), so this holds about
    /// 180,000 items, well past the 100,000 a large planet keeps.
    package static let fileBytes = 512 << 20
    /// JSON values (containers, keys, strings, numbers, literals) in one state file or part of it,
    /// counted before it is decoded (`JSONShape`, `StateFile.refusal`): Foundation's decoder indexes every value of
    /// a text first, at about 50 bytes a value (510 MB of `0,` took 13 GB). The benchmark's state
    /// holds 40 values an item at 75 bytes a value, so this is a file of 600 MB, past `fileBytes`;
    /// decoding it whole costs about 400 MB.
    static let jsonValues = 1 << 23
    /// The state's index (`state-index.json`): about 100 bytes a feed, so 16 MiB is far more than
    /// any planet's; a larger one is not read (the state is decoded without it).
    static let indexBytes = 16 << 20
    /// Feeds in one state: ten times a very large planet. Decoded, each costs kilobytes; a file
    /// listing more is not read.
    static let feeds = 100_000
    /// Items saved for one feed: ten times what one read keeps (`FeedParser.maxItems`); a list
    /// longer than this is not read (the feed's items are fetched afresh).
    static let itemsPerFeed = 100_000
    /// URLs (links, images, enclosures, the feed's final URL) and item keys, in UTF-8 bytes.
    static let urlBytes = 16 << 10
    /// Titles, names, categories, errors: longer ones are cut.
    static let textBytes = 8 << 10
    /// Descriptions and excerpts: longer ones are cut.
    static let longTextBytes = 256 << 10
    /// An item's sanitised HTML: larger content is dropped (the item and its link stay).
    static let contentBytes = 32 << 20
    /// Authors and enclosures of one item, as a fresh read keeps them: the rest are dropped
    /// (categories: `FeedParser.maxCategories`).
    static let listCount = FeedParser.maxListLength
    /// `ETag` and `Last-Modified`, sent back as request headers.
    static let headerBytes = 1 << 10
    /// Whether a validator can be saved and sent back verbatim as a request header: at most
    /// `headerBytes`, visible ASCII, spaces and tabs only.
    static func isUsableHeader(_ value: String) -> Bool {
        value.utf8.count <= headerBytes && value.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }
    /// Words in one item: far more than `contentBytes` of text can hold.
    static let wordCount = 100_000_000
    /// Enclosure sizes above this (2^53, 9 PB) are not sizes anyone means.
    static let enclosureLength = 1 << 53
    /// A slug is at most this long (readable part, hashes and a second-round hash included).
    static let slugBytes = 200
    /// Dates from year 1 to year 9999, what ISO 8601 with four-digit years can say.
    static let dates = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)
}

/// Checks and repairs decoded state, a record at a time, and says what it changed.
///
/// A feed whose own fields are unusable (its key is not a plausible URL) is skipped; an item that
/// has no usable key is skipped; every other bad value is repaired: numbers clamped, slugs that do
/// not match the slug grammar re-derived, URLs that fail the policy fresh ones go through dropped,
/// text cut to its bound, impossible dates replaced. Each kind of change is one warning per feed,
/// naming the feed and the first items it touched.
struct StateValidator {
    /// Where the state came from, for the warnings (`.feedsite/state.json`, a URL).
    let origin: String
    /// First-seen and last-success dates cannot be later than this.
    let now: Date
    private(set) var warnings: [String] = []
    /// Feed slugs taken by the feeds validated so far, and by which.
    private var feedSlugs: [String: String] = [:]

    init(origin: String, now: Date) {
        self.origin = origin
        self.now = now
    }

    /// A feed that could not be decoded at all.
    mutating func skippedFeed(_ url: String, reason: String) {
        warnings.append("\(origin): skipped feed \(Self.quoted(url, limit: 200)): \(reason); its items are lost")
    }

    /// A feed given twice in the file's `feeds` or `items` object (edited by hand): only the
    /// first was read.
    mutating func repeatedRecord(_ url: String, in object: String) {
        warnings.append(
            "\(origin): feed \(Self.quoted(url, limit: 200)) is given more than once in '\(object)'; only the first "
                + (object == "items" ? "list of its items" : "entry") + " was read")
    }

    /// A feed whose list of items could not be decoded at all.
    mutating func skippedItems(of url: String, reason: String) {
        warnings.append("\(origin): feed \(Self.quoted(url, limit: 200)): skipped its items: \(reason)")
    }

    /// Items that could not be decoded, by position in the feed's list.
    mutating func skippedItems(_ failures: [StateFile.ItemFailure], feed url: String) {
        guard !failures.isEmpty else { return }
        let named = failures.prefix(3).map { failure in
            "item \(failure.index)" + (failure.key.map { " (key \(Self.quoted($0, limit: 120)))" } ?? "")
                + ": \(failure.reason)"
        }
        let more = failures.count > 3 ? "; and \(failures.count - 3) more" : ""
        warnings.append(
            "\(origin): feed \(Self.quoted(url, limit: 200)): skipped \(failures.count) unreadable item\(failures.count == 1 ? "" : "s"), kept the rest — "
                + named.joined(separator: "; ") + more)
    }

    /// Checks a feed's own fields (not its items). False when the feed must be skipped.
    mutating func validate(_ feed: inout FeedState, url: String) -> Bool {
        guard !url.isEmpty, url.utf8.count <= StateLimits.urlBytes else {
            skippedFeed(url, reason: "its URL is empty or longer than \(StateLimits.urlBytes) bytes")
            return false
        }
        var notes = Notes()
        feed.etag = header(feed.etag, "etag", &notes)
        feed.lastModified = header(feed.lastModified, "lastModified", &notes)
        // A local feed (its key a path or a `file:` URL) was last read from a `file:` URL; any
        // other feed only from http(s).
        let isLocal = !Self.isHTTP(url)
        if let finalURL = feed.finalURL, !Self.isHTTP(finalURL), !(isLocal && Self.isFileURL(finalURL)) {
            feed.finalURL = nil
            notes.add("dropped 'finalURL', not an http(s) URL")
        }
        // The feed a web page linked to is requested instead of the page: http(s) only, never a
        // local feed's.
        if let discovered = feed.discoveredURL, isLocal || !Self.isHTTP(discovered) {
            feed.discoveredURL = nil
            notes.add("dropped 'discoveredURL', not an http(s) URL of a web feed")
        }
        feed.channel.title = text(feed.channel.title, "channel.title", StateLimits.textBytes, &notes)
        feed.channel.description = feed.channel.description.map {
            text($0, "channel.description", StateLimits.longTextBytes, &notes)
        }
        feed.channel.siteLink = checkedURL(feed.channel.siteLink, "channel.siteLink", .link, &notes)
        feed.channel.image = checkedURL(feed.channel.image, "channel.image", .image, &notes)
        if let link = feed.channel.feedLink, ReadFeed.webURL(link, against: nil) != link {
            feed.channel.feedLink = nil
            notes.add("dropped 'channel.feedLink', not an http(s) URL")
        }
        if let language = feed.channel.language, LanguageTag.normalised(language) != language {
            feed.channel.language = nil
            notes.add("dropped 'channel.language', not a language tag")
        }
        if let slug = feed.slug, !Self.isSlug(slug) {
            feed.slug = nil
            notes.add("re-derived the feed's slug (\(Self.quoted(slug, limit: 60)) is not a slug)")
        }
        // Two feeds with one slug would write one folder; the first (by URL) keeps it.
        if let slug = feed.slug {
            if let holder = feedSlugs[slug] {
                feed.slug = nil
                notes.add(
                    "re-derived the feed's slug (\(Self.quoted(slug, limit: 60)) is feed \(Self.quoted(holder, limit: 200))'s)"
                )
            } else {
                feedSlugs[slug] = url
            }
        }
        let failures = feed.health.consecutiveFailures
        if !(0...FeedHealth.maxConsecutiveFailures).contains(failures) {
            feed.health.consecutiveFailures = min(max(failures, 0), FeedHealth.maxConsecutiveFailures)
            notes.add("clamped 'health.consecutiveFailures' (\(failures))")
        }
        if let status = feed.health.lastStatus, !(100...599).contains(status) {
            feed.health.lastStatus = nil
            notes.add("dropped 'health.lastStatus' (\(status)), not an HTTP status")
        }
        if let success = feed.health.lastSuccess, !StateLimits.dates.contains(success) || success > now {
            feed.health.lastSuccess = StateLimits.dates.contains(success) ? DayFormat.startOfDay(now) : nil
            notes.add("replaced 'health.lastSuccess', an impossible date")
        }
        feed.health.lastSuccess = feed.health.lastSuccess?.wholeSeconds
        feed.health.lastError = feed.health.lastError.map {
            text($0, "health.lastError", StateLimits.textBytes, &notes)
        }
        if var avatar = feed.avatar {
            feed.avatar = validate(&avatar, local: isLocal, slug: feed.slug, &notes) ? avatar : nil
        }
        report(notes, feed: url)
        return true
    }

    /// Checks a feed's avatar record. False when it must be dropped (the icon is then chosen and
    /// downloaded again): its origin or source is not an http(s) URL, or the feed is a local file
    /// (whose icon is never downloaded). A file name other than `avatars/<slug>.webp|png` with the
    /// feed's own slug is forgotten and the icon downloaded again (the file is read from the last
    /// site: another feed's would give this one that feed's icon), a date in the future means
    /// "check now".
    private func validate(_ avatar: inout AvatarState, local: Bool, slug: String?, _ notes: inout Notes) -> Bool {
        guard !local, Self.isHTTP(avatar.origin), avatar.source.map(Self.isHTTP) ?? true else {
            notes.add("dropped 'avatar', not an http(s) icon of a web feed")
            return false
        }
        avatar.etag = header(avatar.etag, "avatar.etag", &notes)
        avatar.lastModified = header(avatar.lastModified, "avatar.lastModified", &notes)
        if let file = avatar.file, !(slug.map { Self.isAvatarFile(file, slug: $0) } ?? false) {
            // Downloaded again at once, whole (a 304 would leave the feed without its icon).
            avatar.file = nil
            avatar.etag = nil
            avatar.lastModified = nil
            avatar.checked = AvatarState.never
            notes.add("dropped 'avatar.file', not avatars/<the feed's slug>.webp or .png")
        }
        avatar.note = avatar.note.map { text($0, "avatar.note", StateLimits.textBytes, &notes) }
        if !StateLimits.dates.contains(avatar.checked) || avatar.checked > now {
            avatar.checked = AvatarState.never
            notes.add("replaced 'avatar.checked', an impossible date")
        }
        avatar.checked = avatar.checked.wholeSeconds
        return true
    }

    /// `avatars/<slug>.webp` or `avatars/<slug>.png`: the only files an avatar record may name
    /// (the slug its feed's, `slug`, when given).
    static func isAvatarFile(_ file: String, slug: String? = nil) -> Bool {
        guard file.hasPrefix("avatars/"), let dot = file.lastIndex(of: ".") else { return false }
        let named = String(file[file.index(file.startIndex, offsetBy: 8)..<dot])
        return AvatarImage.Format(rawValue: String(file[file.index(after: dot)...])) != nil
            && (slug.map { named == $0 } ?? isSlug(named))
    }

    /// Checks a feed's items: skips those without a usable key or with a key seen before, repairs
    /// the rest, and gives every item a valid slug unique within the feed (re-derived from its
    /// title, as a new item's would be, where the saved one is missing, invalid or taken).
    mutating func validate(_ items: inout [StoredItem], feed url: String) {
        var notes = Notes()
        var keys: Set<String> = []
        var kept: [StoredItem] = []
        kept.reserveCapacity(items.count)
        var positions: [Int] = []
        var needsSlugs = false
        for (index, original) in items.enumerated() {
            var stored = original
            let item = ItemRef(index: index, key: stored.key)
            guard !stored.key.isEmpty, stored.key.utf8.count <= StateLimits.urlBytes else {
                notes.add("skipped items with an empty key or one longer than \(StateLimits.urlBytes) bytes", item)
                continue
            }
            guard keys.insert(stored.key).inserted else {
                notes.add("skipped items whose key appears earlier in the feed", item)
                continue
            }
            if !StateLimits.dates.contains(stored.firstSeen) || stored.firstSeen > now {
                stored.firstSeen = now
                notes.add("replaced impossible first-seen dates with now", item)
            }
            if let date = stored.item.date, !StateLimits.dates.contains(date) {
                stored.item.date = nil
                notes.add("dropped impossible dates", item)
            }
            stored.firstSeen = stored.firstSeen.wholeSeconds
            stored.item.date = stored.item.date?.wholeSeconds
            repair(&stored.item, item, &notes)
            if !Self.isSlug(stored.item.slug) {
                if !stored.item.slug.isEmpty {
                    notes.add("re-derived slugs that are not slugs (\(Self.quoted(stored.item.slug, limit: 60)))", item)
                }
                stored.item.slug = ""
                needsSlugs = true
            }
            kept.append(stored)
            positions.append(index)
        }
        // Duplicate slugs would make two items write one page: `Slug.assign` keeps the first
        // holder of each and gives the others (and the invalid ones) new slugs.
        var slugs: Set<String> = []
        for (stored, index) in zip(kept, positions)
        where !stored.item.slug.isEmpty && !slugs.insert(stored.item.slug).inserted {
            needsSlugs = true
            notes.add(
                "re-derived slugs used by an earlier item (\(Self.quoted(stored.item.slug, limit: 60)))",
                ItemRef(index: index, key: stored.key))
        }
        if needsSlugs {
            let assigned = Slug.assign(
                kept.map { (key: $0.key, text: $0.item.title) },
                existing: kept.reduce(into: [:]) { $0[$1.key] = $1.item.slug }, fallback: "item")
            for index in kept.indices {
                kept[index].item.slug = assigned[kept[index].key] ?? kept[index].item.slug
            }
        }
        items = kept
        report(notes, feed: url)
    }

    /// The item's own fields: text cut, URLs through the policy, numbers clamped, lists bounded.
    private func repair(_ item: inout SiteItem, _ ref: ItemRef, _ notes: inout Notes) {
        item.title = text(item.title, "title", StateLimits.textBytes, &notes, ref)
        item.feedName = text(item.feedName, "feedName", StateLimits.textBytes, &notes, ref)
        item.feedSlug = Self.isSlug(item.feedSlug) ? item.feedSlug : ""
        item.excerpt = text(item.excerpt, "excerpt", StateLimits.longTextBytes, &notes, ref)
        item.link = checkedURL(item.link, "link", .link, &notes, ref)
        item.image = checkedURL(item.image, "image", .image, &notes, ref)
        if item.content.html.utf8.count > StateLimits.contentBytes {
            item.content = .empty
            notes.add(
                "dropped content larger than \(StateLimits.contentBytes >> 20) MB (the items link to the original)", ref
            )
        }
        if !(0...StateLimits.wordCount).contains(item.wordCount) {
            item.wordCount = min(max(item.wordCount, 0), StateLimits.wordCount)
            notes.add("clamped 'wordCount'", ref)
        }
        item.authors = list(item.authors, "authors", &notes, ref).map {
            text($0, "authors", StateLimits.textBytes, &notes, ref)
        }
        // As a fresh read keeps them: every list the item is in prints its authors.
        let fitting = FeedParser.authorsFitting(item.authors.lazy.map(\.count))
        if fitting < item.authors.count {
            item.authors.removeSubrange(fitting...)
            notes.add("dropped authors past \(FeedParser.maxAuthorCharacters) characters of names", ref)
        }
        // As a fresh read keeps them: each category may be a page listing its items with all theirs.
        item.categories = list(item.categories, "categories", limit: FeedParser.maxCategories, &notes, ref).map {
            text($0, "categories", StateLimits.textBytes, &notes, ref)
        }
        item.enclosures = list(item.enclosures, "enclosures", &notes, ref).compactMap { enclosure in
            var enclosure = enclosure
            guard !enclosure.url.isEmpty, enclosure.url.utf8.count <= StateLimits.urlBytes else {
                notes.add("dropped enclosures without a usable URL", ref)
                return nil
            }
            if let length = enclosure.length, !(0...StateLimits.enclosureLength).contains(length) {
                enclosure.length = nil
                notes.add("dropped impossible enclosure lengths", ref)
            }
            enclosure.type = enclosure.type.map { text($0, "enclosure type", 255, &notes, ref) }
            return enclosure
        }
    }

    // MARK: Values

    private func text(
        _ value: String, _ field: String, _ limit: Int, _ notes: inout Notes, _ item: ItemRef? = nil
    ) -> String {
        guard value.utf8.count > limit else { return value }
        notes.add("cut '\(field)' to \(limit) bytes", item)
        return Self.prefix(value, bytes: limit)
    }

    private func checkedURL(
        _ value: String?, _ field: String, _ purpose: URLPolicy.Purpose, _ notes: inout Notes, _ item: ItemRef? = nil
    ) -> String? {
        guard let value else { return nil }
        if value.utf8.count <= StateLimits.urlBytes, let allowed = URLPolicy.resolve(value, against: nil, for: purpose)
        {
            return allowed
        }
        notes.add("dropped '\(field)' URLs a fresh read would refuse", item)
        return nil
    }

    private func header(_ value: String?, _ field: String, _ notes: inout Notes) -> String? {
        guard let value else { return nil }
        // Sent back verbatim as a request header: visible ASCII, spaces and tabs only.
        if StateLimits.isUsableHeader(value) { return value }
        notes.add("dropped '\(field)', not a usable header value (the next request is unconditional)")
        return nil
    }

    private func list<Element>(
        _ values: [Element], _ field: String, limit: Int = StateLimits.listCount, _ notes: inout Notes, _ item: ItemRef
    ) -> [Element] {
        guard values.count > limit else { return values }
        notes.add("kept the first \(limit) '\(field)'", item)
        return Array(values.prefix(limit))
    }

    // MARK: Rules

    /// The slug grammar `Slug` produces: lowercase ASCII letters and digits in runs joined by
    /// single dashes, nothing else (no dots, no slashes), bounded in length.
    static func isSlug(_ slug: String) -> Bool {
        var previousIsDash = true
        var count = 0
        for byte in slug.utf8 {
            count += 1
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): previousIsDash = false
            case UInt8(ascii: "-") where !previousIsDash: previousIsDash = true
            default: return false
            }
        }
        return count > 0 && count <= StateLimits.slugBytes && !previousIsDash
    }

    static func isFileURL(_ value: String) -> Bool {
        guard value.utf8.count <= StateLimits.urlBytes, let url = URL(string: value) else { return false }
        return url.isFileURL
    }

    static func isHTTP(_ value: String) -> Bool {
        guard value.utf8.count <= StateLimits.urlBytes, let url = URL(string: value),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return false }
        return true
    }

    /// At most `bytes` UTF-8 bytes of `value`, cut between scalars.
    static func prefix(_ value: String, bytes limit: Int) -> String {
        guard value.utf8.count > limit else { return value }
        var end = value.utf8.index(value.utf8.startIndex, offsetBy: limit)
        while end > value.utf8.startIndex, value.utf8[end] & 0xC0 == 0x80 {
            end = value.utf8.index(before: end)
        }
        return String(value.utf8[..<end]) ?? ""
    }

    static func quoted(_ value: String, limit: Int) -> String {
        let cut = value.utf8.count > limit ? prefix(value, bytes: limit) + "…" : value
        return "\"" + cut.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    // MARK: Warnings

    /// An item named in a warning: its position in the saved list and its key.
    struct ItemRef {
        var index: Int
        var key: String
    }

    /// Changes to one feed, grouped by kind, in the order first seen.
    struct Notes {
        var kinds: [String] = []
        var counts: [String: Int] = [:]
        var examples: [String: [ItemRef]] = [:]

        mutating func add(_ kind: String, _ item: ItemRef? = nil) {
            if counts[kind] == nil { kinds.append(kind) }
            counts[kind, default: 0] += 1
            if let item, examples[kind, default: []].count < 3 { examples[kind, default: []].append(item) }
        }
    }

    private mutating func report(_ notes: Notes, feed url: String) {
        for kind in notes.kinds {
            var message = "\(origin): feed \(Self.quoted(url, limit: 200)): \(kind)"
            let examples = notes.examples[kind] ?? []
            if !examples.isEmpty {
                let count = notes.counts[kind] ?? examples.count
                let named = examples.map { "item \($0.index), key \(Self.quoted($0.key, limit: 120))" }
                message +=
                    " (\(count) item\(count == 1 ? "" : "s"): " + named.joined(separator: "; ")
                    + (count > examples.count ? "; …" : "") + ")"
            }
            warnings.append(message)
        }
    }
}
