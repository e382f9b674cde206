import Foundation

/// `opml.xml`: the planet's subscription list as OPML 2.0, one `<outline type="rss">` per feed
/// in `feeds.yml` order, so readers can subscribe to all of them at once (and
/// `feedsite import opml` can read it back).
enum SubscriptionList {
    static func opml(_ site: Site) -> String {
        let feedsByURL = Dictionary(
            site.feeds.map { ($0.source.url, $0) }, uniquingKeysWith: { first, _ in first })
        var xml = XMLBuilder()
        xml.line(#"<?xml version="1.0" encoding="utf-8"?>"#)
        xml.line(#"<opml version="2.0">"#)
        xml.line("<head>", indent: 1)
        xml.element("title", site.configuration.title, indent: 2)
        xml.element("docs", "http://opml.org/spec2.opml", indent: 2)
        xml.line("</head>", indent: 1)
        xml.line("<body>", indent: 1)
        for source in site.configuration.feeds {
            let feed = feedsByURL[source.url]
            let name = source.name ?? feed?.name ?? source.url.host ?? source.url.absoluteString
            var attributes = [
                ("type", "rss"), ("text", name), ("title", name), ("xmlUrl", source.url.absoluteString),
            ]
            if let siteLink = feed?.siteLink.flatMap({ URLPolicy.resolve($0, against: nil, for: .link) }) {
                attributes.append(("htmlUrl", siteLink))
            }
            xml.empty("outline", attributes: attributes, indent: 2)
        }
        xml.line("</body>", indent: 1)
        xml.line("</opml>")
        return xml.text
    }
}
