import Foundation

/// The search stage: after the pages are rendered, every item shown becomes one Pagefind record
/// (its title and the text of its content) and Pagefind's bundle goes into the site's `pagefind/`
/// folder, beside `search/index.html`, whose script queries it in the browser.
///
/// Indexing is skipped when nothing searched changed: the records' digest and the bundle's files
/// are remembered in the state folder (`search-index.json`), and when the digest is the same and
/// the live site still holds those files, they are carried over as they are. (A build that
/// changes nothing at all is skipped before this stage.)
struct SearchIndex: Sendable {
    let service: PagefindService

    /// The bundle's folder in the site.
    static let folder = "pagefind/"
    /// How much of an item's text is indexed (a long article is found by its first few thousand
    /// words; the bundle stays proportionate).
    static let maxContentCharacters = 20_000

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

    /// One record per item shown, in the site's order, on all cores (each item's text is taken
    /// from its sanitised HTML).
    static func records(_ site: Site) -> [PagefindService.Record] {
        let language = site.configuration.language.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        let zone = site.configuration.timeZone
        return site.items.concurrentMap { item in
            var text = item.title
            let body = FeedParser.FeedText.plainText(fromHTML: item.content.html)
            if !body.isEmpty { text += "\n\n" + body }
            if text.count > maxContentCharacters { text = String(text.prefix(maxContentCharacters)) }
            var meta = ["title": item.title, "feed": item.feedName]
            if let date = item.date, let time = CivilTime(date, offset: zone.secondsFromGMT(for: date)) {
                meta["date"] = RenderContext.dayName(time)
            }
            return PagefindService.Record(
                url: PagePaths.item(feedSlug: item.feedSlug, slug: item.slug), content: text, language: language,
                meta: meta)
        }
    }

    /// What the index is made from, digested from the site model itself (so that an unchanged
    /// index costs no text extraction): every field `records` reads, the settings it uses, and
    /// the Pagefind executable (its path and size, standing in for its version).
    static func digest(_ site: Site, executable: URL) -> String {
        var fingerprint = BuildFingerprint()
        let size = (try? FileManager.default.attributesOfItem(atPath: executable.path)[.size] as? Int) ?? 0
        fingerprint.add("\(executable.path) \(size) \(maxContentCharacters)")
        fingerprint.add(site.configuration.language)
        fingerprint.add(site.configuration.timeZone.identifier)
        for item in site.items {
            fingerprint.add(item.feedSlug)
            fingerprint.add(item.slug)
            fingerprint.add(item.title)
            fingerprint.add(item.feedName)
            fingerprint.add(item.date.map { "\($0.timeIntervalSince1970)" } ?? "-")
            fingerprint.add(item.content.html)
        }
        return fingerprint.text
    }

    /// Indexes `site` into `staging` (or carries the previous index over), remembering what it
    /// wrote in `stateDirectory`. A Pagefind failure is a warning, never a failed build: the
    /// previous index is kept when the live site has it.
    func build(
        _ site: Site, into staging: inout SiteWriter.Staging, liveSite: URL, stateDirectory: URL
    ) async throws(SiteWriter.WriteError) -> [Diagnostic] {
        let digest = Self.digest(site, executable: service.executable)
        let manifestFile = stateDirectory.appendingPathComponent(Manifest.fileName)
        let previous = Manifest.read(manifestFile)
        if let previous, previous.digest == digest, previous.isPresent(in: liveSite) {
            try await previous.carryOver(from: liveSite, into: &staging)
            return []
        }
        let records = Self.records(site)
        let files: [String: Data]
        let refused: [String]
        do {
            (files, refused) = try await service.index(records)
        } catch {
            if let previous, previous.isPresent(in: liveSite) {
                try await previous.carryOver(from: liveSite, into: &staging)
                return [.warning("search: \(error); the previous search index is kept")]
            }
            return [.warning("search: \(error); the search page has no index until a build indexes the items")]
        }
        var bundle: [String: Data] = [:]
        for (path, data) in files { bundle[Self.folder + path] = data }
        try await staging.add(bundle)
        Manifest(digest: digest, files: bundle.mapValues(\.count)).write(to: manifestFile)
        guard let first = refused.first else { return [] }
        return [.warning("search: Pagefind left out \(refused.count) of \(records.count) items, such as \(first)")]
    }

    /// What the last index was made from and the files it wrote (site path → size).
    struct Manifest: Codable {
        static let fileName = "search-index.json"

        var digest: String
        var files: [String: Int]

        static func read(_ file: URL) -> Manifest? {
            guard let data = try? Data(contentsOf: file) else { return nil }
            return try? JSONDecoder().decode(Manifest.self, from: data)
        }

        func write(to file: URL) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(self) else { return }
            // Only an optimisation: when it cannot be written, the next build indexes again.
            try? data.write(to: file, options: .atomic)
        }

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
}
