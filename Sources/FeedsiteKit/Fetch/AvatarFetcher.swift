import FeedsiteImage
import FeedsiteParse
import Foundation

/// What the avatar step did for one feed this run (`FeedRun.avatar`).
package struct AvatarRun: Sendable, Hashable {
    /// What to remember about the feed's icon; nil: nothing (the feed names no image or home page).
    package var state: AvatarState?
    /// The avatar to publish, new or read back from the last site; nil: the monogram.
    package var image: AvatarImage?
    /// Why no new icon was taken this run (`--verbose`), never an error of the feed.
    package var note: String?
    /// Set when libvips could not be loaded (why): the build warns once.
    package var libraryUnavailable: String?

    package init(
        state: AvatarState?, image: AvatarImage?, note: String? = nil, libraryUnavailable: String? = nil
    ) {
        self.state = state
        self.image = image
        self.note = note
        self.libraryUnavailable = libraryUnavailable
    }
}

/// Feed avatars, made in the Fetch stage as each feed is read: each feed's icon (its image, else
/// its home page's `<link rel=icon>`, else the home page host's `/favicon.ico`) downloaded through
/// the feed fetcher (its client, limits, redirects, User-Agent) and shrunk by libvips
/// (`AvatarImage`), at most `per_host` at once from one host (`AvatarQueue`).
///
/// Not on every build: an icon is asked for again once a day (`AvatarState.revalidationInterval`)
/// with its validators, or at once when the feed names another image or home page; a 304 or a
/// failure keeps the avatar made before, read back from the last site (`liveSite`). Only feeds read
/// from the network this run qualify: a local feed file, `--offline` and a feed that failed make
/// no request, and keep what they had.
struct AvatarFetcher: Sendable {
    /// The site the last build published, where the avatars it wrote are read back.
    let liveSite: URL
    let library: AvatarImage.Library
    let now: Date
    /// Icons downloaded at once (`--concurrency`).
    let concurrency: Int
    /// Icons downloaded at once from one host (`per_host`).
    let perHostLimit: @Sendable (String) -> Int

    /// One feed's inputs.
    struct Job: Sendable {
        /// Whether the icon may be downloaded this run: a web feed that was fetched (200 or 304).
        var mayFetch: Bool
        /// The feed's image and home page (http(s) URLs, already checked).
        var image: String?
        var siteLink: String?
        /// The feed's own host (where it was fetched from, after redirects).
        var feedHost: String?
        var saved: AvatarState?
        var userAgent: String

        /// What the icon is chosen from: the feed's image, else its home page.
        var origin: String? { image ?? siteLink }

        /// Where its first request goes, when it may make any: the per-host limit's key.
        var host: String? { mayFetch ? origin.flatMap(URL.init(string:))?.host : nil }

        /// Whether there is anything to ask: an image, or a home page on the feed's own site.
        var hasCandidates: Bool {
            image != nil || AvatarFetcher.isSameSite(siteLink.flatMap(URL.init(string:))?.host, feedHost)
        }
    }

    /// The request's `Accept`: the formats libvips reads without its untrusted loaders.
    static let accept = "image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5,*/*;q=0.1"

    /// Every feed's avatar, by feed index, each begun as soon as its job arrives on `jobs` (as
    /// soon as its feed is read, while the others are still being fetched) and `AvatarQueue`
    /// lets it. nil for a feed whose job never came, or came after the build was cancelled.
    func avatars(for jobs: AsyncStream<(Int, Job)>, count: Int, fetcher: FeedFetcher) async -> [AvatarRun?] {
        enum Event: Sendable {
            case arrived(Int, Job)
            case allArrived
            case done(Int, AvatarRun, host: HostSlots.Host?)
        }
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        // Discarding: results come back as events, and a finished child is freed at once (a
        // plain task group keeps every finished child until it is awaited: +35 MiB at N=1000).
        return await withDiscardingTaskGroup { group in
            group.addTask {
                for await (index, job) in jobs { sink.yield(.arrived(index, job)) }
                sink.yield(.allArrived)
            }
            var queue = AvatarQueue(limit: concurrency)
            var waiting: [Int: Job] = [:]
            var runs = [AvatarRun?](repeating: nil, count: count)
            var isOpen = true
            // libvips is looked for only when an icon is to be downloaded, so a build that
            // downloads none (local feeds, `--offline`, within the day) neither loads it nor warns.
            var library: (checked: Bool, unavailable: String?) = (false, nil)
            for await event in events {
                switch event {
                case .arrived(let index, let job) where runs.indices.contains(index):
                    waiting[index] = job
                    queue.add(index, host: host(of: job))
                case .arrived:
                    break
                case .allArrived:
                    isOpen = false
                case .done(let index, let run, let host):
                    runs[index] = run
                    queue.finished(host: host)
                }
                while let index = queue.next(), let job = waiting.removeValue(forKey: index) {
                    if !library.checked, needsLibrary(job) { library = (true, self.library.unavailability()) }
                    let unavailable = library.unavailable
                    group.addTask {
                        let run = await avatar(for: job, unavailable: unavailable, fetcher: fetcher)
                        sink.yield(.done(index, run, host: host(of: job)))
                    }
                }
                if !isOpen, queue.isIdle { break }
            }
            sink.finish()
            return runs
        }
    }

