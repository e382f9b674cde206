import FeedsiteSanitise
import Foundation

/// `opml.xml`: the planet's subscription list as OPML 2.0, one `<outline type="rss">` per feed
/// in `feeds.yml` order, so readers can subscribe to all of them at once (and
/// `feedsite import opml` can read it back). A `feeds.yml` URL that is a web page is listed as the
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
            xml.empty("outline", attributes: attributes, indent: 2)
        }
        xml.line("</body>", indent: 1)
        xml.line("</opml>")
        return xml.text
    }
}
