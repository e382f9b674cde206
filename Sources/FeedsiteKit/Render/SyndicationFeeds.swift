import FeedsiteShared
import Foundation

/// The planet's own feeds: the newest `feed_items` items as Atom 1.0 (RFC 4287), RSS 2.0 and
/// JSON Feed 1.1. Each entry's id and link are our page for the item (stable, since slugs are);
/// the original article is linked beside it (Atom `rel="related"`, RSS `atom:link rel="related"`,
/// JSON Feed `external_url`); the content is the sanitised HTML and nothing else.
///
/// Every value written into XML goes through `XMLEscaping`; the JSON is written by `JSONEncoder`.
enum SyndicationFeeds {
    static let generatorURI = Feedsite.projectURL

    // MARK: - Atom 1.0

    static func atom(_ published: PublishedSite) -> String {
        var xml = XMLBuilder()
        xml.line(#"<?xml version="1.0" encoding="utf-8"?>"#)
        xml.line(#"<feed xmlns="http://www.w3.org/2005/Atom">"#)
        xml.element("title", published.title, attributes: [("type", "text")], indent: 1)
        if !published.description.isEmpty {
            xml.element("subtitle", published.description, attributes: [("type", "text")], indent: 1)
        }
        xml.element("id", published.homeURL, indent: 1)
        xml.empty(
            "link", attributes: [("rel", "alternate"), ("type", "text/html"), ("href", published.homeURL)], indent: 1)
        xml.empty(
            "link",
            attributes: [("rel", "self"), ("type", "application/atom+xml"), ("href", published.feedURL("atom.xml"))],
            indent: 1)
        xml.element("updated", InternetDate.rfc3339(published.updated), indent: 1)
        xml.element(
            "generator", "feedsite", attributes: [("uri", generatorURI), ("version", Feedsite.version)], indent: 1)
        for entry in published.entries {
            let item = entry.item
            xml.line("<entry>", indent: 1)
            xml.element("title", item.title, attributes: [("type", "text")], indent: 2)
            xml.element("id", entry.url, indent: 2)
            xml.empty(
                "link", attributes: [("rel", "alternate"), ("type", "text/html"), ("href", entry.url)], indent: 2)
            if let original = entry.originalLink {
                xml.empty(
                    "link", attributes: [("rel", "related"), ("type", "text/html"), ("href", original)], indent: 2)
            }
            for enclosure in entry.enclosures {
                var attributes = [("rel", "enclosure"), ("href", enclosure.url)]
                if let type = enclosure.type, !type.isEmpty { attributes.append(("type", type)) }
                if let length = enclosure.length, length > 0 { attributes.append(("length", "\(length)")) }
                xml.empty("link", attributes: attributes, indent: 2)
            }
            let date = item.date ?? published.updated
            if item.date != nil { xml.element("published", InternetDate.rfc3339(date), indent: 2) }
            xml.element("updated", InternetDate.rfc3339(date), indent: 2)
            for name in entry.authorNames {
                xml.line("<author>", indent: 2)
                xml.element("name", name, indent: 3)
                xml.line("</author>", indent: 2)
            }
            for category in item.categories {
                xml.empty("category", attributes: [("term", category)], indent: 2)
            }
            if !item.excerpt.isEmpty {
                xml.element("summary", item.excerpt, attributes: [("type", "text")], indent: 2)
            }
            if !item.content.html.isEmpty {
                xml.element("content", item.content.html, attributes: [("type", "html")], indent: 2)
            }
            xml.line("</entry>", indent: 1)
        }
        xml.line("</feed>")
        return xml.text
    }

    // MARK: - RSS 2.0

    static func rss(_ published: PublishedSite) -> String {
        var xml = XMLBuilder()
        xml.line(#"<?xml version="1.0" encoding="utf-8"?>"#)
        xml.line(
            #"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" "#
                + #"xmlns:content="http://purl.org/rss/1.0/modules/content/" "#
                + #"xmlns:dc="http://purl.org/dc/elements/1.1/">"#)
        xml.line("<channel>", indent: 1)
        xml.element("title", published.title, indent: 2)
        xml.element("link", published.homeURL, indent: 2)
        // `description` is required; the title stands in when feeds.yml has none.
        xml.element(
            "description", published.description.isEmpty ? published.title : published.description,
            indent: 2)
        xml.empty(
            "atom:link",
            attributes: [("href", published.feedURL("rss.xml")), ("rel", "self"), ("type", "application/rss+xml")],
            indent: 2)
        xml.element("lastBuildDate", InternetDate.rfc822(published.updated), indent: 2)
        xml.element("generator", "feedsite \(Feedsite.version)", indent: 2)
        xml.element("docs", "https://www.rssboard.org/rss-specification", indent: 2)
        for entry in published.entries {
            let item = entry.item
            xml.line("<item>", indent: 2)
            xml.element("title", item.title, indent: 3)
            xml.element("link", entry.url, indent: 3)
            xml.element("guid", entry.url, attributes: [("isPermaLink", "true")], indent: 3)
            if let date = item.date { xml.element("pubDate", InternetDate.rfc822(date), indent: 3) }
            for name in entry.authorNames {
                xml.element("dc:creator", name, indent: 3)
            }
            for category in item.categories {
                xml.element("category", category, indent: 3)
            }
            if let original = entry.originalLink {
                xml.empty(
                    "atom:link", attributes: [("rel", "related"), ("type", "text/html"), ("href", original)], indent: 3)
            }
            if let sourceURL = entry.sourceFeedURL {
                xml.element("source", item.feedName, attributes: [("url", sourceURL)], indent: 3)
            }
            // RSS allows one enclosure per item, with all three attributes.
            if let enclosure = entry.enclosures.first {
                xml.empty(
                    "enclosure",
                    attributes: [
                        ("url", enclosure.url), ("length", "\(max(0, enclosure.length ?? 0))"),
                        ("type", enclosure.type.flatMap { $0.isEmpty ? nil : $0 } ?? "application/octet-stream"),
                    ], indent: 3)
            }
            if !item.excerpt.isEmpty { xml.element("description", item.excerpt, indent: 3) }
            if !item.content.html.isEmpty { xml.element("content:encoded", item.content.html, indent: 3) }
            xml.line("</item>", indent: 2)
        }
        xml.line("</channel>", indent: 1)
        xml.line("</rss>")
        return xml.text
    }

    // MARK: - JSON Feed 1.1

    static func jsonFeed(_ published: PublishedSite) -> Data {
        // The same characters the XML feeds drop, so every format carries the same text.
        func clean(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.filter(XMLEscaping.isAllowed)))
        }
        let document = JSONFeedDocument(
            title: clean(published.title),
            homePageURL: published.homeURL,
            feedURL: published.feedURL("feed.json"),
            description: published.description.isEmpty ? nil : clean(published.description),
            items: published.entries.map { entry in
                let item = entry.item
                return JSONFeedDocument.Item(
                    id: entry.url, url: entry.url, externalURL: entry.originalLink, title: clean(item.title),
                    contentHTML: clean(item.content.html), summary: item.excerpt.isEmpty ? nil : clean(item.excerpt),
                    datePublished: item.date.map(InternetDate.rfc3339),
                    authors: entry.authorNames.map { JSONFeedDocument.Author(name: clean($0)) },
                    tags: item.categories.isEmpty ? nil : item.categories.map(clean),
                    attachments: entry.enclosures.isEmpty
                        ? nil
                        : entry.enclosures.map {
                            JSONFeedDocument.Attachment(
                                url: $0.url,
                                mimeType: $0.type.flatMap { $0.isEmpty ? nil : $0 } ?? "application/octet-stream",
                                sizeInBytes: $0.length.flatMap { $0 > 0 ? $0 : nil })
                        })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail; an empty object keeps the signature total.
        return ((try? encoder.encode(document)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }
}

/// JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/), only the fields the planet fills.
struct JSONFeedDocument: Encodable {
    var version = "https://jsonfeed.org/version/1.1"
    var title: String
    var homePageURL: String
    var feedURL: String
    var description: String?
    var items: [Item]

    struct Item: Encodable {
        var id: String
        var url: String
        var externalURL: String?
        var title: String
        /// JSON Feed requires `content_html` or `content_text`; it may be empty.
        var contentHTML: String
        var summary: String?
        var datePublished: String?
        var authors: [Author]
        var tags: [String]?
        var attachments: [Attachment]?

        enum CodingKeys: String, CodingKey {
            case id, url, title, summary, authors, tags, attachments
            case externalURL = "external_url"
            case contentHTML = "content_html"
            case datePublished = "date_published"
        }
    }

    struct Author: Encodable {
        var name: String
    }

    struct Attachment: Encodable {
        var url: String
        var mimeType: String
        var sizeInBytes: Int?

        enum CodingKeys: String, CodingKey {
            case url
            case mimeType = "mime_type"
            case sizeInBytes = "size_in_bytes"
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, title, description, items
        case homePageURL = "home_page_url"
        case feedURL = "feed_url"
    }
}
