import Foundation
import Testing

@testable import FeedsiteKit

/// The status page speaks the site's language: its summary counted by each language's plural
/// rules, health words, notes, the line saying what became of a feed's items and the day of its
/// last success; the diagnostics (last error, parse warnings) stay English and are marked so, and
/// `status.json` stays English. Expected texts are written out by hand from the catalogues.
@Suite("Status page in the site's language")
struct StatusPageLanguageTests {
    /// 2026-11-19 00:00 UTC.
    static let lastSuccess = Date(timeIntervalSince1970: 1_795_046_400)

    static func source(_ name: String) -> FeedSource {
        FeedSource(url: URL(string: "https://\(name.lowercased()).example/feed")!, name: name)
    }

    /// Alpha: fetched, unchanged (304), ok; its items line has every part. Beta: fetched, failed
    /// (404), nothing to show, with a parse warning from before. Gamma: not fetched this build.
    static func records() -> [FeedRecord] {
        let alpha = source("Alpha")
        let beta = source("Beta")
        let gamma = source("Gamma")
        return [
            FeedRecord(
                source: alpha, state: FeedState(health: FeedHealth(lastSuccess: lastSuccess, lastStatus: 200)),
                run: FeedRun(source: alpha, outcome: .notModified, status: 304), isStale: false, newItemCount: 0,
                failure: nil, warnings: []),
            FeedRecord(
                source: beta,
                state: FeedState(
                    health: FeedHealth(consecutiveFailures: 3, lastError: "HTTP 404 Not Found", lastStatus: 404)),
                run: FeedRun(
                    source: beta, outcome: .failed(.fetch(.http(status: 404, reason: "Not Found"))), status: 404),
                isStale: false, newItemCount: 0, failure: .fetch(.http(status: 404, reason: "Not Found")),
                warnings: ["line 3: warning: undefined entity '&nbsp;'"]),
            FeedRecord(
                source: gamma, state: FeedState(health: FeedHealth(lastSuccess: lastSuccess, lastStatus: 200)),
                run: FeedRun(source: gamma, outcome: .skipped), isStale: false, newItemCount: 0, failure: nil,
                warnings: []),
        ]
    }

    static func site(language: String) -> Site {
        var alpha = FeedAccount(source: source("Alpha").url, feedURL: source("Alpha").url)
        alpha.isReadThisBuild = true
        alpha.read = 25
        alpha.kept = 2
        alpha.shown = 23
        alpha.duplicates = [
            .init(title: "One", link: nil, feedName: "First", feedURL: "https://first.example/feed"),
            .init(title: "Two", link: nil, feedName: "First", feedURL: "https://first.example/feed"),
        ]
        alpha.overMaxItems = 1
        alpha.filtered = [.init(rule: #"exclude "sponsored""#, line: 7, count: 3)]
        var gamma = FeedAccount(source: source("Gamma").url, feedURL: source("Gamma").url)
        gamma.read = 1
        gamma.shown = 1
        return Site(
            configuration: SiteConfiguration(
                title: "Planet", baseURL: URL(string: "https://planet.example/"), pageSize: 10,
                timeZone: TimeZone(identifier: "UTC") ?? .current, language: language, feeds: []),
            feeds: [], items: [], accounts: [alpha, gamma])
    }

    static func statusFiles(language: String) throws -> (page: String, json: String) {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let files = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0))
            .render(site(language: language), records: records())
        let page = try #require(files["status/index.html"].flatMap { String(data: $0, encoding: .utf8) })
        let json = try #require(files["status/status.json"].flatMap { String(data: $0, encoding: .utf8) })
        return (page, json)
    }

    static func catalogue(_ language: String) throws -> MessageCatalogue {
        try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml")).catalogue(for: language)
    }

    /// `count` feeds, all fetched; the first `ok` of them refreshed.
    static func fetched(_ count: Int, ok: Int) -> [FeedRecord] {
        (0..<count).map { index in
            let source = FeedSource(url: URL(string: "https://f\(index).example/feed")!)
            let failure: FeedFailure? = index < ok ? nil : .fetch(.http(status: 500, reason: "Internal Server Error"))
            return FeedRecord(
                source: source, state: FeedState(),
                run: FeedRun(source: source, outcome: failure.map { .failed($0) } ?? .notModified), isStale: false,
                newItemCount: 0, failure: failure, warnings: [])
        }
    }

