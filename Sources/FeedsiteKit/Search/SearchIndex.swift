import FeedsiteShared
import Foundation

/// The search stage: after the pages are rendered, the items shown are handed to Pagefind and its
/// bundles go into the site's `pagefind/` folder, beside `search/index.html`, whose script queries
/// them in the browser.
///
/// **Bounded records, several to a page.** What is indexed of an item is what a reader searches
/// for: its title, the first `contentWords` words of its text, its feed's name, its authors and its
/// categories. Pagefind's cost is about 0.3 ms per page it indexes plus a few microseconds per
/// word, and its memory grows with the words: so the words are bounded, and `itemsPerPage` items
/// share one Pagefind page, each under a heading Pagefind makes a sub-result of (`records`).
///
/// **Shards.** The items are split by date into shards of at most `maxShardItems` (`shards`): a
/// year, else its months, else runs of days of a month, so each shard depends only on the items of
/// its own period. Each shard is its own Pagefind index in `pagefind/<shard>/`, indexed by up to
/// one Pagefind process per core, and `pagefind/shards.json` lists them for the search page, which
/// joins them with Pagefind's `mergeIndex`. A shard whose records are unchanged is carried over
/// from the live site as it is (its digest and files are remembered in the state folder,
/// `search-index.json`), so a build with new items re-indexes only the shards they fall in, and a
/// build that changed nothing searched re-indexes nothing.
struct SearchIndex: Sendable {
    let service: PagefindService

    /// The bundles' folder in the site.
    static let folder = "pagefind/"
    /// The list of shards, newest first, read by `assets/search.js`.
    static let shardList = "pagefind/shards.json"
    /// How many words of an item's text are indexed besides its title, feed, authors and
    /// categories (the opening of an article says what it is about; the bound keeps indexing
    /// 30,000 items within the time of the build itself).
    static let contentWords = 30
    /// The most items in one shard (a day with more is still one shard).
    static let maxShardItems = 4000
    /// Bundle files the search page does not use (Pagefind's own user interfaces).
    static let unusedPrefixes = ["pagefind-ui", "pagefind-modular-ui", "pagefind-component-ui", "pagefind-highlight"]

    /// Pagefind when `search` is on and it is installed. When it is on but Pagefind is missing,
    /// nil and the one warning to print; `configuration.search` is then turned off, so the pages
    /// (and the build fingerprint) have no search.
    static func prepare(
        _ configuration: inout SiteConfiguration, locate: () -> URL? = { PagefindService.locate() }
    ) -> (SearchIndex?, Diagnostic?) {
        guard configuration.search else { return (nil, nil) }
        guard let executable = locate() else {
            configuration.search = false
            return (
                nil,
                .warning(
                    "search: Pagefind is not installed, so this build publishes no search page; install it "
                        + "(make deps, or pip install pagefind-bin and put pagefind on PATH, or set "
                        + "FEEDSITE_PAGEFIND), or set 'search: false' in feeds.yml to turn search off")
            )
        }
        return (SearchIndex(service: PagefindService(executable: executable)), nil)
    }

    /// One group of items indexed together, named after the period it covers (`2024`, `2024-05`,
    /// `2024-05-14`: a run of days starting that day; `undated`).
    struct Shard: Sendable {
        var name: String
        var items: [SiteItem]
    }

