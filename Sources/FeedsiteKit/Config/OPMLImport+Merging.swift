import Foundation
import Yams

extension OPMLImport {
    /// Adds the document's feeds that `yaml` does not list yet, textually, at the end of its
    /// `feeds:` list (or a new `feeds:` section, or a new file when `yaml` is nil or blank).
    ///
    /// - Throws: `ConfigurationError` when `yaml` is not valid YAML, is not a mapping, writes
    ///   `feeds:` as a non-empty flow list (`[a, b]`), or when the result would not read back with
    ///   exactly the expected feeds.
    package static func merge(
        _ document: Document, into yaml: String?, configFileName: String = "feeds.yml",
        opmlFileName: String = "subscriptions.opml"
    ) throws(ConfigurationError) -> Outcome {
        let configExisted = yaml != nil
        let original = yaml ?? ""
        let layout = try ConfigurationLayout(original, fileName: configFileName)
        var existingKeys: [String: Int] = [:]
        for (url, line) in layout.feedURLs {
            if let parsed = URL(string: url) { existingKeys[parsed.sameFeedKey] = line }
        }
        var diagnostics: [Diagnostic] = []
        var added: [Subscription] = []
        var duplicates: [Subscription] = []
        for subscription in document.subscriptions {
            if let line = existingKeys[subscription.url.sameFeedKey] {
                duplicates.append(subscription)
                diagnostics.append(
                    .warning(
                        file: opmlFileName, line: subscription.line,
                        "\(subscription.url.absoluteString) is already in \(configFileName)"
                            + (line > 0 ? " (line \(line))" : "") + "; skipped"))
            } else {
                added.append(subscription)
            }
        }
        guard !added.isEmpty else {
            return Outcome(
                yaml: original, added: [], duplicates: duplicates, diagnostics: diagnostics,
                configExisted: configExisted)
        }
        let merged = layout.appending(added, title: document.title)
        // The safety net: the new text must list exactly the old feeds followed by the new ones.
        let expected = layout.feedURLs.map(\.url) + added.map(\.url.absoluteString)
        let check = try? ConfigurationLayout(merged, fileName: configFileName)
        guard let check, check.feedURLs.map(\.url) == expected else {
            throw ConfigurationError([
                .error(
                    file: configFileName,
                    "cannot append to the 'feeds:' list of this file without changing its meaning; "
                        + "add the feeds by hand or simplify the list's formatting")
            ])
        }
        // And `build` must accept what it did before: an error the merge brought in (a value the
        // configuration refuses) stops the import, naming it, before anything is written.
        let newErrors = errors(in: merged, fileName: configFileName).subtracting(
            configExisted ? errors(in: original, fileName: configFileName) : [])
        guard newErrors.isEmpty else {
            throw ConfigurationError(
                newErrors.sorted().map {
                    .error(file: opmlFileName, "an imported feed would make \(configFileName) invalid: \($0)")
                })
        }
        return Outcome(
            yaml: merged, added: added, duplicates: duplicates, diagnostics: diagnostics, configExisted: configExisted)
    }

    /// The messages of the errors `SiteConfiguration.parse` finds in `yaml`, without their lines
    /// (which the appended feeds move).
    private static func errors(in yaml: String, fileName: String) -> Set<String> {
        do {
            _ = try SiteConfiguration.parse(yaml: yaml, fileName: fileName)
            return []
        } catch {
            return Set(error.diagnostics.filter { $0.severity == .error }.map(\.message))
        }
    }

    /// A YAML scalar for `value`: plain when it cannot be misread, double-quoted and escaped otherwise.
    /// `inFlow`: for a flow list (`[a, b]`), where `,` also ends a plain scalar.
    static func yamlScalar(_ value: String, inFlow: Bool = false) -> String {
        let reserved: Set<String> = ["", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"]
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " ._-/:?=&%+,()!'@;$*~#"))
        let isPlain =
            value.unicodeScalars.allSatisfy { allowed.contains($0) && $0.isASCII }
            && value.first.map({ $0.isLetter || $0.isNumber }) == true
            && !value.hasSuffix(" ") && !value.hasSuffix(":") && !value.contains(": ") && !value.contains(" #")
            && !reserved.contains(value.lowercased()) && Double(value) == nil
            && !(inFlow && (value.contains(",") || value.contains(":")))
        if isPlain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    quoted += String(format: "\\x%02X", scalar.value)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}

