import FeedsiteParse
import FeedsiteSanitise
import Foundation

/// One feed after fetch → parse → sanitise: everything the site needs from it, with the raw
/// HTML already dropped (only sanitised content travels further).
package struct ReadFeed: Sendable, Hashable {
    /// One item and its identity across runs.
    package struct Entry: Sendable, Hashable {
        /// The item's identity within its feed, unique in the feed (`ItemIdentity.keys`).
        package var key: String
        /// Slug and feed fields are filled in when the site is assembled.
        package var item: SiteItem
        /// Whether the feed gave the item an id (then `key` is that id, and only it matches).
        package var hasID: Bool
        /// The key feedsite gave an item without id before keys told every such item apart (its
        /// link, else `title#position`): state saved then is matched by it.
        package var formerKey: String?

        package init(key: String, item: SiteItem, hasID: Bool = true, formerKey: String? = nil) {
            self.key = key
            self.item = item
            self.hasID = hasID
            self.formerKey = formerKey
        }
    }

    package var channel: ChannelInfo
    /// Items in feed order, already sanitised, one per post: an entry that repeats an earlier
    /// entry's id is the same post and is left out (counted in `readCount`).
    package var entries: [Entry]
    /// Entries in the document, repeated ids included.
    package var readCount: Int
    /// Parse warnings, as the parser wrote them (printed after `feed 'Name' (url): `).
    package var warnings: [String]

    package init(channel: ChannelInfo, entries: [Entry], warnings: [String], readCount: Int? = nil) {
        self.channel = channel
        self.entries = entries
        self.warnings = warnings
        self.readCount = readCount ?? entries.count
    }

    /// Entries left out because they repeat an earlier entry's id.
    package var repeatedCount: Int { readCount - entries.count }

    /// Sanitises every item of a parsed feed. Pure: no I/O.
    ///
    /// - Parameters:
    ///   - feed: the parsed feed (raw values).
    ///   - finalURL: the URL the feed was fetched from after redirects, the last base for relative URLs.
    package init(feed: Feed, finalURL: URL, sanitiser: HTMLSanitiser, excerptLength: Int) {
        let finalURL = Self.base(of: feed, readFrom: finalURL)
        var entries: [Entry] = []
        entries.reserveCapacity(feed.items.count)
        var warnings = feed.warnings
        let ids = ItemIdentity.ids(of: feed.items)
        let keys = ItemIdentity.keys(of: feed.items, ids: ids)
        warnings += Self.sharedIDWarnings(feed.items, ids: ids)
        for (position, item) in feed.items.enumerated() {
            // A repeated id is the same post again: one entry stands for it.
            guard let key = keys[position] else { continue }
            let body = Self.sanitisedBody(of: item, finalURL: finalURL, sanitiser: sanitiser)
            let title = item.title.isEmpty ? "Untitled item \(position + 1)" : item.title
            let link = ItemIdentity.link(of: item, feedURL: finalURL)
            if let omission = body.omission {
                // The item is kept, and its page links to the original.
                let located = "item \(position + 1) '\(title)'" + (link.map { " (\($0))" } ?? "")
                warnings.append("\(located): content left out: \(omission)")
            }
            let siteItem = SiteItem(
                slug: "", feedSlug: "", feedName: "", title: title,
                link: link,
                authors: item.authors.compactMap { $0.name ?? $0.email },
                date: item.published ?? item.updated, content: body.html,
                excerpt: HTMLSanitiser.excerpt(body.plainText, maxLength: excerptLength),
                categories: item.categories, enclosures: item.enclosures,
                image: ItemImage.choose(
                    own: item.image?.url, enclosures: item.enclosures, content: body.html, base: finalURL),
                wordCount: SiteItem.wordCount(body.plainText))
            let hasID = ids[position] != nil
            entries.append(
                Entry(
                    key: key, item: siteItem, hasID: hasID,
                    formerKey: hasID ? nil : ItemIdentity.formerKey(of: item, position: position)))
        }
        let description = feed.description.map {
            HTMLSanitiser.excerpt(sanitiser.sanitise(html: $0, baseURL: finalURL).plainText, maxLength: 500)
        }
        self.init(
            channel: ChannelInfo(
                title: feed.title, description: description?.isEmpty == true ? nil : description,
                siteLink: feed.link.flatMap { URLPolicy.resolve($0, against: finalURL, for: .link) },
                language: feed.language.flatMap(LanguageTag.normalised),
                image: feed.image.flatMap { URLPolicy.resolve($0.url, against: finalURL, for: .image) },
                feedLink: feed.feedLink.flatMap { Self.webURL($0, against: finalURL) }),
            entries: entries, warnings: Self.groupingRepeats(warnings).map(Self.shortened), readCount: feed.items.count)
    }

    /// One warning per id that entries linking to different pages share (`ItemIdentity.ids`), so
    /// the feed's owner hears of it: those entries are each shown as a post without id.
    static func sharedIDWarnings(_ items: [FeedItem], ids: [String?]) -> [String] {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        for (position, item) in items.enumerated() where ids[position] == nil {
            guard let id = ItemIdentity.id(of: item) else { continue }
            if positions[id] == nil { order.append(id) }
            positions[id, default: []].append(position + 1)
        }
        return order.map { id in
            let items = positions[id] ?? []
            let named =
                items.count > 5 ? "\(items.count) items" : "items " + items.map(String.init).joined(separator: ", ")
            return "\(named) share the id '\(id)' but link to different pages: each is shown as its own post,"
                + " known by its link; each post needs an id of its own — tell the feed's owner"
        }
    }

    /// The longest warning kept whole, in Unicode scalars: a warning quotes what the feed wrote (an
    /// encoding label, a tag name, a title), and a feed must not fill the status page, which is
    /// bounded like every page, with one quote.
    static let warningLength = 1_000

    /// `warning`, cut to `warningLength` Unicode scalars and `…` when longer (scalars, not
    /// characters: one character can hold millions of combining marks).
    static func shortened(_ warning: String) -> String {
        let scalars = warning.unicodeScalars
        guard scalars.count > warningLength else { return warning }
        return String(String.UnicodeScalarView(scalars.prefix(warningLength))) + "…"
    }

    /// How many warnings of one kind are kept word for word: the rest of that kind become one line.
    static let repeatsShown = 3

    /// `warnings` with the repeats of each kind past the `repeatsShown`th left out and counted in a
    /// line after the last one kept: an unreadable date on each of 5,000 items is three lines and
    /// "… and 4,997 more warnings like the one above", so the other kinds stay in sight (the
    /// terminal prints 20 lines a feed). Two warnings are of one kind when they differ only in
    /// numbers and quoted text. `feedsite parse` still lists every one.
    static func groupingRepeats(_ warnings: [String]) -> [String] {
        guard warnings.count > repeatsShown else { return warnings }
        func kind(_ warning: String) -> String {
            var shape = ""
            var isQuoted = false
            var lastWasDigit = false
            for character in warning {
                if character == "'" {
                    isQuoted.toggle()
                    shape.append(character)
                } else if isQuoted {
                    continue
                } else if character.isASCII, character.isNumber {
                    if !lastWasDigit { shape.append("#") }
                    lastWasDigit = true
                    continue
                } else {
                    shape.append(character)
                }
                lastWasDigit = false
            }
            return shape
        }
        let kinds = warnings.map(kind)
        var totals: [String: Int] = [:]
        for kind in kinds { totals[kind, default: 0] += 1 }
        guard totals.values.contains(where: { $0 > repeatsShown + 1 }) else { return warnings }
        var seen: [String: Int] = [:]
        var grouped: [String] = []
        for (warning, kind) in zip(warnings, kinds) {
            let total = totals[kind] ?? 0
            let index = seen[kind, default: 0]
            seen[kind] = index + 1
            // A kind with one more than shown is listed whole: a summary line would save nothing.
            guard total > repeatsShown + 1 else {
                grouped.append(warning)
                continue
            }
            if index < repeatsShown { grouped.append(warning) }
            if index == repeatsShown - 1 {
                grouped.append(
                    "… and \(total - repeatsShown) more warnings like the one above (`feedsite parse` lists every one)")
            }
        }
        return grouped
    }

    /// The base of a feed's relative URLs: the URL it was read from after redirects. A local file
    /// has no address on the web, so its relative references are resolved against the address the
    /// feed gives itself, else its web site (`FeedParser.webBase`), as the parser resolved them.
    static func base(of feed: Feed, readFrom finalURL: URL) -> URL {
        guard finalURL.isFileURL else { return finalURL }
        return FeedParser.webBase(of: feed) ?? finalURL
    }

    /// `value` as an absolute http(s) URL, or nil.
    static func webURL(_ value: String, against base: URL?) -> String? {
        guard let resolved = URLPolicy.resolve(value, against: base, for: .link),
            let scheme = URL(string: resolved)?.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return resolved
    }

    /// An item's body: its content, else its description, as HTML or plain text as the feed said,
    /// with relative URLs resolved against the content's `xml:base`, else the item's link, else
    /// the feed's URL.
    package static func sanitisedBody(of item: FeedItem, finalURL: URL?, sanitiser: HTMLSanitiser) -> SanitisedContent {
        let base = item.contentBase.flatMap(URL.init(string:)) ?? item.link.flatMap(URL.init(string:)) ?? finalURL
        let (text, kind): (String?, FeedItem.TextKind) =
            item.content?.isEmpty == false ? (item.content, item.contentKind) : (item.description, item.descriptionKind)
        guard let text, !text.isEmpty else { return .empty }
        return kind == .html
            ? sanitiser.sanitise(html: text, baseURL: base) : sanitiser.sanitise(plainText: text, baseURL: base)
    }

}