    /// The items split into shards, newest period first: a year with at most `limit` items is one
    /// shard, else each of its months is, and a month with more is cut into runs of whole days of at
    /// most `limit` items from its first day. Days are the site's time zone's; items without a date
    /// (or outside 1900–9999) are the `undated` shard (cut like a month's days if needed).
    static func shards(_ site: Site, limit: Int = maxShardItems) -> [Shard] {
        let zone = site.configuration.timeZone
        var byDay: [Int: [SiteItem]] = [:]  // yyyymmdd (0: undated) → items, in the site's order
        for item in site.items {
            var key = 0
            if let date = item.date, let time = CivilTime(date, offset: zone.secondsFromGMT(for: date)) {
                key = time.year * 10_000 + time.month * 100 + time.day
            }
            byDay[key, default: []].append(item)
        }
        func count(_ days: [Int]) -> Int { days.reduce(0) { $0 + (byDay[$1]?.count ?? 0) } }
        func runs(_ days: [Int], name: (Int) -> String) -> [Shard] {
            var shards: [Shard] = []
            var run: [Int] = []
            func close() {
                guard let first = run.first else { return }
                shards.append(Shard(name: name(first), items: run.flatMap { byDay[$0] ?? [] }))
                run = []
            }
            for day in days {
                if !run.isEmpty, count(run) + count([day]) > limit { close() }
                run.append(day)
            }
            close()
            return shards
        }
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        func dayName(_ key: Int) -> String { "\(key / 10_000)-\(two(key / 100 % 100))-\(two(key % 100))" }
        var shards: [Shard] = []
        let years = Dictionary(grouping: byDay.keys.filter { $0 != 0 }) { $0 / 10_000 }
        for (year, days) in years.sorted(by: { $0.key < $1.key }) {
            if count(days) <= limit {
                shards.append(Shard(name: "\(year)", items: days.sorted().flatMap { byDay[$0] ?? [] }))
                continue
            }
            let months = Dictionary(grouping: days) { $0 / 100 }
            for (month, monthDays) in months.sorted(by: { $0.key < $1.key }) {
                if count(monthDays) <= limit {
                    shards.append(
                        Shard(
                            name: "\(year)-\(two(month % 100))", items: monthDays.sorted().flatMap { byDay[$0] ?? [] }))
                } else {
                    shards += runs(monthDays.sorted(), name: dayName)
                }
            }
        }
        if let undated = byDay[0] {
            let parts = stride(from: 0, to: undated.count, by: max(1, limit)).map {
                Array(undated[$0..<min(undated.count, $0 + max(1, limit))])
            }
            for (index, part) in parts.enumerated() {
                shards.append(Shard(name: index == 0 ? "undated" : "undated-\(index + 1)", items: part))
            }
        }
        return shards.reversed()
    }

    /// The shard's items as Pagefind pages of at most `itemsPerPage` items each, in the given
    /// order, made on all cores. In a page every item is a heading whose `id` names it (`anchor`),
    /// followed by the first `contentWords` words of its excerpt (the plain text the lists show,
    /// made when the feed was read: no HTML is parsed again) and a line
    /// with its feed, authors and categories; Pagefind makes each heading a sub-result, which the
    /// search page lists as the item. Everything from a feed is escaped.
    static func records(
        _ items: [SiteItem], shard: String, configuration: SiteConfiguration
    )
        -> [PagefindService.Record]
    {
        let language = configuration.language.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        let zone = configuration.timeZone
        let sections = items.concurrentMap { item in
            let words = item.excerpt.split(maxSplits: contentWords, whereSeparator: \.isWhitespace).prefix(contentWords)
            let about = ([item.feedName] + item.authors + item.categories).filter { !$0.isEmpty }
            var day = ""
            if let date = item.date, let time = CivilTime(date, offset: zone.secondsFromGMT(for: date)) {
                day = RenderContext.dayName(time)
            }
            let id = anchor(
                path: PagePaths.item(feedSlug: item.feedSlug, slug: item.slug), feed: item.feedName, day: day)
            var html = "<section><h2 id=\"\(id)\">\(XMLEscaping.text(item.title))</h2>"
            if !words.isEmpty { html += "<p>\(XMLEscaping.text(words.joined(separator: " ")))</p>" }
            html += "<p>\(XMLEscaping.text(about.joined(separator: " · ")))</p></section>"
            return html
        }
        let safeLanguage = String(language.unicodeScalars.filter { $0.properties.isAlphabetic && $0.isASCII })
        return stride(from: 0, to: sections.count, by: itemsPerPage).map { start in
            let page = sections[start..<min(sections.count, start + itemsPerPage)].joined()
            return PagefindService.Record(
                url: "search/\(shard)/\(start / itemsPerPage + 1)",
                html: "<html lang=\"\(safeLanguage.isEmpty ? "en" : safeLanguage)\"><body>\(page)</body></html>")
        }
    }

