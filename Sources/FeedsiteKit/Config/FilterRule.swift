import FeedsiteParse
import FeedsitePattern
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

    /// Whether the rule matches `item`; `.gaveUp` when a pattern ran out of its budget on some of
    /// the item's text and matched none of the rest.
    func matches(_ item: FilterSubject, _ search: BoundedSearch) -> BoundedSearch.Outcome {
        switch test {
        case .phrase(let phrase):
            return Self.contains(item.title, phrase) || Self.contains(item.contentText, phrase) ? .match : .noMatch
        case .pattern(let field, let pattern):
            switch field {
            case .title: return search.search(pattern.source, in: item.title)
            case .content: return search.search(pattern.source, in: item.contentText)
            case .author: return Self.any(item.authors, pattern, search)
            case .category: return Self.any(item.categories, pattern, search)
            case .link: return item.link.map { search.search(pattern.source, in: $0) } ?? .noMatch
            }
        }
    }

    /// A match in any of `values` decides; failing that, a search that gave up.
    private static func any(
        _ values: [String], _ pattern: ItemPattern, _ search: BoundedSearch
    ) -> BoundedSearch.Outcome {
        var outcome = BoundedSearch.Outcome.noMatch
        for value in values {
            switch search.search(pattern.source, in: value) {
            case .match: return .match
            case .gaveUp: outcome = .gaveUp
            case .noMatch: break
            }
        }
        return outcome
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

/// A regular expression (ICU syntax), checked when `feeds.yml` is loaded and searched by
/// `BoundedSearch`, which bounds its work: item text comes from strangers.
package struct ItemPattern: Sendable, Hashable, CustomDebugStringConvertible {
    /// The expression as written.
    package let source: String

    /// Checks `source` with ICU, which will search with it; the error says what is wrong.
    ///
    /// The standard library's parser only words the error, since ICU's says no more than "the
    /// value is invalid".
    package init(_ source: String) throws(ItemPattern.Invalid) {
        self.source = source
        guard BoundedSearch.compiles(source) else {
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

    /// Whether `item` passes, and if not, why.
    func verdict(_ item: FilterSubject, _ search: BoundedSearch) -> FilterVerdict {
        /// Every rule that gave up, so that each slow pattern is named, not only the first.
        var undecided: [FilterRule] = []
        if !include.isEmpty {
            var outcome = BoundedSearch.Outcome.noMatch
            for rule in include {
                switch rule.matches(item, search) {
                case .match: outcome = .match
                case .gaveUp:
                    undecided.append(rule)
                    outcome = .gaveUp
                case .noMatch: continue
                }
                if outcome == .match { break }
            }
            if outcome == .noMatch {
                return .leftOut(
                    FilterReason(summary: "matched no include rule", line: includeLine ?? include.first?.line))
            }
            if outcome == .match { undecided = [] }
        }
        for rule in exclude {
            switch rule.matches(item, search) {
            case .match: return .leftOut(rule.reason)
            case .gaveUp: undecided.append(rule)
            case .noMatch: break
            }
        }
        return undecided.isEmpty ? .passes : .undecided(undecided)
    }

    var readsContent: Bool {
        exclude.contains(where: \.readsContent) || include.contains(where: \.readsContent)
    }
}

/// What the `exclude:`/`include:` rules decide for one item.
enum FilterVerdict: Hashable {
    case passes
    case leftOut(FilterReason)
    /// Patterns gave up on the item's text (`BoundedSearch`) and no other rule decided: the item
    /// is shown, and each of those rules is reported.
    case undecided([FilterRule])
}

extension FilterRule {
    var reason: FilterReason { FilterReason(summary: summary, line: line) }
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
