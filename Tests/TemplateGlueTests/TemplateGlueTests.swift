import Foundation
import Testing

@testable import TemplateGlueCore

/// The template glue generator (the TemplateGlue plugin's tool) on small view-model files whose
/// glue is written out by hand below, and on declarations it must refuse.
@Suite("Template glue generator")
struct TemplateGlueTests {
    /// A view type with a field group, every kind of field, and members that are not fields; a
    /// second view type, public and final, after a block comment that hides a third.
    static let views = """
        import Foundation

        // View models of a tiny site.

        /// Fields every page has.
        struct Head: Equatable, TemplateFieldGroup {
            var root: String
            var title: String
        }

        struct Page {
            var head: Head
            /// `{` and `}` in comments and "strings {" do not count.
            var summary: String? = "{ not a brace \\" {"
            var count: Int
            var items: [Item]
            var isEmpty: Bool { items.isEmpty }
            private var cache: [String: Int] = [:]
            static let name = "page"
            func render() -> String { "}" }
            enum Style {
                case plain
                var label: String { "plain" }
            }
            init(head: Head) {
                self.head = head
                let unused: Double = 1
                count = Int(unused)
                items = []
            }
        }

        /* A block comment /* nested */
        struct NotAType {
            var no: String
        }
        */
        public final class Item {
            let body: SanitisedHTML
            var next: Item?
            var tags: [ String ]?
        }

        """

    static let expected = """
        // Generated at build time by the TemplateGlue plugin (Plugins/TemplateGlue) from the view types in
        // PageViews*.swift: do not edit. A new template variable is a new property of a view type.

        /// Every name a view type answers: a template's names are resolved to these once, when it is
        /// parsed, so a lookup is a `switch`, not string comparisons.
        enum TemplateKey: String, Sendable {
            case body, count, isEmpty, items, next, root, summary, tags, title
        }

        extension Page: TemplateObject {
            func value(_ name: Template.NameView, at position: Int) -> TemplateValue? {
                switch name.keys[position] {
                case .root?: self.head.root.value(name, after: position)
                case .title?: self.head.title.value(name, after: position)
                case .summary?: self.summary?.value(name, after: position)
                case .count?: self.count.value(name, after: position)
                case .items?: self.items.value(name, after: position)
                case .isEmpty?: self.isEmpty.value(name, after: position)
                default: nil
                }
            }
        }

        extension Item: TemplateObject {
            func value(_ name: Template.NameView, at position: Int) -> TemplateValue? {
                switch name.keys[position] {
                case .body?: self.body.value(name, after: position)
                case .next?: self.next?.value(name, after: position)
                case .tags?: self.tags?.value(name, after: position)
                default: nil
                }
            }
        }

        extension TemplateSchema {
            /// Each view type's fields and what they hold.
            static let viewTypes: [String: [String: Kind]] = [
                "Page": [
                    "root": .string,
                    "title": .string,
                    "summary": .optional(.string),
                    "count": .int,
                    "items": .list(.object("Item")),
                    "isEmpty": .bool,
                ],
                "Item": [
                    "body": .html,
                    "next": .optional(.object("Item")),
                    "tags": .optional(.list(.string)),
                ],
            ]
        }

        """

    /// The glue of one file, `Views.swift`, holding `text`.
    static func glue(_ text: String) throws(TemplateGlueFailure) -> String {
        try TemplateGlueWriter().glue(for: [ViewModelSource(path: "Views.swift", text: text)])
    }

    /// The diagnostics `text` gives, as printed.
    static func errors(_ text: String) -> [String] {
        do {
            let glue = try glue(text)
            return ["no error; glue:\n\(glue)"]
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("the glue of a small file is the hand-written one")
    func smallFile() throws {
        #expect(try Self.glue(Self.views) == Self.expected)
    }

    @Test("view types come in the order of the files given, then of their declarations")
    func order() throws {
        let sources = [
            ViewModelSource(
                path: "B.swift", text: "struct Second {\n    var b: Int\n}\nstruct Third {\n    var c: Int\n}\n"),
            ViewModelSource(path: "A.swift", text: "struct First {\n    var a: Bool\n}\n"),
        ]
        let types = try ViewTypeReader().read(sources)
        #expect(types.map(\.name) == ["Second", "Third", "First"])
        #expect(types.map(\.location.line) == [1, 4, 1])
        #expect(types.map(\.location.path) == ["B.swift", "B.swift", "A.swift"])
    }

    @Test("TemplateKey's cases are sorted and wrapped at 120 columns")
    func keysWrap() throws {
        // Nine names of 12 letters: `    case ` (9 columns) and eight of them, each with a comma, and
        // seven spaces make exactly 120 columns (119 once the last comma goes); a ninth would not fit.
        let names = (1...9).map { "fieldxxxxxx\($0)" }
        let text = "struct Wide {\n" + names.reversed().map { "    var \($0): Int\n" }.joined() + "}\n"
        let lines = try Self.glue(text).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "enum TemplateKey: String, Sendable {") else {
            Issue.record("no TemplateKey")
            return
        }
        #expect(
            Array(lines[(start + 1)...(start + 3)]) == [
                "    case fieldxxxxxx1, fieldxxxxxx2, fieldxxxxxx3, fieldxxxxxx4, fieldxxxxxx5, fieldxxxxxx6, "
                    + "fieldxxxxxx7, fieldxxxxxx8",
                "    case fieldxxxxxx9",
                "}",
            ])
        #expect(lines[start + 1].count == 119)
    }