    /// How many items one Pagefind page holds (Pagefind's cost is mostly per page: about 0.3 ms,
    /// against a few microseconds per word).
    static let itemsPerPage = 25

    /// An item's heading `id`: its page, its feed and its day, percent-encoded and joined by `|`
    /// (no space, quote, `&` or `<`; `assets/search.js` splits it back).
    static func anchor(path: String, feed: String, day: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~/")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return [path, feed, day].map(encode).joined(separator: "|")
    }

    /// What a shard's index is made from, digested from the site model itself (so that an
    /// unchanged shard costs no text extraction): every field `records` reads, the settings it
    /// uses, and the Pagefind executable (its path and size, standing in for its version).
    static func digest(_ shard: Shard, configuration: SiteConfiguration, executable: URL) -> String {
        var fingerprint = BuildFingerprint()
        let size = (try? FileManager.default.attributesOfItem(atPath: executable.path)[.size] as? Int) ?? 0
        fingerprint.add("\(executable.path) \(size) \(contentWords) \(itemsPerPage) \(shard.name)")
        fingerprint.add(configuration.language)
        fingerprint.add(configuration.timeZone.identifier)
        for item in shard.items {
            fingerprint.add(item.feedSlug)
            fingerprint.add(item.slug)
            fingerprint.add(item.title)
            fingerprint.add(item.feedName)
            fingerprint.add(item.authors.joined(separator: "\u{1}"))
            fingerprint.add(item.categories.joined(separator: "\u{1}"))
            fingerprint.add(item.date.map { "\($0.timeIntervalSince1970)" } ?? "-")
            fingerprint.add(item.excerpt)
        }
        return fingerprint.text
    }

    /// Indexes `site` into `staging`, shard by shard (a shard whose records are unchanged is
    /// carried over), remembering what it wrote in `stateDirectory`. A Pagefind failure is a
    /// warning, never a failed build: the shard's previous index is kept when the live site has it.
    func build(
        _ site: Site, into staging: inout SiteWriter.Staging, liveSite: URL, stateDirectory: URL
    ) async throws(SiteWriter.WriteError) -> [Diagnostic] {
        let manifestFile = stateDirectory.appendingPathComponent(Manifest.fileName)
        let previous = Manifest.read(manifestFile)?.shards ?? [:]
        let configuration = site.configuration
        let executable = service.executable
        let shards = Self.shards(site)
        var kept: [String: Manifest.Shard] = [:]
        var stale: [(shard: Shard, digest: String)] = []
        for shard in shards {
            let digest = Self.digest(shard, configuration: configuration, executable: executable)
            if let old = previous[shard.name], old.digest == digest, old.isPresent(in: liveSite) {
                kept[shard.name] = old
            } else {
                stale.append((shard, digest))
            }
        }
        let indexed = await index(stale, configuration: configuration)
        var diagnostics: [Diagnostic] = []
        var published: [String: Manifest.Shard] = [:]
        for shard in shards {
            if let old = kept[shard.name] {
                try await old.carryOver(from: liveSite, into: &staging)
                published[shard.name] = old
                continue
            }
            guard let result = indexed[shard.name] else { continue }
            switch result {
            case .success(let (files, digest, refused, count)):
                try await staging.add(files)
                published[shard.name] = Manifest.Shard(digest: digest, files: files.mapValues(\.count))
                if let first = refused.first {
                    diagnostics.append(
                        .warning(
                            "search: Pagefind left out \(refused.count) of the \(count) pages of up to "
                                + "\(Self.itemsPerPage) items of shard \(shard.name), such as \(first)"))
                }
            case .failure(let error):
                if let old = previous[shard.name], old.isPresent(in: liveSite) {
                    try await old.carryOver(from: liveSite, into: &staging)
                    published[shard.name] = old
                    diagnostics.append(
                        .warning("search: \(error); the previous search index of \(shard.name) is kept"))
                } else {
                    diagnostics.append(
                        .warning(
                            "search: \(error); the items of \(shard.name) cannot be searched until a build indexes them"
                        ))
                }
            }
        }
        let names = shards.map(\.name).filter { published[$0] != nil }
        let list = (try? JSONEncoder().encode(["shards": names])) ?? Data("{\"shards\":[]}".utf8)
        try await staging.add([Self.shardList: list])
        Manifest(shards: published).write(to: manifestFile)
        return diagnostics
    }

