import Foundation

/// The user-editable `Templates/` folder, read once per build: Mustache templates (`*.mustache`,
/// usable as partials and parents under their file name) and static assets (`assets/…`, copied
/// into the site as they are).
public struct SiteTemplates: Sendable {
    /// The templates every site needs; `layout` is the parent the pages inherit from.
    public static let requiredTemplates = ["layout", "index", "feed", "item", "status", "archive", "archive-index"]

    /// Compiled templates by name (file name without `.mustache`).
    let templates: [String: Template]
    /// Asset files keyed by their site path (`assets/style.css`).
    public let assets: [String: Data]
    /// Every template's and asset's name and bytes, in order: what the output depends on.
    let sources: [(name: String, bytes: Data)]

    init(templates: [String: Template], assets: [String: Data], sources: [(name: String, bytes: Data)] = []) {
        self.templates = templates
        self.assets = assets
        self.sources = sources
    }

    /// Reads and compiles every template, reporting the file, line and column of a syntax error.
    public static func load(from directory: URL) throws(TemplateError) -> SiteTemplates {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TemplateError(
                file: directory.path,
                message: "the templates folder does not exist; pass --templates PATH or restore Templates/ from git")
        }
        var templates: [String: Template] = [:]
        var assets: [String: Data] = [:]
        var sources: [(name: String, bytes: Data)] = []
        // Resolved, so a Templates folder that is a symbolic link (a shared theme) is read through.
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        for path in (fileManager.subpaths(atPath: root) ?? []).sorted() {
            let url = URL(fileURLWithPath: root).appendingPathComponent(path)
            var isDir: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue else { continue }
            let displayName = "\(directory.lastPathComponent)/\(path)"
            if path.hasPrefix("assets/") {
                guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
                guard let data = fileManager.contents(atPath: url.path) else {
                    throw TemplateError(file: displayName, message: "cannot read the file")
                }
                assets[path] = data
                sources.append((path, data))
            } else if path.hasSuffix(".mustache") {
                guard let data = fileManager.contents(atPath: url.path), let text = String(data: data, encoding: .utf8)
                else {
                    throw TemplateError(file: displayName, message: "cannot read the file as UTF-8 text")
                }
                sources.append((path, data))
                do throws(TemplateSyntaxError) {
                    templates[String(path.dropLast(".mustache".count))] = try Template(parsing: text)
                } catch {
                    throw TemplateError(
                        file: displayName, line: error.line, column: error.column, message: error.message)
                }
            }
        }
        for name in requiredTemplates where templates[name] == nil {
            throw TemplateError(
                file: "\(directory.lastPathComponent)/\(name).mustache",
                message: "required template is missing; restore it from git or copy the default one")
        }
        for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
            for missing in template.referencedTemplates.sorted() where templates[missing] == nil {
                throw TemplateError(
                    file: "\(directory.lastPathComponent)/\(name).mustache",
                    message: "'\(missing)' is used as a partial or parent but there is no \(missing).mustache")
            }
        }
        return SiteTemplates(templates: templates, assets: assets, sources: sources)
    }

    /// Renders template `name` with a page's view model.
    func render(_ name: String, _ page: some TemplateObject) throws(TemplateError) -> Data {
        var renderer = Template.Renderer(templates: templates)
        do throws(Template.Renderer.Failure) {
            try renderer.render(name, with: page.templateValue)
        } catch {
            switch error {
            case .missingTemplate(let missing):
                throw TemplateError(file: "\(missing).mustache", message: "template not found")
            case .tooDeep(let culprit):
                throw TemplateError(
                    file: "\(culprit).mustache",
                    message: "partials nest more than \(Template.Renderer.maximumDepth) deep; does it include itself?")
            }
        }
        return Data(renderer.output)
    }
}

/// A template could not be loaded; reads like a compiler diagnostic.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        Diagnostic.error(file: file, line: line, column: column, message).description
    }
}