    @Test("a link to a page of the site (SitePath) is read as text by the name check, and answered as itself")
    func sitePaths() throws {
        let glue = try Self.glue("struct Page {\n    var link: SitePath\n    var more: [SitePath]?\n}\n")
        #expect(glue.contains(#""link": .string,"#) && glue.contains(#""more": .optional(.list(.string)),"#))
        #expect(glue.contains("case .link?: self.link.value(name, after: position)"))
    }

    @Test("a field of a type a template cannot read is an error at the field")
    func unsupportedType() {
        let text = "import Foundation\n\nstruct Page {\n    var title: String\n    var when: Date\n}\n"
        #expect(
            Self.errors(text) == [
                "Views.swift:5:9: error: 'Date' is not a type a template can read; use String, SitePath, Int, "
                    + "Bool, SanitisedHTML, a view type from PageViews*.swift, or an optional or array of these (or make "
                    + "the property private)"
            ])
    }

    @Test(
        "what the generator cannot read is a located error, never a field left out",
        arguments: [
            (
                "struct A {\n    var x: String??\n}\n",
                "Views.swift:2:9: error: a double optional ('String??') cannot be read by a template"
            ),
            (
                "struct A {\n    var x: [String: Int]\n}\n",
                "Views.swift:2:9: error: '[String:Int]' is not a type a template can read"
            ),
            (
                "struct A {\n    var x: Optional<String>\n}\n",
                "Views.swift:2:9: error: 'Optional<String>' is not a type"
            ),
            ("struct A {\n    var x = \"\"\n}\n", "Views.swift:2:5: error: cannot read this property of view type 'A'"),
            (
                "struct A {\n    @Wrapped var x: String\n}\n",
                "Views.swift:2:5: error: cannot read this property of view type 'A'"
            ),
            (
                "struct A {\n    lazy var x: String = \"\"\n}\n",
                "Views.swift:2:5: error: cannot read this property of view type 'A'"
            ),
            (
                "struct A\n{\n    var x: String\n}\n",
                "Views.swift:1:8: error: put the '{' of 'A' on its declaration's line"
            ),
            (
                "class A {\n    var x: String\n}\n",
                "Views.swift:1:7: error: view type 'A' must be a struct or a final class"
            ),
            ("struct A {\n    var x: String\n}\n}\n", "Views.swift:4: error: unbalanced braces"),
            ("struct A {\n    var x: String\n", "Views.swift:2: error: unbalanced braces: 1 '{' not closed"),
            ("struct A {\n    static let x = 1\n}\n", "Views.swift:1:8: error: view type 'A' has no fields"),
            (
                "struct A {\n    var x = \"\"\"\n    }\n    \"\"\"\n}\n",
                "Views.swift:2:13: error: a multi-line string literal cannot be read"
            ),
            (
                "struct G: TemplateFieldGroup {\n    var x: String\n}\nstruct A {\n    var x: Int\n    var g: G\n}\n",
                "Views.swift:6:9: error: view type 'A' has the field 'x' twice: as 'x' (Views.swift:5) and as 'g.x'"
            ),
            ("", "TemplateGlueGenerator: error: no view types"),
        ])
    func refused(text: String, error: String) {
        let errors = Self.errors(text)
        #expect(errors.count >= 1)
        #expect(errors.first?.hasPrefix(error) == true, "\(errors)")
    }

    @Test("every problem is reported at once")
    func everyProblem() {
        let text = "struct A {\n    var x: Date\n    var y: URL\n}\nstruct B {\n}\n"
        #expect(
            Self.errors(text).map { $0.prefix { $0 != " " } } == [
                "Views.swift:5:8:", "Views.swift:2:9:", "Views.swift:3:9:",
            ])
    }

    @Test("columns count UTF-8 bytes, as swiftc's do, past strings and block comments")
    func columns() {
        #expect(Self.errors("struct A {\n    /* é */ var x: Date\n}\n").first?.hasPrefix("Views.swift:2:18:") == true)
        #expect(Self.errors("struct A {\n    var é: Date\n}\n").first?.hasPrefix("Views.swift:2:9:") == true)
        #expect(
            Self.errors("/* é\n é */ struct A {\n    var x: Date\n}\n")
                == Self.errors("struct A {\n    var x: Date\n}\n").map {
                    $0.replacingOccurrences(of: ":2:", with: ":3:")
                })
    }

    @Test("lines break where Python's str.splitlines broke them in the script this replaced")
    func lineBreaks() {
        #expect(ViewTypeReader.lines(of: "a\r\nb\rc\n\nd\u{2028}e\n") == ["a", "b", "c", "", "d", "e"])
        #expect(ViewTypeReader.lines(of: "") == [])
        #expect(ViewTypeReader.lines(of: "a") == ["a"])
    }

    @Test("the generator tool writes the glue, or nothing and errors on standard error with status 1")
    func tool() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let views = folder.appendingPathComponent("PageViews.swift")
        let output = folder.appendingPathComponent("PageViews+Template.swift")
        try Data(Self.views.utf8).write(to: views)
        let good = try Self.run([output.path, views.path])
        #expect(good.status == 0, "\(good.errors)")
        #expect(try String(contentsOf: output, encoding: .utf8) == Self.expected)

        try FileManager.default.removeItem(at: output)
        try Data("struct A {\n    var when: Date\n}\n".utf8).write(to: views)
        let bad = try Self.run([output.path, views.path])
        #expect(bad.status == 1)
        #expect(bad.errors.hasPrefix("\(views.path):2:9: error: 'Date' is not a type a template can read"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// Runs the TemplateGlueGenerator built next to the test bundle.
    static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TemplateGlueGenerator")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
