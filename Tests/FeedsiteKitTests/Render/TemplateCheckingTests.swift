import Foundation
import Testing

@testable import FeedsiteKit

/// The load-time check of a theme's names against the view types (`Template.checkNames`).
@Suite("Template name check")
struct TemplateCheckingTests {
    /// The warnings for a theme made of these files (name → source), pages rendered as feedsite does.
    static func warnings(_ files: [String: String]) throws -> [String] {
        var templates: [String: Template] = [:]
        for (name, source) in files { templates[name] = try Template(parsing: source) }
        return Template.checkNames(templates).map { "\($0.template):\($0.location): \($0.message)" }
    }

    static func copyOfDefaultTemplates() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-check-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: TemplateRulesTests.templatesDirectory, to: copy)
        return copy
    }

    @Test("the default theme gives no warning")
    func defaultThemeIsClean() throws {
        let templates = try SiteTemplates.load(from: TemplateRulesTests.templatesDirectory)
        #expect(templates.checkNames(folder: "Templates").map(\.description) == [])
    }

    @Test("every default template is checked, partials and the layout included")
    func everyDefaultTemplateIsReached() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TemplateRulesTests.templatesDirectory.path)
            .filter { $0.hasSuffix(".mustache") }.sorted()
        #expect(names.contains("layout.mustache") && names.contains("item-summary.mustache"))
        let copy = try Self.copyOfDefaultTemplates()
        defer { try? FileManager.default.removeItem(at: copy) }
        for name in names {
            let url = copy.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            // A name no view type has, after the last line: the file is walked in some context.
            try Data((text + "{{zzyzx}}").utf8).write(to: url)
        }
        let files = try SiteTemplates.load(from: copy).checkNames(folder: "Templates").compactMap(\.file)
        #expect(Set(files) == Set(names.map { "Templates/\($0)" }))
    }

    @Test("a typo in a user's template is a located warning with a suggestion (issue 20's example)")
    func issueExample() throws {
        let copy = try Self.copyOfDefaultTemplates()
        defer { try? FileManager.default.removeItem(at: copy) }
        try Data(
            """
            <article class="summary">
            <h2><a href="{{url}}">{{title}}</a></h2>
            <p>Posted {{titel}} by {{#authors}}{{.}}{{/authors}}</p>
            </article>

            """.utf8
        ).write(to: copy.appendingPathComponent("item-summary.mustache"))
        let warnings = try SiteTemplates.load(from: copy).checkNames(folder: "Templates").map(\.description)
        #expect(
            warnings == [
                "Templates/item-summary.mustache:3:11: warning: 'titel' is not a variable here; did you mean 'title'?"
            ])
    }

    /// A build of one real feed with the built-in theme copied to `Templates/` and changed by `edit`.
    static func build(_ build: TestBuild, editingTheme edit: (URL) throws -> Void) async throws -> BuildReport {
        let server = try await FixtureServer(routes: [
            "/feed": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml"))
        ])
        let templates = build.work.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TemplateRulesTests.templatesDirectory, to: templates)
        try edit(templates)
        try Data(TestBuild.patient("title: Test\nretries: 0\nfeeds:\n  - url: \(server.url("/feed"))\n").utf8).write(
            to: build.config)
        let result: Result<BuildReport, any Error>
        do {
            result = .success(
                try await SiteGenerator(
                    options: .init(
                        configFile: build.config, outputDirectory: build.output, templatesDirectory: templates,
                        stateDirectory: build.work.appendingPathComponent("state"),
                        now: Date(timeIntervalSince1970: 1_795_000_000)
                    ).withoutAvatars()
                ).build())
        } catch {
            result = .failure(error)
        }
        try await server.shutdown()
        return try result.get()
    }

    /// Replaces `old` with `new` in a template file.
    static func replace(_ old: String, with new: String, in file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
    }

    @Test("a build reports the warnings with the other diagnostics, and still publishes the site")
    func buildReportsWarnings() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let report = try await Self.build(build) { templates in
            try Self.replace(
                "{{pagination.label}}", with: "{{pagination.labl}}",
                in: templates.appendingPathComponent("pagination.mustache"))
        }
        #expect(
            report.diagnostics.map(\.description) == [
                "Templates/pagination.mustache:4:27: warning: 'pagination.labl' is not a variable here; did you mean"
                    + " 'pagination.label'?"
            ])
        #expect(report.itemCount == 4)
        #expect(build.site.files["index.html"] != nil)
    }

    @Test(
        "a theme whose partials include each other twice over fails the build, naming the page, and leaves no half-written site"
    )
    func runawayPartialsFailTheBuild() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        await #expect {
            try await Self.build(build) { templates in
                // 64 KB a partial: the output limit stops each page after about a thousand
                // renders, so the test is quick even in a debug build (the repeat limit is
                // tested in TemplateTests).
                for (name, text) in TemplateTests.fanOut(writing: String(repeating: "x", count: 65_536)) {
                    try Data(text.utf8).write(to: templates.appendingPathComponent("\(name).mustache"))
                }
                try Self.replace(
                    "{{{item.content}}}", with: "{{{item.content}}}{{>p0}}",
                    in: templates.appendingPathComponent("item.mustache"))
            }
        } throws: { error in
            guard let error = error as? TemplateError else { return false }
            return error.file.hasSuffix("/item.mustache")
                && error.message.contains("grows past 64 MB or 10 million repeats")
        }
        // Without the limits: 2^40 renders, days (and memory far past the machine's). With
        // them, under a second alone; no wall-clock bound here, since the test shares the
        // machine's threads with the whole suite (it waited minutes for them in CI).
        // A first build: no half-written site is left where the site would be.
        #expect(!FileManager.default.fileExists(atPath: build.output.path))
    }

    @Test("the column counts characters, not bytes, and the line counts CRLF lines")
    func location() throws {
        let warnings = try Self.warnings([
            "index": "a\r\nb\r\n  é→ {{nmae}}", "feed": "", "item": "", "status": "", "archive": "",
            "archive-index": "",
        ])
        #expect(
            warnings == [
                "index:3:6: 'nmae' is not a variable here (README.md, 'Templates', lists the variables of each page)"
            ])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The theme: `index` (an `IndexPage`), `feed`, `item`… and partials.
        var files: [String: String]
        var expected: [String]
        var testDescription: String { name }
    }

    /// Page templates left empty unless a case gives them.
    static let emptyPages = [
        "index": "", "feed": "", "item": "", "status": "", "archive": "", "archive-index": "", "404": "",
    ]

    static let cases: [Case] = [
        Case(
            name: "a section on a list of objects puts the element's fields in scope; outer names stay visible",
            files: ["index": "{{#items}}{{title}} {{pageTitle}} {{site.title}} {{#date}}{{iso}}{{/date}}{{/items}}"],
            expected: []),
        Case(
            name: "a typo inside a list section is matched against the element's fields",
            files: ["index": "{{#items}}\n  {{titel}}{{/items}}"],
            expected: ["index:2:3: 'titel' is not a variable here; did you mean 'title'?"]),
        Case(
            name: "an inverted section does not enter its value",
            files: ["index": "{{^items}}{{title}}{{/items}}"],
            expected: ["index:1:11: 'title' is not a variable here; did you mean 'site.title'?"]),
        Case(
            name: "a name of each element of a list, used outside the list, says which section to use",
            files: ["index": "{{excerpt}}"],
            expected: [
                "index:1:1: 'excerpt' is not a variable here; each of 'items' has it: use it inside a '{{#items}}' section"
            ]),
        Case(
            name: "a section on a Boolean or on text keeps the context",
            files: [
                "index":
                    "{{#isFirstPage}}{{heading}}{{/isFirstPage}}{{#meta.description}}{{.}} {{root}}{{/meta.description}}"
            ],
            expected: []),
        Case(
            name: "a section on an object enters it",
            files: ["feed": "{{#feed}}{{name}}, {{nmae}}{{/feed}}"],
            expected: ["feed:1:20: 'nmae' is not a variable here; did you mean 'name'?"]),
        Case(
            name: "dotted names are checked part by part",
            files: ["feed": "{{feed.nmae}} {{feed.items.title}} {{pageTitle.x}} {{feed.name}} {{feed.zzz}}"],
            expected: [
                "feed:1:1: 'feed.nmae' is not a variable here; did you mean 'feed.name'?",
                "feed:1:15: 'feed.items.title' is not a variable here: 'feed.items' is a list; use 'title' inside a '{{#feed.items}}' section",
                "feed:1:36: 'pageTitle.x' is not a variable here: 'pageTitle' has no fields",
                "feed:1:66: 'feed.zzz' is not a variable here: 'feed' has no 'zzz'",
            ]),
        Case(
            name: "a name of an object in scope is suggested with its path",
            files: ["item": "<h1>{{title}}</h1>"],
            expected: ["item:1:5: 'title' is not a variable here; did you mean 'item.title'?"]),
        Case(
            name: "names differing only in case are suggested",
            files: ["item": "{{item.feedUrl}}"],
            expected: ["item:1:1: 'item.feedUrl' is not a variable here; did you mean 'item.feedURL'?"]),
        Case(
            name: "inside a section on an unknown name, nothing more is reported",
            files: ["index": "{{#itmes}}{{title}} {{whatever}}{{/itmes}}"],
            expected: ["index:1:1: 'itmes' is not a variable here; did you mean 'items'?"]),
        Case(
            name: "objects and lists print nothing; HTML and text in the wrong tag",
            files: [
                "item":
                    "{{item}} {{item.categories}} {{item.content}} {{{item.title}}} {{&item.lang}} {{{item.content}}}"
            ],
            expected: [
                "item:1:1: 'item' is an object and prints nothing; print one of its fields, such as 'item.title'",
                "item:1:10: 'item.categories' is a list and prints nothing; repeat its elements with a '{{#item.categories}}' section",
                "item:1:30: 'item.content' is sanitised HTML, shown as markup by this tag; use '{{{item.content}}}' to insert it",
                "item:1:47: 'item.title' is text, escaped even by '{{{…}}}'; only sanitised HTML such as 'item.content' is inserted unescaped",
                "item:1:64: 'item.lang' is text, escaped even by '{{{…}}}'; only sanitised HTML such as 'item.content' is inserted unescaped",
            ]),
        Case(
            name: "a partial is checked where it is included",
            files: ["index": "{{#items}}{{>row}}{{/items}}", "row": "{{title}} {{tilte}}"],
            expected: ["row:1:11: 'tilte' is not a variable here; did you mean 'title'?"]),
        Case(
            name: "a partial included only where its names are not is reported",
            files: ["index": "{{>row}}", "row": "{{title}}"],
            expected: ["row:1:1: 'title' is not a variable here; did you mean 'site.title'?"]),
        Case(
            name: "a partial used in several places is reported only for names none of them provides",
            files: [
                "index": "{{>nav}}", "feed": "{{>nav}}", "nav": "{{#feed}}{{name}}{{/feed}}{{heading}}{{headnig}}",
            ],
            expected: ["nav:1:38: 'headnig' is not a variable here; did you mean 'heading'?"]),
        Case(
            name: "a child's blocks are checked where the parent puts them, and reported in the child's file",
            files: [
                "index": "{{<list}}{{$row}}{{title}}{{titel}}{{/row}}{{/list}}",
                "list": "<h1>{{heading}}</h1>{{#items}}{{$row}}{{url}}{{/row}}{{/items}}",
            ],
            expected: ["index:1:27: 'titel' is not a variable here; did you mean 'title'?"]),
        Case(
            name: "a parent's names are checked in the child page's context",
            files: ["status": "{{<frame}}{{/frame}}", "frame": "{{summary}} {{heading}}"],
            expected: [
                "frame:1:13: 'heading' is not a variable here (README.md, 'Templates', lists the variables of each page)"
            ]),
        Case(
            name: "a partial that includes itself is walked once per context",
            files: ["index": "{{>tree}}", "tree": "{{#items}}{{title}}{{>tree}}{{/items}}{{>tree}}"],
            expected: []),
    ]

    @Test("names are resolved as the renderer would", arguments: cases)
    func resolution(_ testCase: Case) throws {
        let files = Self.emptyPages.merging(testCase.files) { _, given in given }
        #expect(try Self.warnings(files) == testCase.expected)
    }

    @Test("partials that fan out exponentially are checked in bounded time")
    func fanOut() throws {
        var files = Self.emptyPages
        files["index"] = "{{>p0}}"
        for level in 0..<40 {
            // Each level includes the next twice, in two different contexts.
            files["p\(level)"] = "{{#items}}{{>p\(level + 1)}}{{/items}}{{#feeds}}{{>p\(level + 1)}}{{/feeds}}{{nmae}}"
        }
        files["p40"] = "{{title}}"
        let start = ContinuousClock.now
        let warnings = try Self.warnings(files)
        #expect(ContinuousClock.now - start < .seconds(5))
        // One per level: `nmae` is nowhere (`{{title}}` at the bottom is inside `items`).
        #expect(warnings.count == 40)
        #expect(
            warnings.first
                == "p0:1:55: 'nmae' is not a variable here (README.md, 'Templates', lists the variables of each page)")
        #expect(warnings[1] == "p1:1:55: 'nmae' is not a variable here; did you mean 'name'?")
    }

    @Test("a template full of unknown names gives a bounded number of warnings")
    func manyWarnings() throws {
        var files = Self.emptyPages
        files["index"] = (0..<30).map { "{{unknown\($0)}}" }.joined()
        let warnings = try Self.warnings(files)
        #expect(warnings.count == Template.maximumNameWarnings + 1)
        #expect(warnings.last == "index:1:1: 10 more tags like the ones above are not reported")
    }

    @Test("every page type and every object field names a view type the schema has")
    func schemaIsClosed() {
        for type in TemplateSchema.pageTypes.values { #expect(TemplateSchema.viewTypes[type] != nil, "\(type)") }
        func check(_ kind: TemplateSchema.Kind, _ path: String) {
            switch kind {
            case .object(let type): #expect(TemplateSchema.viewTypes[type] != nil, "\(path): \(type)")
            case .list(let element), .optional(let element): check(element, path)
            case .string, .html, .int, .bool: break
            }
        }
        for (type, fields) in TemplateSchema.viewTypes {
            for (field, kind) in fields { check(kind, "\(type).\(field)") }
        }
    }
}
