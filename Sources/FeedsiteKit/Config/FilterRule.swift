import FeedsiteParse
import Foundation

/// One rule of an `exclude:` or `include:` list in `feeds.yml`: a phrase, or one field and a
/// regular expression.
///
/// ```yaml
/// exclude:
///   - sponsored post              # a phrase: in the title or the content, in any case
///   - title: '^\[(Ad|Promo)\]'    # a field and a regular expression (ICU syntax, searched)
/// ```
package struct FilterRule: Sendable, Hashable, CustomDebugStringConvertible {
    /// The item fields a regular expression can be matched against.
    package enum Field: String, Sendable, Hashable, CaseIterable {
        /// The title (plain text).
        case title
        /// The content's text, without markup, whitespace collapsed.
        case content
        /// Each author's name; the rule matches when one of them does.
        case author
        /// Each of the item's categories; the rule matches when one of them does.
        case category
        /// The link to the original article.
        case link
    }

    /// What a rule looks for.
    package enum Test: Sendable, Hashable {
        /// A phrase, found in the title or the content regardless of case (runs of whitespace in
        /// the phrase match any run of whitespace).
        case phrase(String)
        /// A regular expression, searched anywhere in one field.
        case pattern(Field, ItemPattern)
    }

    /// Which list a rule is in.
    package enum Kind: String, Sendable, Hashable {
        case exclude
        case include
    }

    package var kind: Kind
    package var test: Test
    /// Where the rule is in `feeds.yml`, so the status page can point at it.
    package var line: Int?
    package var column: Int?

    package init(_ kind: Kind, _ test: Test, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.test = test
        self.line = line
        self.column = column
    }

    /// The rule as `feeds.yml` writes it: `exclude "sponsored post"`, `include title ~ /^Swift/`.
    package var summary: String {
        switch test {
        case .phrase(let phrase): "\(kind.rawValue) \"\(phrase)\""
        case .pattern(let field, let pattern): "\(kind.rawValue) \(field.rawValue) ~ /\(pattern.source)/"
        }
    }

    /// Stable across runs (the build fingerprint reflects the configuration).
    package var debugDescription: String {
        "FilterRule(\(summary), line: \(line.map(String.init) ?? "-"), column: \(column.map(String.init) ?? "-"))"
    }

    /// Whether the rule matches `item`.
    func matches(_ item: FilterSubject) -> Bool {
        switch test {
        case .phrase(let phrase):
            return Self.contains(item.title, phrase) || Self.contains(item.contentText, phrase)
        case .pattern(let field, let pattern):
            switch field {
            case .title: return pattern.matches(item.title)
            case .content: return pattern.matches(item.contentText)
            case .author: return item.authors.contains(where: pattern.matches)
            case .category: return item.categories.contains(where: pattern.matches)
            case .link: return item.link.map(pattern.matches) ?? false
            }
        }
    }

    /// Whether the rule reads the item's content (its text is then worked out once per item).
    var readsContent: Bool {
        switch test {
        case .phrase: true
        case .pattern(let field, _): field == .content
        }
    }

    /// A case-insensitive search (Unicode case folding, as Foundation does it).
    private static func contains(_ text: String, _ phrase: String) -> Bool {
        !text.isEmpty && text.range(of: phrase, options: [.caseInsensitive]) != nil
    }
}

/// A compiled regular expression (ICU, through `NSRegularExpression`), equal to another when its
/// source is: the configuration stays `Hashable` and its reflection stable.
package struct ItemPattern: Sendable, Hashable, CustomDebugStringConvertible {
    /// The expression as written.
    package let source: String
    private let expression: NSRegularExpression

    /// Compiles `source`; the error says what is wrong with it.
    ///
    /// ICU does the matching (it was 20 times faster than the standard library's `Regex` on item
    /// text); the standard library's parser only words the error, since ICU's says no more than
    /// "the value is invalid".
    package init(_ source: String) throws(ItemPattern.Invalid) {
        self.source = source
        do {
            expression = try NSRegularExpression(pattern: source)
        } catch {
            do {
                _ = try Regex(source)
            } catch {
                throw Invalid(reason: "\(error)")
            }
            throw Invalid(reason: "ICU, which matches it, does not accept it")
        }
    }

    /// Why a pattern does not compile: `expected ')'`.
    package struct Invalid: Error, Sendable, Hashable {
        package var reason: String
    }

    /// Whether the expression matches anywhere in `text`.
    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    package static func == (lhs: ItemPattern, rhs: ItemPattern) -> Bool { lhs.source == rhs.source }

    package func hash(into hasher: inout Hasher) { hasher.combine(source) }

    package var debugDescription: String { "/\(source)/" }
}

/// The `exclude:` and `include:` rules of one level of `feeds.yml` (the site, or one feed).
///
/// An item passes when it matches at least one `include` rule (if there are any) and no `exclude`
/// rule; the site's rules and its feed's rules must both pass.
package struct ItemFilter: Sendable, Hashable {
    package var exclude: [FilterRule]
    package var include: [FilterRule]
    /// The line of the `include:` key, for "matched no include rule (line 7)".
    package var includeLine: Int?

    package init(exclude: [FilterRule] = [], include: [FilterRule] = [], includeLine: Int? = nil) {
        self.exclude = exclude
        self.include = include
        self.includeLine = includeLine
    }

    /// No rule at all: every item passes.
    package var isEmpty: Bool { exclude.isEmpty && include.isEmpty }

    /// Why `item` is left out, or nil when it passes.
    func verdict(_ item: FilterSubject) -> FilterReason? {
        if !include.isEmpty, !include.contains(where: { $0.matches(item) }) {
            return FilterReason(summary: "matched no include rule", line: includeLine ?? include.first?.line)
        }
        if let rule = exclude.first(where: { $0.matches(item) }) {
            return FilterReason(summary: rule.summary, line: rule.line)
        }
        return nil
    }

    var readsContent: Bool {
        exclude.contains(where: \.readsContent) || include.contains(where: \.readsContent)
    }
}

/// Why a filter left an item out: the rule (or "matched no include rule") and its line.
package struct FilterReason: Sendable, Hashable {
    /// `exclude "sponsored"`, `exclude title ~ /^\[Ad\]/`, `matched no include rule`.
    package var summary: String
    /// The rule's line in `feeds.yml` (for an include list, the `include:` key's).
    package var line: Int?
}

/// What rules look at in one item.
struct FilterSubject {
    var title: String
    var link: String?
    var authors: [String]
    var categories: [String]
    /// The content's plain text; empty when no rule reads it.
    var contentText: String

    init(_ item: SiteItem, readsContent: Bool) {
        title = item.title
        link = item.link
        authors = item.authors
        categories = item.categories
        contentText = readsContent ? FeedParser.FeedText.plainText(fromHTML: item.content.html) : ""
    }
}
