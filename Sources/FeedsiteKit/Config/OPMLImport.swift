import FeedsiteParse
import FeedsiteShared
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `feedsite import opml`: reads an OPML subscription list (as feed readers export it) and adds
/// its feeds to `feeds.yml`.
///
/// The configuration file is edited as text, never re-serialised: new `- url:`/`name:` entries are
/// appended at the end of the `feeds:` list, so the user's comments, order and formatting survive.
/// Feeds already listed are reported and skipped; outlines without a usable http(s) URL are
/// reported and skipped. The result is parsed again before it is written, so a merge can never
/// leave a broken `feeds.yml` behind.
package enum OPMLImport {
    /// One feed found in an OPML file.
    package struct Subscription: Sendable, Hashable {
        package var url: URL
        /// The outline's `text` (else `title`), when it has one.
        package var name: String?
        /// Where the outline is in the OPML file.
        package var line: Int?
        /// The folders the outline is in (outermost first), and the last part of each of its
        /// `category` paths; a feed listed in several folders has all of them.
        package var tags: [String]

        package init(url: URL, name: String? = nil, line: Int? = nil, tags: [String] = []) {
            self.url = url
            self.name = name
            self.line = line
            self.tags = tags
        }
    }

    /// What an OPML file holds.
    package struct Document: Sendable, Hashable {
        /// The `<head><title>`, when present.
        package var title: String?
        /// Feeds in document order (nested folders flattened), without repeats.
        package var subscriptions: [Subscription]
        /// Outlines that were skipped and other problems, as warnings.
        package var diagnostics: [Diagnostic]
    }

    /// The result of a merge.
    package struct Outcome: Sendable {
        /// The new `feeds.yml` text (the old text when nothing was added).
        package var yaml: String
        /// Feeds appended to the list.
        package var added: [Subscription]
        /// Feeds skipped because `feeds.yml` already lists them.
        package var duplicates: [Subscription]
        /// Everything worth telling the user, OPML problems first.
        package var diagnostics: [Diagnostic]
        /// False when `feeds.yml` did not exist and is created.
        package var configExisted: Bool
    }

    /// Reads `opmlFile`, merges it into `configFile` (created when missing) and writes the result
    /// atomically when something was added.
    ///
    /// - Throws: `ConfigurationError` when the OPML file cannot be read or holds no feed, when
    ///   `feeds.yml` is not valid YAML or its `feeds:` cannot be appended to, or when it cannot be
    ///   written. Nothing is written then.
    package static func importFile(_ opmlFile: URL, into configFile: URL) throws(ConfigurationError) -> Outcome {
        let opmlName = opmlFile.lastPathComponent
        let configName = configFile.lastPathComponent
        let data = try ConfigurationError.contents(
            of: opmlFile, what: "the OPML file", limit: (maxBytes, { tooLarge(fileName: opmlName, size: $0) }))
        let document = try read(data, fileName: opmlName)
        var existing: String?
        if !FileManager.default.fileExists(atPath: configFile.path),
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: configFile.path)
        {
            // Writing would replace the link with a file of its own; the file it names stays missing.
            throw ConfigurationError([
                .error(
                    file: configName,
                    "\(configFile.path) is a link to \(target), which does not exist: create that file, or fix the link"
                )
            ])
        }
        if FileManager.default.fileExists(atPath: configFile.path) {
            guard let contents = try? Data(contentsOf: configFile) else {
                throw ConfigurationError([.error(file: configName, "cannot read \(configFile.path)")])
            }
            existing = try ConfigurationError.utf8Text(contents, file: configName)
        }
        var outcome = try merge(document, into: existing, configFileName: configName, opmlFileName: opmlName)
        if !outcome.added.isEmpty {
            do {
                try FileReplacement.replace(configFile, with: Data(outcome.yaml.utf8))
            } catch {
                throw ConfigurationError([.error(file: configName, "cannot write \(error)")])
            }
        }
        outcome.diagnostics = document.diagnostics + outcome.diagnostics
        return outcome
    }

    // MARK: - Reading OPML

    /// `text` without the control characters `feeds.yml` refuses.
    static func withoutControls(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !ConfigurationReader.isControl($0) }))
    }

    static let exportAdvice =
        "export the subscription list from your feed reader as OPML (often under Settings, Import/Export)"
        + " and import that file"

    static func tooLarge(fileName: String, size: String) -> ConfigurationError {
        ConfigurationError([
            .error(
                file: fileName,
                "the OPML file is \(size), over the \(FetchError.megabytes(maxBytes)) feedsite reads"
                    + " (some 150,000 feeds): split it, and import each part")
        ])
    }

    /// The most tags an imported feed gets from its folders and `category` paths (the first ones).
    package static let maxTags = 30

    /// The largest OPML file read: `XMLParser` (libxml2 outside its huge mode) stops at 10 MB with
    /// only "XML error 1" to say.
    package static let maxBytes = 10_000_000

    /// Parses OPML leniently: any encoding feeds may use, undeclared HTML entities and bare `&`
    /// repaired (the feed parser's repair pass), `outline` elements at any depth, attribute names
    /// in any case.
    ///
    /// - Throws: `ConfigurationError` when the bytes are not XML even after repair, the root is
    ///   not `<opml>`, or no outline has a feed URL.
    package static func read(_ data: Data, fileName: String) throws(ConfigurationError) -> Document {
        guard data.count <= maxBytes else { throw tooLarge(fileName: fileName, size: "\(data.count) bytes") }
        let decoded = FeedParser.decodeToUTF8(data, contentType: nil)
        var bytes = decoded.bytes
        var lineOffset = 0
        FeedParser.stripLeadingNoise(&bytes, lineOffset: &lineOffset)
        guard !bytes.isEmpty else { throw ConfigurationError([.error(file: fileName, "the OPML file is empty")]) }
        let prepared: FeedParser.PreparedXML
        do {
            prepared = try FeedParser.prepareXML(bytes, lineOffset: lineOffset)
        } catch {
            // The feed parser's words ("not a feed; check the feed's address") would mislead here.
            throw ConfigurationError([
                .error(
                    file: fileName, line: error.line, column: error.column,
                    "not an OPML file: \(error.isHTMLPage ? "it is an HTML page" : "it is not XML"); \(exportAdvice)")
            ])
        }
        var diagnostics: [Diagnostic] = []
        var reader = parse(prepared.bytes, lineOffset: lineOffset)
        if let failure = reader.failure, let repaired = FeedParser.repair(prepared.bytes, lineOffset: lineOffset) {
            reader = parse(repaired.bytes, lineOffset: lineOffset)
            // Exporters' bare `&` and HTML entities are put right without a word; a repair of the
            // structure (a file cut off, a tag or quote left open) may have lost feeds: said.
            let structural = repaired.structuralWarnings
            if reader.failure == nil, !structural.isEmpty {
                diagnostics.append(
                    .warning(
                        file: fileName, line: failure.line, column: failure.column,
                        "not well-formed XML (\(failure.message)), read as repaired ("
                            + structural.prefix(3).joined(separator: "; ")
                            + "): check that every feed you expected was imported"))
            }
        }
        if let failure = reader.failure {
            throw ConfigurationError([
                .error(
                    file: fileName, line: failure.line, column: failure.column,
                    "not well-formed XML: \(failure.message)")
            ])
        }
        guard reader.rootName?.lowercased() == "opml" else {
            let root = reader.rootName.map { "<\($0)>" } ?? "nothing"
            var message = "not an OPML file: the root element is \(root), expected <opml>"
            if ["rss", "feed", "rdf"].contains(reader.rootName?.lowercased() ?? "") {
                message += "; this is a feed: add its URL to feeds.yml as '- url: …' instead"
            }
            throw ConfigurationError(diagnostics + [.error(file: fileName, message)])
        }
        var subscriptions: [Subscription] = []
        /// By comparison key: the line first listing the feed, and its subscription.
        var seen: [String: (line: Int, index: Int)] = [:]
        /// Feeds whose tags were cut to `maxTags`, and the first outline that was.
        var cutFeeds: Set<String> = []
        var firstCut: OPMLReader.Outline?
        /// Folder and category names too long to be tags: how many, and the first one's line.
        var longTags: (count: Int, line: Int?) = (0, nil)
        for outline in reader.outlines {
            let label = outline.name.map { "outline '\($0)'" } ?? "an outline"
            let read = Self.feedURL(outline.url)
            guard let url = read, url.httpProblem == nil else {
                let why = read?.httpProblem.flatMap { $0 == .scheme ? nil : ": \($0)" } ?? ""
                diagnostics.append(
                    .warning(
                        file: fileName, line: outline.line,
                        "\(label) has no usable feed URL (\"\(outline.url)\" is not an http(s) URL\(why)); skipped"))
                continue
            }
            // feeds.yml refuses it (the site would publish it): this outline is skipped, not the import.
            if url.user != nil || url.password != nil {
                diagnostics.append(
                    .warning(
                        file: fileName, line: outline.line,
                        "\(label): its feed URL holds a user name or password before its host (user:…@), which the site "
                            + "would publish; skipped: add it to feeds.yml by hand without them, and send them with "
                            + "headers: {Authorization: \"Basic …\"}"))
                continue
            }
            let key = url.sameFeedKey
            if let first = seen[key] {
                // The same feed in another folder: one subscription with the tags of both.
                let known = Set(subscriptions[first.index].tags.map { $0.lowercased() })
                let room = max(0, maxTags - known.count)
                let added = outline.tags.filter { !known.contains($0.lowercased()) }
                if !added.isEmpty, room > 0 {
                    subscriptions[first.index].tags += added.prefix(room)
                    if added.count > room {
                        cutFeeds.insert(key)
                        firstCut = firstCut ?? outline
                    }
                } else {
                    diagnostics.append(
                        .warning(
                            file: fileName, line: outline.line,
                            "\(url.absoluteString) is listed again (first on line \(first.line)); skipped"))
                }
                continue
            }
            seen[key] = (outline.line ?? 0, subscriptions.count)
            var tags = outline.tags.map(Self.withoutControls).filter { !$0.isEmpty }
            let tooLong = tags.count { $0.count > ConfigurationReader.maxTagLength }
            if tooLong > 0 {
                longTags = (longTags.count + tooLong, longTags.line ?? outline.line)
                tags.removeAll { $0.count > ConfigurationReader.maxTagLength }
            }
            if tags.count > maxTags {
                cutFeeds.insert(key)
                firstCut = firstCut ?? outline
                tags.removeSubrange(maxTags...)
            }
            var name = outline.name.map(Self.withoutControls).flatMap { $0.isEmpty ? nil : $0 }
            if let full = name, full.count > ConfigurationReader.maxTextLength {
                // Longer than `feeds.yml` takes: cut, so that `build` accepts the file.
                name = String(full.prefix(ConfigurationReader.maxTextLength - 1)) + "…"
                diagnostics.append(
                    .warning(
                        file: fileName, line: outline.line,
                        "a feed's name is \(full.count) characters long; cut to \(ConfigurationReader.maxTextLength)"))
            }
            subscriptions.append(Subscription(url: url, name: name, line: outline.line, tags: tags))
        }
        if reader.commentedOut.count > 0 {
            let count = reader.commentedOut.count
            diagnostics.append(
                .warning(
                    file: fileName, line: reader.commentedOut.line,
                    "left out \(count == 1 ? "a feed" : "\(count) feeds") commented out in the file"
                        + " (in an outline marked isComment=\"true\")"))
        }
        if reader.links.count > 0 {
            let others = reader.links.count - 1
            let first = (reader.links.first).map { "'\(Self.withoutControls(String($0.prefix(80))))'" } ?? "an outline"
            diagnostics.append(
                .warning(
                    file: fileName, line: reader.links.line,
                    "left out \(first)" + (others > 0 ? " and \(others) more outline\(others == 1 ? "" : "s")" : "")
                        + " with a 'url' but no 'xmlUrl': links to web pages or other lists (type=\"link\" or \"include\"), not feeds;"
                        + " add a feed from such a page to feeds.yml by its feed address"))
        }
        if longTags.count > 0 {
            diagnostics.append(
                .warning(
                    file: fileName, line: longTags.line,
                    "left out \(longTags.count == 1 ? "a folder or category" : "\(longTags.count) folders and categories")"
                        + " longer than \(ConfigurationReader.maxTagLength) characters, the longest tag feeds.yml takes"
                ))
        }
        if let firstCut {
            let label = firstCut.name.map { "outline '\($0)'" } ?? "an outline"
            let others = cutFeeds.count - 1
            diagnostics.append(
                .warning(
                    file: fileName, line: firstCut.line,
                    "\(label) has \(firstCut.tags.count) folders and categories; a feed keeps its first \(maxTags)"
                        + " as tags" + (others > 0 ? " (so do \(others) more feeds)" : "")))
        }
        guard !subscriptions.isEmpty else {
            throw ConfigurationError(
                diagnostics + [
                    .error(
                        file: fileName,
                        reader.outlines.isEmpty
                            ? "no feeds found: no <outline> element has an 'xmlUrl' attribute"
                            : "no feeds found: no outline has a usable http(s) 'xmlUrl'")
                ])
        }
        return Document(title: reader.title, subscriptions: subscriptions, diagnostics: diagnostics)
    }

    private static func parse(_ bytes: [UInt8], lineOffset: Int) -> OPMLReader {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let delegate = OPMLEventForwarder(lineOffset: lineOffset)
        parser.delegate = delegate
        _ = parser.parse()
        return delegate.reader
    }

    /// An outline's feed URL as read, after trimming (whether it can be asked for over HTTP is the
    /// caller's check); `feed://` and `feed:https://` (as some readers export) are read as the
    /// http(s) URLs they stand for.
    static func feedURL(_ raw: String) -> URL? {
        var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let lowered = text.lowercased()
        if lowered.hasPrefix("feed:http://") || lowered.hasPrefix("feed:https://") {
            text = String(text.dropFirst("feed:".count))
        } else if lowered.hasPrefix("feed://") {
            text = "http://" + text.dropFirst("feed://".count)
        }
        return URL(string: text)
    }
}

