import Foundation

/// One attack from `Fixtures/hostile/vectors.txt` (the file's header documents the format).
struct HostileVector: Sendable, CustomStringConvertible {
    /// What the sanitised output may still contain.
    enum Mode: String, Sendable {
        /// The payload must vanish from the output entirely.
        case drop
        /// The payload is text the author typed; it may be displayed, never become markup.
        case text
    }

    /// 1-based position in the file, also written into the vector's beacon URL.
    var id: Int
    var mode: Mode
    /// Item HTML after one XML decode.
    var html: String

    var description: String { "#\(id) \(html.debugDescription)" }
}

/// Loads the hostile corpus and wraps vectors into the feed documents a planet would fetch.
enum HostileCorpus {
    /// The item link, which is also the base for relative URLs.
    static let itemLink = "https://example.com/blog/post.html"

    static func load() throws -> [HostileVector] {
        let text = try String(contentsOf: Fixtures.url("hostile/vectors.txt"), encoding: .utf8)
        var vectors: [HostileVector] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            guard let tab = line.firstIndex(of: "\t"), let mode = HostileVector.Mode(rawValue: String(line[..<tab]))
            else { throw CorpusError.malformedLine(String(line)) }
            let html = try unescape(String(line[line.index(after: tab)...]))
            vectors.append(HostileVector(id: vectors.count + 1, mode: mode, html: html))
        }
        return vectors
    }

    /// The beacon's port in the Swift tests, a real one as in the browser proof: with the
    /// placeholder left in, every beacon URL is invalid and `URLPolicy` refuses it, so a vector
    /// whose beacon ends up in an allowed `src` (a published image, which a browser loads) would
    /// pass here and fail only in the browser.
    static let beaconPort = 9

    /// `html` with `PORTPLACEHOLDER` replaced by `beaconPort`.
    static func withBeaconPort(_ html: String) -> String {
        html.replacingOccurrences(of: "PORTPLACEHOLDER", with: String(beaconPort))
    }

    enum CorpusError: Error {
        case malformedLine(String)
    }

    /// Decodes `\t`, `\n`, `\r`, `\\` and `\u{HEX}`.
    static func unescape(_ escaped: String) throws -> String {
        var result = String.UnicodeScalarView()
        var scalars = escaped.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            switch scalars.popFirst() {
            case "t": result.append("\t")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            case "u":
                guard scalars.popFirst() == "{", let close = scalars.firstIndex(of: "}"),
                    let value = UInt32(String(String.UnicodeScalarView(scalars[..<close])), radix: 16),
                    let decoded = Unicode.Scalar(value)
                else { throw CorpusError.malformedLine(escaped) }
                result.append(decoded)
                scalars = scalars[scalars.index(after: close)...]
            default:
                throw CorpusError.malformedLine(escaped)
            }
        }
        return String(result)
    }

    // MARK: - Feed embeddings

    /// How a vector is carried inside a feed document.
    enum Embedding: String, CaseIterable, Sendable {
        case rssEscaped = "RSS escaped"
        case rssCDATA = "RSS CDATA"
        case atomEscaped = "Atom escaped"
        case atomCDATA = "Atom CDATA"
        case atomXHTML = "Atom xhtml"
    }

    /// The feed document carrying `html` as its only item's body. The xhtml document is only
    /// well-formed when `html` is well-formed XML; `FeedParser` repairs or rejects the others.
    static func feed(_ html: String, as embedding: Embedding) -> Data {
        let body: String
        switch embedding {
        case .rssEscaped, .atomEscaped:
            body = escaped(html)
        case .rssCDATA, .atomCDATA:
            body = cdata(html)
        case .atomXHTML:
            body = "<div xmlns=\"http://www.w3.org/1999/xhtml\">\(html)</div>"
        }
        switch embedding {
        case .rssEscaped, .rssCDATA:
            return Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Hostile</title><link>https://example.com/</link>\
                <description>d</description><item><title>Vector</title><link>\(itemLink)</link>\
                <guid>urn:vector</guid><description>\(body)</description></item></channel></rss>
                """.utf8)
        case .atomEscaped, .atomCDATA, .atomXHTML:
            let type = embedding == .atomXHTML ? "xhtml" : "html"
            return Data(
                """
                <?xml version="1.0" encoding="utf-8"?>
                <feed xmlns="http://www.w3.org/2005/Atom"><title>Hostile</title><id>urn:hostile</id>\
                <updated>2024-01-01T00:00:00Z</updated><entry><title>Vector</title><id>urn:vector</id>\
                <updated>2024-01-01T00:00:00Z</updated><link href="\(itemLink)"/>\
                <content type="\(type)">\(body)</content></entry></feed>
                """.utf8)
        }
    }

    /// XML character data for `text` (control characters are left for the parser's repair).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// A CDATA section, split where the text itself contains `]]>`.
    static func cdata(_ text: String) -> String {
        "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
    }

    /// Whether `html` can go into Atom `type="xhtml"` content as it is. Ill-formed markup makes
    /// the parser reject the document (checked by the caller); an `&` that starts no XML reference
    /// would instead be repaired into text, which would test a different vector.
    static func fitsXHTML(_ html: String) -> Bool {
        html.range(of: "&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)", options: .regularExpression) == nil
            && !hasCharactersXMLForbids(html)
    }

    /// Characters XML 1.0 cannot carry at all: a feed holding them is malformed, whatever the
    /// escaping (the parser may repair or reject it; both are safe outcomes).
    static func hasCharactersXMLForbids(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0x00...0x1F, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
    }
}