    typealias Indexed = (files: [String: Data], digest: String, refused: [String], count: Int)

    /// Indexes the shards with one Pagefind process per core at most; each shard's files by their
    /// site path, or why it failed.
    private func index(
        _ shards: [(shard: Shard, digest: String)], configuration: SiteConfiguration
    ) async -> [String: Result<Indexed, PagefindService.Failure>] {
        let service = self.service
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (String, Result<Indexed, PagefindService.Failure>).self) { group in
            var results: [String: Result<Indexed, PagefindService.Failure>] = [:]
            var pending = shards[...]
            func start(_ next: (shard: Shard, digest: String)) {
                group.addTask {
                    let records = Self.records(next.shard.items, shard: next.shard.name, configuration: configuration)
                    do throws(PagefindService.Failure) {
                        let (files, refused) = try await service.index(records)
                        var bundle: [String: Data] = [:]
                        for (path, data) in files where !Self.unusedPrefixes.contains(where: { path.hasPrefix($0) }) {
                            bundle[Self.folder + next.shard.name + "/" + path] = data
                        }
                        return (next.shard.name, .success((bundle, next.digest, refused, records.count)))
                    } catch {
                        return (next.shard.name, .failure(error))
                    }
                }
            }
            for _ in 0..<width {
                if let next = pending.popFirst() { start(next) }
            }
            for await (name, result) in group {
                results[name] = result
                if let next = pending.popFirst() { start(next) }
            }
            return results
        }
    }

    /// What each shard's last index was made from and the files it wrote (site path → size).
    struct Manifest: Codable {
        static let fileName = "search-index.json"

        struct Shard: Codable {
            var digest: String
            var files: [String: Int]

            /// Whether every file is in `site` with its size (the index was published and is whole).
            func isPresent(in site: URL) -> Bool {
                !files.isEmpty
                    && files.allSatisfy { path, size in
                        PagefindService.isSafe(path)
                            && (try? FileManager.default.attributesOfItem(
                                atPath: site.appendingPathComponent(path).path)[.size] as? Int) == size
                    }
            }

            /// Adds the published files to the new site as they are (hard-linked).
            func carryOver(from site: URL, into staging: inout SiteWriter.Staging) async throws(SiteWriter.WriteError) {
                for path in files.keys.sorted() {
                    try await staging.addFile(copying: site.appendingPathComponent(path).path, as: path)
                }
            }
        }

        var shards: [String: Shard]

        static func read(_ file: URL) -> Manifest? {
            guard let data = try? Data(contentsOf: file) else { return nil }
            return try? JSONDecoder().decode(Manifest.self, from: data)
        }

        func write(to file: URL) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(self) else { return }
            // Only an optimisation: when it cannot be written, the next build indexes again.
            try? FileReplacement.replace(file, with: data)
        }

        /// Every file of every shard (site path → size).
        var files: [String: Int] {
            shards.values.reduce(into: [:]) { all, shard in all.merge(shard.files) { first, _ in first } }
        }
    }
}