/// What the XML events of an OPML file add up to: a value type, fed by `OPMLEventForwarder`.
struct OPMLReader {
    /// An `<outline>` with a feed URL.
    struct Outline: Hashable {
        var url: String
        var name: String?
        var line: Int?
        /// The enclosing folders' names (outermost first) and its `category` paths' last parts.
        var tags: [String] = []
    }

    struct Failure: Hashable {
        var line: Int?
        var column: Int?
        var message: String
    }

    var rootName: String?
    var title: String?
    var outlines: [Outline] = []
    var failure: Failure?
    private var path: [String] = []
    /// For each open `<outline>`: its name when it is a folder (no feed URL), else nil.
    private var folders: [String?] = []
    private var titleText = ""
    /// Feeds inside an outline marked `isComment="true"` (OPML 2.0: commented out), left out:
    /// how many, and the line of the first.
    private(set) var commentedOut: (count: Int, line: Int?) = (0, nil)
    /// Outlines with a `url` and no `xmlUrl` (OPML 2.0 `type="link"` or `"include"`: a web page or
    /// another list, not a feed), left out: how many, and the first one's name and line.
    private(set) var links: (count: Int, first: String?, line: Int?) = (0, nil, nil)
    /// The innermost open outline when it has a `url`, no `xmlUrl` and (so far) nothing inside.
    private var openLink: (name: String, line: Int, depth: Int)?
    /// The depth of `folders` outside the commented-out outline being read, while in one.
    private var commentedAt: Int?

