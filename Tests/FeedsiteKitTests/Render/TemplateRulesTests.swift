import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// The rules the default templates must keep, checked on the files in `Templates/`.
@Suite("Template rules")
struct TemplateRulesTests {
    static let templatesDirectory = Fixtures.repositoryRoot.appendingPathComponent("Templates")

    static func templateTexts() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: templatesDirectory.path)
            .filter { $0.hasSuffix(".mustache") }.sorted()
            .map { ($0, try String(contentsOf: templatesDirectory.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Fields of type `SanitisedHTML` in the view models: the only ones allowed unescaped.
    static let sanitisedFields: Set<String> = ["item.content"]

    @Test("only SanitisedHTML values are emitted unescaped ({{{…}}} or {{&…}})")
    func onlySanitisedIsRaw() throws {
        let raw = try Regex(#"\{\{\{\s*([^}\s]+)\s*\}\}\}|\{\{&\s*([^}\s]+)\s*\}\}"#)
        for (name, text) in try Self.templateTexts() {
            for match in text.matches(of: raw) {
                let field = (match.output[1].substring ?? match.output[2].substring).map(String.init) ?? ""
                #expect(Self.sanitisedFields.contains(field), "\(name) emits '\(field)' unescaped")
            }
        }
    }

    @Test("the layout sends a Content-Security-Policy without script and a referrer policy")
    func securityHeaders() throws {
        let layout = try String(
            contentsOf: Self.templatesDirectory.appendingPathComponent("layout.mustache"), encoding: .utf8)
        #expect(layout.contains("http-equiv=\"Content-Security-Policy\""))
        #expect(layout.contains("script-src {{$scriptSource}}'none'{{/scriptSource}}"))
        #expect(layout.contains("object-src 'none'"))
        #expect(!layout.contains("unsafe-inline"))
        #expect(layout.contains("name=\"referrer\""))
    }

    @Test("the default templates load, and every required one is there")
    func loads() throws {
        let templates = try SiteTemplates.load(from: Self.templatesDirectory)
        #expect(templates.assets["assets/style.css"] != nil)
    }

    @Test("a missing required template is reported by file name")
    func missingTemplate() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "feedsite-templates-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.templatesDirectory, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("item.mustache"))
        #expect {
            try SiteTemplates.load(from: copy)
        } throws: { error in
            "\(error)".hasSuffix(
                "item.mustache: error: required template is missing; restore it from git or copy the default one")
        }
    }
}
