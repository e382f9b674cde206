import Foundation

/// Everything `feeds.yml` says, with every default in one place (`SiteConfiguration.Defaults`).
package struct SiteConfiguration: Sendable, Hashable {
    /// The site's title, shown in every page header.
    package var title: String
    /// A line under the title on the index page.
    package var description: String
    /// Where the site is published. Pages link relatively and do not need it; it is used for the
    /// User-Agent and for the absolute URLs in the planet's own feeds and sitemap, which are only
    /// published when it is set.
    package var baseURL: URL?
    /// Items per page on the index and on each feed page (`page/2/index.html`…).
    package var pageSize: Int
    /// The most items of one feed on the first index page (the rest move to later pages, so one
    /// busy feed cannot take the front page over); 0: no limit.
    package var frontPagePerFeed: Int
    /// The time zone dates are shown in (`datetime` attributes stay in UTC) and archive months
    /// are counted in.
    package var timeZone: TimeZone
    /// The language of the site's own text (`<html lang>`); items carry their feed's language.
    package var language: String
    /// Length, in characters, of the plain-text excerpts on the index and feed pages.
    package var excerptLength: Int
    /// How many of the newest items the planet's own feeds (`atom.xml`, `rss.xml`, `feed.json`) carry.
    package var feedItems: Int
    /// Asks search engines not to index the site: `robots.txt` disallows everything and pages get
    /// `<meta name="robots" content="noindex">`.
    package var noindex: Bool
    /// The feeds, in `feeds.yml` order (the order decides ties, e.g. which feed keeps a duplicate).
    package var feeds: [FeedSource]
    /// Where state between builds lives (validators, last good items, first-seen times, health).
    package var stateDirectory: String
    /// The folder whose files are published at the site root as they are (`CNAME`, `.nojekyll`,
    /// `_headers`), relative to the folder holding `feeds.yml`.
    package var staticDirectory: String
    /// Where to seed the state from when the state directory is missing (the live site's
    /// `status/state.json`), so ephemeral CI runners keep history.
    package var stateURL: String?
    /// Items that dropped out of their feed stay this many days (counted from their date).
    package var keepDays: Int
    /// The most items one feed contributes (newest first); nil: no limit.
    package var maxItems: Int?
    /// What to do with items dated in the future.
    package var futureDates: FutureDatePolicy
    /// How feeds are fetched.
    package var fetch: FetchPolicy
    /// Print the build time in the page footer (off: builds stay byte-for-byte reproducible).
    package var showBuildTime: Bool
    /// The site's `exclude:` and `include:` rules, applied to every feed (with each feed's own).
    package var filter: ItemFilter
    /// Give the items' own categories pages under `categories/` (tags from `feeds.yml` always have
    /// pages under `tags/`).
    package var categoryPages: Bool
    /// Publish a search page and index (with Pagefind, when it is installed).
    package var search: Bool
    /// Fetch each feed's icon and publish it small under `avatars/` (`AvatarFetcher`); false: every
    /// feed shows its monogram and no icon is ever requested.
    package var avatars: Bool

    /// The defaults, in one place; the README's `feeds.yml` reference lists the same values.
    package enum Defaults {
        package static let title = "feedsite"
        package static let description = ""
        package static let pageSize = 25
        /// A fifth of a default page: at least five feeds share the front page when they can.
        package static let frontPagePerFeed = 5
        package static let timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        package static let language = "en"
        package static let excerptLength = 280
        package static let feedItems = 50
        package static let noindex = false
        package static let stateDirectory = ".feedsite"
        package static let staticDirectory = "static"
        package static let keepDays = 90
        package static let futureDates = FutureDatePolicy.clamp
    }

    package init(
        title: String = Defaults.title,
        description: String = Defaults.description,
        baseURL: URL? = nil,
        pageSize: Int = Defaults.pageSize,
        frontPagePerFeed: Int = Defaults.frontPagePerFeed,
        timeZone: TimeZone = Defaults.timeZone,
        language: String = Defaults.language,
        excerptLength: Int = Defaults.excerptLength,
        feedItems: Int = Defaults.feedItems,
        noindex: Bool = Defaults.noindex,
        feeds: [FeedSource],
        stateDirectory: String = Defaults.stateDirectory,
        staticDirectory: String = Defaults.staticDirectory,
        stateURL: String? = nil,
        keepDays: Int = Defaults.keepDays,
        maxItems: Int? = nil,
        futureDates: FutureDatePolicy = Defaults.futureDates,
        fetch: FetchPolicy = FetchPolicy(),
        showBuildTime: Bool = false,
        filter: ItemFilter = ItemFilter(),
        categoryPages: Bool = false,
        search: Bool = true,
        avatars: Bool = true
    ) {
        self.search = search
        self.avatars = avatars
        self.filter = filter
        self.categoryPages = categoryPages
        self.title = title
        self.description = description
        self.baseURL = baseURL
        self.pageSize = pageSize
        self.frontPagePerFeed = frontPagePerFeed
        self.timeZone = timeZone
        self.language = language
        self.excerptLength = excerptLength
        self.feedItems = feedItems
        self.noindex = noindex
        self.feeds = feeds
        self.stateDirectory = stateDirectory
        self.staticDirectory = staticDirectory
        self.stateURL = stateURL
        self.keepDays = keepDays
        self.maxItems = maxItems
        self.futureDates = futureDates
        self.fetch = fetch
        self.showBuildTime = showBuildTime
    }
}

