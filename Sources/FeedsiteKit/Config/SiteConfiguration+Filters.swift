import FeedsiteParse
import Foundation
import Yams

extension ConfigurationReader {
    /// Reads an `exclude:` or `include:` list (at the top level or in a feed entry) into `filter`.
    /// A single rule may be written without the list. Every bad rule is an error at its own line
    /// and column; the good ones are still read, so all problems are reported at once.
    mutating func filterRules(_ node: Node, key keyNode: Node, into filter: inout ItemFilter) {
        guard let key = keyNode.string, let kind = FilterRule.Kind(rawValue: key) else { return }
        if kind == .include { filter.includeLine = keyNode.mark?.line }
        let entries: [Node]
        switch node {
        case .sequence(let sequence):
            if sequence.isEmpty {
                error(at: node, "'\(key)' is empty: list rules such as '- sponsored' or '- title: ^Ad:'")
            }
            entries = Array(sequence)
        default:
            entries = [node]
        }
        for entry in entries {
            guard let rule = filterRule(entry, kind: kind) else { continue }
            switch kind {
            case .exclude: filter.exclude.append(rule)
            case .include: filter.include.append(rule)
            }
        }
    }

    /// One rule: a phrase, or a mapping of one field to a regular expression.
    private mutating func filterRule(_ node: Node, kind: FilterRule.Kind) -> FilterRule? {
        let key = kind.rawValue
        let fields = FilterRule.Field.allCases.map(\.rawValue).joined(separator: ", ")
        switch node {
        case .scalar(let scalar):
            let phrase = FeedParser.FeedText.collapseWhitespace(scalar.string)
            guard !phrase.isEmpty else {
                error(
                    at: node, "'\(key)' rule is empty: write a phrase, or a field (\(fields)) and a regular expression")
                return nil
            }
            return FilterRule(kind, .phrase(phrase), line: node.mark?.line, column: node.mark?.column)
        case .mapping(let mapping):
            guard mapping.count == 1, let (fieldNode, value) = mapping.first else {
                let names = mapping.keys.compactMap(\.string).joined(separator: ", ")
                error(
                    at: node,
                    "'\(key)' rule must name one field, got \(mapping.count) (\(names)); write one rule per field")
                return nil
            }
            guard let name = fieldNode.string, let field = FilterRule.Field(rawValue: name) else {
                var message = "'\(key)' rule: unknown field \(quoted(fieldNode)); the fields are \(fields)"
                if let name = fieldNode.string,
                    let suggestion = Self.nearest(to: name, in: Set(FilterRule.Field.allCases.map(\.rawValue)))
                {
                    message += "; did you mean '\(suggestion)'?"
                }
                error(at: fieldNode, message)
                return nil
            }
            guard case .scalar(let scalar) = value else {
                error(at: value, "'\(key)' rule: '\(name)' must be a regular expression (one line of text)")
                return nil
            }
            guard !scalar.string.isEmpty else {
                error(
                    at: value,
                    "'\(key)' rule: the regular expression for '\(name)' is empty (it would match every item)")
                return nil
            }
            do {
                let pattern = try ItemPattern(scalar.string)
                return FilterRule(kind, .pattern(field, pattern), line: node.mark?.line, column: node.mark?.column)
            } catch {
                self.error(
                    at: value,
                    "'\(key)' rule: \(quoted(value)) is not a valid regular expression for '\(name)': \(error.reason)")
                return nil
            }
        default:
            error(
                at: node, "'\(key)' rule must be a phrase or a mapping of one field (\(fields)) to a regular expression"
            )
            return nil
        }
    }
}
