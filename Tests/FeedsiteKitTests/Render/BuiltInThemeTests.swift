import Foundation
import Testing

@testable import FeedsiteKit

/// The default theme compiled into the binary (`BuiltInTheme.swift`, generated from `Templates/`
/// by `scripts/embed-theme.py`) and the folder that overrides it file by file.
@Suite("Built-in theme")
struct BuiltInThemeTests {
    static let templates = Fixtures.repositoryRoot.appendingPathComponent("Templates")

    /// Every non-hidden file under `Templates/`, by relative path, read from disk.
    static func filesOnDisk() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: templates.path) ?? [] {
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            var isDirectory: ObjCBool = false
            let url = templates.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the built-in theme holds exactly the bytes of Templates/ (else: run make theme)")
    func matchesTemplatesFolder() throws {
        let onDisk = try Self.filesOnDisk()
        let builtIn = Dictionary(
            SiteTemplates.builtInFiles().map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        #expect(onDisk.keys.contains("layout.mustache") && onDisk.keys.contains("assets/style.css"))
        #expect(
            Set(builtIn.keys) == Set(onDisk.keys),
            "Templates/ and the built-in theme list different files: run `make theme` (scripts/embed-theme.py)")
        for (path, bytes) in onDisk.sorted(by: { $0.key < $1.key }) {
            #expect(builtIn[path] == bytes, "Templates/\(path) changed: run `make theme` (scripts/embed-theme.py)")
        }
    }

    @Test("BuiltInTheme.swift is exactly what scripts/embed-theme.py writes now")
    func generatedFileIsFresh() throws {
        guard let python = ExternalTool.python3 else {
            Issue.record("python3 is needed to check the generated theme (apt-get install python3)")
            return
        }
        let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/embed-theme.py").path
        let run = try ExternalTool.run(python, [script, "--stdout"])
        #expect(run.status == 0, "\(run.output)")
        let committed = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Sources/FeedsiteKit/Render/BuiltInTheme.swift"),
            encoding: .utf8)
        #expect(run.output == committed, "Sources/FeedsiteKit/Render/BuiltInTheme.swift is stale: run `make theme`")
    }

    @Test("without a Templates folder beside feeds.yml the built-in theme is used as it is")
    func builtInAlone() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let theme = try SiteTemplates.load(overriding: nil, besides: folder.appendingPathComponent("feeds.yml"))
        let reference = try SiteTemplates.load(from: Self.templates)
        #expect(theme.sources.map { $0.name } == reference.sources.map { $0.name })
        #expect(theme.sources.map { $0.bytes } == reference.sources.map { $0.bytes })
        #expect(theme.assets == reference.assets)
        #expect(Set(theme.templates.keys).isSuperset(of: SiteTemplates.requiredTemplates))
    }

    @Test("a Templates folder beside feeds.yml overrides single files; the rest stays built in")
    func overridesFileByFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("Templates/assets")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let item = Data("{{<layout}}{{$main}}<p class=\"mine\">{{item.title}}</p>{{/main}}{{/layout}}\n".utf8)
        try item.write(to: folder.appendingPathComponent("Templates/item.mustache"))
        try Data("body { color: red }\n".utf8).write(to: templates.appendingPathComponent("style.css"))
        try Data("extra".utf8).write(to: templates.appendingPathComponent("extra.txt"))
        let theme = try SiteTemplates.load(overriding: nil, besides: folder.appendingPathComponent("feeds.yml"))
        let sources = Dictionary(theme.sources.map { ($0.name, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        let onDisk = try Self.filesOnDisk()
        #expect(sources["item.mustache"] == item)
        #expect(sources["layout.mustache"] == onDisk["layout.mustache"])
        #expect(sources["index.mustache"] == onDisk["index.mustache"])
        #expect(theme.assets["assets/style.css"] == Data("body { color: red }\n".utf8))
        #expect(theme.assets["assets/favicon.svg"] == onDisk["assets/favicon.svg"])
        #expect(theme.assets["assets/extra.txt"] == Data("extra".utf8))
    }

    @Test("a link in the theme is read only when it leads to a file inside the folder")
    func themeLinks() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("feeds.yml")
        let assets = folder.appendingPathComponent("Templates/assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let outside = folder.appendingPathComponent("secret.txt")
        try Data("not for the site".utf8).write(to: outside)
        try Data("logo".utf8).write(to: assets.appendingPathComponent("logo.svg"))
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: assets.appendingPathComponent("alias.svg").path, withDestinationPath: "logo.svg")
        let inside = try SiteTemplates.load(overriding: nil, besides: config)
        #expect(inside.assets["assets/alias.svg"] == Data("logo".utf8))
        // A link out of the folder (`assets/x -> /etc/shadow`) would publish that file.
        let link = assets.appendingPathComponent("secret.txt")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: outside.path)
        #expect {
            try SiteTemplates.load(overriding: nil, besides: config)
        } throws: { error in
            "\(error)".contains(
                "Templates/assets/secret.txt: error: is a symbolic link that does not lead to a file inside Templates/")
        }
        try manager.removeItem(at: link)
        // A link to a folder is not followed either (it was left out without a word).
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
        #expect(throws: TemplateError.self) { try SiteTemplates.load(overriding: nil, besides: config) }
    }

    @Test("assets/ or strings/ as a link to a folder is an error, not silently left out")
    func themeFolderLinks() throws {
        // Any other name too: `lib -> /elsewhere` was read through, its `secret.mustache` usable
        // as `{{>lib/secret}}` (found in session 25).
        for name in ["assets", "strings", "lib"] {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("feeds.yml")
            let templates = folder.appendingPathComponent("Templates")
            let shared = folder.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
            try Data("x".utf8).write(
                to: shared.appendingPathComponent(
                    ["assets": "logo.svg", "strings": "de.yml"][name] ?? "secret.mustache"))
            try FileManager.default.createSymbolicLink(
                atPath: templates.appendingPathComponent(name).path, withDestinationPath: shared.path)
            #expect {
                try SiteTemplates.load(overriding: nil, besides: config)
            } throws: { error in
                "\(error)".contains("Templates/\(name): error: is a symbolic link that does not lead to a file inside")
            }
        }
    }

    @Test("a partial that includes itself outside any section is an error when the theme is loaded")
    func themeSelfInclusion() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("x{{>loop}}\n".utf8).write(to: templates.appendingPathComponent("loop.mustache"))
        #expect {
            try SiteTemplates.load(overriding: nil, besides: folder.appendingPathComponent("feeds.yml"))
        } throws: { error in
            "\(error)".contains(
                "Templates/loop.mustache: error: includes itself with no section around the way back (loop → loop)")
        }
    }

    @Test("a pipe in the theme is an error, not a read that never ends", .timeLimit(.minutes(10)))
    func themePipe() throws {
        for path in ["assets/x.css", "item.mustache"] {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let templates = folder.appendingPathComponent("Templates")
            try FileManager.default.createDirectory(
                at: templates.appendingPathComponent("assets"), withIntermediateDirectories: true)
            #expect(mkfifo(templates.appendingPathComponent(path).path, 0o644) == 0)
            #expect {
                try SiteTemplates.load(overriding: nil, besides: folder.appendingPathComponent("feeds.yml"))
            } throws: { error in
                "\(error)".contains("Templates/\(path): error: is not a regular file")
            }
        }
    }

    @Test("a template past 1 MB, an asset past 32 MB, or asset names that read the same are errors naming the file")
    func themeFileLimits() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("feeds.yml")
        let templates = folder.appendingPathComponent("Templates")
        let assets = templates.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let big = templates.appendingPathComponent("item.mustache")
        try Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1).write(to: big)
        #expect {
            try SiteTemplates.load(overriding: nil, besides: config)
        } throws: { error in
            "\(error)".contains(
                "Templates/item.mustache: error: is 1024 KB, past the 1024 KB a theme's template may have")
        }
        try FileManager.default.removeItem(at: big)
        let huge = assets.appendingPathComponent("font.woff2")
        try Data(count: (32 << 20) + 1).write(to: huge)
        #expect {
            try SiteTemplates.load(overriding: nil, besides: config)
        } throws: { error in
            "\(error)".contains("Templates/assets/font.woff2: error: is 32768 KB, past the 32768 KB a theme's asset")
        }
        try FileManager.default.removeItem(at: huge)
        // `café.css` with U+00E9, and with `e` and U+0301: two files on Linux, one on many hosts.
        try Data("a".utf8).write(to: assets.appendingPathComponent("caf\u{E9}.css"))
        try Data("b".utf8).write(to: assets.appendingPathComponent("cafe\u{301}.css"))
        #expect {
            try SiteTemplates.load(overriding: nil, besides: config)
        } throws: { error in
            "\(error)".contains("but is spelt with other Unicode code points")
                && "\(error)".contains("<U+0301>") && "\(error)".contains("<U+00E9>")
        }
    }

    @Test("an override's errors name its file; a --templates folder that does not exist is an error")
    func overrideErrors() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("feeds.yml")
        #expect {
            try SiteTemplates.load(overriding: folder.appendingPathComponent("Nowhere"), besides: config)
        } throws: { error in
            "\(error)".contains("Nowhere: error: the templates folder does not exist; pass --templates a folder")
        }
        let file = folder.appendingPathComponent("afile")
        try Data("x".utf8).write(to: file)
        #expect {
            try SiteTemplates.load(overriding: file, besides: config)
        } throws: { error in
            "\(error)".contains("afile: error: is a file, not a templates folder; pass --templates a folder")
        }
        let mine = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("<p>\n{{#items}}\n".utf8).write(to: mine.appendingPathComponent("index.mustache"))
        #expect {
            try SiteTemplates.load(overriding: mine, besides: config)
        } throws: { error in
            "\(error)".hasSuffix("mine/index.mustache:2:1: error: '{{#items}}' is never closed; add '{{/items}}'")
        }
        try Data("{{<layout}}{{$main}}{{>sidebar}}{{/main}}{{/layout}}".utf8).write(
            to: mine.appendingPathComponent("index.mustache"))
        #expect {
            try SiteTemplates.load(overriding: mine, besides: config)
        } throws: { error in
            "\(error)".hasSuffix(
                "mine/index.mustache: error: 'sidebar' is used as a partial or parent but there is no sidebar.mustache")
        }
    }
}
