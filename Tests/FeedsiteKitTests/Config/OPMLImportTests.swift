import Foundation
import Testing

@testable import FeedsiteKit

@Suite("OPML import")
struct OPMLImportTests {
    static let opml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="1.0">
          <head><title>My subscriptions</title></head>
          <body>
            <outline text="Tech" title="Tech">
              <outline type="rss" text="Swift.org" title="Swift.org" xmlUrl="https://www.swift.org/atom.xml" htmlUrl="https://www.swift.org/"/>
              <outline text="Nested">
                <outline type="rss" TEXT="Rust: the blog" XMLURL="https://blog.rust-lang.org/feed.xml"/>
              </outline>
            </outline>
            <outline type="rss" title="Only a title" xmlUrl="feed://example.org/rss?a=1&b=2"/>
            <outline type="rss" text="Broken" xmlUrl="javascript:alert(1)"/>
            <outline type="rss" text="Again" xmlUrl="https://WWW.SWIFT.ORG/atom.xml"/>
            <outline type="link" text="Just a link" url="https://example.com/"/>
            <outline type="rss" text="Caf&eacute; &amp; &quot;quotes&quot;: #1" xmlUrl="https://cafe.example/feed"/>
          </body>
        </opml>
        """

    static func read(_ text: String = opml) throws(ConfigurationError) -> OPMLImport.Document {
        try OPMLImport.read(Data(text.utf8), fileName: "subs.opml")
    }

    @Test("nested outlines, any attribute case, feed:// URLs, bare & and HTML entities are read")
    func reading() throws {
        let document = try Self.read()
        #expect(document.title == "My subscriptions")
        #expect(
            document.subscriptions.map(\.url.absoluteString) == [
                "https://www.swift.org/atom.xml", "https://blog.rust-lang.org/feed.xml",
                "http://example.org/rss?a=1&b=2",
                "https://cafe.example/feed",
            ])
        #expect(
            document.subscriptions.map(\.name) == [
                "Swift.org", "Rust: the blog", "Only a title", "Café & \"quotes\": #1",
            ])
        #expect(document.subscriptions.map(\.line) == [6, 8, 11, 15])
        #expect(
            document.diagnostics.map(\.description) == [
                "subs.opml:12: warning: outline 'Broken' has no usable feed URL (\"javascript:alert(1)\" is not an http(s) URL); skipped",
                "subs.opml:13: warning: https://WWW.SWIFT.ORG/atom.xml is listed again (first on line 6); skipped",
                "subs.opml:14: warning: left out 'Just a link' with a 'url' but no 'xmlUrl': links to web pages or"
                    + " other lists (type=\"link\" or \"include\"), not feeds; add a feed from such a page to feeds.yml"
                    + " by its feed address",
            ])
    }

    /// One outline feeds.yml would refuse (a password in its URL) made the whole import fail,
    /// without saying which; it is now skipped like any unusable outline, with its line.
    @Test("an outline with credentials or a port no TCP connection has is skipped, with its line and why")
    func unusableURLsAreSkippedOneByOne() throws {
        let document = try Self.read(
            """
            <opml version="2.0"><body>
              <outline text="ok" xmlUrl="https://ok.example/feed"/>
              <outline text="cred" xmlUrl="https://me:secret@private.example/feed"/>
              <outline text="port" xmlUrl="http://127.0.0.1:99999/x"/>
              <outline text="also ok" xmlUrl="https://ok.example/other"/>
            </body></opml>
            """)
        #expect(
            document.subscriptions.map(\.url.absoluteString) == ["https://ok.example/feed", "https://ok.example/other"])
        #expect(
            document.diagnostics.map(\.description) == [
                "subs.opml:3: warning: outline 'cred': its feed URL holds a user name or password before its host"
                    + " (user:…@), which the site would publish; skipped: add it to feeds.yml by hand without them, and"
                    + " send them with headers: {Authorization: \"Basic …\"}",
                "subs.opml:4: warning: outline 'port' has no usable feed URL (\"http://127.0.0.1:99999/x\" is not an"
                    + " http(s) URL: port 99999 is not a TCP port (1–65535)); skipped",
            ])
    }

    @Test("files that are not OPML are errors that say what they are")
    func notOPML() {
        let cases: [(String, String)] = [
            ("", "subs.opml: error: the OPML file is empty"),
            (
                "<rss version=\"2.0\"><channel/></rss>",
                "subs.opml: error: not an OPML file: the root element is <rss>, expected <opml>; this is a feed: add its URL to feeds.yml as '- url: …' instead"
            ),
            (
                "<opml><body><outline text=\"x\"/></body></opml>",
                "subs.opml: error: no feeds found: no <outline> element has an 'xmlUrl' attribute"
            ),
        ]
        for (text, message) in cases {
            #expect(throws: ConfigurationError.self) { try Self.read(text) }
            do {
                _ = try Self.read(text)
            } catch {
                #expect(error.description == message)
            }
        }
        do {
            _ = try Self.read("<opml><body><outline xmlUrl=\"https://a.example/\"></body>")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("subs.opml:1:"))
            #expect(error.description.contains("error: not well-formed XML"))
        }
        // Over 10 MB XMLParser stops with "XML error 1" at the end of the file: said up front.
        let outline = #"<outline text="x" xmlUrl="https://a.example/feed.xml"/>"# + "\n"
        let large = "<opml version=\"2.0\"><body>" + String(repeating: outline, count: 190_000) + "</body></opml>"
        #expect(large.utf8.count > OPMLImport.maxBytes)
        do {
            _ = try Self.read(large)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "subs.opml: error: the OPML file is \(large.utf8.count) bytes, over the 10 MB feedsite reads (some"
                    + " 150,000 feeds): split it, and import each part")
        }
    }

    @Test("merging appends at the end of the feeds: list and keeps every comment and line")
    func mergeKeepsComments() throws {
        let yaml = """
            # My planet. Comments matter.
            title: Planet   # inline comment
            feeds:
              # the first one
              - url: https://www.swift.org/atom.xml
                name: Swift.org   # keep me

