import Foundation
import Testing
import Yams

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// The official Mustache spec (`Fixtures/mustache-spec/`, its README says which commit) run against
/// feedsite's template engine: every test of every module the README claims, compared byte for
/// byte with the spec's `expected`. Cases where feedsite differs on purpose are listed in
/// `deviations` with what it does instead; a listed case that starts passing, or a listed name the
/// spec no longer has, fails too.
@Suite("Mustache spec")
struct MustacheSpecTests {
    /// The spec's modules feedsite implements. The optional `~lambdas` (a template cannot call
    /// code) and `~dynamic-names` (a located error, `dynamicNamesAreRefused`) are not among them.
    static let files = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~inheritance"]

    /// One test of a spec file.
    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var name: String
        /// Two tests of `~inheritance` share a name; the second is `Text inside parent #2`.
        var id: String
        var data: SpecData
        var template: String
        var partials: [String: String]
        var expected: String

        var testDescription: String { id }
    }

    /// A spec test's `data`, as YAML has it.
    indirect enum SpecData: Sendable {
        case null
        case bool(Bool)
        case int(Int)
        case float(Double)
        case string(String)
        case list([SpecData])
        case map([String: SpecData])

        init(_ node: Yams.Node) throws {
            switch node {
            case .mapping(let mapping):
                var fields: [String: SpecData] = [:]
                for (key, value) in mapping {
                    guard let key = key.string else { throw SpecError("a mapping key that is not text: \(key)") }
                    fields[key] = try SpecData(value)
                }
                self = .map(fields)
            case .sequence(let sequence):
                self = .list(try sequence.map(SpecData.init))
            case .scalar:
                switch node.tag.rawValue {
                case Tag.Name.null.rawValue: self = .null
                case Tag.Name.bool.rawValue: self = .bool(try Self.require(node.bool, node))
                case Tag.Name.int.rawValue: self = .int(try Self.require(node.int, node))
                case Tag.Name.float.rawValue: self = .float(try Self.require(node.float, node))
                default: self = .string(try Self.require(node.string, node))
                }
            case .alias:
                throw SpecError("an alias in the data: \(node)")
            }
        }

        private static func require<Value>(_ value: Value?, _ node: Yams.Node) throws -> Value {
            guard let value else { throw SpecError("a scalar that does not read as its tag says: \(node)") }
            return value
        }

        /// The data as the renderer reads a view model. A mapping is a dictionary-backed object; a
        /// number that is not an integer is the text Swift writes for it (`1.210` is `1.21`: view
        /// models hand no floating-point values to templates); `null` is a name that is there but
        /// has nothing, so the lookup stops at it. With `stringsAreHTML`, text is handed over as
        /// sanitised HTML, the only value `{{{name}}}` and `{{&name}}` emit unescaped.
        func templateValue(stringsAreHTML: Bool = false) -> TemplateValue {
            switch self {
            case .null: .nothing
            case .bool(let value): .bool(value)
            case .int(let value): .int(value)
            case .float(let value): Self.text("\(value)", isHTML: stringsAreHTML)
            case .string(let value): Self.text(value, isHTML: stringsAreHTML)
            case .list(let elements): .list(elements.map { $0.templateValue(stringsAreHTML: stringsAreHTML) })
            case .map(let fields):
                .object(
                    TemplateTests.Object(fields: fields.mapValues { $0.templateValue(stringsAreHTML: stringsAreHTML) }))
            }
        }

        private static func text(_ text: String, isHTML: Bool) -> TemplateValue {
            isHTML ? .html(SanitisedHTML(html: text)) : .string(text)
        }
    }

    struct SpecError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Every test of every file in `files`, in file order.
    static func cases() throws -> [Case] {
        var cases: [Case] = []
        for file in files {
            let text = try String(contentsOf: Fixtures.url("mustache-spec/\(file).yml"), encoding: .utf8)
            guard let tests = try Yams.compose(yaml: text)?.mapping?["tests"]?.sequence, !tests.isEmpty else {
                throw SpecError("\(file).yml: no tests")
            }
            var seen: [String: Int] = [:]
            for test in tests {
                guard let name = test["name"]?.string, let template = test["template"]?.string,
                    let expected = test["expected"]?.string, let data = test["data"]
                else { throw SpecError("\(file).yml: a test without name, data, template or expected: \(test)") }
                var partials: [String: String] = [:]
                for (key, value) in test["partials"]?.mapping ?? [:] {
                    guard let key = key.string, let value = value.string else {
                        throw SpecError("\(file).yml, '\(name)': a partial that is not text")
                    }
                    partials[key] = value
                }
                seen[name, default: 0] += 1
                let count = seen[name, default: 1]
                cases.append(
                    Case(
                        file: file, name: name, id: "\(file): \(name)" + (count > 1 ? " #\(count)" : ""),
                        data: try SpecData(data), template: template, partials: partials, expected: expected))
            }
        }
        return cases
    }

    /// What feedsite does instead of what the spec expects.
    enum Deviation {
        /// `{{{name}}}` and `{{&name}}` escape plain text as `{{name}}` does: only sanitised HTML
        /// (`SanitisedHTML`, the sanitiser's output) is emitted unescaped, so a template cannot
        /// turn a feed's text into markup. The output feedsite writes; with the data's text given
        /// as sanitised HTML the case renders as the spec expects.
        case escapesText(String)
        /// A partial or parent the template set lacks is an error (reported with its name when
        /// the templates are loaded, and by the renderer), not the empty string: a misspelt
        /// partial would otherwise drop part of every page without a word.
        case missingTemplateFails(String)
    }

    static let deviations: [String: Deviation] = [
        "interpolation: Triple Mustache": .escapesText(
            "These characters should not be HTML escaped: &amp; &quot; &lt; &gt;\n"),
        "interpolation: Ampersand": .escapesText(
            "These characters should not be HTML escaped: &amp; &quot; &lt; &gt;\n"),
        "interpolation: Implicit Iterators - Triple Mustache": .escapesText(
            "These characters should not be HTML escaped: &amp; &quot; &lt; &gt;\n"),
        "interpolation: Implicit Iterators - Ampersand": .escapesText(
            "These characters should not be HTML escaped: &amp; &quot; &lt; &gt;\n"),
        "sections: Implicit Iterator - Triple mustache": .escapesText(#""(&amp;)(&quot;)(&lt;)(&gt;)""#),
        "sections: Implicit Iterator - Ampersand": .escapesText(#""(&amp;)(&quot;)(&lt;)(&gt;)""#),
        "partials: Standalone Indentation": .escapesText("\\\n |\n &lt;\n-&gt;\n |\n/\n"),
        "~inheritance: Triple Mustache": .escapesText("default &lt;baz&gt; content\n"),
        "partials: Failed Lookup": .missingTemplateFails("text"),
    ]

    /// The name the case's own template is registered under (no spec partial has it).
    static let root = "spec-template"

    static func render(_ spec: Case, stringsAreHTML: Bool = false) throws -> String {
        var templates = [root: try Template(parsing: spec.template)]
        for (name, text) in spec.partials { templates[name] = try Template(parsing: text) }
        var renderer = Template.Renderer(templates: templates)
        try renderer.render(root, with: spec.data.templateValue(stringsAreHTML: stringsAreHTML))
        return String(decoding: renderer.output, as: UTF8.self)
    }

    @Test("a spec case renders as the spec expects, or as its listed deviation says", arguments: try cases())
    func specCase(_ spec: Case) throws {
        switch Self.deviations[spec.id] {
        case nil:
            let rendered = try Self.render(spec)
            let report =
                "\(spec.id)\ntemplate: \(spec.template.debugDescription)\npartials: \(spec.partials)"
                + "\nrendered: \(rendered.debugDescription)\nexpected: \(spec.expected.debugDescription)"
            #expect(rendered == spec.expected, Comment(rawValue: report))
        case .escapesText(let output):
            let rendered = try Self.render(spec)
            #expect(rendered == output, "\(spec.id): not the listed deviation")
            #expect(rendered != spec.expected, "\(spec.id) passes: remove it from `deviations`")
            #expect(try Self.render(spec, stringsAreHTML: true) == spec.expected, "\(spec.id) with sanitised HTML")
        case .missingTemplateFails(let name):
            #expect("\(spec.id) fails with the missing template's name") {
                _ = try Self.render(spec)
            } throws: { error in
                guard case .missingTemplate(let missing) = error as? Template.Renderer.Failure else { return false }
                return missing == name
            }
        }
    }

    @Test("every file holds the tests expected of it, and every listed deviation is one of them")
    func inventory() throws {
        let cases = try Self.cases()
        let counts = Dictionary(grouping: cases, by: \.file).mapValues(\.count)
        #expect(
            counts == [
                "comments": 12, "delimiters": 14, "interpolation": 42, "inverted": 22, "partials": 12,
                "sections": 34, "~inheritance": 27,
            ])
        let ids = Set(cases.map(\.id))
        #expect(Set(Self.deviations.keys).subtracting(ids).sorted() == [])
    }

    /// The load-time name check models the renderer over types; it must walk whatever the parser
    /// accepts. The spec's data stands in for the view types: each mapping is a type of its own.
    @Test("the name check walks every spec template without trouble", arguments: try cases())
    func nameCheck(_ spec: Case) throws {
        var templates = [Self.root: try Template(parsing: spec.template)]
        for (name, text) in spec.partials { templates[name] = try Template(parsing: text) }
        var schema = Schema()
        let rootKind = schema.kind(of: spec.data)
        let rootType: String
        if case .object(let type) = rootKind {
            rootType = type
        } else {
            rootType = "Root"
            schema.types[rootType] = [:]
        }
        let warnings = Template.checkNames(templates, pageTypes: [Self.root: rootType], viewTypes: schema.types)
        for warning in warnings {
            #expect(templates[warning.template] != nil)
            #expect(warning.location.line >= 1 && warning.location.column >= 1)
            #expect(!warning.message.isEmpty)
        }
    }

    /// View types made from spec data, for the name check.
    struct Schema {
        var types: [String: [String: TemplateSchema.Kind]] = [:]

        mutating func kind(of data: SpecData) -> TemplateSchema.Kind {
            switch data {
            case .null: return .optional(.string)
            case .bool: return .bool
            case .int: return .int
            case .float, .string: return .string
            case .list(let elements): return .list(elements.first.map { kind(of: $0) } ?? .string)
            case .map(let fields):
                let name = "T\(types.count)"
                types[name] = [:]
                types[name] = fields.mapValues { kind(of: $0) }
                return .object(name)
            }
        }
    }

    @Test(
        "dynamic names, from the optional ~dynamic-names module, are a located error",
        arguments: [("{{>*name}}", 1, 1), ("a\n  {{<*parent}}{{/*parent}}", 2, 3)])
    func dynamicNamesAreRefused(source: String, line: Int, column: Int) {
        #expect {
            _ = try Template(parsing: source)
        } throws: { error in
            guard let error = error as? TemplateSyntaxError else { return false }
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message.contains("dynamic names"))
            return true
        }
    }
}