    @Test("a German status page: summary, health, notes, items line and dates in German; diagnostics English")
    func german() throws {
        let (page, json) = try Self.statusFiles(language: "de")
        #expect(page.contains(#"<html lang="de""#))
        // Two of three feeds fetched (Alpha ok, Beta failed); Gamma from saved state.
        #expect(
            page.contains(
                "<p class=\"lead\">1 von 2 abgerufenen Feeds in diesem Build aktualisiert; 1 weiterer aus dem "
                    + "gespeicherten Zustand gezeigt (in diesem Build nicht abgerufen).</p>"))
        #expect(page.contains("<td>in Ordnung</td>"))
        #expect(page.contains("<td>fehlerhaft</td>"))
        #expect(page.contains("<td>in Ordnung<br><small>in diesem Build nicht abgerufen</small></td>"))
        #expect(
            page.contains(
                "<td>23<br><small>25 gelesen, 2 aus früheren Builds behalten, 23 gezeigt; ausgelassen: "
                    + "3 gefiltert (exclude &quot;sponsored&quot;, Zeile 7), 2 Duplikate von Beiträgen in „First“, "
                    + "1 über max_items</small></td>"))
        #expect(page.contains("<small>1 im Feed beim letzten Lesen, 1 gezeigt</small>"))
        #expect(page.contains(#"<time datetime="2026-11-19">19. Nov. 2026</time>"#))
        #expect(page.contains("<td>nie</td>"))
        // The diagnostics stay English, marked as such for screen readers and right-to-left pages.
        #expect(page.contains(#"<td><span lang="en" dir="ltr">HTTP 404 Not Found</span></td>"#))
        #expect(
            page.contains(
                #"<small class="warning" lang="en" dir="ltr">line 3: warning: undefined entity &#39;&amp;nbsp;&#39;</small>"#
            ))
        for english in ["refreshed", "fetched", "read 25", "shown", "dropped", "never", ">ok<", ">failing<"] {
            #expect(!page.contains(english), "\(english)")
        }
        // status.json: English keys and values whatever the language.
        #expect(json.contains(#""note" : "not fetched in this build""#))
        #expect(json.contains(#""health" : "failing""#))
        #expect(json.contains(#""lastSuccess" : "2026-11-19""#))
        #expect(!json.contains("nicht abgerufen") && !json.contains("fehlerhaft"))
    }

    @Test("an Arabic status page: Arabic words, forms and punctuation; diagnostics English inside dir=ltr")
    func arabic() throws {
        let (page, json) = try Self.statusFiles(language: "ar")
        #expect(page.contains(#"<html lang="ar" dir="rtl""#))
        // 2 fetched (two), 1 more (one).
        #expect(
            page.contains(
                "<p class=\"lead\">حُدِّثت 1 من خلاصتين جُلبتا في هذا البناء؛ وخلاصة واحدة أخرى معروضة من الحالة "
                    + "المحفوظة (لم تُجلب في هذا البناء).</p>"))
        #expect(page.contains("<td>سليمة</td>"))
        #expect(page.contains("<td>فاشلة</td>"))
        #expect(page.contains("<td>سليمة<br><small>لم تُجلب في هذا البناء</small></td>"))
        // 25 read and 23 shown (many), 2 kept and 2 duplicates (two), 3 filtered (few), 1 over (one).
        #expect(
            page.contains(
                "<small>قُرئت 25 مقالة، أُبقيت مقالتان من عمليات بناء سابقة، عُرضت 23 مقالة؛ أُسقطت: "
                    + "3 مقالات مُرشَّحة (exclude &quot;sponsored&quot;، السطر 7)، مقالتان مكررتان من منشورات «First»، "
                    + "مقالة واحدة تتجاوز max_items</small>"))
        #expect(page.contains("<small>مقالة واحدة في الخلاصة عند آخر قراءة، عُرضت مقالة واحدة</small>"))
        #expect(page.contains(#"<time datetime="2026-11-19">19 نوفمبر 2026</time>"#))
        #expect(page.contains("<td>أبدًا</td>"))
        #expect(page.contains(#"<td><span lang="en" dir="ltr">HTTP 404 Not Found</span></td>"#))
        #expect(json.contains(#""note" : "not fetched in this build""#))
    }

    @Test(
        "the Arabic summary takes the form of its count: zero, one, two, few, many, other",
        arguments: [
            (0, "لم تُحدَّث أي خلاصة في آخر بناء"),
            (1, "حُدِّثت 1 من خلاصة واحدة في آخر بناء"),
            (2, "حُدِّثت 2 من خلاصتين في آخر بناء"),
            (3, "حُدِّثت 3 من 3 خلاصات في آخر بناء"),
            (11, "حُدِّثت 11 من 11 خلاصة في آخر بناء"),
            (100, "حُدِّثت 100 من 100 خلاصة في آخر بناء"),
        ])
    func arabicSummary(count: Int, expected: String) throws {
        let messages = try Self.catalogue("ar")
        #expect(PageRenderer.statusSummary(Self.fetched(count, ok: count), messages: messages) == expected)
    }

    @Test("summaries in German, Hebrew and English are counted by the number their noun follows")
    func countedSummaries() throws {
        let german = try Self.catalogue("de")
        #expect(
            PageRenderer.statusSummary(Self.fetched(1, ok: 1), messages: german)
                == "1 von 1 Feed beim letzten Build aktualisiert")
        #expect(
            PageRenderer.statusSummary(Self.fetched(3, ok: 2), messages: german)
                == "2 von 3 Feeds beim letzten Build aktualisiert")
        let hebrew = try Self.catalogue("he")
        #expect(
            PageRenderer.statusSummary(Self.fetched(2, ok: 1), messages: hebrew)
                == "1 מתוך שני פידים עודכנו בבנייה האחרונה")
        #expect(
            PageRenderer.statusSummary(Self.fetched(1, ok: 1), messages: .english)
                == "1 of 1 feed refreshed in the last build")
        #expect(
            PageRenderer.statusSummary(Self.fetched(2, ok: 2), messages: .english)
                == "2 of 2 feeds refreshed in the last build")
    }

    @Test("the English catalogue words a feed's items line exactly as the terminal does")
    func englishItemsLine() throws {
        var accounts = Self.site(language: "en").accounts
        #expect(
            accounts[0].localisedSummary(.english)
                == "read 25, kept 2 from earlier builds, shown 23; dropped: 3 filtered (exclude \"sponsored\", line 7), "
                + "2 duplicates of posts in 'First', 1 over max_items")
        accounts[0].repeated = 1
        accounts[0].future = 1
        accounts[0].expired = 4
        accounts[0].filtered.append(.init(rule: "matched no include rule", line: nil, count: 1))
        accounts[0].duplicates = [accounts[0].duplicates[0]]
        accounts[0].undecided = [
            .init(rule: "exclude title ~ /(a+)+$/", line: 4, count: 2), .init(rule: "include /x/", line: nil, count: 1),
        ]
        #expect(
            accounts[0].summary
                == "read 25 (1 repeating an id), kept 2 from earlier builds, shown 23 (2 because exclude title ~ "
                + "/(a+)+$/, line 4, gave up on them) (1 because include /x/ gave up on it); dropped: 3 filtered "
                + "(exclude \"sponsored\", line 7), 1 filtered (matched no include rule), 1 duplicate of posts in "
                + "'First', 1 over max_items, 1 dated in the future, 4 older than keep_days")
        let unread = FeedAccount(source: Self.source("X").url, feedURL: Self.source("X").url)
        #expect(unread.summary == "0 in the feed when last read, shown 0")
    }

    @Test("every built-in catalogue: the status page has no English word, key or unfilled placeholder")
    func everyLanguage() throws {
        for language in MessageCatalogueTests.builtIn where language != "en" {
            let (page, _) = try Self.statusFiles(language: language)
            let main = String(page.split(separator: "<main", maxSplits: 1).last ?? "")
            // The English diagnostics removed, nothing English may be left.
            let text = main.replacingOccurrences(
                of: #"<(span|small class="warning") lang="en" dir="ltr">[^<]*<"#, with: "<", options: .regularExpression
            )
            for english in [
                "refreshed", "fetched", "read 25", "shown", "dropped", "duplicates of", "never", "status_", "{",
            ] {
                #expect(!text.contains(english), "\(language): \(english)")
            }
        }
    }

    @Test("every {{t.key}} of the default theme and every key the status page counts is in every catalogue")
    func keysInEveryCatalogue() throws {
        // The keys the theme's templates name, read from the templates themselves.
        var keys: Set<String> = []
        for file in BuiltInTheme.files where file.path.hasSuffix(".mustache") {
            let data = try #require(Data(base64Encoded: file.base64, options: .ignoreUnknownCharacters))
            let text = String(decoding: data, as: UTF8.self)
            let regex = try Regex(#"\{\{[#^/]?\s*t\.([a-z_]+)"#)
            for match in text.matches(of: regex) {
                if let key = match.output[1].substring { keys.insert(String(key)) }
            }
        }
        #expect(keys.contains("feed_status") && keys.contains("never") && keys.count > 40)
        let counted = [
            "status_all", "status_some", "status_rest", "status_read", "status_read_before", "status_repeated",
            "status_kept", "status_shown", "status_undecided", "status_undecided_line", "status_filtered",
            "status_filtered_line", "status_duplicates",
            "status_over_max", "status_future", "status_expired",
        ]
        let plain = [
            "status_none", "status_not_fetched_yet", "status_same_feed", "status_not_fetched", "status_dropped",
            "list_separator", "clause_separator", "quoted", "health_ok", "health_stale", "health_failing",
            "health_pending",
        ]
        for language in MessageCatalogueTests.builtIn {
            let file = try #require(BuiltInTheme.files.first { $0.path == "strings/\(language).yml" })
            let data = try #require(Data(base64Encoded: file.base64, options: .ignoreUnknownCharacters))
            let (entries, _) = MessageCatalogue.read(
                yaml: String(decoding: data, as: UTF8.self), file: language, english: nil)
            for key in keys.union(counted).union(plain) {
                #expect(entries[key] != nil, "\(language): \(key)")
            }
            // A counted status text has a form for every category its language's rule gives to
            // the counts it is used with (from 1; from 0 for those that can be 0).
            let messages = try Self.catalogue(language)
            let fromZero: Set = ["status_all", "status_read", "status_read_before", "status_shown"]
            for key in counted {
                let forms = try #require(messages.plurals[key], "\(language): \(key) is not counted")
                let counts = fromZero.contains(key) ? 0...200 : 1...200
                let categories = Set(counts.map { messages.pluralRule.category($0) })
                #expect(categories.isSubset(of: Set(forms.keys)), "\(language): \(key) has \(forms.keys)")
            }
        }
    }

    @Test("the stale banner's note is in the site's language; the reason stays English like diagnostics")
    func staleNote() throws {
        // 2026-11-19 12:00 UTC.
        let note = StaleNote(
            lastSuccess: Date(timeIntervalSince1970: 1_795_089_600), reason: "HTTP 503 Service Unavailable")
        #expect(note.description == "unchanged since 2026-11-19: HTTP 503 Service Unavailable")
        // de.yml: date "{day}. {month_short} {year}", stale_since "unverändert seit {date}: {reason}".
        #expect(note.worded(try Self.catalogue("de")) == "unverändert seit 19. Nov. 2026: HTTP 503 Service Unavailable")
        // ar.yml: date "{day} {month} {year}", stale_since "دون تغيير منذ {date}: {reason}".
        #expect(note.worded(try Self.catalogue("ar")) == "دون تغيير منذ 19 نوفمبر 2026: HTTP 503 Service Unavailable")
        let never = StaleNote(lastSuccess: nil, reason: "HTTP 404 Not Found")
        #expect(never.worded(try Self.catalogue("de")) == "nicht aktualisiert: HTTP 404 Not Found")
        #expect(never.worded(.english) == never.description)
    }
}
