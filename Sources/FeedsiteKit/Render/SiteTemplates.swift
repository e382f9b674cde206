import Foundation

/// The site's theme, read once per build: Mustache templates (`*.mustache`, usable as partials and
/// parents under their file name) and static assets (`assets/…`, copied into the site as they
/// are). The default theme is compiled into the binary (`BuiltInTheme`, generated from
/// `Templates/` by `scripts/embed-theme.py`); a templates folder overrides it file by file.
package struct SiteTemplates: Sendable {
    /// The templates every site needs; `layout` is the parent the pages inherit from.
    package static let requiredTemplates = ["layout", "index", "feed", "item", "status", "archive", "archive-index"]

    /// Compiled templates by name (file name without `.mustache`).
    let templates: [String: Template]
    /// `templates` compiled for rendering.
    let program: Template.Program
    /// Asset files keyed by their site path (`assets/style.css`).
    package let assets: [String: Data]
    /// Every template's and asset's name and bytes, in order: what the output depends on.
    let sources: [(name: String, bytes: Data)]
    /// The interface strings by language (lowercased, as the catalogue's file is named): the
    /// built-in catalogues with the folder's `strings/<language>.yml` laid over them.
    let catalogues: [String: MessageCatalogue]
    /// What is wrong in the folder's catalogues (unknown keys, wrong shapes), located.
    let catalogueWarnings: [Diagnostic]
    /// How messages name each template's file (`Templates/item.mustache`), by template name.
    var displayNames: [String: String] = [:]

    /// The catalogue for a `language:` tag: `de-CH` is `de-ch.yml` if there is one, else `de.yml`,
    /// else English.
    func catalogue(for language: String) -> MessageCatalogue {
        let tag = language.lowercased()
        let primary = String(tag.split(separator: "-").first ?? "")
        return catalogues[tag] ?? catalogues[primary] ?? catalogues["en"] ?? MessageCatalogue.english
    }

    /// Whether there is a catalogue for `language` (else pages are in English).
    func hasCatalogue(for language: String) -> Bool {
        let tag = language.lowercased()
        return catalogues[tag] != nil || catalogues[String(tag.split(separator: "-").first ?? "")] != nil
    }

    /// The folder whose files override the built-in theme when `--templates` is not given:
    /// `Templates/` beside the configuration file (not in the current directory, so feedsite
    /// works from any folder).
    package static func defaultFolder(besides configFile: URL) -> URL {
        configFile.deletingLastPathComponent().appendingPathComponent("Templates", isDirectory: true)
    }

    /// The default theme compiled into the binary, with every file of `folder` laid over it: a
    /// `Templates/` folder that holds only `item.mustache` changes only the item pages.
    ///
    /// - Parameters:
    ///   - folder: the overriding folder; nil means `defaultFolder(besides: configFile)`, which
    ///     need not exist (then the built-in theme is used as it is). A folder named explicitly
    ///     (`--templates DIR`) must exist.
    package static func load(overriding folder: URL?, besides configFile: URL) throws(TemplateError) -> SiteTemplates {
        var files: [String: ThemeFile] = [:]
        for (path, base64) in BuiltInTheme.files {
            guard let bytes = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
                throw TemplateError(file: "(built-in theme)/\(path)", message: "cannot be decoded; rebuild feedsite")
            }
            files[path] = ThemeFile(displayName: MessageCatalogue.builtInPrefix + path, bytes: bytes)
        }
        let overriding = folder ?? defaultFolder(besides: configFile)
        if folder != nil || isDirectory(overriding) {
            for (path, file) in try readFolder(overriding) { files[path] = file }
        }
        return try compile(files, in: overriding.lastPathComponent)
    }

    /// Reads and compiles exactly the templates in `directory` (no built-in fallback), reporting
    /// the file, line and column of a syntax error.
    package static func load(from directory: URL) throws(TemplateError) -> SiteTemplates {
        try compile(readFolder(directory), in: directory.lastPathComponent)
    }

    /// Every file of the built-in theme, by path relative to `Templates/`: what `feedsite init
    /// --theme` writes out for editing.
    package static func builtInFiles() -> [(path: String, bytes: Data)] {
        BuiltInTheme.files.compactMap { path, base64 in
            Data(base64Encoded: base64, options: .ignoreUnknownCharacters).map { (path, $0) }
        }
    }

    /// One file of a theme and the name its diagnostics use.
    struct ThemeFile {
        var displayName: String
        var bytes: Data
    }

    /// The largest template or catalogue read (the built-in page template is 6 KB), and the
    /// largest asset (a font, an image): anything larger is a mistake, not a theme.
    static let maximumTemplateBytes = 1 << 20
    static let maximumAssetBytes = 32 << 20

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The templates (`*.mustache`), assets (`assets/…`, hidden files skipped) and catalogues
    /// (`strings/*.yml`) of a folder.
    private static func readFolder(_ directory: URL) throws(TemplateError) -> [String: ThemeFile] {
        let fileManager = FileManager.default
        guard isDirectory(directory) else {
            let isThere = FileManager.default.fileExists(atPath: directory.path)
            throw TemplateError(
                file: directory.path,
                message: (isThere ? "is a file, not a templates folder" : "the templates folder does not exist")
                    + "; pass --templates a folder of *.mustache files (without --templates, Templates/ beside the"
                    + " configuration file is used when there is one, else the built-in theme)")
        }
        var files: [String: ThemeFile] = [:]
        // Resolved, so a Templates folder that is a symbolic link (a shared theme) is read through.
        let root = OutputFolder.realPath(directory.path) ?? directory.standardizedFileURL.path
        for path in fileManager.subpaths(atPath: root) ?? [] {
            var url = URL(fileURLWithPath: root).appendingPathComponent(path)
            let isAsset = path.hasPrefix("assets/")
            if isAsset && path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let isCatalogue = MessageCatalogue.language(ofPath: path) != nil
            let isLink =
                (try? fileManager.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeSymbolicLink
            // A link to a folder (`assets` or `strings` linked to a shared folder, any other name
            // whose files `subpaths` would read through): refused below like any link that does not
            // lead to a file.
            var isFolderLink = false
            if isLink {
                var isDir: ObjCBool = false
                isFolderLink = fileManager.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
            }
            guard isAsset || isCatalogue || isFolderLink || path.hasSuffix(".mustache") else { continue }
            let displayName = "\(directory.lastPathComponent)/\(path)"
            if isAsset, let odd = path.split(separator: "/").first(where: { !StaticFiles.isPublishable(String($0)) }) {
                throw TemplateError(
                    file: displayName,
                    message: "the name \(String(odd).debugDescription) has control characters, begins with a combining "
                        + "mark (or ends with a sign that joins what follows), or is not UTF-8; rename it (web servers "
                        + "and deploy tools cannot publish it faithfully)")
            }
            if let other = files.index(forKey: path).map({ files[$0].key }), !OutputFolder.isSameName(other, path) {
                throw TemplateError(
                    file: displayName,
                    message: "reads the same as \(directory.lastPathComponent)/\(other) but is spelt with other "
                        + "Unicode code points (\(OutputFolder.spelled(path)), \(OutputFolder.spelled(other))); many "
                        + "file systems and hosts take the two for one: rename one of them")
            }
            // A link is read only when it leads to a file inside the folder (as in static/), so a
            // theme never publishes a file from elsewhere (`assets/x -> /etc/shadow`).
            if isLink {
                var isDir: ObjCBool = false
                guard let target = OutputFolder.realPath(url.path), OutputFolder.contains(root, target), target != root,
                    fileManager.fileExists(atPath: target, isDirectory: &isDir), !isDir.boolValue
                else {
                    throw TemplateError(
                        file: displayName,
                        message:
                            "is a symbolic link that does not lead to a file inside \(directory.lastPathComponent)/; "
                            + "links are only followed to files in the folder (nothing outside it is published): "
                            + "copy the file in instead")
                }
                url = URL(fileURLWithPath: target)
            }
            var isDir: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue else { continue }
            // Inside a linked folder `subpaths` read through (listed before it was refused): only
            // files whose real path is in the folder are read.
            guard let real = OutputFolder.realPath(url.path), OutputFolder.contains(root, real) else {
                throw TemplateError(
                    file: displayName,
                    message: "lies in a symbolic link to a folder outside \(directory.lastPathComponent)/; links are "
                        + "only followed to files in the folder: copy the files in instead")
            }
            // A pipe or device would block the read (or never end).
            guard (try? fileManager.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeRegular
            else {
                throw TemplateError(
                    file: displayName, message: "is not a regular file (a pipe, socket or device); remove it")
            }
            let limit = isAsset ? maximumAssetBytes : maximumTemplateBytes
            if let size = (try? fileManager.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue,
                size > limit
            {
                throw TemplateError(
                    file: displayName,
                    message: "is \(size >> 10) KB, past the \(limit >> 10) KB a theme's "
                        + (isAsset ? "asset" : isCatalogue ? "catalogue" : "template")
                        + " may have; is it the file you meant?")
            }
            guard let data = fileManager.contents(atPath: url.path) else {
                throw TemplateError(file: displayName, message: "cannot read the file")
            }
            files[path] = ThemeFile(displayName: displayName, bytes: data)
        }
        return files
    }

    /// Compiles a theme's templates and checks that the required ones and every partial exist.
    static func compile(_ files: [String: ThemeFile], in folder: String) throws(TemplateError) -> SiteTemplates {
        var templates: [String: Template] = [:]
        var assets: [String: Data] = [:]
        var sources: [(name: String, bytes: Data)] = []
        var displayNames: [String: String] = [:]
        var ownCatalogues: [String: [String: MessageCatalogue.Entry]] = [:]
        var catalogueWarnings: [Diagnostic] = []
        for (path, file) in files.sorted(by: { $0.key < $1.key }) {
            if let language = MessageCatalogue.language(ofPath: path) {
                sources.append((path, file.bytes))
                // The built-in catalogues are the layer below; only the folder's own are read here.
                guard !file.displayName.hasPrefix(MessageCatalogue.builtInPrefix) else { continue }
                guard let text = String(data: file.bytes, encoding: .utf8) else {
                    catalogueWarnings.append(
                        .warning(file: file.displayName, "cannot read the file as UTF-8 text; it is ignored"))
                    continue
                }
                let (entries, warnings) = MessageCatalogue.read(
                    yaml: text, file: file.displayName, english: MessageCatalogue.builtInEnglish)
                ownCatalogues[language] = entries
                catalogueWarnings += warnings
            } else if path.hasPrefix("assets/") {
                assets[path] = file.bytes
                sources.append((path, file.bytes))
            } else if path.hasSuffix(".mustache") {
                guard let text = String(data: file.bytes, encoding: .utf8) else {
                    throw TemplateError(file: file.displayName, message: "cannot read the file as UTF-8 text")
                }
                sources.append((path, file.bytes))
                let name = String(path.dropLast(".mustache".count))
                displayNames[name] = file.displayName
                do throws(TemplateSyntaxError) {
                    templates[name] = try Template(parsing: text)
                } catch {
                    throw TemplateError(
                        file: file.displayName, line: error.line, column: error.column, message: error.message)
                }
            }
        }
        for name in requiredTemplates where templates[name] == nil {
            throw TemplateError(
                file: "\(folder)/\(name).mustache",
                message: "required template is missing; restore it from git or copy the default one")
        }
        for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
            for missing in template.referencedTemplates.sorted() where templates[missing] == nil {
                throw TemplateError(
                    file: displayNames[name] ?? "\(folder)/\(name).mustache",
                    message: "'\(missing)' is used as a partial or parent but there is no \(missing).mustache")
            }
        }
        if let (name, chain) = Template.unconditionalCycle(in: templates) {
            throw TemplateError(
                file: displayNames[name] ?? "\(folder)/\(name).mustache",
                message: "includes itself with no section around the way back (\(chain.joined(separator: " → "))), "
                    + "so rendering it would never end; put the inclusion inside a section, such as {{#items}}…{{/items}}"
            )
        }
        return SiteTemplates(
            templates: templates, program: Template.Program(templates), assets: assets, sources: sources,
            catalogues: MessageCatalogue.catalogues(overriding: ownCatalogues), catalogueWarnings: catalogueWarnings,
            displayNames: displayNames)
    }

    /// Renders template `name` with a page's view model; `root` is the page's way back to the site's
    /// root (`../../`, `PagePaths.root(of:)`), which its `SitePath`s are written after.
    func render(
        _ name: String, _ page: some TemplateObject, root: String, messages: MessageCatalogue = .english
    ) throws(TemplateError) -> Data {
        var renderer = Template.Renderer(program: program)
        do throws(Template.Renderer.Failure) {
            try renderer.render(
                name, with: page.templateValue, globals: .object(TemplateGlobals(t: messages)), root: root)
        } catch {
            func file(_ template: String) -> String { displayNames[template] ?? "\(template).mustache" }
            let runaway = " (the build stops; the previous site stays in place)"
            switch error {
            case .missingTemplate(let missing):
                throw TemplateError(
                    file: file(name),
                    message: "'\(missing)' is used as a partial or parent but there is no \(missing).mustache")
            case .tooDeep(let culprit):
                throw TemplateError(
                    file: file(culprit),
                    message: "partials nest more than \(Template.Renderer.maximumDepth) deep rendering \(file(name)); "
                        + "does it include itself?" + runaway)
            case .blockTooDeep(let block, let page):
                throw TemplateError(
                    file: file(page),
                    message: "the block {{$\(block)}} nests more than \(Template.Renderer.maximumDepth) deep; does it "
                        + "include itself?" + runaway)
            case .nestedTooDeep(let page):
                throw TemplateError(
                    file: file(page),
                    message: "sections, partials and blocks nest more than \(Template.Renderer.maximumFrames) deep in "
                        + "all, counting across partials; does a partial include itself inside a section?" + runaway)
            case .tooLarge(let page):
                throw TemplateError(
                    file: file(page),
                    message:
                        "a page rendered with it grows past \(Template.Renderer.maximumOutput >> 20) MB or \(Template.Renderer.maximumSteps / 1_000_000) million repeats (or runs \(Template.Renderer.maximumOperations / 1_000_000) million template instructions); does a chain of partials each include the next more than once ({{>b}}{{>b}} in a.mustache, {{>c}}{{>c}} in b.mustache…), a section on a list sit inside sections on lists, or a large value such as {{{item.content}}} appear many times?"
                        + runaway)
            }
        }
        return Data(renderer.output)
    }
}

/// A template could not be loaded; reads like a compiler diagnostic.
package struct TemplateError: Error, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var column: Int?
    package var message: String

    package init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    package var description: String {
        Diagnostic.error(file: file, line: line, column: column, message).description
    }
}