    mutating func startElement(_ name: String, attributes: [String: String], line: Int) {
        if rootName == nil { rootName = name }
        path.append(name.lowercased())
        guard path.first == "opml" else { return }
        if name.lowercased() == "outline" {
            // An outline inside it: a folder that happens to carry a link, not a link.
            openLink = nil
            // Attribute names vary in case between exporters (xmlUrl, xmlurl, XMLURL).
            var lowered: [String: String] = [:]
            for (key, value) in attributes { lowered[key.lowercased()] = value }
            let type = lowered["type"]?.lowercased() ?? ""
            let url = lowered["xmlurl"] ?? (["rss", "atom", "feed"].contains(type) ? lowered["url"] : nil)
            let name = [lowered["text"], lowered["title"]]
                .compactMap { $0.map(FeedParser.FeedText.collapseWhitespace) }
                .first { !$0.isEmpty }
            if commentedAt == nil, lowered["iscomment"]?.lowercased() == "true" { commentedAt = folders.count }
            if commentedAt != nil {
                if url != nil {
                    commentedOut.count += 1
                    commentedOut.line = commentedOut.line ?? line
                }
                folders.append(nil)
                return
            }
            guard let url else {
                openLink = lowered["url"].flatMap { link in
                    link.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (name ?? link, line, folders.count + 1)
                }
                folders.append(name)
                return
            }
            // OPML 2.0 `category`: comma-separated paths such as `/Tech/Swift`; the last part is the tag.
            let categories = (lowered["category"] ?? "").split(separator: ",").compactMap { path in
                path.split(separator: "/").last.map { FeedParser.FeedText.collapseWhitespace(String($0)) }
            }
            var tags: [String] = []
            var seen: Set<String> = []
            for tag in folders.compactMap({ $0 }) + categories
            where !tag.isEmpty && seen.insert(tag.lowercased()).inserted {
                tags.append(tag)
            }
            folders.append(nil)
            outlines.append(Outline(url: url, name: name, line: line, tags: tags))
        }
    }