              - url: https://go.dev/blog/feed.atom
              # - url: https://disabled.example/feed   (commented out)

            # trailing section comment
            base_url: https://planet.example/
            """ + "\n"
        let outcome = try OPMLImport.merge(Self.read(), into: yaml, opmlFileName: "subs.opml")
        #expect(
            outcome.added.map(\.url.absoluteString) == [
                "https://blog.rust-lang.org/feed.xml", "http://example.org/rss?a=1&b=2", "https://cafe.example/feed",
            ])
        #expect(outcome.duplicates.map(\.url.absoluteString) == ["https://www.swift.org/atom.xml"])
        #expect(
            outcome.diagnostics.map(\.description) == [
                "subs.opml:6: warning: https://www.swift.org/atom.xml is already in feeds.yml (line 5); skipped"
            ])
        #expect(
            outcome.yaml == """
                # My planet. Comments matter.
                title: Planet   # inline comment
                feeds:
                  # the first one
                  - url: https://www.swift.org/atom.xml
                    name: Swift.org   # keep me

                  - url: https://go.dev/blog/feed.atom
                  # - url: https://disabled.example/feed   (commented out)
                  - url: https://blog.rust-lang.org/feed.xml
                    name: "Rust: the blog"
                    tags: [Tech, Nested]
                  - url: http://example.org/rss?a=1&b=2
                    name: Only a title
                  - url: https://cafe.example/feed
                    name: "Café & \\"quotes\\": #1"

