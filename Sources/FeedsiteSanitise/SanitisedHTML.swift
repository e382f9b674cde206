import Foundation

/// HTML produced by `HTMLSanitiser`: the only value a template may emit unescaped.
///
/// The initialiser is internal so that nothing outside the sanitiser can label an arbitrary string
/// as safe. Decoding re-sanitises the stored markup (sanitising is idempotent, so genuine values
/// round-trip unchanged), which keeps a hand-edited JSON file from smuggling markup past the policy.
package struct SanitisedHTML: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The markup, ready to be inserted into a page as is.
    package let html: String

    /// Only the sanitiser (and tests) may vouch for a string.
    init(html: String) {
        self.html = html
    }

    /// No content at all.
    package static let empty = SanitisedHTML(html: "")

    package var description: String { html }

    private enum CodingKeys: String, CodingKey {
        case html
    }

    /// Set to `true` in a decoder's `userInfo` to skip re-sanitising: only for feedsite's own state
    /// directory, which it wrote itself (re-sanitising 30,000 items would dominate a warm build).
    package static let isTrustedKey = CodingUserInfoKey(rawValue: "feedsite.sanitisedHTML.isTrusted")!

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let markup = try container.decode(String.self, forKey: .html)
        if decoder.userInfo[Self.isTrustedKey] as? Bool == true {
            self.init(html: markup)
        } else {
            self = HTMLSanitiser().sanitise(html: markup, baseURL: nil).html
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(html, forKey: .html)
    }
}

/// What sanitising one item body yields: the safe HTML and the same tree as plain text (for
/// excerpts on index pages and in feeds).
package struct SanitisedContent: Sendable, Hashable {
    package var html: SanitisedHTML
    /// The same content without markup: paragraphs separated by blank lines, no escaping.
    package var plainText: String
    /// Why the body was left out, when it was (over the sanitiser's size limit, or its parse
    /// over the memory and time budget), worded to follow "content left out: ": the caller warns,
    /// naming the item, whose page still links to the original.
    package var omission: String?

    package init(html: SanitisedHTML, plainText: String, omission: String? = nil) {
        self.html = html
        self.plainText = plainText
        self.omission = omission
    }

    /// Nothing survived (or there was nothing to begin with).
    package static let empty = SanitisedContent(html: .empty, plainText: "")

    /// No content, for the reason given.
    static func omitted(_ reason: String) -> SanitisedContent {
        SanitisedContent(html: .empty, plainText: "", omission: reason)
    }
}
