import Foundation
import Testing

@testable import FeedsiteKit

@Suite("feeds.yml")
struct SiteConfigurationTests {
    @Test("a complete file is read with its values and feed lines")
    func readsEverything() throws {
        let yaml = """
            title: Swift Planet
            description: All about Swift
            base_url: https://planet.example/
            page_size: 20
            timezone: Europe/Berlin
            language: de_CH
            excerpt_length: 100
            feed_items: 25
            noindex: true
            feeds:
              - url: https://www.swift.org/atom.xml
                name: Swift.org
              - url: http://example.com/rss
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(warnings.isEmpty)
        #expect(configuration.title == "Swift Planet")
        #expect(configuration.description == "All about Swift")
        #expect(configuration.baseURL?.absoluteString == "https://planet.example/")
        #expect(configuration.pageSize == 20)
        #expect(configuration.timeZone.identifier == "Europe/Berlin")
        #expect(configuration.language == "de-CH")
        #expect(configuration.excerptLength == 100)
        #expect(configuration.feedItems == 25)
        #expect(configuration.noindex)
        #expect(configuration.feeds.count == 2)
        #expect(configuration.feeds[0].name == "Swift.org")
        #expect(configuration.feeds[0].line == 11)
        #expect(configuration.feeds[1].url.absoluteString == "http://example.com/rss")
        #expect(configuration.feeds[1].name == nil)
        #expect(configuration.feeds[1].line == 13)
    }

    @Test("defaults apply when keys are absent")
    func defaults() throws {
        let (configuration, _) = try SiteConfiguration.parse(yaml: "feeds:\n  - https://example.com/feed\n")
        #expect(configuration.title == SiteConfiguration.Defaults.title)
        #expect(configuration.baseURL == nil)
        #expect(configuration.pageSize == 25)
        #expect(configuration.timeZone.secondsFromGMT() == 0)
        #expect(configuration.language == "en")
        #expect(configuration.excerptLength == SiteConfiguration.Defaults.excerptLength)
        #expect(configuration.feedItems == 50)
        #expect(configuration.noindex == false)
        #expect(configuration.feeds.map(\.url.absoluteString) == ["https://example.com/feed"])
    }

    /// Each bad file and the exact diagnostics it must produce (file:line:column: error: …).
    static let errorCases: [(yaml: String, expected: [String])] = [
        ("title: x\n", ["feeds.yml:1:1: error: missing 'feeds': list at least one feed as '- url: https://…'"]),
        ("feeds: []\n", ["feeds.yml:1:8: error: 'feeds' is empty: list at least one feed as '- url: https://…'"]),
        // A title or a name is printed on every page: a text value is at most 10,000 characters.
        (
            "title: " + String(repeating: "x", count: 10_001) + "\nfeeds:\n  - url: https://example.com/feed\n",
            ["feeds.yml:1:8: error: 'title' is 10001 characters long: at most 10000"]
        ),
        (
            "feeds: nope\n",
            ["feeds.yml:1:8: error: 'feeds' must be a list of entries like '- url: https://example.com/feed.xml'"]
        ),
        (
            "feeds:\n  - url: https://long.example/" + String(repeating: "a", count: 16_400) + "\n",
            ["feeds.yml:2:10: error: 'url' is 16421 bytes long: at most 16384"]
        ),
        // Credentials in a feed's URL would be published with it; the message does not repeat them.
        (
            "feeds:\n  - url: https://me:s3cret@private.example/feed\n  - url: http://token@private.example/f\n",
            [
                "feeds.yml:2:10: error: 'url' holds a user name or password before its host (user:…@), which the site would publish (the status page, opml.xml, status/state.json); remove them from the URL and send them as a header: headers: {Authorization: \"Basic <base64 of user:password>\"}",
                "feeds.yml:3:10: error: 'url' holds a user name or password before its host (user:…@), which the site would publish (the status page, opml.xml, status/state.json); remove them from the URL and send them as a header: headers: {Authorization: \"Basic <base64 of user:password>\"}",
            ]
        ),
        (
            "feeds:\n  - url: htp:/x\n",
            ["feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"htp:/x\""]
        ),
        (
            "feeds:\n  - url: ftp://example.com/feed\n",
            [
                "feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"ftp://example.com/feed\""
            ]
        ),
        (
            "feeds:\n  - name: no url\n",
            ["feeds.yml:2:5: error: feed entry has no 'url'"]
        ),
        (
            "feeds:\n  - url: https://a.example/feed\n  - url: https://a.example/feed\n",
            [
                "feeds.yml:3:10: error: duplicate feed URL https://a.example/feed (first listed on line 2); remove one of them"
            ]
        ),
        (
            // A link without its scheme was read as the file /127.0.0.1:8080/feed.xml, and failed at the fetch.
            "feeds:\n  - url: //127.0.0.1:8080/feed.xml\n",
            [
                "feeds.yml:2:10: error: 'url' \"//127.0.0.1:8080/feed.xml\" starts with '//', as a link without its"
                    + " scheme does, and there is no such file: write \"https://127.0.0.1:8080/feed.xml\" (or http://),"
                    + " or a file's path with one '/'"
            ]
        ),
        (
            "base_url: planet.example\npage_size: 0\nfeeds:\n  - url: javascript:alert(1)\n  - url: https://ok.example/\n",
            [
                "feeds.yml:1:11: error: 'base_url' must be an http(s) URL, got \"planet.example\"",
                "feeds.yml:2:12: error: 'page_size' must be a whole number greater than 0, got \"0\"",
                "feeds.yml:4:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"javascript:alert(1)\"",
            ]
        ),
        (
            "feed_items: -3\nnoindex: maybe\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:13: error: 'feed_items' must be a whole number greater than 0, got \"-3\"",
                "feeds.yml:2:10: error: 'noindex' must be true or false, got \"maybe\"",
            ]
        ),
        (
            "timezone: Mars/Olympus_Mons\nlanguage: not a language\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:11: error: 'timezone' must be a time zone name like Europe/Berlin or UTC, got \"Mars/Olympus_Mons\"",
                "feeds.yml:2:11: error: 'language' must be a language tag like en or de-CH, got \"not a language\"",
            ]
        ),
        // Numbers have ceilings: a byte count from `max_body_mb` overflowed, a `Duration` from
        // `timeout` trapped, `retries` against a 429 server never ended.
        (
            "timeout: 9223372036854775807\nmax_body_mb: 9999999999999\nretries: 11\nexcerpt_length: 4611686018427387904\nfeeds:\n  - url: https://ok.example/\n    keep_days: 36501\n",
            [
                "feeds.yml:1:10: error: 'timeout' must be at most 3600, got \"9223372036854775807\"",
                "feeds.yml:2:14: error: 'max_body_mb' must be at most 1000, got \"9999999999999\"",
                "feeds.yml:3:10: error: 'retries' must be at most 10, got \"11\"",
                "feeds.yml:4:17: error: 'excerpt_length' must be at most 10000, got \"4611686018427387904\"",
                "feeds.yml:7:16: error: 'keep_days' must be at most 36500, got \"36501\"",
            ]
        ),
        // Found in session 23: libyaml's own words ("but found another document"), and an empty
        // file called "expected a mapping".
        (
            "title: T\nfeeds:\n  - https://a.example/\n---\ntitle: U\n",
            [
                "feeds.yml:4:1: error: a second YAML document starts here (after '---' or '...'): feeds.yml is one"
                    + " document; remove this marker and merge what follows into the first, or delete it"
            ]
        ),
        (
            "# nothing yet\n",
            [
                "feeds.yml: error: the file is empty (or holds only comments): write a 'feeds:' list, at least"
                    + " '- url: https://…' (`feedsite init` writes a commented starter)"
            ]
        ),
        (
            "x-deep: " + String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000) + "\nfeeds: []\n",
            [
                "feeds.yml:1:10: error: lists and mappings nest too deep here (more than 1,000 levels, the most the"
                    + " YAML reader takes)"
            ]
        ),
        // Found in session 23: libyaml's words name the grammar, not the mistake; each gets what to do.
        (
            "title: T\nfeeds:\n  - url: https://a.example/\n    name: Swift: the blog\n",
            [
                "feeds.yml:4:16: error: not valid YAML: mapping values are not allowed in this context; text holding ': ' must be in quotes: name: \"Swift: the blog\""
            ]
        ),
        (
            "title: \"T\nfeeds:\n  - https://a.example/\n",
            [
                "feeds.yml:4:1: error: not valid YAML: found unexpected end of stream; the quote opened on line 1, column 8 is never closed"
            ]
        ),
        (
            "title: T\nfeeds:\n  - url: https://a.example/\n    name: [Draft] Post\n",
            [
                "feeds.yml:4:19: error: not valid YAML: did not find expected key; a value starting with '[' is read as a list; text must be in quotes: name: \"[Draft] Post\""
            ]
        ),
        (
            "title: T\nfeeds:\n  - url: https://a.example/\n    name: @user\n",
            [
                "feeds.yml:4:11: error: not valid YAML: found character that cannot start any token; '@' cannot start plain text in YAML: put it in quotes: name: \"@user\""
            ]
        ),
        (
            "title: 'It's mine'\nfeeds:\n  - https://a.example/\n",
            [
                "feeds.yml:1:12: error: not valid YAML: did not find expected key; inside '…' a quote is written twice ('It''s'), or use double quotes: title: \"It's mine\""
            ]
        ),
        (
            "title: T\nfeeds:\n  - url: https://a.example/\n    tags: [a, b\n",
            [
                "feeds.yml:5:1: error: not valid YAML: did not find expected ',' or ']'; the list opened with '[' on line 4, column 11 is not closed with ']' where expected; quote any text in it that holds ',', ': ' or '#'"
            ]
        ),
        (
            "title: T\n feeds:\n  - https://a.example/\n",
            [
                "feeds.yml:2:7: error: not valid YAML: mapping values are not allowed in this context; check this line's indentation: keys of one mapping line up, and list items ('- ') under a key line up"
            ]
        ),
        // Lines end where libyaml says (CRLF, CR), and columns count code points.
        (
            "title: T\r\nfeeds:\r\n  - url: https://a.example/\r\n    name: Swift: the blog\r\n",
            [
                "feeds.yml:4:16: error: not valid YAML: mapping values are not allowed in this context; text holding ': '"
                    + " must be in quotes: name: \"Swift: the blog\""
            ]
        ),
        (
            "feeds:\n  - url: https://a.example/\n    tags: [🇫🇷, @fr]\n",
            [
                "feeds.yml:3:16: error: not valid YAML: found character that cannot start any token; '@' cannot start"
                    + " plain text in YAML: put it in quotes: tags: \"[🇫🇷, @fr]\""
            ]
        ),
        // One value reached through several aliases is one error, not one per use.
        (
            "x-bad: &bad {<<: 1}\nx-many: &many {<<: [*bad, *bad, *bad]}\nfeeds:\n  - {<<: [*many, *many], url: https://a.example/}\n",
            ["feeds.yml:1:18: error: '<<' merges mappings into this one (such as '<<: *defaults'), got \"1\""]
        ),
        // Numbers are decimal: YAML 1.1 read `0x10` as 16 and `1:30` as 90.
        (
            "feed_items: 0x10\nretries: 1:30\nexcerpt_length: 1e3\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:13: error: 'feed_items' must be a whole number greater than 0, got \"0x10\"",
                "feeds.yml:2:10: error: 'retries' must be a whole number (0 or more), got \"1:30\"",
                "feeds.yml:3:17: error: 'excerpt_length' must be a whole number greater than 0, got \"1e3\"",
            ]
        ),
        (
            "feeds:\n  - url: http://127.0.0.1:99999/feed\n",
            [
                "feeds.yml:2:10: error: 'url' must be an http(s) URL, a file: URL or a path, got \"http://127.0.0.1:99999/feed\": port 99999 is not a TCP port (1–65535)"
            ]
        ),
        // A mistyped `state_url` would start the site's history afresh (read as a missing path).
        (
            "state_url: htps://planet.example/status/state.json\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:12: error: 'state_url' has the scheme 'htps:', which feedsite does not read a state from: give an http(s) URL, a file: URL or a path"
            ]
        ),
        (
            "state_url: https:/planet.example/state.json\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:12: error: 'state_url' cannot be fetched: https:/planet.example/state.json: it names no host"
            ]
        ),
        // Yams names the repeated key and where it first appears; the repeat is found below it.
        (
            "title: A\nsearch: false\ntitle: B\nfeeds:\n  - https://ok.example/\n",
            ["feeds.yml:3:1: error: 'title' is given twice in this mapping (first on line 1): keep one"]
        ),
        (
            "feeds:\n  - url: https://ok.example/\n    name: A\n    name: B\n",
            ["feeds.yml:4:5: error: 'name' is given twice in this mapping (first on line 3): keep one"]
        ),
        // Warnings come with the errors: every problem at once.
        (
            "page_size: 0\nbase-url: https://x.example/\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:12: error: 'page_size' must be a whole number greater than 0, got \"0\"",
                "feeds.yml:2:1: warning: unknown key 'base-url' is ignored; did you mean 'base_url'?",
            ]
        ),
        // `http//…` is a URL missing its ':', not a path to a file that does not exist.
        (
            "feeds:\n  - url: http//example.com/feed\n  - HTTPS//example.org/rss\n  - url: ~\n",
            [
                "feeds.yml:2:10: error: 'url' \"http//example.com/feed\" looks like a URL without the ':' after 'http': write \"http://example.com/feed\"",
                "feeds.yml:3:5: error: 'url' \"HTTPS//example.org/rss\" looks like a URL without the ':' after 'HTTPS': write \"HTTPS://example.org/rss\"",
                "feeds.yml:4:10: error: 'url' has no value: 'url' must be an http(s) URL, a file: URL or a path",
            ]
        ),
        // Control characters would be written raw into every page, or end a request header early.
        (
            "title: \"T\\aitle\"\nuser_agent: \"ua\\nX-Evil: 1\"\nfeeds:\n  - url: https://ok.example/\n"
                + "    name: \"N\\u001Bame\"\n    headers:\n      Bad Name: x\n      X-Key: \"a\\r\\nX: y\"\n      X-Tab: \"a\\tb\"\n",
            [
                "feeds.yml:1:8: error: 'title' holds the control character U+0007; remove it",
                "feeds.yml:2:13: error: 'user_agent' holds the control character U+000A, which no HTTP header may; remove it",
                "feeds.yml:5:11: error: 'name' holds the control character U+001B; remove it",
                "feeds.yml:7:7: error: 'Bad Name' is not a header name: use letters, digits and '-', such as X-Api-Key",
                "feeds.yml:8:14: error: 'X-Key' holds the control character U+000D; remove it",
            ]
        ),
        (
            "search: \"true\"\nnoindex: 'False'\navatars: yes please\nfeeds:\n  - https://ok.example/\n",
            [
                "feeds.yml:1:9: error: 'search' must be true or false, without quotes (\"true\" in quotes is text)",
                "feeds.yml:2:10: error: 'noindex' must be true or false, without quotes (\"False\" in quotes is text)",
                "feeds.yml:3:10: error: 'avatars' must be true or false, got \"yes please\"",
            ]
        ),
        (
            "feeds:\n\t- url: https://a.example/\n",
            ["feeds.yml:2:1: error: not valid YAML: a tab; YAML is indented with spaces only"]
        ),
        (
            "feeds:\n  - url: [a, b\n",
            [
                "feeds.yml:3:1: error: not valid YAML: did not find expected ',' or ']'; the list opened with '[' on line 2,"
                    + " column 10 is not closed with ']' where expected; quote any text in it that holds ',', ': ' or '#'"
            ]
        ),
        (
            "- just\n- a list\n",
            ["feeds.yml:1:1: error: expected a mapping with 'title', 'base_url' and 'feeds' at the top level"]
        ),
    ]

    @Test("every problem is reported at once, with file, line and column", arguments: errorCases)
    func errors(yaml: String, expected: [String]) {
        do {
            _ = try SiteConfiguration.parse(yaml: yaml)
            Issue.record("expected an error for \(yaml)")
        } catch {
            #expect(error.diagnostics.map(\.description) == expected)
        }
    }

    /// "the file is not UTF-8 text" for a file saved as UTF-16 with a byte order mark, and a YAML
    /// error with the file's NUL bytes dumped for one without: neither said what to do.
    @Test("a feeds.yml that is not UTF-8 says what it is instead (UTF-16, or which line) and to save it as UTF-8")
    func notUTF8() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-utf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = "title: Café\nfeeds:\n  - https://a.example/feed\n"
        let cases: [(Data, String)] = [
            (
                Data([0xFF, 0xFE]) + yaml.data(using: .utf16LittleEndian)!,
                "feeds.yml: error: the file is UTF-16 text (it starts with UTF-16's byte order mark), not UTF-8; save it as UTF-8"
            ),
            (
                yaml.data(using: .utf16BigEndian)!,
                "feeds.yml: error: the file holds NUL bytes, as UTF-16 or UTF-32 text does, and is not UTF-8 text; save it as UTF-8"
            ),
            (
                Data("feeds:\n  - https://a.example/feed\ntitle: Caf".utf8) + Data([0xE9]) + Data("\n".utf8),
                "feeds.yml: error: the file is not UTF-8 text: line 3 holds a byte that is not UTF-8 (Latin-1 or"
                    + " Windows-1252?); save it as UTF-8"
            ),
        ]
        for (data, message) in cases {
            let file = folder.appendingPathComponent("feeds.yml")
            try data.write(to: file)
            do {
                _ = try SiteConfiguration.load(contentsOf: file)
                Issue.record("accepted: \(message)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test("a file with thousands of mistakes shows the first 50 errors and 50 warnings, then how many more")
    func diagnosticsAreCapped() {
        // 2,000 feeds, each with a URL that cannot be fetched (an error) and an unknown key (a warning).
        var yaml = "title: t\nfeeds:\n"
        for index in 0..<2_000 { yaml += "  - url: htp:/x\(index)\n    naem: x\n" }
        do {
            _ = try SiteConfiguration.parse(yaml: yaml)
            Issue.record("expected errors")
        } catch {
            let lines = error.diagnostics.map(\.description)
            #expect(lines.count == 102)
            #expect(lines.filter { $0.contains(": error: ") }.count == 51)
            #expect(lines.filter { $0.contains(": warning: ") }.count == 51)
            // The first of each is the first entry's (line 3: its url, line 4: its unknown key).
            #expect(lines.first { $0.contains(": error: ") }?.hasPrefix("feeds.yml:3:") == true, "\(lines.prefix(3))")
            #expect(lines.first { $0.contains(": warning: ") }?.hasPrefix("feeds.yml:4:") == true, "\(lines.prefix(3))")
            #expect(
                lines.contains("feeds.yml: error: 1950 more errors are not shown; fix the ones above and run again"))
            #expect(lines.contains("feeds.yml: warning: 1950 more warnings are not shown"))
        }
    }

    /// YAML's null (`key:` with nothing after it, `~`, `null`) is no value: the default stays, as
    /// if the line were not there; a quoted "~" is text. An unknown key is still named.
    @Test("a setting left empty or null keeps its default")
    func nullSettings() throws {
        let yaml = """
            title:
            description: ~
            page_size: null
            language: NULL
            colour: ~
            feeds:
              - url: https://a.example/
                name: ~
                tags:
                keep_days: ~
              - url: https://b.example/
                name: "~"
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(configuration.title == SiteConfiguration.Defaults.title)
        #expect(configuration.description == SiteConfiguration(feeds: []).description)
        #expect(configuration.pageSize == 25)
        #expect(configuration.language == "en")
        #expect(configuration.feeds.map(\.name) == [nil, "~"])
        #expect(configuration.feeds.first?.tags == [])
        #expect(configuration.feeds.first?.keepDays == nil)
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:5:1: warning: unknown key 'colour' is ignored (the keys are listed in README.md, 'feeds.yml reference')"
            ])
        // A header value with a tab is a header value.
        let tab = try SiteConfiguration.parse(
            yaml: "feeds:\n  - url: https://a.example/\n    headers:\n      X-Tab: \"a\\tb\"\n")
        #expect(tab.0.feeds.first?.headers == ["X-Tab": "a\tb"])
    }

    /// Found in session 22: `page_size: 010` gave pages of 8 (YAML 1.1 reads a leading zero as
    /// octal), without a word.
    @Test("a number with a leading zero is read in decimal, with a warning; digit separators are kept")
    func leadingZeros() throws {
        let yaml = "page_size: 010\nexcerpt_length: 1_000\nfeeds:\n  - url: https://a.example/\n    keep_days: 007\n"
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(configuration.pageSize == 10)
        #expect(configuration.excerptLength == 1000)
        #expect(configuration.feeds.first?.keepDays == 7)
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:1:12: warning: 'page_size': \"010\" is read as 10 in decimal; write it without the leading zero (some YAML readers take it as octal)",
                "feeds.yml:5:16: warning: 'keep_days': \"007\" is read as 7 in decimal; write it without the leading zero (some YAML readers take it as octal)",
            ])
    }

    /// Found in session 23: `<<: *defaults` (YAML's merge key, common in CI and Compose files)
    /// was an unknown key, and the shared settings were not applied.
    @Test("merge keys apply shared settings: the entry's own keys win, then the first merged mapping")
    func mergeKeys() throws {
        let yaml = """
            x-common: &common
              keep_days: 30
              tags: [shared]
              name: Common
            x-extra: &extra
              keep_days: 7
              max_items: 5
            feeds:
              - <<: [*common, *extra]
                url: https://a.example/feed
                name: A
                headers:
                  <<: {X-Team: blue}
                  X-Other: "1"
              - <<: *extra
                url: https://b.example/feed
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(warnings.isEmpty, "\(warnings)")
        let a = try #require(configuration.feeds.first)
        #expect(a.name == "A")
        #expect(a.keepDays == 30)
        #expect(a.maxItems == 5)
        #expect(a.tags == ["shared"])
        #expect(a.headers == ["X-Team": "blue", "X-Other": "1"])
        let b = try #require(configuration.feeds.last)
        #expect(b.keepDays == 7)
        #expect(b.name == nil)
        #expect(b.tags == [])
    }

    @Test("a merge key on something other than a mapping, and merges multiplied through aliases, are errors")
    func badMergeKeys() {
        var bomb = ["x-m0: &m0 {" + (0..<10).map { "k\($0): 1" }.joined(separator: ", ") + "}"]
        for level in 1..<8 {
            bomb.append(
                "x-m\(level): &m\(level) {<<: [" + Array(repeating: "*m\(level - 1)", count: 10).joined(separator: ", ")
                    + "]}")
        }
        bomb.append("feeds:\n  - url: https://a.example/\n    <<: *m7")
        let cases = [
            (
                "feeds:\n  - url: https://a.example/\n    <<: https://b.example/\n",
                "feeds.yml:3:9: error: '<<' merges mappings into this one (such as '<<: *defaults'), got \"https://b.example/\""
            ),
            (
                bomb.joined(separator: "\n") + "\n",
                "feeds.yml:10:5: error: merge keys ('<<') bring in more than 10000 keys in this file, through aliases of"
                    + " aliases; merge less"
            ),
        ]
        for (yaml, expected) in cases {
            let started = ContinuousClock.now
            do {
                _ = try SiteConfiguration.parse(yaml: yaml)
                Issue.record("expected an error for \(yaml)")
            } catch {
                #expect(error.diagnostics.filter { $0.severity == .error }.map(\.description) == [expected])
            }
            // 10^8 merges if the aliases were followed without a bound.
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    /// Found in session 23: `tags: swift, rust` made one tag, "swift, rust", without a word.
    @Test("tags written as 'a, b' without brackets are read as a list, with a warning; in quotes they are one tag")
    func commaSeparatedTags() throws {
        let yaml = """
            feeds:
              - url: https://a.example/
                tags: swift, rust,, news
              - url: https://b.example/
                tags: "swift, rust"
            """
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(configuration.feeds.map(\.tags) == [["swift", "rust", "news"], ["swift, rust"]])
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:3:11: warning: 'tags: swift, rust,, news' is read as 3 tags; write 'tags: [swift, rust, news]'"
                    + " to say so (or the text in quotes for one tag)"
            ])
    }

    /// Found in review: the merge budget was per mapping (100,000 entries each under it), and
    /// `x-` keys were silent in a feed too, where `X-Api-Key:` without `headers:` is a mistake.
    @Test("the merge budget is the file's; a feed's x- key is a warning pointing to headers")
    func mergeBudgetAndFeedXKeys() throws {
        var yaml = "x-a: &a {" + (0..<100).map { "k\($0): 1" }.joined(separator: ", ") + "}\nfeeds:\n"
        for number in 0..<200 { yaml += "  - {<<: *a, url: https://a.example/\(number)}\n" }
        do {
            _ = try SiteConfiguration.parse(yaml: yaml)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.diagnostics.filter { $0.severity == .error }.map(\.description).first?.hasSuffix(
                    "merge keys ('<<') bring in more than 10000 keys in this file, through aliases of aliases; merge less"
                )
                    == true)
        }
        let (_, warnings) = try SiteConfiguration.parse(
            yaml: "x-note: mine\nfeeds:\n  - url: https://a.example/\n    X-Api-Key: secret\n")
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:4:5: warning: unknown key 'X-Api-Key' is ignored; a request header goes under 'headers:'"
            ])
    }

    @Test("unknown keys are warnings, with a suggestion for near misses")
    func unknownKeys() throws {
        let yaml =
            "title: t\nbase-url: https://x.example/\ncolour: blue\nfeeds:\n  - url: https://a.example/\n    nmae: A\n"
        let (configuration, warnings) = try SiteConfiguration.parse(yaml: yaml)
        #expect(configuration.feeds.count == 1)
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:2:1: warning: unknown key 'base-url' is ignored; did you mean 'base_url'?",
                "feeds.yml:3:1: warning: unknown key 'colour' is ignored (the keys are listed in README.md, 'feeds.yml reference')",
                "feeds.yml:6:5: warning: unknown key 'nmae' is ignored; did you mean 'name'?",
            ])
    }

    @Test("a missing file names the path and the option to fix it")
    func missingFile() {
        do {
            _ = try SiteConfiguration.load(contentsOf: URL(fileURLWithPath: "/nonexistent/feeds.yml"))
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "feeds.yml: error: there is no /nonexistent/feeds.yml: run `feedsite init` in /nonexistent to write a"
                    + " starter, or pass --config PATH")
        }
        do {
            _ = try SiteConfiguration.load(contentsOf: URL(fileURLWithPath: "/nonexistent/planet.yml"))
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "planet.yml: error: there is no /nonexistent/planet.yml: check the path given to --config")
        }
    }
}

extension SiteConfigurationTests {
    @Test("index_items is a deprecated, ignored key: a warning with its line, no error")
    func indexItemsDeprecated() throws {
        let (configuration, warnings) = try SiteConfiguration.parse(
            yaml: "index_items: 20\nfeeds:\n  - https://ok.example/\n")
        #expect(configuration.pageSize == SiteConfiguration.Defaults.pageSize)
        #expect(
            warnings.map(\.description) == [
                "feeds.yml:1:1: warning: 'index_items' is deprecated and ignored: the index lists every item, 'page_size' per page"
            ])
    }

    @Test(
        "language tags from feeds are normalised or dropped",
        arguments: [
            ("en", "en"), ("en_US", "en-US"), (" de-CH ", "de-CH"), ("zh-Hant-TW", "zh-Hant-TW"), ("English", nil),
            ("en us", nil), ("", nil), ("x", nil), ("fr-", nil), ("<script>", nil),
        ] as [(String, String?)])
    func languageTags(text: String, expected: String?) {
        #expect(LanguageTag.normalised(text) == expected)
    }
}
