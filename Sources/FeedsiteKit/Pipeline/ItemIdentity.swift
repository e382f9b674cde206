import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// When two entries are the same post (README, "Identity").
///
/// - Within one feed, an entry's id (RSS `guid`, Atom `id`, JSON Feed `id`) is its identity:
///   entries with different ids are different posts, entries with the same id are one post.
/// - Entries without an id are always different posts: they are told apart by their link
///   (fragment included), then by title and date, then by their order. An empty link is none.
/// - Across feeds, the same post is recognised only by an absolute http(s) link, or by an id that
///   is unique by its form (an absolute URL, `tag:`, `urn:`); a bare id (`1`, `post-2`) belongs to
///   its feed.
enum ItemIdentity {
    /// The item's id, when it gives one (blank ones are none).
    static func id(of item: FeedItem) -> String? {
        isBlank(item.id) ? nil : item.id
    }

    /// The item's link as the feed wrote it, when it gives one: `href=""` is no link (resolved
    /// against the feed's URL it would name the feed itself, making every such item one post).
    static func link(of item: FeedItem) -> String? {
        guard let link = item.link, !isBlank(link) else { return nil }
        return link
    }

    /// The item's link as the site publishes it: resolved against the feed's URL and through the
    /// URL policy; nil when there is none, and when it is the feed document itself (an `href=""`
    /// the parser resolved), which is no article.
    static func link(of item: FeedItem, feedURL: URL) -> String? {
        guard let link = link(of: item), let resolved = URLPolicy.resolve(link, against: feedURL, for: .link),
            resolved != feedURL.absoluteString
        else { return nil }
        return resolved
    }

    /// Per item, the id that identifies it, bounded (`bounded`): its own, unless the entries
    /// sharing that id link to different pages. Such an id (every entry of a broken feed giving
    /// the blog's home page as its id) tells no post apart, and its entries are read as entries
    /// without id, each its own post; entries sharing an id and one link (or no link) are one post.
    static func ids(of items: [FeedItem]) -> [String?] {
        var ids = items.map { id(of: $0).map(bounded) }
        var firstLink: [String: String] = [:]
        var shared: Set<String> = []
        for (index, item) in items.enumerated() {
            guard let id = ids[index], let link = link(of: item) else { continue }
            if let first = firstLink[id] {
                if first != link { shared.insert(id) }
            } else {
                firstLink[id] = link
            }
        }
        guard !shared.isEmpty else { return ids }
        for index in ids.indices where ids[index].map(shared.contains) == true { ids[index] = nil }
        return ids
    }