    /// The host `job`'s first request goes to, with its `per_host` limit; nil when it makes none.
    private func host(of job: Job) -> HostSlots.Host? {
        job.host.map { HostSlots.Host(name: $0.lowercased(), limit: perHostLimit($0)) }
    }

    /// Whether `job` may download an icon this run: one is due or was never taken.
    private func needsLibrary(_ job: Job) -> Bool {
        guard job.mayFetch, job.hasCandidates, let origin = job.origin else { return false }
        return job.saved.map { $0.origin != origin || $0.isDue(at: now) || ($0.file != nil && !hasFile($0)) } ?? true
    }

    /// One feed's avatar: kept, revalidated, or chosen and downloaded anew.
    func avatar(for job: Job, unavailable: String?, fetcher: FeedFetcher) async -> AvatarRun {
        let saved = job.saved
        let previous = saved.flatMap(readBack)
        guard job.mayFetch, let origin = job.origin else {
            // No request this run: a feed fetched without any image or home page forgets its icon;
            // any other (local, offline, failed) keeps what it had.
            return job.mayFetch ? AvatarRun(state: nil, image: nil) : AvatarRun(state: saved, image: previous)
        }
        if let saved, saved.origin == origin, !saved.isDue(at: now), saved.file == nil || previous != nil {
            return AvatarRun(state: saved, image: previous)
        }
        if let unavailable {
            return AvatarRun(state: saved, image: previous, libraryUnavailable: unavailable)
        }
        // Due: the icon that was used is asked for again, with its validators.
        if let saved, saved.origin == origin, let source = saved.source.flatMap(URL.init(string:)), previous != nil {
            var state = saved
            state.checked = now
            state.note = nil
            switch await download(source, etag: saved.etag, lastModified: saved.lastModified, job, fetcher) {
            case .notModified:
                return AvatarRun(state: state, image: previous)
            case .image(let image, let etag, let lastModified):
                (state.etag, state.lastModified) = (etag, lastModified)
                return AvatarRun(state: state, image: image)
            case .failed(let reason):
                state.note = "kept the avatar made before: \(reason)"
                return AvatarRun(state: state, image: previous, note: state.note)
            }
        }
        // Chosen anew: the first candidate that gives an avatar. The home page is read only when
        // the feed's image gives none.
        var notes: [String] = []
        var tried: Set<String> = []
        for stage in 0..<2 {
            let candidates =
                stage == 0
                ? job.image.flatMap(URL.init(string:)).map { [$0] } ?? []
                : await pageIcons(job, fetcher: fetcher, notes: &notes)
            for candidate in candidates where tried.insert(candidate.absoluteString).inserted {
                switch await download(candidate, etag: nil, lastModified: nil, job, fetcher) {
                case .image(let image, let etag, let lastModified):
                    return AvatarRun(
                        state: AvatarState(
                            origin: origin, source: candidate.absoluteString, etag: etag, lastModified: lastModified,
                            checked: now),
                        image: image)
                case .notModified:
                    notes.append("\(candidate.absoluteString): HTTP 304 to a request without validators")
                case .failed(let reason):
                    notes.append(reason)
                }
            }
        }
        // None: the avatar made before stays (asked for again tomorrow), else the monogram.
        let reasons = notes.isEmpty ? "no icon found" : notes.joined(separator: "; ")
        let note = previous != nil ? "kept the avatar made before: \(reasons)" : "no avatar: \(reasons)"
        let state = AvatarState(
            origin: origin, source: previous != nil ? saved?.source : nil, etag: previous != nil ? saved?.etag : nil,
            lastModified: previous != nil ? saved?.lastModified : nil, checked: now, note: note)
        return AvatarRun(state: state, image: previous, note: note)
    }