/// What to do with an item whose date is in the future (a wrong clock or time zone on the server,
/// or a scheduled post published early): such items would otherwise stick to the top for days.
package enum FutureDatePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Use the time feedsite first saw the item instead.
    case clamp
    /// Show the date as given.
    case keep
    /// Leave the item out until its date has come.
    case drop
}

/// How feeds are fetched: limits, politeness, retries.
package struct FetchPolicy: Sendable, Hashable {
    /// Seconds for a whole request, connect to last byte.
    package var timeoutSeconds: Int
    /// Seconds to establish a connection.
    package var connectTimeoutSeconds: Int
    /// Seconds without receiving a byte before giving up.
    package var readTimeoutSeconds: Int
    /// Extra attempts after a connection error, timeout or HTTP 502/503/504.
    package var retries: Int
    /// Requests in flight to one host at a time; nil: 2 for every host but loopback ones
    /// (127.0.0.0/8, ::1, localhost), which are your own machine and are not limited.
    package var perHostConcurrency: Int?
    /// The longest `Retry-After` (seconds) honoured; a longer one skips the feed this run.
    package var maxRetryAfterSeconds: Int
    /// Largest body accepted, after decompression.
    package var maxBodyBytes: Int
    /// Refuse loopback, private and link-local addresses (an SSRF guard for shared CI).
    package var denyPrivateNetworks: Bool
    /// Replaces the default `feedsite/<version> (+<base_url>)` for every feed.
    package var userAgent: String?

    package init(
        timeoutSeconds: Int = 30, connectTimeoutSeconds: Int = 10, readTimeoutSeconds: Int = 20, retries: Int = 2,
        perHostConcurrency: Int? = nil, maxRetryAfterSeconds: Int = 30, maxBodyBytes: Int = 50_000_000,
        denyPrivateNetworks: Bool = false, userAgent: String? = nil
    ) {
        self.timeoutSeconds = timeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.readTimeoutSeconds = readTimeoutSeconds
        self.retries = retries
        self.perHostConcurrency = perHostConcurrency
        self.maxRetryAfterSeconds = maxRetryAfterSeconds
        self.maxBodyBytes = maxBodyBytes
        self.denyPrivateNetworks = denyPrivateNetworks
        self.userAgent = userAgent
    }

    /// The politeness default for remote hosts.
    package static let defaultPerHostConcurrency = 2

    /// How many requests may be in flight to `host` at a time.
    package func perHostLimit(for host: String) -> Int {
        if let perHostConcurrency { return max(1, perHostConcurrency) }
        let bare = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let isLoopback = bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
        return isLoopback ? Int.max : Self.defaultPerHostConcurrency
    }
}

