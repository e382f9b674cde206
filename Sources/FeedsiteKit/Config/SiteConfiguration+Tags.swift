import FeedsiteParse
import Foundation
import Yams

extension ConfigurationReader {
    /// A feed's `tags:`: a list of names (or one name), each a line of text; spaces are collapsed
    /// and a tag repeated (in any case) is kept once.
    mutating func tags(_ node: Node) -> [String] {
        let entries: [Node]
        switch node {
        case .sequence(let sequence): entries = Array(sequence)
        case .scalar(let scalar) where scalar.style == .plain && scalar.string.contains(","):
            // `tags: swift, rust` is one plain scalar; a tag named "swift, rust" is never meant.
            let names = scalar.string.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            let list = names.joined(separator: ", ")
            diagnostics.append(
                .warning(
                    file: fileName, line: node.mark?.line, column: node.mark?.column,
                    "'tags: \(scalar.string.prefix(100))' is read as \(names.count == 1 ? "1 tag" : "\(names.count) tags");"
                        + " write 'tags: [\(list.prefix(100))]' to say so (or the text in quotes for one tag)"))
            entries = names.map { Node.scalar(Node.Scalar($0, scalar.tag, .plain, scalar.mark)) }
        case .scalar: entries = [node]
        default:
            error(at: node, "'tags' must be a list of names, like 'tags: [rust, news]'")
            return []
        }
        var tags: [String] = []
        var seen: Set<String> = []
        for entry in entries {
            guard case .scalar(let scalar) = entry else {
                error(at: entry, "'tags' must be a list of names, like 'tags: [rust, news]'; got \(quoted(entry))")
                continue
            }
            let tag = FeedParser.FeedText.collapseWhitespace(scalar.string)
            guard !tag.isEmpty else {
                error(at: entry, "a tag is empty: write a name such as 'rust'")
                continue
            }
            guard tag.count <= Self.maxTagLength else {
                error(at: entry, "a tag is \(tag.count) characters long: at most \(Self.maxTagLength)")
                continue
            }
            if seen.insert(tag.lowercased()).inserted { tags.append(tag) }
        }
        return tags
    }
}
