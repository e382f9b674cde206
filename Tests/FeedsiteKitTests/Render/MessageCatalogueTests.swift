import Foundation
import Testing

@testable import FeedsiteKit

/// Interface strings: the catalogue `language:` chooses, overrides from `Templates/strings/`, dates
/// and counted phrases in each language's own order and forms, and whole pages in German, Arabic
/// and Japanese. Expected texts are written out by hand from the catalogues' own wording.
@Suite("Message catalogues")
struct MessageCatalogueTests {
    static let builtIn = ["ar", "de", "en", "es", "fr", "he", "it", "ja", "nl", "pt", "zh"]

    static func temporaryTemplates(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsite-strings-\(UUID().uuidString)").appendingPathComponent("Templates")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    static func render(_ site: Site, templates: SiteTemplates) throws -> [String: String] {
        let files = try PageRenderer(templates: templates, now: Date(timeIntervalSince1970: 0)).render(site)
        return files.compactMapValues { String(data: $0, encoding: .utf8) }
    }

    @Test("every built-in catalogue reads without a warning, has the right shapes and only English's keys")
    func builtInCatalogues() throws {
        let english = MessageCatalogue.builtInEnglish
        #expect(english.count > 80)
        for language in Self.builtIn {
            let file = try #require(BuiltInTheme.files.first { $0.path == "strings/\(language).yml" })
            let data = try #require(Data(base64Encoded: file.base64, options: .ignoreUnknownCharacters))
            let (entries, warnings) = MessageCatalogue.read(
                yaml: String(decoding: data, as: UTF8.self), file: language, english: english)
            #expect(warnings.isEmpty, "\(language): \(warnings)")
            // Every built-in catalogue is complete: nothing falls back to English silently.
            #expect(Set(entries.keys) == Set(english.keys), "\(language)")
            let catalogue = try #require(
                SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
                    .catalogues[language])
            #expect(catalogue.months.count == 12 && catalogue.weekdays.count == 7)
        }
        #expect(Set(MessageCatalogue.builtInCatalogues.keys) == Set(Self.builtIn))
    }

    @Test(
        "language: picks the catalogue by tag, then by primary language, else English",
        arguments: [
            ("de", "de"), ("de-CH", "de"), ("DE-at", "de"), ("pt-BR", "pt"), ("zh-Hans", "zh"), ("he", "he"),
            ("sv", "en"), ("en-GB", "en"),
        ])
    func selection(tag: String, expected: String) throws {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        #expect(templates.catalogue(for: tag).language == expected)
        let warnings = templates.checkCatalogues(language: tag, configFile: "feeds.yml", folder: "Templates")
        #expect(warnings.isEmpty == (expected != "en" || tag.hasPrefix("en")), "\(warnings)")
    }

    @Test("a language without a catalogue is a warning that says how to add one")
    func missingLanguage() throws {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let warnings = templates.checkCatalogues(language: "sv", configFile: "feeds.yml", folder: "Templates")
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.description.hasPrefix("feeds.yml: warning: 'language: sv' has no interface strings") == true
        )
        #expect(warnings.first?.description.contains("Templates/strings/sv.yml") == true)
    }

    @Test("Templates/strings/de.yml overrides some German keys; unknown keys and bad shapes are located warnings")
    func overrideFile() throws {
        let folder = try Self.temporaryTemplates([
            "strings/de.yml": """
            older: "Weiter →"
            latst_items: Frisch
            not_found: Nichts hier
            months: [Jan, Feb]
            reading_time: {one: "{count} Minütchen", other: "{count} Minütchen"}
            date: "{day}.{month2}.{yeer}"

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let templates = try SiteTemplates.load(overriding: folder, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let warnings = templates.checkCatalogues(language: "de", configFile: "feeds.yml", folder: "Templates")
            .map(\.description)
        #expect(
            warnings == [
                "Templates/strings/de.yml:2:1: warning: unknown key 'latst_items' is ignored; did you mean 'latest_items'?",
                "Templates/strings/de.yml:4:9: warning: 'months' must list 12 names, got 2; ignored",
                "Templates/strings/de.yml:6:7: warning: '{yeer}' is not a date field; it is printed as written; did you mean '{year}'?",
            ])
        let pages = try Self.render(PaginationAndThemeTests.site(language: "de"), templates: templates)
        let index = pages["index.html"] ?? ""
        // Overridden keys, and the rest of the built-in German catalogue below them.
        #expect(index.contains(#"rel="next">Weiter →</a>"#))
        #expect(index.contains("Seite 1 von 3"))
        #expect(index.contains(">Sonntag, 1. November 2026</time></h2>"))
        #expect(pages["404.html"]?.contains("<h1>Nichts hier</h1>") == true)
        #expect(pages["items/alpha/a2/index.html"]?.contains(#"<span class="reading-time">2 Minütchen</span>"#) == true)
        // The date pattern with a typo prints the unknown field as written.
        #expect(index.contains(">1.11.{yeer}</time>"))
    }

    @Test("a catalogue for a new language falls back to English key by key")
    func addedLanguage() throws {
        let folder = try Self.temporaryTemplates(["strings/sv.yml": "latest_items: Senaste inläggen\nolder: Äldre →\n"])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let templates = try SiteTemplates.load(overriding: folder, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        #expect(templates.checkCatalogues(language: "sv-FI", configFile: "feeds.yml", folder: "Templates").isEmpty)
        let pages = try Self.render(PaginationAndThemeTests.site(language: "sv-FI"), templates: templates)
        #expect(pages["index.html"]?.contains(#"rel="next">Äldre →</a>"#) == true)
        #expect(pages["index.html"]?.contains("Page 1 of 3") == true)
        #expect(pages["404.html"]?.contains(">Senaste inläggen</a>") == true)
    }

    @Test("a German sample site: dates, day headings, pagination, reading time, archive, status, search form")
    func germanPages() throws {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let pages = try Self.render(PaginationAndThemeTests.site(language: "de"), templates: templates)
        let index = pages["index.html"] ?? ""
        #expect(index.contains(#"<html lang="de""#))
        #expect(index.contains(#"<h2 class="day"><time datetime="2026-11-01">Sonntag, 1. November 2026</time></h2>"#))
        #expect(index.contains(#"<time datetime="2026-10-31T23:30:00Z">1. Nov. 2026</time>"#))
        #expect(index.contains(">Freitag, 30. Oktober 2026</time></h2>"))
        #expect(index.contains(#"<span class="page-number">Seite 1 von 3</span>"#))
        #expect(index.contains(#"rel="next">Ältere →</a>"#))
        #expect(index.contains(##"<a class="skip" href="#main">Zum Inhalt springen</a>"##))
        #expect(index.contains("<h2 id=\"feeds-heading\">Feeds</h2>"))
        #expect(index.contains("Erstellt mit feedsite"))
        #expect(!index.contains("Latest") && !index.contains("Older") && !index.contains("Skip to"))
        let second = pages["page/2/index.html"] ?? ""
        #expect(second.contains("<h1>Planet, Seite 2 von 3</h1>"))
        #expect(second.contains("<title>Seite 2 von 3 · Planet</title>"))
        #expect(second.contains(#"rel="prev">← Neuere</a>"#))
        let item = pages["items/alpha/a1/index.html"] ?? ""
        #expect(item.contains(#"<span class="reading-time">1 Minute Lesezeit</span>"#))
        #expect(item.contains(">30. Okt. 2026, 00:30 UTC+1</time>"))
        #expect(item.contains(#"aria-label="Mehr von Alpha""#))
        #expect(pages["items/alpha/a2/index.html"]?.contains("2 Minuten Lesezeit") == true)
        let first = pages["items/alpha/a0/index.html"] ?? ""
        #expect(first.contains(#"rel="nofollow noopener">ep.mp3 herunterladen</a>"#))
        // 2,000,000 bytes, with the German decimal comma.
        #expect(first.contains("herunterladen</a> · audio/mpeg · 2,0 MB</figcaption>"))
        #expect(first.contains("<h2 id=\"enclosures-heading\">Anhänge</h2>"))
        #expect(first.contains(">Zum Original</a>"))
        #expect(pages["archive/index.html"]?.contains(">November 2026</a>") == true)
        #expect(pages["archive/index.html"]?.contains(">Oktober 2026</a>") == true)
        #expect(pages["archive/2026/11/index.html"]?.contains("<h1>November 2026</h1>") == true)
        #expect(pages["archive/2026/11/index.html"]?.contains(">Alle Monate</a>") == true)
        let status = pages["status/index.html"] ?? ""
        #expect(status.contains("<h1>Feed-Status</h1>"))
        #expect(status.contains(#"<th scope="col">Fehler in Folge</th>"#))
        #expect(pages["404.html"]?.contains("<h1>Seite nicht gefunden</h1>") == true)
    }

    @Test("an Arabic sample site: Arabic names and order, six plural forms, mirrored arrows")
    func arabicPages() throws {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let pages = try Self.render(PaginationAndThemeTests.site(language: "ar"), templates: templates)
        let index = pages["index.html"] ?? ""
        #expect(index.contains(#"<html lang="ar""#))
        #expect(index.contains(">الأحد، 1 نوفمبر 2026</time></h2>"))
        #expect(index.contains(#"<span class="page-number">الصفحة 1 من 3</span>"#))
        #expect(index.contains(#"rel="next">الأقدم ←</a>"#))
        #expect(index.contains(">انتقل إلى المحتوى</a>"))
        // 150 words: 1 minute (one); 300: 2 (two); 450: 3 (few).
        #expect(pages["items/alpha/a1/index.html"]?.contains(">دقيقة قراءة واحدة</span>") == true)
        #expect(pages["items/alpha/a2/index.html"]?.contains(">دقيقتا قراءة</span>") == true)
        #expect(pages["items/alpha/a3/index.html"]?.contains(">3 دقائق قراءة</span>") == true)
        #expect(pages["archive/index.html"]?.contains(">أكتوبر 2026</a>") == true)
    }

    @Test("Japanese and Chinese dates are year-month-day with their own signs")
    func eastAsianDates() throws {
        let templates = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
        let japanese = try Self.render(PaginationAndThemeTests.site(language: "ja"), templates: templates)
        #expect(japanese["index.html"]?.contains(">2026年11月1日 日曜日</time></h2>") == true)
        #expect(japanese["index.html"]?.contains(">2026年11月1日</time>") == true)
        #expect(japanese["archive/index.html"]?.contains(">2026年10月</a>") == true)
        #expect(japanese["items/alpha/a2/index.html"]?.contains(">2 分で読めます</span>") == true)
        let chinese = try Self.render(PaginationAndThemeTests.site(language: "zh-Hans"), templates: templates)
        #expect(chinese["index.html"]?.contains(">2026年11月1日 星期日</time></h2>") == true)
    }

    @Test(
        "plural categories follow CLDR for whole numbers",
        arguments: [
            ("en", [0: "other", 1: "one", 2: "other", 21: "other"]),
            ("fr", [0: "one", 1: "one", 2: "other"]),
            ("ja", [0: "other", 1: "other", 2: "other"]),
            (
                "ar",
                [0: "zero", 1: "one", 2: "two", 3: "few", 10: "few", 11: "many", 99: "many", 100: "other", 103: "few"]
            ),
            ("he", [1: "one", 2: "two", 3: "other", 20: "other"]),
            ("ru", [1: "one", 21: "one", 11: "many", 3: "few", 13: "many", 5: "many"]),
        ])
    func plurals(language: String, expected: [Int: String]) {
        let rule = PluralRule(language: language)
        for (count, category) in expected {
            #expect(rule.category(count).rawValue == category, "\(language) \(count)")
        }
    }

    @Test("counts on the tags page are counted per language")
    func termCounts() throws {
        let messages = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
            .catalogue(for: "he")
        #expect(messages.format("item_count", count: 1) == "רשומה אחת")
        #expect(messages.format("item_count", count: 2) == "שתי רשומות")
        #expect(messages.format("item_count", count: 7) == "7 רשומות")
        #expect(MessageCatalogue.english.format("feed_count", count: 1) == "1 feed")
        #expect(MessageCatalogue.english.format("feed_count", count: 3) == "3 feeds")
    }

    @Test("a template's {{t.key}} with a typo is a located warning naming the key meant")
    func templateKeyTypo() throws {
        let warnings = Template.checkNames(
            ["index": try Template(parsing: "<p>{{t.latest_itms}}</p>\n{{#t}}{{no_items}}{{/t}}")],
            pageTypes: ["index": "IndexPage"])
        #expect(warnings.map(\.message) == ["'t.latest_itms' is not a variable here; did you mean 't.latest_items'?"])
        #expect(warnings.first?.location == Template.Location(line: 1, column: 4))
    }

    @Test("the search script gets its texts, every plural form included, as JSON")
    func scriptMessages() throws {
        let messages = try SiteTemplates.load(overriding: nil, besides: URL(fileURLWithPath: "/x/feeds.yml"))
            .catalogue(for: "de")
        let json = messages.json(["searching", "search_found"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["searching"] as? String == "Suche nach „{words}“ …")
        #expect((object["search_found"] as? [String: String])?["one"] == "{count} Eintrag zu „{words}“ gefunden:")
    }
}
