import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// feedsite's Mustache implementation: the spec's interpolation, sections, whitespace and
/// inheritance rules, the escaping policy, and located syntax errors.
@Suite("Templates")
struct TemplateTests {
    /// A view model made of a dictionary.
    struct Object: TemplateObject {
        var fields: [String: TemplateValue]
        func value(_ name: Template.NameView, at position: Int) -> TemplateValue? {
            fields[name.parts[position]]?.value(name, after: position)
        }
    }

    static func render(
        _ source: String, _ fields: [String: TemplateValue] = [:], partials: [String: String] = [:]
    ) throws -> String {
        var templates = ["page": try Template(parsing: source)]
        for (name, text) in partials { templates[name] = try Template(parsing: text) }
        var renderer = Template.Renderer(templates: templates)
        try renderer.render("page", with: .object(Object(fields: fields)))
        return String(decoding: renderer.output, as: UTF8.self)
    }

    static var person: TemplateValue { .object(Object(fields: ["name": .string("Ada"), "age": .int(36)])) }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var template: String
        var expected: String
        var testDescription: String { name }
    }

    /// Values used by every case below.
    static func fields() -> [String: TemplateValue] {
        [
            "text": .string(#"<b>"Tom" & 'Jerry'</b>"#),
            "html": .html(SanitisedHTML(html: "<p>safe</p>")),
            "empty": .html(.empty),
            "yes": .bool(true), "no": .bool(false), "count": .int(3),
            "list": .list([.string("a"), .string("b"), .string("c")]), "none": .list([]),
            "person": person, "title": .string("Root title"), "multiline": .string("one\ntwo"),
        ]
    }

    static let cases: [Case] = [
        Case(
            name: "{{x}} escapes the five HTML characters", template: "{{text}}",
            expected: "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"),
        Case(
            name: "{{{x}}} on plain text still escapes", template: "{{{text}}}|{{&text}}",
            expected:
                "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;|&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        ),
        Case(
            name: "{{{x}}} emits sanitised HTML verbatim, {{x}} escapes it", template: "{{{html}}}{{& html}}{{html}}",
            expected: "<p>safe</p><p>safe</p>&lt;p&gt;safe&lt;/p&gt;"),
        Case(
            name: "numbers and Booleans print; missing names print nothing",
            template: "{{count}} {{yes}} {{no}} [{{missing}}]",
            expected: "3 true false []"),
        Case(name: "dotted names", template: "{{person.name}} is {{ person.age }}", expected: "Ada is 36"),
        Case(
            name: "a dotted name does not fall back after its first part", template: "[{{person.title}}]",
            expected: "[]"),
        Case(
            name: "names not in the section's object are found further out",
            template: "{{#person}}{{name}}: {{title}}{{/person}}",
            expected: "Ada: Root title"),
        Case(name: "lists repeat with {{.}}", template: "{{#list}}<{{.}}>{{/list}}", expected: "<a><b><c>"),
        Case(
            name: "false, empty lists, empty HTML and missing names hide sections",
            template: "{{#no}}x{{/no}}{{#none}}x{{/none}}{{#empty}}x{{/empty}}{{#missing}}x{{/missing}}.",
            expected: "."),
        Case(
            name: "inverted sections show for exactly those",
            template:
                "{{^no}}1{{/no}}{{^none}}2{{/none}}{{^empty}}3{{/empty}}{{^missing}}4{{/missing}}{{^yes}}5{{/yes}}{{^list}}6{{/list}}",
            expected: "1234"),
        Case(
            name: "true shows a section without changing the context", template: "{{#yes}}{{title}}{{/yes}}",
            expected: "Root title"),
        Case(
            name: "standalone section and comment lines leave no blank lines",
            template: "a\n  {{#yes}}\nb\n  {{! note }}\n  {{/yes}}\nc\n",
            expected: "a\nb\nc\n"),
        Case(
            name: "standalone lines with CRLF", template: "a\r\n{{#yes}}\r\nb\r\n{{/yes}}\r\nc", expected: "a\r\nb\r\nc"
        ),
        Case(
            name: "tags sharing a line with text are not standalone", template: " {{#yes}}x{{/yes}}\n", expected: " x\n"
        ),
        Case(
            name: "a standalone tag at the end without a newline", template: "a\n{{#no}}\nb\n{{/no}}", expected: "a\n"),
        Case(name: "multi-line comments", template: "a{{! one\ntwo }}b", expected: "ab"),
        Case(
            name: "set delimiters", template: "{{=<% %>=}}<% count %>{{count}}<%={{ }}=%>{{count}}",
            expected: "3{{count}}3"),
        Case(name: "interpolated data is never indented", template: "  {{multiline}}", expected: "  one\ntwo"),
    ]

    @Test("Mustache rules", arguments: cases)
    func rules(_ testCase: Case) throws {
        #expect(try Self.render(testCase.template, Self.fields()) == testCase.expected)
    }

    @Test("a link to a site path is written after the page's way back to the root, escaped, in any tag or section")
    func siteLinks() throws {
        let templates = [
            "page": try Template(
                parsing: "{{u}}|{{{u}}}|{{#u}}<{{.}}>{{/u}}|{{^u}}never{{/u}}|{{#list}}{{u}} {{/list}}")
        ]
        let fields: [String: TemplateValue] = [
            "u": .link("items/a&b/index.html"), "list": .list([.bool(true), .bool(true)]),
        ]
        for (root, expected) in [
            ("", "items/a&amp;b/index.html|items/a&amp;b/index.html|<items/a&amp;b/index.html>||"),
            (
                "../../",
                "../../items/a&amp;b/index.html|../../items/a&amp;b/index.html|<../../items/a&amp;b/index.html>||"
            ),
        ] {
            var renderer = Template.Renderer(templates: templates)
            try renderer.render("page", with: .object(Object(fields: fields)), root: root)
            let listed = root + "items/a&amp;b/index.html "
            #expect(String(decoding: renderer.output, as: UTF8.self) == expected + listed + listed)
        }
    }

    @Test("partials render in the current context, standalone ones indented line by line, however often they repeat")
    func partials() throws {
        let partials = ["row": "<li>{{name}}</li>\n", "block": "x\n{{multiline}}\ny\n"]
        #expect(
            try Self.render("<ul>\n{{#person}}\n{{>row}}\n{{/person}}\n</ul>", Self.fields(), partials: partials)
                == "<ul>\n<li>Ada</li>\n</ul>")
        #expect(
            try Self.render("a\n  {{>block}}\nb", Self.fields(), partials: partials) == "a\n  x\n  one\ntwo\n  y\nb")
        #expect(try Self.render("[{{>row}}]", Self.fields(), partials: partials) == "[<li></li>\n]")
        // Repeated, and nested in another indented partial: the indentation is each partial's own
        // and ends with it.
        let lines = ["line": "<li>{{.}}</li>\n<hr>\n", "inner": "[\n  {{>pair}}\n]\n", "pair": "r\ns\n"]
        #expect(
            try Self.render("<ul>\n{{#list}}\n  {{>line}}\n{{/list}}\n</ul>\nend\n", Self.fields(), partials: lines)
                == "<ul>\n  <li>a</li>\n  <hr>\n  <li>b</li>\n  <hr>\n  <li>c</li>\n  <hr>\n</ul>\nend\n")
        #expect(try Self.render("x\n {{>inner}}\ny\n", [:], partials: lines) == "x\n [\n   r\n   s\n ]\ny\n")
    }

    @Test("inheritance: a child's blocks replace the parent's defaults; the outermost definition wins")
    func inheritance() throws {
        let partials = [
            "layout": "<main>\n{{$main}}default{{/main}}\n</main>{{$foot}}(foot){{/foot}}",
            "middle": "{{<layout}}{{$main}}middle{{/main}}{{$foot}}middle foot{{/foot}}{{/layout}}",
        ]
        #expect(
            try Self.render(
                "{{<layout}}\n{{$main}}\n<p>{{title}}</p>\n{{/main}}\nignored\n{{/layout}}\n", Self.fields(),
                partials: partials)
                == "<main>\n<p>Root title</p>\n\n</main>(foot)")
        #expect(try Self.render("{{<layout}}{{/layout}}", [:], partials: partials) == "<main>\ndefault\n</main>(foot)")
        #expect(
            try Self.render("{{<middle}}{{$main}}outer{{/main}}{{/middle}}", [:], partials: partials)
                == "<main>\nouter\n</main>middle foot")
    }

    @Test("a standalone parent or block indents what it renders; a block's content loses its own indentation")
    func inheritanceIndentation() throws {
        let partials = [
            "layout": "<main>\n  {{$main}}\n  {{/main}}\n</main>\n", "row": "<li>{{title}}</li>\n", "plain": "a\nb\n",
            "default": "<main>\n{{$main}}\n  <p>default</p>\n{{/main}}\n</main>\n",
        ]
        // The override's lines lose its four spaces and take the block's two; the partial in it
        // keeps the two it has beyond them.
        #expect(
            try Self.render(
                "{{<layout}}\n{{$main}}\n    <ul>\n      {{>row}}\n    </ul>\n{{/main}}\n{{/layout}}\n", Self.fields(),
                partials: partials) == "<main>\n  <ul>\n    <li>Root title</li>\n  </ul>\n</main>\n")
        #expect(
            try Self.render("{{<default}}{{/default}}", [:], partials: partials)
                == "<main>\n  <p>default</p>\n</main>\n")
        // A parent pair alone on its line indents the parent; one sharing its line keeps the
        // whitespace before it as text.
        #expect(try Self.render("x\n  {{<plain}}{{/plain}}\ny", [:], partials: partials) == "x\n  a\n  b\ny")
        #expect(try Self.render("x\n  {{<plain}}{{/plain}} y\n", [:], partials: partials) == "x\n  a\nb\n y\n")
    }

    @Test("a partial the set lacks fails only where it is rendered, and names itself")
    func missingPartial() throws {
        #expect(try Self.render("a{{#no}}{{>absent}}{{/no}}b", Self.fields()) == "ab")
        #expect {
            try Self.render("a{{#yes}}{{>absent}}{{/yes}}b", Self.fields())
        } throws: { error in
            guard case .missingTemplate(let name) = error as? Template.Renderer.Failure else { return false }
            return name == "absent"
        }
    }

    @Test("a partial that includes itself is stopped with an error, not a crash")
    func recursion() throws {
        #expect(throws: Template.Renderer.Failure.self) {
            try Self.render("{{>page}}", [:])
        }
    }

    /// `p0` includes `p1` twice, `p1` includes `p2` twice…: 2^40 renders of `p40` within the depth
    /// limit.
    static func fanOut(writing text: String) -> [String: String] {
        var partials: [String: String] = [:]
        for level in 0..<40 { partials["p\(level)"] = "{{>p\(level + 1)}}{{>p\(level + 1)}}\(text)" }
        partials["p40"] = text
        return partials
    }

    @Test(
        "partials that include each other twice over, 40 deep, are cut off at the output or step limit, with an error naming the page",
        arguments: ["x", ""])
    func fanOut(text: String) throws {
        // 2^40 partial renders would take days; the limits stop the render. They are scaled
        // down a hundredfold here so a debug build on a loaded machine finishes in seconds (a
        // release build stops at the real limits in 0.4 s; `make bench` renders real pages).
        var templates = ["page": try Template(parsing: "<p>{{>p0}}</p>")]
        for (name, source) in Self.fanOut(writing: text) { templates[name] = try Template(parsing: source) }
        var renderer = Template.Renderer(templates: templates)
        let limits = (
            output: Template.Renderer.maximumOutput / 100, steps: Template.Renderer.maximumSteps / 100,
            operations: Template.Renderer.maximumOperations / 100
        )
        renderer.limits = limits
        #expect {
            try renderer.render("page", with: .object(Object(fields: [:])))
        } throws: { error in
            guard case .tooLarge(let page) = error as? Template.Renderer.Failure else { return false }
            return page == "page"
        }
        // Stopped at the limit, not after. Each partial writes its text once and counts one
        // step, so "x" stops at the step limit with about that many bytes (less the 41 partials
        // still open); "" writes only "<p>".
        if text.isEmpty {
            #expect(renderer.output == Array("<p>".utf8))
        } else {
            #expect((limits.steps - 41 + 3...limits.steps + 3).contains(renderer.output.count))
        }
    }

    @Test("sections on a list nested in sections on the same list are cut off at the repeat limit")
    func nestedListSections() throws {
        let list = TemplateValue.list(Array(repeating: .bool(true), count: 100))
        let nested = String(repeating: "{{#l}}", count: 6) + String(repeating: "{{/l}}", count: 6)
        #expect {
            try Self.render(nested, ["l": list])
        } throws: { error in
            guard case .tooLarge("page") = error as? Template.Renderer.Failure else { return false }
            return true
        }
    }

    @Test("64 partials each nesting sections 100 deep stop with an error (the renderer's stack), not a crash")
    func sectionsAcrossPartials() throws {
        var partials: [String: String] = [:]
        let open = String(repeating: "{{#on}}", count: 99)
        let close = String(repeating: "{{/on}}", count: 99)
        for level in 0..<64 { partials["p\(level)"] = open + "{{>p\(level + 1)}}" + close }
        partials["p64"] = "end"
        #expect {
            try Self.render("{{>p0}}", ["on": .bool(true)], partials: partials)
        } throws: { error in
            guard case .nestedTooDeep("page") = error as? Template.Renderer.Failure else { return false }
            return true
        }
        // Within the bound, the same shape renders: 2 partials of 99 sections each.
        partials["p2"] = "end"
        #expect(try Self.render("{{>p0}}", ["on": .bool(true)], partials: partials) == "end")
    }

    @Test("a partial indented by 500 KB with 500,000 lines stops at the output limit, not at 250 GB")
    func indentationAmplified() throws {
        let partials = [
            "a": String(repeating: " ", count: 500_000) + "{{>nl}}\n",
            "nl": String(repeating: "\n", count: 500_000),
        ]
        var templates = ["page": try Template(parsing: "{{>a}}")]
        for (name, text) in partials { templates[name] = try Template(parsing: text) }
        var renderer = Template.Renderer(templates: templates)
        #expect {
            try renderer.render("page", with: .object(Object(fields: [:])))
        } throws: { error in
            guard case .tooLarge("page") = error as? Template.Renderer.Failure else { return false }
            return true
        }
        #expect(renderer.output.count <= Template.Renderer.maximumOutput + 600_000)
    }

    @Test("the load-time name check of 63 partials each 100 sections deep stops with a warning, not a crash")
    func checkerDepth() throws {
        var templates: [String: Template] = [:]
        let open = String(repeating: "{{#site}}", count: 100)
        let close = String(repeating: "{{/site}}", count: 100)
        for level in 0..<63 {
            templates["p\(level)"] = try Template(parsing: open + (level < 62 ? "{{>p\(level + 1)}}" : "x") + close)
        }
        templates["index"] = try Template(parsing: "{{>p0}}")
        let warnings = Template.checkNames(templates)
        #expect(warnings.contains { $0.message.contains("nest too much for every name to be checked") })
    }

    @Test("150,000 inclusions of a partial of 200,000 silent tags stop at the instruction limit, in seconds")
    func silentWork() throws {
        var templates = ["page": try Template(parsing: String(repeating: "{{>p}}", count: 150_000))]
        templates["p"] = try Template(parsing: String(repeating: "{{x}}", count: 200_000))
        var renderer = Template.Renderer(templates: templates)
        #expect {
            try renderer.render("page", with: .object(Object(fields: [:])))
        } throws: { error in
            guard case .tooLarge("page") = error as? Template.Renderer.Failure else { return false }
            return true
        }
    }

    @Test("a template that includes itself outside any section is an error when loaded; inside a section it is not")
    func unconditionalCycle() throws {
        let looping = [
            "a": try Template(parsing: "x{{>b}}"), "b": try Template(parsing: "{{#items}}{{/items}}{{<a}}{{/a}}"),
        ]
        let cycle = try #require(Template.unconditionalCycle(in: looping))
        #expect(cycle.1.count == 3 && cycle.1.first == cycle.1.last)
        let recursive = [
            "tree": try Template(parsing: "<li>{{name}}{{#children}}{{>tree}}{{/children}}</li>"),
            "page": try Template(parsing: "{{$main}}{{>page}}{{/main}}"),
        ]
        #expect(Template.unconditionalCycle(in: recursive) == nil)
    }

    @Test("a large value written many times stops the page at the output limit, not past it")
    func largeValueRepeated() throws {
        let content = TemplateValue.string(String(repeating: "a", count: 1 << 20))
        let template = try Template(parsing: String(repeating: "{{item}}", count: 200))
        var renderer = Template.Renderer(templates: ["page": template])
        #expect {
            try renderer.render("page", with: .object(Object(fields: ["item": content])))
        } throws: { error in
            guard case .tooLarge("page") = error as? Template.Renderer.Failure else { return false }
            return true
        }
        // 200 MB unchecked; stopped by the first value past 64 MB.
        #expect(renderer.output.count <= Template.Renderer.maximumOutput + (1 << 20))
    }

    @Test("delimiters longer than 16 bytes are a syntax error (each tag is searched for with them)")
    func longDelimiters() throws {
        let long = String(repeating: "<", count: 17)
        #expect {
            try Template(parsing: "a\n{{=\(long) >>=}}b")
        } throws: { error in
            guard let error = error as? TemplateSyntaxError else { return false }
            return error.line == 2 && error.message.contains("more than 16 bytes")
        }
        #expect(
            try Self.render("{{=\(String(repeating: "<", count: 16)) >=}}\(String(repeating: "<", count: 16))x>") == "")
    }

    @Test("a large page that is not a runaway renders whole: 20,000 list elements and 4 MB of text")
    func largePageRenders() throws {
        let elements = (0..<20_000).map { TemplateValue.object(Object(fields: ["n": .int($0)])) }
        let text = String(repeating: "a", count: 4 << 20)
        let output = try Self.render(
            "{{#list}}<i>{{n}}</i>{{/list}}<p>{{text}}</p>", ["list": .list(elements), "text": .string(text)])
        #expect(output.hasPrefix("<i>0</i><i>1</i>"))
        #expect(output.hasSuffix("<i>19999</i><p>" + text + "</p>"))
    }

    struct BadTemplate: CustomTestStringConvertible, Sendable {
        var source: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { source.debugDescription }
    }

    static let badTemplates: [BadTemplate] = [
        BadTemplate(
            source: "<p>\n  {{#items}}\n", line: 2, column: 3, message: "'{{#items}}' is never closed; add '{{/items}}'"
        ),
        BadTemplate(
            source: "{{#a}}\n{{#b}}\n{{/a}}", line: 3, column: 1,
            message: "'{{/a}}' does not match 'b' (opened at line 2); close that first with '{{/b}}'"),
        BadTemplate(source: "x {{/a}}", line: 1, column: 3, message: "'{{/a}}' closes a section that was never opened"),
        BadTemplate(
            source: "ok\n  é {{title", line: 2, column: 5, message: "the tag '{{title…' is never closed with '}}'"),
        BadTemplate(
            source: "{{upper(title)}}", line: 1, column: 1,
            message: "'upper(title)': functions in tags are not supported; use a plain name"),
        BadTemplate(source: "{{}}", line: 1, column: 1, message: "a tag without a name"),
        BadTemplate(
            source: "{{% CONTENT_TYPE: TEXT }}", line: 1, column: 1,
            message: "pragmas ('{{% CONTENT_TYPE: TEXT }}') are not supported; remove the tag"),
        BadTemplate(
            source: "{{=<%%>=}}", line: 1, column: 1,
            message: "set delimiters as '{{=<% %>=}}': two delimiters separated by a space"),
        BadTemplate(
            source: String(repeating: "{{#a}}", count: 100) + "\n{{^b}}" + String(repeating: "{{/a}}", count: 200),
            line: 2, column: 1,
            message:
                "'{{^b}}' nests sections, blocks and parents more than 100 deep; use a partial for a part that repeats"
        ),
    ]

    @Test("sections nested 100 deep still parse and render")
    func deepButAllowed() throws {
        let source = String(repeating: "{{#yes}}", count: 100) + "{{count}}" + String(repeating: "{{/yes}}", count: 100)
        #expect(try Self.render(source, Self.fields()) == "3")
    }

    @Test("syntax errors say where and what to do", arguments: badTemplates)
    func syntaxErrors(_ bad: BadTemplate) {
        #expect {
            _ = try Template(parsing: bad.source)
        } throws: { error in
            guard let error = error as? TemplateSyntaxError else { return false }
            #expect(error.line == bad.line)
            #expect(error.column == bad.column)
            #expect(error.message == bad.message)
            return true
        }
    }

    @Test("loading reports a partial or parent that has no file, and a syntax error with file:line:col")
    func loadErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-tpl-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: TemplateRulesTests.templatesDirectory, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = folder.appendingPathComponent("index.mustache")
        try Data("{{<layout}}{{$main}}{{>sidebar}}{{/main}}{{/layout}}".utf8).write(to: index)
        #expect {
            try SiteTemplates.load(from: folder)
        } throws: { error in
            "\(error)".hasSuffix(
                "index.mustache: error: 'sidebar' is used as a partial or parent but there is no sidebar.mustache")
        }
        try Data("<p>\n{{#items}}\n".utf8).write(to: index)
        #expect {
            try SiteTemplates.load(from: folder)
        } throws: { error in
            "\(error)".hasSuffix("index.mustache:2:1: error: '{{#items}}' is never closed; add '{{/items}}'")
        }
    }
}
