import Foundation

extension FeedParser {
    /// The XML vocabularies the parser understands, identified by namespace URI, never by prefix:
    /// feeds bind `content:`, `dc:` and `media:` to whatever prefix they like (or a default namespace).
    enum Namespace: Sendable, Hashable {
        /// No namespace: RSS 0.9x/2.0 elements (and `<rss>`'s own default namespace, see `StateMachine`).
        case none
        /// RSS 1.0 `http://purl.org/rss/1.0/`.
        case rss10
        /// RSS 0.90's Netscape namespace `http://my.netscape.com/rdf/simple/0.9/` (RSS 1.0's element names).
        case rss090
        case rdf
        case atom
        /// Atom 0.3, `http://purl.org/atom/ns#`.
        case atom03
        case content
        case dc
        case dcterms
        case media
        case itunes
        case xhtml
        /// Anything else: ignored.
        case other

        /// Classifies a namespace URI. Matching is on a normalised form (lowercased, scheme and trailing
        /// `/` or `#` dropped) because real feeds spell the same URI several ways:
        /// `http://search.yahoo.com/mrss` and `.../mrss/`, `https://www.itunes.com/DTDs/PodCast-1.0.dtd`.
        init(uri: String) {
            var key = Substring(uri.lowercased())
            for scheme in ["http://", "https://"] where key.hasPrefix(scheme) {
                key = key.dropFirst(scheme.count)
            }
            while key.hasSuffix("/") || key.hasSuffix("#") { key = key.dropLast() }
            self = Self.known[String(key)] ?? (uri.isEmpty ? .none : .other)
        }

        private static let known: [String: Namespace] = [
            "purl.org/rss/1.0": .rss10,
            "my.netscape.com/rdf/simple/0.9": .rss090,
            "www.w3.org/1999/02/22-rdf-syntax-ns": .rdf,
            "www.w3.org/2005/atom": .atom,
            "purl.org/atom/ns": .atom03,
            "purl.org/rss/1.0/modules/content": .content,
            "purl.org/dc/elements/1.1": .dc,
            // Dublin Core 1.0's elements are 1.1's (older RSS 0.9x and 1.0 feeds).
            "purl.org/dc/elements/1.0": .dc,
            "purl.org/dc/terms": .dcterms,
            "search.yahoo.com/mrss": .media,
            "www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
            "www.w3.org/1999/xhtml": .xhtml,
        ]

        /// RSS element names live in no namespace (2.0) or in the RSS 1.0 or 0.90 namespace (RDF).
        var isRSS: Bool { self == .none || self == .rss10 || self == .rss090 }
        /// Atom 1.0 and 0.3 share most element names.
        var isAtom: Bool { self == .atom || self == .atom03 }
    }
}
