import Foundation

extension FeedParser {
    /// The most items read from one feed document. A feed lists its newest first, and no real one
    /// comes near (long podcast feeds have a few thousand); past it a stranger's feed of tiny items
    /// (a million `<item/>` in 7 MB) would cost gigabytes and a page each.
    package static let maxItems = 10_000

    /// The warning for a document that has `total` items, more than `maxItems`.
    static func tooManyItemsWarning(total: Int) -> String {
        "the feed has \(total) items; feedsite reads the first \(maxItems) of a feed (feeds list their newest"
            + " first): the other \(total - maxItems) were left out"
    }

    /// The most categories kept on one item (the first, in document order). Real items have a
    /// handful (30 is twice the most among the real captures); with category pages each category
    /// is a page listing its items with all of theirs, so thousands on one item would cost
    /// gigabytes.
    package static let maxCategories = 30

    /// The most authors, and the most enclosures, kept on one item (the first, in document order;
    /// repeated enclosure links once). Each is printed on the item's page: 100,000 copies of one
    /// `<enclosure>` made a 22 MB page. A saved state is held to the same (`StateLimits.listCount`).
    package static let maxListLength = 1_000

    /// The most characters of author names and e-mail addresses kept on one item, all authors
    /// together (the first authors that fit). Every list an item is in prints them in its summary:
    /// a thousand names of a thousand characters made one feed's list pages pass the page limit
    /// and stop the build. Forty names of a preprint take about 600.
    package static let maxAuthorCharacters = 10_000

    /// How many of an item's authors, in order, fit in `maxAuthorCharacters` together, given the
    /// characters of each (what a fresh read keeps, and what a restored state is cut to).
    package static func authorsFitting(_ characters: some Sequence<Int>) -> Int {
        var total = 0
        var count = 0
        for each in characters {
            total += each
            guard total <= maxAuthorCharacters else { break }
            count += 1
        }
        return count
    }

    /// The longest values kept, in characters. A title, a name or a link is printed on many pages
    /// (a feed's name beside each of its items in every list, an item's title on its neighbours'
    /// pages): a 1 MB title would be written thousands of times. Real ones are far shorter.
    package enum MaxLength {
        /// Feed, item and image titles; longer ones are cut, with "…".
        package static let title = 500
        /// Author names (a preprint server's one string of forty names reaches 250) and e-mail
        /// addresses, categories (those over 200 get no page anyway), copyright and generator
        /// notes, MIME types.
        package static let name = 1_000
        package static let description = 2_000
        /// Links (an item's, an image's, an enclosure's, a feed's own): longer ones are dropped, not
        /// cut (a cut URL leads elsewhere). Browsers and servers stop at about this length.
        package static let url = 8_192
    }
}

extension Feed {
    /// Holds the feed to `FeedParser.maxCategories` and `FeedParser.MaxLength`, with one warning for
    /// each kind of value that was cut or dropped.
    mutating func limitSizes() {
        var limiter = SizeLimiter()
        title = limiter.cut(title, to: FeedParser.MaxLength.title, ("title", "titles"))
        description = description.map {
            limiter.cut($0, to: FeedParser.MaxLength.description, ("description", "descriptions"))
        }
        copyright = copyright.map {
            limiter.cut($0, to: FeedParser.MaxLength.name, ("copyright note", "copyright notes"))
        }
        generator = generator.map {
            limiter.cut($0, to: FeedParser.MaxLength.name, ("generator name", "generator names"))
        }
        link = limiter.url(link)
        feedLink = limiter.url(feedLink)
        authors = authors.map { limiter.person($0) }
        publisher = publisher.map { limiter.person($0) }
        image = limiter.image(image)
        categories = limiter.categories(categories, item: nil)
        for index in items.indices {
            limiter.item(&items[index], number: index + 1)
        }
        warnings += limiter.warnings
    }
}

/// Counts what `Feed.limitSizes` cut or dropped, for its warnings.
private struct SizeLimiter {
    /// A kind of value, as one and as several ("title", "titles").
    typealias Kind = (one: String, several: String)

    /// By kind, in the order first met: how many were cut, and the limit.
    private var cuts: [(kind: Kind, count: Int, limit: Int)] = []
    private var droppedURLs = 0
    /// Items whose authors' names passed `FeedParser.maxAuthorCharacters`: how many, and the first.
    private var authorTextCuts = (items: 0, first: 0)
    /// Items whose categories, authors or enclosures were cut, by kind in the order first met: how
    /// many, the limit, and the longest list.
    private var listCuts: [(kind: String, limit: Int, items: Int, most: (item: Int, count: Int))] = []