/// Where things are in a `feeds.yml` text: the lines, the `feeds:` key and its list, and the URLs
/// it lists. Found through Yams' node marks, so only line positions are trusted, never a re-dump.
struct ConfigurationLayout {
    /// The text split at `\n`; a `\r` before it stays part of the line.
    private var lines: [String]
    private let lineEnding: String
    private let endsWithNewline: Bool
    /// Every feed URL listed, in order, with its 1-based line.
    private(set) var feedURLs: [(url: String, line: Int)] = []
    private var feeds: FeedsKey?

    /// The `feeds:` key: its 1-based line and column, and how its value is written.
    private struct FeedsKey {
        var line: Int
        var column: Int
        var value: Value

        enum Value {
            /// `feeds:` followed by `- …` lines.
            case blockList(firstItemLine: Int)
            /// `feeds:`, `feeds: ~` or `feeds: []`: nothing listed yet, on the key's own line.
            case empty
        }
    }

    init(_ text: String, fileName: String) throws(ConfigurationError) {
        lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
        // Scalars, not Characters: "\r\n" is one Character and would not split at "\n".
        endsWithNewline = text.isEmpty || text.unicodeScalars.last == "\n"
        lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
        if endsWithNewline, !text.isEmpty { lines.removeLast() }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { lines = [] }

        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            // Let the configuration reader phrase the YAML error, with its line and column.
            do {
                _ = try SiteConfiguration.parse(yaml: text, fileName: fileName)
            } catch let configurationError {
                throw configurationError
            }
            throw ConfigurationError([.error(file: fileName, "not valid YAML: \(error)")])
        }
        guard let root else { return }  // empty, or only comments
        guard case .mapping(let mapping) = root else {
            throw ConfigurationError([
                .error(
                    file: fileName, line: root.mark?.line, column: root.mark?.column,
                    "expected a mapping with 'title', 'base_url' and 'feeds' at the top level")
            ])
        }
        for (keyNode, value) in mapping where keyNode.string == "feeds" {
            guard let keyMark = keyNode.mark else { continue }
            switch value {
            case .sequence(let sequence) where !sequence.isEmpty && !isFlow(value):
                let firstLine = sequence.first?.mark?.line ?? keyMark.line + 1
                feeds = FeedsKey(
                    line: keyMark.line, column: keyMark.column, value: .blockList(firstItemLine: firstLine))
                for entry in sequence {
                    let urlNode: Node? =
                        switch entry {
                        case .scalar: entry
                        case .mapping(let fields): fields["url"]
                        default: nil
                        }
                    if let urlNode, let url = urlNode.string {
                        feedURLs.append((url.trimmingCharacters(in: .whitespaces), urlNode.mark?.line ?? 0))
                    }
                }
            case .sequence(let sequence) where sequence.isEmpty:
                feeds = FeedsKey(line: keyMark.line, column: keyMark.column, value: .empty)
            case .scalar(let scalar) where scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null":
                feeds = FeedsKey(line: keyMark.line, column: keyMark.column, value: .empty)
            default:
                throw ConfigurationError([
                    .error(
                        file: fileName, line: value.mark?.line, column: value.mark?.column,
                        "'feeds' must be a block list ('- url: https://…' on its own lines) to import into it")
                ])
            }
        }
    }

    /// Whether a collection is written in flow style (`[a, b]`), judged from the text at its
    /// start: Yams 6 does not report sequence styles reliably.
    private func isFlow(_ node: Node) -> Bool {
        guard let mark = node.mark, mark.line >= 1, mark.line <= lines.count else { return false }
        let line = Array(lines[mark.line - 1].unicodeScalars)
        guard mark.column >= 1, mark.column <= line.count else { return false }
        return line[mark.column - 1] == "[" || line[mark.column - 1] == "{"
    }

    /// The text with `subscriptions` appended as `- url:`/`name:` entries.
    func appending(_ subscriptions: [OPMLImport.Subscription], title: String?) -> String {
        var lines = self.lines
        guard let feeds else {
            if lines.isEmpty {
                lines.append(
                    "# feedsite configuration: every key is documented in README.md (\"feeds.yml reference\").")
                if let title { lines.append("title: \(OPMLImport.yamlScalar(title))") }
            } else if lines.last.map({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == true {
                lines.append("")
            }
            lines.append("feeds:")
            lines += Self.entries(subscriptions, indent: "  ")
            return join(lines)
        }
        switch feeds.value {
        case .empty:
            // `feeds: []` or `feeds: ~` becomes `feeds:` with the entries under it; a comment after
            // the value stays (`feeds: []  # none yet` → `feeds:  # none yet`).
            let keyIndent = String(repeating: " ", count: feeds.column - 1)
            var line = lines[feeds.line - 1]
            let ending = line.hasSuffix("\r") ? "\r" : ""
            if !ending.isEmpty { line.removeLast() }
            let comment = line.range(of: #"[ \t]+#.*$"#, options: .regularExpression).map { String(line[$0]) } ?? ""
            lines[feeds.line - 1] = keyIndent + "feeds:" + comment + ending
            lines.insert(contentsOf: Self.entries(subscriptions, indent: keyIndent + "  "), at: feeds.line)
        case .blockList(let firstItemLine):
            let keyIndent = feeds.column - 1
            let itemText = lines[firstItemLine - 1]
            let dashIndent = itemText.prefix { $0 == " " }.count
            let last = lastLineOfList(keyLine: feeds.line, keyIndent: keyIndent, dashIndent: dashIndent)
            lines.insert(
                contentsOf: Self.entries(subscriptions, indent: String(repeating: " ", count: dashIndent)), at: last)
        }
        return join(lines)
    }

    /// The 1-based line after which new entries go: the last line of the list that is not blank
    /// and not a comment that more likely belongs to what follows.
    private func lastLineOfList(keyLine: Int, keyIndent: Int, dashIndent: Int) -> Int {
        var last = keyLine
        var index = keyLine  // 0-based index of the line after the key
        while index < lines.count {
            let line = lines[index].replacingOccurrences(of: "\r", with: "")
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }.count
            if trimmed.isEmpty {
                index += 1
                continue
            }
            if line.hasPrefix("---") || line.hasPrefix("...") { break }
            if trimmed.hasPrefix("#") {
                if indent > keyIndent && indent >= dashIndent { last = index + 1 }
                index += 1
                continue
            }
            let belongs = indent > keyIndent || (indent == dashIndent && (trimmed == "-" || trimmed.hasPrefix("- ")))
            guard belongs else { break }
            last = index + 1
            index += 1
        }
        return last
    }

    private static func entries(_ subscriptions: [OPMLImport.Subscription], indent: String) -> [String] {
        subscriptions.flatMap { subscription in
            var entry = ["\(indent)- url: \(OPMLImport.yamlScalar(subscription.url.absoluteString))"]
            if let name = subscription.name { entry.append("\(indent)  name: \(OPMLImport.yamlScalar(name))") }
            if !subscription.tags.isEmpty {
                let tags = subscription.tags.map { OPMLImport.yamlScalar($0, inFlow: true) }
                entry.append("\(indent)  tags: [\(tags.joined(separator: ", "))]")
            }
            return entry
        }
    }

    private func join(_ lines: [String]) -> String {
        // Lines inserted by us carry no `\r`; on a CRLF file give them one.
        let fixed = lineEnding == "\r\n" ? lines.map { $0.hasSuffix("\r") ? $0 : $0 + "\r" } : lines
        return fixed.joined(separator: "\n") + "\n"
    }
}
