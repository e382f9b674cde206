import FeedsiteShared
import Foundation
import Yams

extension SiteConfiguration {
    /// The keys `feeds.yml` understands at the top level and per feed; anything else is a warning
    /// (most often a typo: `base-url`, `feed:`).
    static let topLevelKeys: Set<String> = Set(ConfigurationReader.settings.keys).union([
        "base_url", "index_items", "timezone", "language", "feeds", "static_dir", "state_url", "max_items",
        "future_dates", "per_host", "max_body_mb", "user_agent", "exclude", "include",
    ])
    static let feedKeys: Set<String> = [
        "url", "name", "keep_days", "max_items", "user_agent", "headers", "exclude", "include", "tags",
    ]

    /// Reads and validates `feeds.yml`.
    ///
    /// - Returns: the configuration and any warnings (unknown keys).
    /// - Throws: `ConfigurationError` listing every error found, each with `file:line:column`.
    package static func load(contentsOf url: URL) throws(ConfigurationError) -> (SiteConfiguration, [Diagnostic]) {
        let fileName = url.lastPathComponent
        // No file at all (nor a link to a missing one): most likely a first run in a new folder.
        var info = stat()
        if lstat(url.path, &info) != 0, errno == ENOENT {
            throw ConfigurationError([
                .error(
                    file: fileName,
                    "there is no \(url.path): "
                        + (fileName == "feeds.yml"
                            ? "run `feedsite init` in \(url.deletingLastPathComponent().path) to write a starter, or pass"
                                + " --config PATH"
                            : "check the path given to --config"))
            ])
        }
        let data = try ConfigurationError.contents(
            of: url, what: "the configuration file", advice: "pass --config PATH")
        let text = try ConfigurationError.utf8Text(data, file: fileName)
        return try parse(yaml: text, fileName: fileName, directory: url.deletingLastPathComponent())
    }

    /// Validates YAML text; `fileName` is only used in diagnostics. Feed paths are relative to
    /// `directory` (the folder holding `feeds.yml`; nil: the current directory).
    package static func parse(
        yaml: String, fileName: String = "feeds.yml", directory: URL? = nil
    ) throws(ConfigurationError) -> (
        SiteConfiguration, [Diagnostic]
    ) {
        var reader = ConfigurationReader(
            fileName: fileName,
            directory: directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        let configuration = reader.read(yaml: yaml)
        // A value reached through several aliases is checked once per use: one line each.
        var seen: Set<Diagnostic> = []
        reader.diagnostics.removeAll { !seen.insert($0).inserted }
        let diagnostics = Self.capped(reader.diagnostics, fileName: fileName)
        // The warnings (unknown keys, with suggestions) go with the errors: all problems at once.
        guard !diagnostics.contains(where: { $0.severity == .error }), let configuration else {
            throw ConfigurationError(diagnostics)
        }
        return (configuration, diagnostics)
    }

    /// How many errors, and how many warnings, a file's check shows (a generated `feeds.yml` with
    /// the same mistake in every one of 100,000 entries printed 200,000 lines).
    static let maxShownDiagnostics = 50

    /// The first `maxShownDiagnostics` errors and warnings of `diagnostics`, in their order, and
    /// a line saying how many more of each there are.
    static func capped(_ diagnostics: [Diagnostic], fileName: String) -> [Diagnostic] {
        var shown: [Diagnostic] = []
        var counts: [Diagnostic.Severity: Int] = [:]
        for diagnostic in diagnostics {
            counts[diagnostic.severity, default: 0] += 1
            if counts[diagnostic.severity, default: 0] <= maxShownDiagnostics { shown.append(diagnostic) }
        }
        let hidden = counts.compactMapValues { $0 > maxShownDiagnostics ? $0 - maxShownDiagnostics : nil }
        if let errors = hidden[.error] {
            shown.append(
                .error(
                    file: fileName,
                    "\(errors) more \(errors == 1 ? "error is" : "errors are") not shown; fix the ones above and run again"
                ))
        }
        if let warnings = hidden[.warning] {
            shown.append(
                .warning(file: fileName, "\(warnings) more \(warnings == 1 ? "warning is" : "warnings are") not shown"))
        }
        return shown
    }
}

extension SiteConfiguration {
    /// What is wrong with where a published state is read from (`state_url`, `--restore-state`),
    /// worded to follow the option's name; nil when it is an http(s) URL, a `file:` URL or a path.
    /// A mistyped URL (`htps://…`, `http//…`, `https:/host`) is refused rather than read as a path
    /// that does not exist, which would start the site's history afresh.
    package static func stateOriginProblem(_ origin: String) -> String? {
        let text = origin.trimmingCharacters(in: .whitespaces)
        let expected = "give an http(s) URL, a file: URL or a path"
        guard !text.isEmpty else { return "is empty: \(expected)" }
        if let scheme = ConfigurationReader.scheme(of: text) {
            switch scheme.lowercased() {
            case "http", "https":
                guard let url = URL(string: text) else { return "is not a valid URL: \(text)" }
                return url.httpProblem.map { "cannot be fetched: \(text): \($0)" }
            case "file":
                return nil
            default:
                return "has the scheme '\(scheme):', which feedsite does not read a state from: \(expected)"
            }
        }
        if let (scheme, _) = ConfigurationReader.schemeWithoutColon(text) {
            return "looks like a URL without the ':' after '\(scheme)': \(expected)"
        }
        return nil
    }
}

/// Walks the YAML node tree (rather than `Decodable`) so that every key has a line and column,
/// and so that every problem is reported in one pass instead of stopping at the first.
struct ConfigurationReader {
    typealias Limits = SiteConfiguration.Limits

