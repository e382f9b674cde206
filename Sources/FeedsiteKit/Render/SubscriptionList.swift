import FeedsiteSanitise
import Foundation

/// `opml.xml`: the planet's subscription list as OPML 2.0, one `<outline type="rss">` per feed
/// in `feeds.yml` order, so readers can subscribe to all of them at once (and
/// `feedsite import opml` can read it back). Feeds with `tags` are grouped in one folder
/// (`<outline text="rust">`) per tag, by name, a feed with two tags in both; feeds without tags
/// follow the folders. A `feeds.yml` URL that is a web page is listed as the
/// feed it links to; an entry that reads the same feed as an earlier one is not listed again.
enum SubscriptionList {
    static func opml(_ site: Site) -> String {
        let feedsByURL = Dictionary(
            site.feeds.map { ($0.source.url, $0) }, uniquingKeysWith: { first, _ in first })
        let accounts = Dictionary(site.accounts.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        var xml = XMLBuilder()
        xml.line(#"<?xml version="1.0" encoding="utf-8"?>"#)
        xml.line(#"<opml version="2.0">"#)
        xml.line("<head>", indent: 1)
        xml.element("title", site.configuration.title, indent: 2)
        xml.element("docs", "http://opml.org/spec2.opml", indent: 2)
        xml.line("</head>", indent: 1)
        xml.line("<body>", indent: 1)
        var outlines: [(tags: [String], attributes: [(String, String)])] = []
        for source in site.configuration.feeds {
            let account = accounts[source.url]
            guard account?.sameFeedAs == nil else { continue }
            let feed = feedsByURL[source.url]
            let name = source.name ?? feed?.name ?? source.url.host ?? source.url.absoluteString
            let feedURL = account?.feedURL ?? source.url
            // A local feed file is listed under the address it gives itself; one without is not
            // listed (a path is no subscription).
            guard let xmlURL = source.isLocal ? feed?.feedLink : feedURL.absoluteString else { continue }
            var attributes = [
                ("type", "rss"), ("text", name), ("title", name), ("xmlUrl", xmlURL),
            ]
            // The web page named in feeds.yml is the feed's site when the channel names none.
            let page = feedURL == source.url ? nil : source.url.absoluteString
            if let siteLink = (feed?.siteLink ?? page).flatMap({ URLPolicy.resolve($0, against: nil, for: .link) }) {
                attributes.append(("htmlUrl", siteLink))
            }
            outlines.append((source.tags, attributes))
        }
        // Folders by tag name (ignoring case), each tag written as first met in feeds.yml.
        var names: [String: String] = [:]
        for tag in outlines.flatMap(\.tags) where names[Taxonomy.key(tag)] == nil {
            names[Taxonomy.key(tag)] = tag
        }
        for key in names.keys.sorted(by: { (names[$0]?.lowercased() ?? $0, $0) < (names[$1]?.lowercased() ?? $1, $1) })
        {
            let name = names[key] ?? key
            xml.open("outline", attributes: [("text", name), ("title", name)], indent: 2)
            for outline in outlines where outline.tags.contains(where: { Taxonomy.key($0) == key }) {
                xml.empty("outline", attributes: outline.attributes, indent: 3)
            }
            xml.line("</outline>", indent: 2)
        }
        for outline in outlines where outline.tags.isEmpty {
            xml.empty("outline", attributes: outline.attributes, indent: 2)
        }
        xml.line("</body>", indent: 1)
        xml.line("</opml>")
        return xml.text
    }
}