    mutating func cut(_ text: String, to limit: Int, _ kind: Kind) -> String {
        // A string of at most `limit` bytes has at most `limit` characters: the usual case, counted
        // without walking the characters.
        guard text.utf8.count > limit, text.count > limit else { return text }
        if let index = cuts.firstIndex(where: { $0.kind.several == kind.several }) {
            cuts[index].count += 1
        } else {
            cuts.append((kind, 1, limit))
        }
        var kept = text.prefix(limit - 1)
        // At a word boundary when there is one in the second half.
        if let space = kept.lastIndex(where: \.isWhitespace),
            kept.distance(from: kept.startIndex, to: space) >= limit / 2
        {
            kept = kept[..<space]
        }
        return kept + "…"
    }

    mutating func url(_ value: String?) -> String? {
        guard let value, value.utf8.count > FeedParser.MaxLength.url else { return value }
        droppedURLs += 1
        return nil
    }

    mutating func person(_ person: Person) -> Person {
        Person(
            name: person.name.map { cut($0, to: FeedParser.MaxLength.name, ("author name", "author names")) },
            email: person.email.map {
                cut($0, to: FeedParser.MaxLength.name, ("author e-mail address", "author e-mail addresses"))
            },
            uri: url(person.uri))
    }

    mutating func image(_ image: FeedImage?) -> FeedImage? {
        guard let image, let imageURL = url(image.url) else { return nil }
        return FeedImage(
            url: imageURL, title: image.title.map { cut($0, to: FeedParser.MaxLength.title, ("title", "titles")) },
            link: url(image.link))
    }

    mutating func categories(_ categories: [String], item: Int?) -> [String] {
        let kept = item.map { list(categories, "categories", limit: FeedParser.maxCategories, item: $0) } ?? categories
        return kept.map { cut($0, to: FeedParser.MaxLength.name, ("category", "categories")) }
    }

    mutating func item(_ item: inout FeedItem, number: Int) {
        item.title = cut(item.title, to: FeedParser.MaxLength.title, ("title", "titles"))
        item.link = url(item.link)
        item.contentBase = url(item.contentBase)
        item.categories = categories(item.categories, item: number)
        item.authors = list(item.authors, "authors", item: number).map { person($0) }
        let fitting = FeedParser.authorsFitting(
            item.authors.lazy.map { ($0.name?.count ?? 0) + ($0.email?.count ?? 0) })
        if fitting < item.authors.count {
            if authorTextCuts.items == 0 { authorTextCuts.first = number }
            authorTextCuts.items += 1
            item.authors.removeSubrange(fitting...)
        }
        item.image = image(item.image)
        var links: Set<String> = []
        let enclosures = item.enclosures.filter { links.insert($0.url).inserted }
        item.enclosures = list(enclosures, "enclosures", item: number).compactMap { enclosure in
            guard let enclosureURL = url(enclosure.url) else { return nil }
            return Enclosure(
                url: enclosureURL, length: enclosure.length,
                type: enclosure.type.flatMap { $0.utf8.count > FeedParser.MaxLength.name ? nil : $0 })
        }
    }

    /// The first `limit` of `values`, counting a cut for the warnings.
    private mutating func list<Element>(
        _ values: [Element], _ kind: String, limit: Int = FeedParser.maxListLength, item: Int
    ) -> [Element] {
        guard values.count > limit else { return values }
        if let index = listCuts.firstIndex(where: { $0.kind == kind }) {
            listCuts[index].items += 1
            if values.count > listCuts[index].most.count { listCuts[index].most = (item, values.count) }
        } else {
            listCuts.append((kind, limit, 1, (item, values.count)))
        }
        return Array(values.prefix(limit))
    }

    /// One warning per kind of list cut, then one per kind of value cut.
    var warnings: [String] {
        var warnings: [String] = []
        for cut in listCuts {
            warnings.append(
                cut.items == 1
                    ? "item \(cut.most.item) has \(cut.most.count) \(cut.kind); its first \(cut.limit) are kept"
                    : "\(cut.items) items have more than \(cut.limit) \(cut.kind) (item \(cut.most.item):"
                        + " \(cut.most.count)); the first \(cut.limit) of each are kept")
        }
        for cut in cuts {
            warnings.append(
                (cut.count == 1 ? "1 \(cut.kind.one)" : "\(cut.count) \(cut.kind.several)")
                    + " longer than \(cut.limit) characters cut to that length")
        }
        if authorTextCuts.items > 0 {
            let items =
                authorTextCuts.items == 1
                ? "item \(authorTextCuts.first) lists authors"
                : "\(authorTextCuts.items) items (the first: item \(authorTextCuts.first)) list authors"
            warnings.append(
                "\(items) whose names pass \(FeedParser.maxAuthorCharacters) characters in all; the first authors "
                    + "that fit are kept")
        }
        if droppedURLs > 0 {
            warnings.append(
                "\(droppedURLs) link\(droppedURLs == 1 ? "" : "s") longer than \(FeedParser.MaxLength.url) characters"
                    + " left out")
        }
        return warnings
    }
}
