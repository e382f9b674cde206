import Foundation

/// Why a document could not be read as a feed.
///
/// The text reads like a compiler diagnostic: where (when known), what was found, and what to do,
/// e.g. `line 1, column 1: the document is an HTML page, not a feed; check the feed's address …`.
/// Fetch and Pipeline wrap it with the feed's name and URL, so it does not repeat them.
package struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line in the (original) document, when the problem has a position.
    package var line: Int?
    /// 1-based column on `line`, when known.
    package var column: Int?
    /// The problem itself, without the position prefix.
    package var message: String
    /// True when the document is an HTML page rather than a feed: the caller can then look for
    /// the feed the page links to (`FeedParser.discoverFeedLinks(inHTML:baseURL:)`).
    package var isHTMLPage: Bool
    /// The document's own text quoted in `message` (`it starts with "…"`), when it is.
    package var quotedText: String?
    /// The document is binary data; `message` shows its first bytes (`FeedParser.binaryData`).
    package var isBinaryData = false

    package init(
        line: Int? = nil, column: Int? = nil, message: String, isHTMLPage: Bool = false, quotedText: String? = nil
    ) {
        self.line = line
        self.column = column
        self.message = message
        self.isHTMLPage = isHTMLPage
        self.quotedText = quotedText
    }

    /// The error without the document's text: a local file that is no feed (a notes file, a key
    /// named by mistake) must not have its first line published on the status page.
    package var withoutQuotedText: FeedParseError {
        guard let quotedText else { return self }
        var error = self
        error.message = message.replacingOccurrences(of: "\"\(quotedText)\"", with: "text, not '<' or '{'")
        error.quotedText = nil
        return error
    }

    /// `line 3, column 7: message`, `line 3: message` or just `message`.
    package var description: String {
        switch (line, column) {
        case (let line?, let column?): "line \(line), column \(column): \(message)"
        case (let line?, nil): "line \(line): \(message)"
        default: message
        }
    }
}

extension FeedParseError {
    static let empty = FeedParseError(message: "the document is empty: there is no feed in it")

    static func htmlPage(line: Int?, column: Int?) -> FeedParseError {
        FeedParseError(
            line: line, column: column,
            message:
                "the document is an HTML page, not a feed; check the feed's address (the site may link its real feed)",
            isHTMLPage: true)
    }
}