                # trailing section comment
                base_url: https://planet.example/
                """ + "\n")
        let (configuration, _) = try SiteConfiguration.parse(yaml: outcome.yaml)
        #expect(
            configuration.feeds.map(\.name) == [
                "Swift.org", nil, "Rust: the blog", "Only a title", "Café & \"quotes\": #1",
            ])
        #expect(configuration.feeds.map(\.tags) == [[], [], ["Tech", "Nested"], [], []])
    }

    /// Repeats were found by comparing with every tag kept, and a feed listed again by parsing
    /// every subscription's URL: 50,000 categories on one outline took 40 s, 5,000 feeds listed in
    /// two folders 19 s (10,000: over a minute).
    @Test("a feed keeps its first 30 tags, with a warning; 10,000 feeds in two folders import in linear time")
    func manyTagsAndRepeatsAreLinear() throws {
        let categories = (1...50).map { "/c\($0)" }.joined(separator: ",")
        let tagged = try Self.read(
            """
            <opml version="2.0"><body>
              <outline text="Many" xmlUrl="https://m.example/feed" category="\(categories)"/>
            </body></opml>
            """)
        #expect(tagged.subscriptions.first?.tags == (1...30).map { "c\($0)" })
        #expect(
            tagged.diagnostics.map(\.description) == [
                "subs.opml:2: warning: outline 'Many' has 50 folders and categories; a feed keeps its first 30 as tags"
            ])

        let outlines = (1...10_000).map { #"<outline text="F\#($0)" xmlUrl="https://f\#($0).example/feed"/>"# }
            .joined(separator: "\n")
        let start = ContinuousClock.now
        let twice = try Self.read(
            #"<opml version="2.0"><body><outline text="A">"# + outlines + #"</outline><outline text="B">"# + outlines
                + "</outline></body></opml>")
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(twice.subscriptions.count == 10_000)
        #expect(twice.subscriptions.allSatisfy { $0.tags == ["A", "B"] })
        #expect(twice.diagnostics.isEmpty)
    }

    @Test("folders become tags: every enclosing folder, a feed in two folders gets both, category paths too")
    func foldersAreTags() throws {
        let document = try Self.read(
            """
            <opml version="2.0"><body>
              <outline text="News">
                <outline text="A" xmlUrl="https://a.example/feed"/>
                <outline title="Web,  Dev">
                  <outline text="B" xmlUrl="https://b.example/feed" category="/Tech/Swift,/Misc"/>
                </outline>
              </outline>
              <outline text="Rust">
                <outline text="A again" xmlUrl="https://A.example/feed"/>
                <outline text="A once more" xmlUrl="https://a.example/feed"/>
              </outline>
              <outline text="C" xmlUrl="https://c.example/feed"/>
            </body></opml>
            """)
        #expect(
            document.subscriptions.map(\.url.absoluteString) == [
                "https://a.example/feed", "https://b.example/feed", "https://c.example/feed",
            ])
        #expect(document.subscriptions.map(\.tags) == [["News", "Rust"], ["News", "Web, Dev", "Swift", "Misc"], []])
        // Only the third listing added nothing: it alone is reported.
        #expect(
            document.diagnostics.map(\.description) == [
                "subs.opml:10: warning: https://a.example/feed is listed again (first on line 3); skipped"
            ])
        let outcome = try OPMLImport.merge(document, into: nil, opmlFileName: "subs.opml")
        #expect(outcome.yaml.contains("    tags: [News, Rust]\n"))
        #expect(outcome.yaml.contains("    tags: [News, \"Web, Dev\", Swift, Misc]\n"))
        let (configuration, _) = try SiteConfiguration.parse(yaml: outcome.yaml)
        #expect(configuration.feeds.map(\.tags) == [["News", "Rust"], ["News", "Web, Dev", "Swift", "Misc"], []])
    }

    @Test("lists at column 0, empty lists, missing feeds: and no file at all")
    func mergeShapes() throws {
        let document = try Self.read("<opml><body><outline text=\"A\" xmlUrl=\"https://a.example/f\"/></body></opml>")
        let shapes: [(String?, String)] = [
            (
                "feeds:\n- url: https://x.example/\ntitle: T\n",
                "feeds:\n- url: https://x.example/\n- url: https://a.example/f\n  name: A\ntitle: T\n"
            ),
            ("title: T\nfeeds: []\n", "title: T\nfeeds:\n  - url: https://a.example/f\n    name: A\n"),
            // The comment after an empty list stays.
            (
                "title: T\r\nfeeds: []   # none yet\r\n",
                "title: T\r\nfeeds:   # none yet\r\n  - url: https://a.example/f\r\n    name: A\r\n"
            ),
            ("feeds: ~ # later\n", "feeds: # later\n  - url: https://a.example/f\n    name: A\n"),
            ("title: T\nfeeds:\n", "title: T\nfeeds:\n  - url: https://a.example/f\n    name: A\n"),
            ("title: T\n", "title: T\n\nfeeds:\n  - url: https://a.example/f\n    name: A\n"),
            (
                "title: T\r\nfeeds:\r\n  - https://x.example/\r\n",
                "title: T\r\nfeeds:\r\n  - https://x.example/\r\n  - url: https://a.example/f\r\n    name: A\r\n"
            ),
            (
                nil,
                "# feedsite configuration: every key is documented in README.md (\"feeds.yml reference\").\nfeeds:\n  - url: https://a.example/f\n    name: A\n"
            ),
        ]
        for (input, expected) in shapes {
            let outcome = try OPMLImport.merge(document, into: input)
            #expect(outcome.yaml == expected, "\(input ?? "nil")")
            #expect(outcome.configExisted == (input != nil))
        }
    }

    @Test("a flow list or broken YAML is refused with a located error; nothing changes")
    func mergeRefusals() throws {
        let document = try Self.read("<opml><body><outline text=\"A\" xmlUrl=\"https://a.example/f\"/></body></opml>")
        do {
            _ = try OPMLImport.merge(document, into: "title: T\nfeeds: [https://x.example/]\n")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "feeds.yml:2:8: error: 'feeds' must be a block list ('- url: https://…' on its own lines) to import into it"
            )
        }
        do {
            _ = try OPMLImport.merge(document, into: "title: [unclosed\nfeeds:\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("feeds.yml:"))
            #expect(error.description.contains("error: not valid YAML"))
        }
    }

    @Test("everything already present: nothing added, the text is unchanged")
    func allDuplicates() throws {
        let document = try Self.read("<opml><body><outline text=\"A\" xmlUrl=\"https://a.example/f\"/></body></opml>")
        let yaml = "feeds:\n  - url: https://a.example/f   # mine\n"
        let outcome = try OPMLImport.merge(document, into: yaml)
        #expect(outcome.added.isEmpty)
        #expect(outcome.yaml == yaml)
        #expect(outcome.duplicates.count == 1)
    }

    /// Found in session 22: `https://h:443/rss` was imported next to `https://h/rss`.
    @Test("a default port, an empty path and the host's case do not make another feed")
    func sameAddressWrittenTwoWays() throws {
        let document = try Self.read(
            """
            <opml><body>
            <outline text="A" xmlUrl="https://A.example:443/rss"/>
            <outline text="B" xmlUrl="http://b.example:80"/>
            <outline text="C" xmlUrl="https://c.example:8443/rss"/>
            </body></opml>
            """)
        #expect(document.subscriptions.count == 3)
        let yaml =
            "feeds:\n  - url: https://a.example/rss\n  - url: http://b.example/\n  - url: https://c.example/rss\n"
        let outcome = try OPMLImport.merge(document, into: yaml)
        #expect(outcome.duplicates.map(\.name) == ["A", "B"])
        #expect(outcome.added.map(\.url.absoluteString) == ["https://c.example:8443/rss"])
    }

    @Test("YAML scalars are plain when safe and quoted otherwise")
    func scalars() {
        #expect(OPMLImport.yamlScalar("Swift.org") == "Swift.org")
        #expect(OPMLImport.yamlScalar("https://a.example/x?a=1&b=2#frag") == "https://a.example/x?a=1&b=2#frag")
        #expect(OPMLImport.yamlScalar("yes") == "\"yes\"")
        #expect(OPMLImport.yamlScalar("2024") == "\"2024\"")
        #expect(OPMLImport.yamlScalar("a: b") == "\"a: b\"")
        #expect(OPMLImport.yamlScalar("- x") == "\"- x\"")
        #expect(OPMLImport.yamlScalar("tab\there \u{1}") == "\"tab\\there \\x01\"")
    }

    @Test("round trip: our own opml.xml imported into an empty config gives the same feed list")
    func roundTrip() throws {
        let yaml = """
            title: Round trip
            feeds:
              - url: https://www.swift.org/atom.xml
                name: Swift.org
              - url: https://blog.example/feed?x=1&y=2
              - url: https://odd.example/rss
                name: "Odd: <name> & \\"quotes\\""
            """
        let (configuration, _) = try SiteConfiguration.parse(yaml: yaml)
        let site = Site(configuration: configuration, feeds: [], items: [])
        let opml = try #require(PublishedFiles.render(site)["opml.xml"])
        let outcome = try OPMLImport.merge(OPMLImport.read(opml, fileName: "opml.xml"), into: nil)
        let (imported, _) = try SiteConfiguration.parse(yaml: outcome.yaml)
        #expect(imported.feeds.map(\.url) == configuration.feeds.map(\.url))
        #expect(imported.feeds.map(\.name) == ["Swift.org", "blog.example", "Odd: <name> & \"quotes\""])
    }

    @Test("importFile writes feeds.yml atomically, and only when something was added")
    func importFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-opml-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let opmlFile = directory.appendingPathComponent("subs.opml")
        let config = directory.appendingPathComponent("feeds.yml")
        try Data(Self.opml.utf8).write(to: opmlFile)
        let first = try OPMLImport.importFile(opmlFile, into: config)
        #expect(!first.configExisted)
        #expect(first.added.count == 4)
        #expect(first.diagnostics.count == 3)
        let written = try String(contentsOf: config, encoding: .utf8)
        #expect(written.hasPrefix("# feedsite configuration"))
        #expect(written.contains("title: My subscriptions\n"))
        let second = try OPMLImport.importFile(opmlFile, into: config)
        #expect(second.added.isEmpty)
        #expect(second.duplicates.count == 4)
        #expect(try String(contentsOf: config, encoding: .utf8) == written)
    }

    /// Foundation's `.atomic` write replaced a linked `feeds.yml` with a file of its own (the
    /// dotfiles repository's copy never got the feeds) and gave it mode 0644.
    @Test("a feeds.yml that is a link is written through, and keeps its permissions")
    func importThroughLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-opml-\(UUID())")
        let dotfiles = directory.appendingPathComponent("dotfiles")
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = dotfiles.appendingPathComponent("planet.yml")
        try Data("title: Mine\nfeeds:\n  - url: https://mine.example/feed.xml\n".utf8).write(to: real)
        #expect(chmod(real.path, 0o640) == 0)
        let config = directory.appendingPathComponent("feeds.yml")
        try FileManager.default.createSymbolicLink(atPath: config.path, withDestinationPath: "dotfiles/planet.yml")
        let opmlFile = directory.appendingPathComponent("subs.opml")
        try Data(Self.opml.utf8).write(to: opmlFile)
        let outcome = try OPMLImport.importFile(opmlFile, into: config)
        #expect(outcome.added.count == 4)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: config.path) == "dotfiles/planet.yml")
        let text = try String(contentsOf: real, encoding: .utf8)
        #expect(text.hasPrefix("title: Mine\n") && text.contains("https://mine.example/feed.xml"))
        #expect(text.components(separatedBy: "- url:").count == 6)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: real.path)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dotfiles.path) == ["planet.yml"])
    }

    /// What an exporter or a cut-off download gets wrong: a name longer than feeds.yml takes (cut),
    /// folder names too long to be tags (left out), control characters (removed), a file cut in
    /// the middle (read as repaired, with a located warning), an HTML page (named, with advice).
    @Test("odd exports are imported so that build accepts the result, each change with a warning")
    func oddExports() throws {
        let long = String(repeating: "A", count: 20_000)
        let text = """
            <?xml version="1.0"?>
            <opml version="2.0"><head><title>x</title></head><body>
            <outline text="\(long)" xmlUrl="https://long.example/rss"/>
            <outline text="\(String(repeating: "B", count: 150))"><outline text="ok" xmlUrl="https://ok.example/rss"/></outline>
            <outline text="cut" xmlUrl="https://cut.example/rss"/>
            <outline text="and half a
            """
        let document = try Self.read(text)
        #expect(
            document.subscriptions.map(\.url.absoluteString) == [
                "https://long.example/rss", "https://ok.example/rss", "https://cut.example/rss",
            ])
        #expect(document.subscriptions.first?.name == String(long.prefix(9_999)) + "…")
        #expect(document.subscriptions.map(\.tags) == [[], [], []])
        #expect(
            document.diagnostics.map(\.description) == [
                // The last outline's tag is cut in half: dropped, and <body> and <opml> closed.
                "subs.opml:6:26: warning: not well-formed XML (malformed attribute), read as repaired (line 6:"
                    + " repaired end of document inside <body>, cut off (closed 2 open elements)): check that every"
                    + " feed you expected was imported",
                "subs.opml:3: warning: a feed's name is 20000 characters long; cut to 10000",
                "subs.opml:4: warning: left out a folder or category longer than 100 characters, the longest tag"
                    + " feeds.yml takes",
            ])
        let merged = try OPMLImport.merge(document, into: nil)
        let (configuration, _) = try SiteConfiguration.parse(yaml: merged.yaml)
        #expect(configuration.feeds.count == 3)
        // The last safety net: a merge that `build` would refuse is an error, and nothing is written.
        var unchecked = document
        unchecked.subscriptions[0].name = long
        #expect(throws: ConfigurationError.self) { try OPMLImport.merge(unchecked, into: nil) }
        do {
            _ = try OPMLImport.merge(
                unchecked, into: "title: t\nfeeds:\n  - https://a.example/\n", opmlFileName: "subs.opml")
        } catch {
            #expect(
                error.description
                    == "subs.opml: error: an imported feed would make feeds.yml invalid: 'name' is 20000 characters"
                    + " long: at most 10000")
        }
        do {
            _ = try Self.read("<!DOCTYPE html>\n<html><body>Feeds</body></html>")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "subs.opml:1:1: error: not an OPML file: it is an HTML page; export the subscription list from"
                    + " your feed reader as OPML (often under Settings, Import/Export) and import that file")
        }
    }

    /// OPML 2.0's `isComment="true"` comments an outline out, with everything inside it.
    @Test("feeds commented out (isComment) are left out, with a warning; the next ones are read")
    func commentedOut() throws {
        let document = try Self.read(
            """
            <opml version="2.0"><body>
            <outline text="Old" isComment="true">
              <outline text="A" xmlUrl="https://a.example/rss"/>
              <outline text="Inner"><outline text="B" xmlUrl="https://b.example/rss"/></outline>
            </outline>
            <outline text="C" xmlUrl="https://c.example/rss" isComment="TRUE"/>
            <outline text="D" xmlUrl="https://d.example/rss" isComment="false"/>
            <outline text="Kept"><outline text="E" xmlUrl="https://e.example/rss"/></outline>
            </body></opml>
            """)
        #expect(document.subscriptions.map(\.url.absoluteString) == ["https://d.example/rss", "https://e.example/rss"])
        #expect(document.subscriptions.last?.tags == ["Kept"])
        #expect(
            document.diagnostics.map(\.description) == [
                "subs.opml:3: warning: left out 3 feeds commented out in the file (in an outline marked"
                    + " isComment=\"true\")"
            ])
    }

    /// Found in session 22: an outline with a `url` and no `xmlUrl` vanished without a word.
    @Test(
        "links to pages and other lists (url, no xmlUrl) are left out with a warning; a folder carrying a url is a folder"
    )
    func linksAreNamed() throws {
        let document = try Self.read(
            """
            <opml version="2.0"><body>
            <outline text="Home page" type="link" url="https://home.example/"/>
            <outline text="Blogs" url="https://blogs.example/">
              <outline text="A" xmlUrl="https://a.example/rss"/>
            </outline>
            <outline text="More lists" type="include" url="https://lists.example/more.opml"/>
            <outline text="B" type="rss" url="https://b.example/rss"/>
            <outline text="Blank" type="link" url=" "/>
            </body></opml>
            """)
        #expect(document.subscriptions.map(\.url.absoluteString) == ["https://a.example/rss", "https://b.example/rss"])
        #expect(document.subscriptions.first?.tags == ["Blogs"])
        #expect(
            document.diagnostics.map(\.description) == [
                "subs.opml:2: warning: left out 'Home page' and 1 more outline with a 'url' but no 'xmlUrl': links"
                    + " to web pages or other lists (type=\"link\" or \"include\"), not feeds; add a feed from such a"
                    + " page to feeds.yml by its feed address"
            ])
    }

    /// The size is known before the file is read (a 4 GB file took 4 GB of memory to be refused);
    /// a folder and a link to nothing are named as what they are.
    @Test("a file over the limit is refused unread; a folder, or a feeds.yml link to nothing, is an error")
    func filesThatCannotBeImported() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-opml-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("feeds.yml")
        let sparse = directory.appendingPathComponent("huge.opml")
        #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 4_000_000_000)
        try handle.close()
        #expect(throws: ConfigurationError.self) { try OPMLImport.importFile(sparse, into: config) }
        do {
            _ = try OPMLImport.importFile(sparse, into: config)
        } catch {
            #expect(
                error.description
                    == "huge.opml: error: the OPML file is 4000000000 bytes, over the 10 MB feedsite reads (some"
                    + " 150,000 feeds): split it, and import each part")
        }
        let folder = directory.appendingPathComponent("folder.opml")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            _ = try OPMLImport.importFile(folder, into: config)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasSuffix("folder.opml: it is a folder, not a file"))
        }
        let opmlFile = directory.appendingPathComponent("subs.opml")
        try Data(Self.opml.utf8).write(to: opmlFile)
        try FileManager.default.createSymbolicLink(atPath: config.path, withDestinationPath: "missing/planet.yml")
        do {
            _ = try OPMLImport.importFile(opmlFile, into: config)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description.hasSuffix(
                    "is a link to missing/planet.yml, which does not exist: create that file, or fix the link"))
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: config.path) == "missing/planet.yml")
        #expect(FileManager.default.fileExists(atPath: config.path) == false)
        #expect(FileManager.default.fileExists(atPath: sparse.path))
    }
}