/// One `feeds:` entry.
package struct FeedSource: Sendable, Hashable {
    /// The feed as `feeds.yml` names it, and its key in the saved state: an http(s) URL, a `file:`
    /// URL, or a path relative to the folder holding `feeds.yml` (kept relative, so the state stays
    /// valid when the project folder moves or a CI runner restores it elsewhere).
    package var url: URL
    /// Where the feed is read from: `url` itself, or, for a path, the absolute `file:` URL it
    /// names.
    package var location: URL
    /// The display name from `feeds.yml`; when absent, the channel's own title is used.
    package var name: String?
    /// The line of this entry in `feeds.yml`, so warnings about the feed can point at it.
    package var line: Int?
    /// Overrides the site's `keep_days` for this feed.
    package var keepDays: Int?
    /// Overrides the site's `max_items` for this feed.
    package var maxItems: Int?
    /// Overrides the User-Agent for this feed (some CDNs block unknown agents).
    package var userAgent: String?
    /// Extra request headers for this feed (an API key, `Accept-Language`…).
    package var headers: [String: String]
    /// This feed's `exclude:` and `include:` rules (the site's apply too).
    package var filter: ItemFilter
    /// `tags: [rust, news]`: the feed and its items are listed on these tags' pages, in this
    /// order (spaces collapsed; tags that differ only in case are one tag).
    package var tags: [String]

    /// `location`: nil means `url` (an http(s) or `file:` URL).
    package init(
        url: URL, location: URL? = nil, name: String? = nil, line: Int? = nil, keepDays: Int? = nil,
        maxItems: Int? = nil, userAgent: String? = nil, headers: [String: String] = [:],
        filter: ItemFilter = ItemFilter(), tags: [String] = []
    ) {
        self.filter = filter
        self.tags = tags
        self.url = url
        self.location = location ?? url
        self.name = name
        self.line = line
        self.keepDays = keepDays
        self.maxItems = maxItems
        self.userAgent = userAgent
        self.headers = headers
    }

    /// True for a local feed file (a path or a `file:` URL): read from disk, never over the network.
    package var isLocal: Bool { location.isFileURL }

    /// The feed's address to publish (page links, `opml.xml`, the status page): nil for a local
    /// file, which has none on the web (a relative path would be a broken link on the site).
    package var publicURL: URL? { isLocal ? nil : url }

    /// The label used in diagnostics: `feed 'Name' (url)`.
    package var label: String {
        "feed '\(name ?? url.host ?? url.absoluteString)' (\(url.absoluteString))"
    }
}

extension SiteConfiguration {
    /// The largest value each number in `feeds.yml` (and `--timeout`, `--concurrency`) may take:
    /// far beyond any real use, and small enough that nothing computed from one overflows (a byte
    /// count from `max_body_mb`, a `Duration` from `timeout`) or runs for ever (`retries`).
    package enum Limits {
        /// Any other number.
        package static let number = 1_000_000_000
        /// `timeout`, `connect_timeout`, `read_timeout`, `max_retry_after`: an hour.
        package static let seconds = 3_600
        package static let retries = 10
        /// `page_size`, `front_page_per_feed`.
        package static let pageSize = 1_000
        /// `excerpt_length`, in characters.
        package static let excerptLength = 10_000
        package static let feedItems = 10_000
        /// `keep_days`: a century.
        package static let keepDays = 36_500
        /// `max_items`: what one feed's state may hold.
        package static let maxItems = StateLimits.itemsPerFeed
        /// `per_host`, `--concurrency`.
        package static let concurrency = 1_000
        /// `max_body_mb`: a gigabyte.
        package static let bodyMegabytes = 1_000
    }
}