    mutating func endElement() {
        if path.last == "outline", path.first == "opml" {
            if let link = openLink, link.depth == folders.count {
                links.count += 1
                if links.line == nil { links = (links.count, link.name, link.line) }
                openLink = nil
            }
            _ = folders.popLast()
            if folders.count == commentedAt { commentedAt = nil }
        }
        if path == ["opml", "head", "title"] {
            let text = titleText.trimmingCharacters(in: .whitespacesAndNewlines)
            title = text.isEmpty ? nil : text
        }
        _ = path.popLast()
    }

    mutating func characters(_ text: String) {
        if path == ["opml", "head", "title"] { titleText += text }
    }

    mutating func error(_ message: String, line: Int, column: Int) {
        if failure == nil { failure = Failure(line: line, column: column, message: message) }
    }
}

/// The `XMLParser` delegate for OPML: forwards events to `OPMLReader` and nothing else.
private final class OPMLEventForwarder: NSObject, XMLParserDelegate {
    var reader = OPMLReader()
    private let lineOffset: Int

    init(lineOffset: Int) {
        self.lineOffset = lineOffset
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        reader.startElement(elementName, attributes: attributeDict, line: parser.lineNumber + lineOffset)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        reader.endElement()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        reader.characters(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        reader.characters(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        guard !FeedParser.nonFatalXMLErrorCodes.contains(code) else { return }
        reader.error(
            FeedParser.describeXMLError(code: code), line: parser.lineNumber + lineOffset, column: parser.columnNumber)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil  // never fetch anything a document asks for
    }
}
