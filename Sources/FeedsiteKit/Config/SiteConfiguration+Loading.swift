import Foundation
import Yams

extension SiteConfiguration {
    /// The keys `feeds.yml` understands at the top level and per feed; anything else is a warning
    /// (most often a typo: `base-url`, `feed:`).
    static let topLevelKeys: Set<String> = [
        "title", "description", "base_url", "index_items", "excerpt_length", "feed_items", "noindex", "feeds",
    ]
    static let feedKeys: Set<String> = ["url", "name"]

    /// Reads and validates `feeds.yml`.
    ///
    /// - Returns: the configuration and any warnings (unknown keys).
    /// - Throws: `ConfigurationError` listing every error found, each with `file:line:column`.
    public static func load(contentsOf url: URL) throws(ConfigurationError) -> (SiteConfiguration, [Diagnostic]) {
        let fileName = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError([
                .error(
                    file: fileName,
                    "cannot read the configuration file at \(url.path): it does not exist or is not readable; pass --config PATH"
                )
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError([.error(file: fileName, "the file is not UTF-8 text")])
        }
        return try parse(yaml: text, fileName: fileName)
    }

    /// Validates YAML text; `fileName` is only used in diagnostics.
    public static func parse(
        yaml: String, fileName: String = "feeds.yml"
    ) throws(ConfigurationError) -> (
        SiteConfiguration, [Diagnostic]
    ) {
        var reader = ConfigurationReader(fileName: fileName)
        let configuration = reader.read(yaml: yaml)
        let errors = reader.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let configuration else {
            throw ConfigurationError(reader.diagnostics.filter { $0.severity == .error })
        }
        return (configuration, reader.diagnostics)
    }
}

/// Walks the YAML node tree (rather than `Decodable`) so that every key has a line and column,
/// and so that every problem is reported in one pass instead of stopping at the first.
struct ConfigurationReader {
    let fileName: String
    var diagnostics: [Diagnostic] = []

    init(fileName: String) {
        self.fileName = fileName
    }

    mutating func read(yaml: String) -> SiteConfiguration? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            report(yamlError: error)
            return nil
        } catch {
            diagnostics.append(.error(file: fileName, "not valid YAML: \(error)"))
            return nil
        }
        guard let root, case .mapping(let mapping) = root else {
            diagnostics.append(
                .error(
                    file: fileName, line: root?.mark?.line, column: root?.mark?.column,
                    "expected a mapping with 'title', 'base_url' and 'feeds' at the top level"))
            return nil
        }

        var configuration = SiteConfiguration(feeds: [])
        var sawFeeds = false
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { continue }
            switch key {
            case "title":
                configuration.title = string(value, key: key) ?? configuration.title
            case "description":
                configuration.description = string(value, key: key) ?? configuration.description
            case "base_url":
                configuration.baseURL = httpURL(value, key: key)
            case "index_items":
                configuration.indexItems = positiveInt(value, key: key) ?? configuration.indexItems
            case "excerpt_length":
                configuration.excerptLength = positiveInt(value, key: key) ?? configuration.excerptLength
            case "feed_items":
                configuration.feedItems = positiveInt(value, key: key) ?? configuration.feedItems
            case "noindex":
                configuration.noindex = bool(value, key: key) ?? configuration.noindex
            case "feeds":
                sawFeeds = true
                configuration.feeds = feeds(value)
            default:
                warnUnknown(key: key, at: keyNode, known: SiteConfiguration.topLevelKeys)
            }
        }
        if !sawFeeds {
            diagnostics.append(
                .error(
                    file: fileName, line: 1, column: 1, "missing 'feeds': list at least one feed as '- url: https://…'")
            )
        }
        return configuration
    }

    private mutating func feeds(_ node: Node) -> [FeedSource] {
        guard case .sequence(let sequence) = node else {
            error(at: node, "'feeds' must be a list of entries like '- url: https://example.com/feed.xml'")
            return []
        }
        if sequence.isEmpty {
            error(at: node, "'feeds' is empty: list at least one feed as '- url: https://…'")
        }
        var sources: [FeedSource] = []
        var firstLineForURL: [String: Int] = [:]
        for entry in sequence {
            var urlNode = entry
            var name: String?
            switch entry {
            case .scalar:
                // `- https://example.com/feed.xml` is accepted as shorthand for `- url: …`.
                break
            case .mapping(let fields):
                guard let value = fields["url"] else {
                    error(at: entry, "feed entry has no 'url'")
                    continue
                }
                urlNode = value
                for (keyNode, value) in fields {
                    guard let key = keyNode.string else { continue }
                    switch key {
                    case "url": break
                    case "name": name = string(value, key: "name")
                    default: warnUnknown(key: key, at: keyNode, known: SiteConfiguration.feedKeys)
                    }
                }
            default:
                error(at: entry, "feed entry must be a mapping with 'url' (and optionally 'name')")
                continue
            }
            guard let url = httpURL(urlNode, key: "url") else { continue }
            let line = urlNode.mark?.line
            let key = url.absoluteString
            if let first = firstLineForURL[key] {
                error(at: urlNode, "duplicate feed URL \(key) (first listed on line \(first)); remove one of them")
                continue
            }
            firstLineForURL[key] = line ?? 0
            sources.append(FeedSource(url: url, name: name, line: line))
        }
        return sources
    }

    // MARK: - Scalars

    private mutating func string(_ node: Node, key: String) -> String? {
        guard case .scalar(let scalar) = node else {
            error(at: node, "'\(key)' must be a single line of text")
            return nil
        }
        return scalar.string
    }

    private mutating func positiveInt(_ node: Node, key: String) -> Int? {
        guard let value = node.int, value > 0 else {
            error(at: node, "'\(key)' must be a whole number greater than 0, got \(quoted(node))")
            return nil
        }
        return value
    }

    private mutating func bool(_ node: Node, key: String) -> Bool? {
        guard let value = node.bool else {
            error(at: node, "'\(key)' must be true or false, got \(quoted(node))")
            return nil
        }
        return value
    }

    private mutating func httpURL(_ node: Node, key: String) -> URL? {
        guard case .scalar(let scalar) = node else {
            error(at: node, "'\(key)' must be an http(s) URL")
            return nil
        }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            error(at: node, "'\(key)' must be an http(s) URL, got \(quoted(node))")
            return nil
        }
        return url
    }

    // MARK: - Reporting

    private func quoted(_ node: Node) -> String {
        if case .scalar(let scalar) = node { return "\"\(scalar.string)\"" }
        return "a \(node.isMapping ? "mapping" : "list")"
    }

    private mutating func error(at node: Node, _ message: String) {
        diagnostics.append(.error(file: fileName, line: node.mark?.line, column: node.mark?.column, message))
    }

    private mutating func warnUnknown(key: String, at node: Node, known: Set<String>) {
        var message = "unknown key '\(key)' is ignored"
        if let suggestion = known.first(where: {
            $0.replacingOccurrences(of: "_", with: "") == key.lowercased().filter(\.isLetter)
        }) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (known keys: \(known.sorted().joined(separator: ", ")))"
        }
        diagnostics.append(.warning(file: fileName, line: node.mark?.line, column: node.mark?.column, message))
    }

    private mutating func report(yamlError: YamlError) {
        switch yamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            diagnostics.append(
                .error(file: fileName, line: mark.line, column: mark.column, "not valid YAML: \(problem)"))
        default:
            diagnostics.append(.error(file: fileName, "not valid YAML: \(yamlError)"))
        }
    }
}

extension Node {
    fileprivate var isMapping: Bool {
        if case .mapping = self { return true }
        return false
    }
}