    /// The home page's icons, best first (`FeedParser.discoverIconLinks`: the two best it names),
    /// then its host's `/favicon.ico`; only http(s) URLs.
    private func pageIcons(_ job: Job, fetcher: FeedFetcher, notes: inout [String]) async -> [URL] {
        guard let page = job.siteLink.flatMap(URL.init(string:)) else { return [] }
        guard Self.isSameSite(page.host, job.feedHost) else {
            notes.append(
                "the home page \(page.absoluteString) is not on the feed's site (\(job.feedHost ?? "?")): not asked")
            return []
        }
        var found: [URL] = []
        var request = FetchRequest(url: page, userAgent: job.userAgent, headers: ["Accept": "text/html"])
        request.maxBodyBytes = AvatarImage.maxInputBytes
        request.retries = 0
        switch await fetcher.fetch(request) {
        case .success(.fetched(let body)):
            found += FeedParser.discoverIconLinks(inHTML: body.body, baseURL: body.finalURL).prefix(2)
        case .success(.notModified):
            break
        case .failure(let error):
            notes.append("\(page.absoluteString): \(error)")
        }
        var favicon = URLComponents()
        favicon.scheme = page.scheme
        favicon.host = page.host
        favicon.port = page.port
        favicon.path = "/favicon.ico"
        if let url = favicon.url { found.append(url) }
        return found.filter { ["http", "https"].contains($0.scheme?.lowercased() ?? "") }
    }

    /// Whether a home page on `host` belongs to the feed's site (`feedHost`): the same host, or
    /// both under the same last two labels (`blog.example.com`, `example.com`). A build asks the
    /// feed's own site for its icon, and the host of an image the feed names, but no third host
    /// merely named as its home page: that keeps a planet whose feeds come from one aggregator
    /// from looking up a thousand other hosts (a slow resolver takes minutes for that).
    static func isSameSite(_ host: String?, _ feedHost: String?) -> Bool {
        guard let host = host?.lowercased(), let feedHost = feedHost?.lowercased(), !host.isEmpty else { return false }
        if host == feedHost { return true }
        func site(_ name: String) -> [Substring] { Array(name.split(separator: ".").suffix(2)) }
        let labels = site(host)
        // Two labels at least, and not an IP address (whose last two numbers mean nothing).
        guard labels.count == 2, host.contains(where: \.isLetter), feedHost.contains(where: \.isLetter) else {
            return false
        }
        return labels == site(feedHost)
    }

    enum Download {
        case notModified
        case image(AvatarImage, etag: String?, lastModified: String?)
        case failed(String)
    }

    /// One icon downloaded (at most `AvatarImage.maxInputBytes`) and made an avatar.
    private func download(
        _ url: URL, etag: String?, lastModified: String?, _ job: Job, _ fetcher: FeedFetcher
    ) async -> Download {
        var request = FetchRequest(
            url: url, etag: etag, lastModified: lastModified, userAgent: job.userAgent,
            headers: ["Accept": Self.accept])
        request.maxBodyBytes = AvatarImage.maxInputBytes
        // Not retried: an icon is optional, and one that fails now is asked for again tomorrow.
        request.retries = 0
        switch await fetcher.fetch(request) {
        case .success(.notModified):
            return .notModified
        case .success(.fetched(let body)):
            do {
                return .image(
                    try AvatarImage(resizing: body.body, library: library), etag: body.etag,
                    lastModified: body.lastModified)
            } catch {
                return .failed("\(url.absoluteString): \(error)")
            }
        case .failure(.tooLarge(let limit)) where limit == AvatarImage.maxInputBytes:
            // An icon's own limit, not `max_body_mb`'s (which the fetch error names).
            return .failed("\(url.absoluteString): the icon is larger than 1 MiB, the most an icon may be")
        case .failure(let error):
            return .failed("\(url.absoluteString): \(error)")
        }
    }

    /// Whether the last site holds the avatar `state` names.
    private func hasFile(_ state: AvatarState) -> Bool {
        readBack(state) != nil
    }

    /// The avatar `state` names, as the last site holds it: nil when it is missing, larger than an
    /// avatar can be, or neither WebP nor PNG (its name is checked when the state is loaded).
    func readBack(_ state: AvatarState) -> AvatarImage? {
        guard let file = state.file, StateValidator.isAvatarFile(file) else { return nil }
        let url = liveSite.appendingPathComponent(file)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: AvatarImage.maxBytes + 1), data.count <= AvatarImage.maxBytes,
            let format = AvatarImage.format(of: data), url.pathExtension == format.rawValue
        else { return nil }
        return AvatarImage(data: data, format: format)
    }
}