    /// One key per item, unique within the feed and stable across runs while the item is
    /// unchanged; nil for an entry that repeats an id (the same post again): of the entries
    /// sharing an id, the one updated last stands for the post (RFC 4287 §4.1.1), the first of
    /// them when their dates do not tell.
    ///
    /// An item with an id (`ids`) is keyed by it. An item without one is keyed by its link when no
    /// other item has that link; else by link, title and date (`link⏎title⏎seconds`); when even
    /// those are shared, by their order among the items that share them (`…⏎2`). Such keys hold a
    /// line break, which no id or link written on one line has. Linear: passes with dictionaries.
    static func keys(of items: [FeedItem], ids: [String?]? = nil) -> [String?] {
        let ids = ids ?? self.ids(of: items)
        var keys = [String?](repeating: nil, count: items.count)
        var taken: Set<String> = []
        taken.reserveCapacity(items.count)
        // Ids first: an id is the key even when an item without id has it as its link.
        var linkUses: [String: Int] = [:]
        var chosen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            if let id = ids[index] {
                if let earlier = chosen[id], !isUpdated(item, after: items[earlier]) { continue }
                chosen[id] = index
            } else {
                linkUses[link(of: item) ?? "", default: 0] += 1
            }
        }
        for (id, index) in chosen {
            keys[index] = id
            taken.insert(id)
        }
        var composites: [Int: String] = [:]
        var compositeUses: [String: Int] = [:]
        for (index, item) in items.enumerated() where ids[index] == nil {
            let link = link(of: item) ?? ""
            if !link.isEmpty && linkUses[link] == 1 {
                let key = bounded(link)
                if taken.insert(key).inserted {
                    keys[index] = key
                    continue
                }
            }
            let date = (item.published ?? item.updated).map { String(Int($0.timeIntervalSince1970)) } ?? ""
            let composite = link + "\n" + item.title + "\n" + date
            composites[index] = composite
            compositeUses[composite, default: 0] += 1
        }
        var occurrences: [String: Int] = [:]
        for index in items.indices {
            guard let composite = composites[index] else { continue }
            var key = bounded(composite)
            if compositeUses[composite, default: 0] > 1 {
                occurrences[composite, default: 0] += 1
                key += "\n\(occurrences[composite, default: 0])"
            }
            // Only an id holding line breaks could already have this key.
            while !taken.insert(key).inserted { key += "\n" }
            keys[index] = key
        }
        return keys
    }

    /// Whether `item` was updated after `earlier` (its `updated` date, else its `published` one);
    /// false when either has no date.
    static func isUpdated(_ item: FeedItem, after earlier: FeedItem) -> Bool {
        guard let date = item.updated ?? item.published, let before = earlier.updated ?? earlier.published else {
            return false
        }
        return date > before
    }

    /// The longest key kept as it is: the state's bound on keys (`StateLimits.urlBytes`), less room
    /// for the occurrence suffix of a composite key.
    static let maximumKeyBytes = StateLimits.urlBytes - 64

    /// `key` when it is at most `maximumKeyBytes` long; else its first 256 bytes (whole characters),
    /// a line break and a 128-bit digest of the whole (two FNV-1a hashes): stable from run to run,
    /// and a key the saved state accepts, so a post with a 20 KB id is kept like any other.
    static func bounded(_ key: String) -> String {
        let bytes = key.utf8
        guard bytes.count > maximumKeyBytes else { return key }
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 0x9e37
        }
        var prefix = ""
        for character in key {
            guard prefix.utf8.count + character.utf8.count <= 256 else { break }
            prefix.append(character)
        }
        let digest = [first, second].map { String($0, radix: 16).leftPadded(to: 16) }.joined()
        return prefix + "\n#" + digest
    }

    /// The key feedsite gave an item without id before this rule (its link, else
    /// `title#position`), by which state saved then is matched.
    static func formerKey(of item: FeedItem, position: Int) -> String {
        if let link = item.link, !link.isEmpty { return link }
        return "\(item.title)#\(position)"
    }

    /// The forms under which a stored item is recognised in other feeds: its link when it is an
    /// absolute http(s) URL, and its key when that is an id unique by its form; normalised. A link
    /// to the feed's own home page (`homePage`, normalised) names no post in particular.
    static func globalIdentities(key: String, link: String?, homePage: String? = nil) -> [String] {
        var identities: [String] = []
        if let link, isHTTP(link) {
            let identity = Site.normalisedIdentity(link)
            if identity != homePage { identities.append(identity) }
        }
        if key != link, let identity = globalIdentity(ofID: key), !identities.contains(identity) {
            identities.append(identity)
        }
        return identities
    }

    /// An id unique by its form, normalised: an absolute URL (as links are), a `tag:` or `urn:`
    /// id as it is. Nil for a bare id (`1`, `post-2`, a GUID without scheme) and for the composite
    /// keys of items without id (they hold line breaks).
    static func globalIdentity(ofID id: String) -> String? {
        guard !id.utf8.contains(where: { $0 <= 0x20 }) else { return nil }
        if hasPrefix(id, "tag:") || hasPrefix(id, "urn:") { return id.count > 4 ? id : nil }
        guard isAbsoluteURL(id) else { return nil }
        return Site.normalisedIdentity(id)
    }

    /// `scheme://something`, the scheme being letters, digits, `+`, `-`, `.` after a letter.
    static func isAbsoluteURL(_ value: String) -> Bool {
        var sawScheme = false
        var bytes = value.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                sawScheme = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard sawScheme else { return false }
            case UInt8(ascii: ":"):
                guard sawScheme, bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/"),
                    let first = bytes.next()
                else { return false }
                return first != UInt8(ascii: "/")
            default:
                return false
            }
        }
        return false
    }

    /// `http://…` or `https://…`, in any case.
    static func isHTTP(_ value: String) -> Bool {
        (hasPrefix(value, "http://") || hasPrefix(value, "https://")) && isAbsoluteURL(value)
    }

    /// A case-insensitive ASCII prefix test over the bytes.
    private static func hasPrefix(_ value: String, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { expected in
            var bytes = value.utf8.makeIterator()
            for byte in expected {
                guard let actual = bytes.next(), actual | 0x20 == byte | 0x20 else { return false }
            }
            return true
        }
    }

    private static func isBlank(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