    let fileName: String
    /// The folder feed paths are relative to.
    let directory: URL
    var diagnostics: [Diagnostic] = []
    /// What is left of `maxMergeWork` for this file; below 0 once it ran out.
    var mergeWork = ConfigurationReader.maxMergeWork

    init(fileName: String, directory: URL) {
        self.fileName = fileName
        self.directory = directory
    }

    mutating func read(yaml: String) -> SiteConfiguration? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            report(yamlError: error, in: yaml)
            return nil
        } catch {
            diagnostics.append(.error(file: fileName, "not valid YAML: \(error)"))
            return nil
        }
        guard let root else {
            diagnostics.append(
                .error(
                    file: fileName,
                    "the file is empty (or holds only comments): write a 'feeds:' list, at least '- url: https://…'"
                        + " (`feedsite init` writes a commented starter)"))
            return nil
        }
        guard case .mapping(let written) = root else {
            diagnostics.append(
                .error(
                    file: fileName, line: root.mark?.line, column: root.mark?.column,
                    "expected a mapping with 'title', 'base_url' and 'feeds' at the top level"))
            return nil
        }

        let mapping = applyingMerges(written)
        var configuration = SiteConfiguration(feeds: [])
        var sawFeeds = false
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { continue }
            if key != "feeds", isSkippedAsNull(value, key: keyNode, known: SiteConfiguration.topLevelKeys) { continue }
            if let setting = Self.settings[key] {
                read(setting, value, key: key, into: &configuration)
                continue
            }
            switch key {
            case "base_url":
                configuration.baseURL = httpURL(value, key: key)
            case "index_items":
                // Deprecated: the index used to list only the newest N items; it now lists every
                // item, `page_size` per page. Still validated so a typo'd value is reported.
                if positiveInt(value, key: key) != nil {
                    diagnostics.append(
                        .warning(
                            file: fileName, line: keyNode.mark?.line, column: keyNode.mark?.column,
                            "'index_items' is deprecated and ignored: the index lists every item, 'page_size' per page"
                        ))
                }
            case "timezone":
                update(&configuration.timeZone, timeZone(value, key: key))
            case "language":
                update(&configuration.language, languageTag(value, key: key))
            case "feeds":
                sawFeeds = true
                configuration.feeds = feeds(value)
            case "static_dir":
                if let folder = string(value, key: key) {
                    if folder.trimmingCharacters(in: .whitespaces).isEmpty {
                        error(at: value, "'static_dir' must name a folder, such as static")
                    } else {
                        configuration.staticDirectory = folder
                    }
                }
            case "state_url":
                if let origin = string(value, key: key) {
                    if let problem = SiteConfiguration.stateOriginProblem(origin) {
                        error(at: value, "'state_url' \(problem)")
                    } else {
                        configuration.stateURL = origin
                    }
                }
            case "max_items":
                configuration.maxItems = positiveInt(value, key: key, max: Limits.maxItems)
            case "future_dates":
                update(&configuration.futureDates, choice(value, key: key))
            case "per_host":
                configuration.fetch.perHostConcurrency = positiveInt(value, key: key, max: Limits.concurrency)
            case "max_body_mb":
                if let megabytes = positiveInt(value, key: key, max: Limits.bodyMegabytes) {
                    configuration.fetch.maxBodyBytes = megabytes * 1_000_000
                }
            case "user_agent":
                configuration.fetch.userAgent = headerValue(value, key: key)
            case "exclude", "include":
                filterRules(value, key: keyNode, into: &configuration.filter)
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
            var keepDays: Int?
            var maxItems: Int?
            var userAgent: String?
            var headers: [String: String] = [:]
            var filter = ItemFilter()
            var tags: [String] = []
            switch entry {
            case .scalar:
                // `- https://example.com/feed.xml` is accepted as shorthand for `- url: …`.
                break
            case .mapping(let written):
                let fields = applyingMerges(written)
                guard let value = fields["url"] else {
                    error(at: entry, "feed entry has no 'url'")
                    continue
                }
                urlNode = value
                for (keyNode, value) in fields {
                    guard let key = keyNode.string else { continue }
                    if key != "url", isSkippedAsNull(value, key: keyNode, known: SiteConfiguration.feedKeys) {
                        continue
                    }
                    switch key {
                    case "url": break
                    case "name": name = string(value, key: "name")
                    case "keep_days": keepDays = positiveInt(value, key: key, max: Limits.keepDays)
                    case "max_items": maxItems = positiveInt(value, key: key, max: Limits.maxItems)
                    case "user_agent": userAgent = headerValue(value, key: key)
                    case "headers": headers = stringMap(value, key: key)
                    case "exclude", "include": filterRules(value, key: keyNode, into: &filter)
                    case "tags": tags = self.tags(value)
                    default: warnUnknown(key: key, at: keyNode, known: SiteConfiguration.feedKeys)
                    }
                }
            default:
                error(at: entry, "feed entry must be a mapping with 'url' (and optionally 'name')")
                continue
            }
            guard let (url, location) = feedLocation(urlNode) else { continue }
            let line = urlNode.mark?.line
            // One file named two ways (`a.xml`, `./a.xml`, `file:///…/a.xml`) is one feed.
            // One URL spelt two ways (`HTTP://`, `/./`, a `#fragment`) is found once fetched, with a
            // warning (`FeedRecord.sameFeeds`): a planet that built before keeps building.
            let key = location.isFileURL ? location.path : url.absoluteString
            if let first = firstLineForURL[key] {
                error(
                    at: urlNode,
                    "duplicate feed \(location.isFileURL ? "file" : "URL") \(key) (first listed on line \(first)); remove one of them"
                )
                continue
            }
            firstLineForURL[key] = line ?? 0
            sources.append(
                FeedSource(
                    url: url, location: location, name: name, line: line, keepDays: keepDays, maxItems: maxItems,
                    userAgent: userAgent, headers: headers, filter: filter, tags: tags))
        }
        return sources
    }

    // MARK: - Scalars

    /// A top-level setting that is one value: where it goes, and how its value is read.
    enum Setting {
        case text(WritableKeyPath<SiteConfiguration, String> & Sendable)
        case positiveInt(WritableKeyPath<SiteConfiguration, Int> & Sendable, max: Int)
        case wholeNumber(WritableKeyPath<SiteConfiguration, Int> & Sendable, max: Int)
        case flag(WritableKeyPath<SiteConfiguration, Bool> & Sendable)
    }

    /// The top-level keys that are one value each; the other keys are read by `read(yaml:)` itself.
    static let settings: [String: Setting] = [
        "title": .text(\.title), "description": .text(\.description), "state_dir": .text(\.stateDirectory),
        "page_size": .positiveInt(\.pageSize, max: Limits.pageSize),
        "excerpt_length": .positiveInt(\.excerptLength, max: Limits.excerptLength),
        "feed_items": .positiveInt(\.feedItems, max: Limits.feedItems),
        "keep_days": .positiveInt(\.keepDays, max: Limits.keepDays),
        "timeout": .positiveInt(\.fetch.timeoutSeconds, max: Limits.seconds),
        "connect_timeout": .positiveInt(\.fetch.connectTimeoutSeconds, max: Limits.seconds),
        "read_timeout": .positiveInt(\.fetch.readTimeoutSeconds, max: Limits.seconds),
        "retries": .wholeNumber(\.fetch.retries, max: Limits.retries),
        "max_retry_after": .wholeNumber(\.fetch.maxRetryAfterSeconds, max: Limits.seconds),
        "front_page_per_feed": .wholeNumber(\.frontPagePerFeed, max: Limits.pageSize), "noindex": .flag(\.noindex),
        "deny_private_networks": .flag(\.fetch.denyPrivateNetworks), "show_build_time": .flag(\.showBuildTime),
        "search": .flag(\.search), "category_pages": .flag(\.categoryPages), "avatars": .flag(\.avatars),
    ]

    /// Reads `setting` from `node`; a value that cannot be read is reported and leaves the default.
    private mutating func read(
        _ setting: Setting, _ node: Node, key: String, into configuration: inout SiteConfiguration
    ) {
        switch setting {
        case .text(let field): update(&configuration[keyPath: field], string(node, key: key))
        case .positiveInt(let field, let max):
            update(&configuration[keyPath: field], positiveInt(node, key: key, max: max))
        case .wholeNumber(let field, let max):
            update(&configuration[keyPath: field], wholeNumber(node, key: key, max: max))
        case .flag(let field): update(&configuration[keyPath: field], bool(node, key: key))
        }
    }

    /// Sets a setting to the value read for it; a value that could not be read (the reader reported
    /// it) leaves the default.
    private func update<Value>(_ setting: inout Value, _ value: Value?) {
        if let value { setting = value }
    }

    /// The longest text value: a title or a name is printed on every page (a 20 MB `title` was
    /// accepted and would have been written 35,000 times).
    static let maxTextLength = 10_000
    /// The longest tag (`tags:`), in characters.
    static let maxTagLength = 100

    /// A text setting. A control character other than a tab or line break is refused: it would be
    /// written raw into every page.
    private mutating func string(_ node: Node, key: String) -> String? {
        guard case .scalar(let scalar) = node else {
            error(at: node, "'\(key)' must be a single line of text")
            return nil
        }
        guard scalar.string.utf8.count <= Self.maxTextLength || scalar.string.count <= Self.maxTextLength else {
            error(at: node, "'\(key)' is \(scalar.string.count) characters long: at most \(Self.maxTextLength)")
            return nil
        }
        if let control = scalar.string.unicodeScalars.first(where: { Self.isControl($0) && $0 != "\t" && $0 != "\n" }) {
            error(at: node, "'\(key)' holds the control character \(Self.codePoint(control)); remove it")
            return nil
        }
        return scalar.string
    }

    /// A value sent in a request header (`user_agent`, `headers`): no control character but a tab
    /// (a line break would end the header and start another).
    private mutating func headerValue(_ node: Node, key: String) -> String? {
        guard let text = string(node, key: key) else { return nil }
        if let control = text.unicodeScalars.first(where: { Self.isControl($0) && $0 != "\t" }) {
            error(
                at: node,
                "'\(key)' holds the control character \(Self.codePoint(control)), which no HTTP header may; remove it")
            return nil
        }
        return text
    }

    /// YAML's null written plainly: nothing, `~`, `null`, `Null` or `NULL` (a quoted `"~"` is text).
    /// A setting whose value is null is no setting: the default stays, as if the line were not
    /// there (`description: ~` was the text "~", `title:` an empty title).
    static func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// `mapping` with YAML's merge keys applied (`<<: *defaults`, or `<<: [*a, *b]`): each merged
    /// mapping's keys that `mapping` does not give itself, an earlier merged mapping winning over a
    /// later one (YAML 1.1's merge type). Merged mappings may merge others, to a bounded depth, and
    /// the merges of one file visit at most `maxMergeWork` keys, so aliases cannot multiply the work.
    mutating func applyingMerges(_ mapping: Node.Mapping) -> Node.Mapping {
        guard mapping.keys.contains(where: Self.isMergeKey), mergeWork >= 0 else { return mapping }
        var budget = mergeWork
        let result = applyingMerges(mapping, depth: 0, budget: &budget)
        mergeWork = budget
        if budget < 0 {
            error(
                at: .mapping(mapping),
                "merge keys ('<<') bring in more than \(Self.maxMergeWork) keys in this file, through aliases of"
                    + " aliases; merge less")
        }
        return result
    }

    /// The most keys and merged mappings the merge keys of one file may visit in all.
    static let maxMergeWork = 10_000

    private static func isMergeKey(_ key: Node) -> Bool {
        key.tag.rawValue == Tag.Name.merge.rawValue
    }

    /// - Parameter budget: what is left of `maxMergeWork`; below 0 once it ran out (the result is
    ///   then partial).
    private mutating func applyingMerges(_ mapping: Node.Mapping, depth: Int, budget: inout Int) -> Node.Mapping {
        var pairs: [(Node, Node)] = []
        var given: Set<String> = []
        var merged: [Node] = []
        for (key, value) in mapping {
            budget -= 1
            guard budget >= 0 else { return Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark) }
            guard Self.isMergeKey(key) else {
                pairs.append((key, value))
                if let name = key.string { given.insert(name) }
                continue
            }
            if case .sequence(let list) = value { merged += list } else { merged.append(value) }
        }
        for source in merged {
            guard case .mapping(let other) = source else {
                error(at: source, "'<<' merges mappings into this one (such as '<<: *defaults'), got \(quoted(source))")
                continue
            }
            guard depth < 16 else {
                error(at: source, "merge keys ('<<') nest more than 16 deep here")
                break
            }
            for (key, value) in applyingMerges(other, depth: depth + 1, budget: &budget) {
                guard let name = key.string, given.insert(name).inserted else { continue }
                pairs.append((key, value))
            }
            guard budget >= 0 else { break }
        }
        return Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)
    }

    /// Whether `value` is null, so that its key is no setting; an unknown key is still named.
    private mutating func isSkippedAsNull(_ value: Node, key keyNode: Node, known: Set<String>) -> Bool {
        guard case .scalar(let scalar) = value, Self.isNull(scalar) else { return false }
        if let key = keyNode.string, !known.contains(key) { warnUnknown(key: key, at: keyNode, known: known) }
        return true
    }

    /// C0 controls, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `U+0007`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A number as written in decimal (`1_000` too). YAML 1.1, which Yams reads, takes `010` as 8,
    /// `0x10` as 16 and `1:30` as 90: a leading zero is read in decimal with a warning, the other
    /// forms are not numbers here.
    private mutating func decimal(_ node: Node, key: String) -> Int? {
        guard case .scalar(let scalar) = node else { return nil }
        var digits = Substring(scalar.string.trimmingCharacters(in: .whitespaces).filter { $0 != "_" })
        let isNegative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let significant = digits.drop { $0 == "0" }
        guard significant.count <= 18 else { return isNegative ? Int.min : Int.max }
        let value = (Int(significant) ?? 0) * (isNegative ? -1 : 1)
        if digits.count > 1, digits.first == "0" {
            diagnostics.append(
                .warning(
                    file: fileName, line: node.mark?.line, column: node.mark?.column,
                    "'\(key)': \(quoted(node)) is read as \(value) in decimal; write it without the leading zero (some YAML readers take it as octal)"
                ))
        }
        return value
    }

    private mutating func positiveInt(_ node: Node, key: String, max: Int = Limits.number) -> Int? {
        guard let value = decimal(node, key: key), value > 0 else {
            error(at: node, "'\(key)' must be a whole number greater than 0, got \(quoted(node))")
            return nil
        }
        return atMost(max, value, node, key: key)
    }

    private mutating func wholeNumber(_ node: Node, key: String, max: Int = Limits.number) -> Int? {
        guard let value = decimal(node, key: key), value >= 0 else {
            error(at: node, "'\(key)' must be a whole number (0 or more), got \(quoted(node))")
            return nil
        }
        return atMost(max, value, node, key: key)
    }

    private mutating func atMost(_ max: Int, _ value: Int, _ node: Node, key: String) -> Int? {
        guard value <= max else {
            error(at: node, "'\(key)' must be at most \(max), got \(quoted(node))")
            return nil
        }
        return value
    }

    private mutating func bool(_ node: Node, key: String) -> Bool? {
        if let value = node.bool, case .scalar = node { return value }
        if case .scalar(let scalar) = node, scalar.style != .plain,
            ["true", "false"].contains(scalar.string.lowercased())
        {
            error(at: node, "'\(key)' must be true or false, without quotes (\(quoted(node)) in quotes is text)")
        } else {
            error(at: node, "'\(key)' must be true or false, got \(quoted(node))")
        }
        return nil
    }

    private mutating func choice<Choice: RawRepresentable & CaseIterable>(_ node: Node, key: String) -> Choice?
    where Choice.RawValue == String {
        guard case .scalar(let scalar) = node, let value = Choice(rawValue: scalar.string) else {
            let options = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            error(at: node, "'\(key)' must be one of \(options), got \(quoted(node))")
            return nil
        }
        return value
    }

    private mutating func timeZone(_ node: Node, key: String) -> TimeZone? {
        guard case .scalar(let scalar) = node, let zone = TimeZone(identifier: scalar.string) else {
            error(at: node, "'\(key)' must be a time zone name like Europe/Berlin or UTC, got \(quoted(node))")
            return nil
        }
        return zone
    }

    private mutating func languageTag(_ node: Node, key: String) -> String? {
        guard case .scalar(let scalar) = node, let tag = LanguageTag.normalised(scalar.string) else {
            error(at: node, "'\(key)' must be a language tag like en or de-CH, got \(quoted(node))")
            return nil
        }
        return tag
    }

    private mutating func stringMap(_ node: Node, key: String) -> [String: String] {
        guard case .mapping(let written) = node else {
            error(at: node, "'\(key)' must be a mapping of header names to values")
            return [:]
        }
        let mapping = applyingMerges(written)
        var result: [String: String] = [:]
        for (nameNode, value) in mapping {
            guard let name = nameNode.string, case .scalar = value else {
                error(at: value, "'\(key)' values must be single lines of text")
                continue
            }
            // A header name is a token (RFC 9110 §5.1): letters, digits and !#$%&'*+-.^_`|~.
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && Self.tokenCharacters.contains($0) })
            else {
                error(at: nameNode, "'\(name)' is not a header name: use letters, digits and '-', such as X-Api-Key")
                continue
            }
            if let text = headerValue(value, key: name) { result[name] = text }
        }
        return result
    }

    private static let tokenCharacters = Set(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)

    private mutating func httpURL(_ node: Node, key: String) -> URL? {
        guard case .scalar(let scalar) = node else {
            error(at: node, "'\(key)' must be an http(s) URL")
            return nil
        }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: text), url.httpProblem == nil else {
            error(at: node, "'\(key)' must be an http(s) URL, got \(quoted(node))")
            return nil
        }
        return url
    }

    // MARK: - Feed locations

    /// A feed's `url`: an http(s) URL, a `file:` URL, or a path to a local feed file, absolute or
    /// relative to the folder holding `feeds.yml`. Returns what the feed is called (its state key:
    /// a relative path stays relative) and where it is read from.
    private mutating func feedLocation(_ node: Node) -> (url: URL, location: URL)? {
        let expected = "'url' must be an http(s) URL, a file: URL or a path"
        guard case .scalar(let scalar) = node else {
            error(at: node, expected)
            return nil
        }
        guard !Self.isNull(scalar) else {
            error(at: node, "'url' has no value: \(expected)")
            return nil
        }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        // The URL is the feed's key in the saved state, which holds URLs to this length.
        guard text.utf8.count <= StateLimits.urlBytes else {
            error(at: node, "'url' is \(text.utf8.count) bytes long: at most \(StateLimits.urlBytes)")
            return nil
        }
        if let (scheme, rest) = Self.schemeWithoutColon(text) {
            error(
                at: node,
                "'url' \(quoted(node)) looks like a URL without the ':' after '\(scheme)': write \"\(scheme)://\(rest)\""
            )
            return nil
        }
        if let scheme = Self.scheme(of: text) {
            switch scheme.lowercased() {
            case "http", "https":
                guard let url = URL(string: text) else { break }
                // The URL is published (status page, opml.xml, the published state): credentials in
                // it would be too. The message does not repeat them (build logs are often public).
                if url.user != nil || url.password != nil {
                    error(
                        at: node,
                        "'url' holds a user name or password before its host (user:…@), which the site would publish "
                            + "(the status page, opml.xml, status/state.json); remove them from the URL and send them "
                            + "as a header: headers: {Authorization: \"Basic <base64 of user:password>\"}")
                    return nil
                }
                guard let problem = url.httpProblem else { return (url, url) }
                // No host: the general message below. A port out of range is named.
                guard case .port = problem else { break }
                error(at: node, "\(expected), got \(quoted(node)): \(problem)")
                return nil
            case "file":
                // file:///path, or file://localhost/path; never another machine's file.
                guard let url = URL(string: text), url.isFileURL, (url.host ?? "").isEmpty || url.host == "localhost",
                    url.path.hasPrefix("/"), url.path.count > 1
                else {
                    error(at: node, "\(expected), got \(quoted(node)); a file: URL looks like file:///path/to/feed.xml")
                    return nil
                }
                let file = URL(fileURLWithPath: url.path).standardizedFileURL
                return (file, file)
            default:
                break
            }
            error(at: node, "\(expected), got \(quoted(node))")
            return nil
        }
        guard !text.isEmpty else {
            error(at: node, "\(expected), got \(quoted(node))")
            return nil
        }
        if text.hasPrefix("/") || text.hasPrefix("~/") {
            let file = URL(fileURLWithPath: (text as NSString).expandingTildeInPath).standardizedFileURL
            // `//host/feed.xml` is a URL without its scheme (as HTML writes links), not a path, unless
            // such a file exists (`//srv/feed.xml` is `/srv/feed.xml` to the file system).
            if text.hasPrefix("//"), !FileManager.default.fileExists(atPath: file.path) {
                let rest = text.dropFirst(2)
                error(
                    at: node,
                    "'url' \(quoted(node)) starts with '//', as a link without its scheme does, and there is no such "
                        + "file: write \"https://\(rest)\" (or http://), or a file's path with one '/'")
                return nil
            }
            return (file, file)
        }
        let relative = Self.normalised(relativePath: text)
        guard !relative.isEmpty, let name = Self.relativeURL(relative) else {
            error(at: node, "\(expected), got \(quoted(node))")
            return nil
        }
        let location = directory.absoluteURL.appendingPathComponent(relative).standardizedFileURL
        // `example.com/feed.xml` is a path; when no such file exists it was most likely meant as a URL.
        if let first = relative.split(separator: "/").first, first.contains("."), !first.hasPrefix("."),
            first.last != ".", !relative.hasSuffix("/"), !FileManager.default.fileExists(atPath: location.path)
        {
            diagnostics.append(
                .warning(
                    file: fileName, line: node.mark?.line, column: node.mark?.column,
                    "'url' \(quoted(node)) is read as a path relative to \(fileName) and there is no such file; for a web feed write \"https://\(relative)\""
                ))
        }
        return (name, location)
    }

    /// `http` and `example.com/feed` of `http//example.com/feed`: an http(s) URL written without
    /// the ':' after its scheme, which would otherwise be read as a path.
    static func schemeWithoutColon(_ text: String) -> (scheme: Substring, rest: Substring)? {
        guard let slashes = text.range(of: "//"), ["http", "https"].contains(text[..<slashes.lowerBound].lowercased())
        else { return nil }
        return (text[..<slashes.lowerBound], text[slashes.upperBound...])
    }

    /// The URI scheme `text` starts with (`https`, `file`, `htp`…), if it has one: letters, digits,
    /// `+`, `-`, `.` before the first `:` (RFC 3986). A path whose first part holds a colon is
    /// written `./a:b.xml`.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter
        else { return nil }
        let scheme = text[..<colon]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return nil
        }
        return String(scheme)
    }

    /// `./a/../b//c.xml` → `b/c.xml`: the same file always gets the same name. Leading `..` stay.
    static func normalised(relativePath path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/") + (path.hasSuffix("/") && !parts.isEmpty ? "/" : "")
    }

    /// A relative path as a scheme-less relative URL (`sample-feeds/caf%C3%A9.xml`): its
    /// `absoluteString` is the path as written, percent-encoded. Colons are encoded, so no part
    /// reads as a scheme.
    static func relativeURL(_ path: String) -> URL? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":;")
        guard let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded)
    }

    // MARK: - Reporting

    func quoted(_ node: Node) -> String {
        if case .scalar(let scalar) = node { return "\"\(scalar.string)\"" }
        return "a \(node.isMapping ? "mapping" : "list")"
    }

    mutating func error(at node: Node, _ message: String) {
        diagnostics.append(.error(file: fileName, line: node.mark?.line, column: node.mark?.column, message))
    }

    private mutating func warnUnknown(key: String, at node: Node, known: Set<String>) {
        if key.lowercased().hasPrefix("x-") {
            // At the top level, yours, as in Compose files: notes, or shared settings anchored for
            // merge keys (`x-defaults: &defaults`). In a feed, most likely a request header.
            guard known != SiteConfiguration.topLevelKeys else { return }
            diagnostics.append(
                .warning(
                    file: fileName, line: node.mark?.line, column: node.mark?.column,
                    "unknown key '\(key)' is ignored; a request header goes under 'headers:'"))
            return
        }
        var message = "unknown key '\(key)' is ignored"
        if let suggestion = Self.nearest(to: key, in: known) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (the keys are listed in README.md, 'feeds.yml reference')"
        }
        diagnostics.append(.warning(file: fileName, line: node.mark?.line, column: node.mark?.column, message))
    }

    /// The known key a typo most likely meant: the same letters (`base-url`, `BaseURL`), or at
    /// most two edits away (`nmae`, `keepdays`).
    static func nearest(to key: String, in known: Set<String>) -> String? {
        let letters = key.lowercased().filter(\.isLetter)
        if let same = known.sorted().first(where: { $0.filter(\.isLetter) == letters }) { return same }
        let scored = known.sorted().map { ($0, editDistance(key.lowercased(), $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance over characters (keys are short).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    private mutating func report(yamlError: YamlError, in text: String) {
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // YAML forbids tabs in indentation; the scanner only says it found a character that
            // cannot start a token.
            let lines = Self.yamlLines(text)
            let isTab =
                mark.line >= 1 && mark.line <= lines.count
                && lines[mark.line - 1].unicodeScalars.dropFirst(max(mark.column - 1, 0)).first == "\t"
            let message =
                if isTab {
                    "not valid YAML: a tab; YAML is indented with spaces only"
                } else if problem.contains("another document") {
                    // libyaml: "expected a single document in the stream … but found another document".
                    "a second YAML document starts here (after '---' or '...'): feeds.yml is one document; remove this"
                        + " marker and merge what follows into the first, or delete it"
                } else if problem.hasPrefix("Maximum nesting level reached") {
                    // libyaml's limit (1,000), worded with the name of its C function.
                    "lists and mappings nest too deep here (more than 1,000 levels, the most the YAML reader takes)"
                } else {
                    "not valid YAML: \(problem)"
                        + (Self.yamlHint(
                            problem, line: mark.line >= 1 && mark.line <= lines.count ? lines[mark.line - 1] : "",
                            column: mark.column, context: context
                        ).map { "; " + $0 } ?? "")
                }
            diagnostics.append(.error(file: fileName, line: mark.line, column: mark.column, message))
        case .duplicatedKeysInMapping(let keys, let context):
            // Yams names the keys and where the first of them first appears; the repeat is looked
            // for below it, at the same indentation (a block mapping's keys line up).
            let lines = Self.yamlLines(text)
            for key in keys {
                let first = Self.line(
                    startingWith: key, column: context.mark.column, in: lines, from: context.mark.line)
                let again = first.flatMap {
                    Self.line(startingWith: key, column: context.mark.column, in: lines, from: $0 + 1)
                }
                if let first, let again {
                    diagnostics.append(
                        .error(
                            file: fileName, line: again, column: context.mark.column,
                            "'\(key)' is given twice in this mapping (first on line \(first)): keep one"))
                } else {
                    diagnostics.append(
                        .error(
                            file: fileName, line: context.mark.line, column: context.mark.column,
                            "'\(key)' is given more than once in this mapping: keep one"))
                }
            }
        default:
            diagnostics.append(.error(file: fileName, "not valid YAML: \(yamlError)"))
        }
    }
}

extension ConfigurationReader {
    /// `text`'s lines as libyaml counts them: a line ends at LF, CR, CRLF, NEL, U+2028 or U+2029.
    static func yamlLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { character in
            ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"].contains(character)
        }
    }

    /// What to do about one of libyaml's errors, from the line it points at: its own words
    /// ("mapping values are not allowed in this context") name the grammar, not the mistake.
    static func yamlHint(_ problem: String, line: Substring, column: Int, context: YamlError.Context?) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        let entry = text.hasPrefix("- ") ? String(text.dropFirst(2)) : text
        // `key: value`, split at the first ': '.
        let pair = entry.range(of: ": ").map {
            (
                key: String(entry[..<$0.lowerBound]),
                value: String(entry[$0.upperBound...]).trimmingCharacters(in: .whitespaces)
            )
        }
        func quoted(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        let indentation =
            "check this line's indentation: keys of one mapping line up, and list items ('- ') under a key line up"
        switch problem {
        case "mapping values are not allowed in this context":
            if let pair, pair.value.contains(": ") || pair.value.hasSuffix(":") {
                return "text holding ': ' must be in quotes: \(pair.key): \(quoted(pair.value))"
            }
            return indentation
        case "found character that cannot start any token":
            // libyaml's column counts code points.
            let character =
                line.unicodeScalars.dropFirst(max(column - 1, 0)).first.map { "'\($0)'" } ?? "this character"
            if let pair, !pair.value.isEmpty {
                return
                    "\(character) cannot start plain text in YAML: put it in quotes: \(pair.key): \(quoted(pair.value))"
            }
            return "\(character) cannot start plain text in YAML: put the text in quotes"
        case "found unexpected end of stream" where context?.text.contains("quoted scalar") == true:
            guard let mark = context?.mark else { return nil }
            return "the quote opened on line \(mark.line), column \(mark.column) is never closed"
        case "did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'":
            if let pair, let first = pair.value.first, first == "[" || first == "{" {
                return "a value starting with '\(first)' is read as a \(first == "[" ? "list" : "mapping");"
                    + " text must be in quotes: \(pair.key): \(quoted(pair.value))"
            }
            if let pair, pair.value.hasPrefix("'"), pair.value.dropFirst().dropLast().contains("'") {
                return "inside '…' a quote is written twice ('It''s'), or use double quotes: \(pair.key):"
                    + " \(quoted(String(pair.value.dropFirst().dropLast())))"
            }
            if let pair, pair.value.hasPrefix("\""), pair.value.dropFirst().dropLast().contains("\"") {
                return "inside \"…\" a quote is written \\\", or use single quotes"
            }
            if problem != "did not find expected key", let mark = context?.mark {
                let (opening, closing, kind) = problem.hasSuffix("']'") ? ("[", "]", "list") : ("{", "}", "mapping")
                return "the \(kind) opened with '\(opening)' on line \(mark.line), column \(mark.column) is not closed"
                    + " with '\(closing)' where expected; quote any text in it that holds ',', ': ' or '#'"
            }
            return indentation
        case "did not find expected '-' indicator":
            return indentation
        default:
            return nil
        }
    }

    /// The first line at or after `start` (1-based) that holds `key:` (the key bare or quoted) at
    /// `column` (1-based) after spaces or a list's `- `.
    fileprivate static func line(
        startingWith key: String, column: Int, in lines: [Substring], from start: Int
    ) -> Int? {
        guard start >= 1, start <= lines.count else { return nil }
        for number in start...lines.count {
            let line = lines[number - 1]
            guard line.count >= column else { continue }
            let indent = line.prefix(column - 1)
            guard indent.allSatisfy({ $0 == " " || $0 == "-" }) else { continue }
            let rest = line.dropFirst(column - 1)
            if ["\(key):", "\"\(key)\":", "'\(key)':"].contains(where: { rest.hasPrefix($0) }) { return number }
        }
        return nil
    }
}

extension Node {
    fileprivate var isMapping: Bool {
        if case .mapping = self { return true }
        return false
    }
}
