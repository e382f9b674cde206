import FeedsiteShared
import Foundation

/// `sitemap.xml` (sitemaps.org protocol 0.9) and `robots.txt`.
enum Sitemap {
    /// One page: its path relative to the site root (`""`, `feeds/swift-org/`) and the date of
    /// the newest content on it.
    struct Page: Sendable, Hashable {
        var path: String
        var lastModified: Date?
    }

    /// The protocol's limit per file; a planet that large should split its sitemap (not done yet).
    static let maximumURLs = 50_000

    static func xml(_ pages: [Page], siteURL: String) -> String {
        var xml = XMLBuilder()
        xml.line(#"<?xml version="1.0" encoding="utf-8"?>"#)
        xml.line(#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#)
        for page in pages.prefix(maximumURLs) {
            xml.line("<url>", indent: 1)
            xml.element("loc", siteURL + page.path, indent: 2)
            if let date = page.lastModified { xml.element("lastmod", InternetDate.rfc3339(date), indent: 2) }
            xml.line("</url>", indent: 1)
        }
        xml.line("</urlset>")
        return xml.text
    }

    /// Allows everything and names the sitemap; with `noindex: true` asks every crawler to stay
    /// away instead (the pages also carry `<meta name="robots" content="noindex">`, which is what
    /// keeps them out of results when another site links to them).
    ///
    /// Crawlers only read `/robots.txt` at the root of a host, so this file only takes effect when
    /// the site is published at the root of its domain.
    static func robots(sitemapURL: String?, noindex: Bool) -> String {
        if noindex {
            return "User-agent: *\nDisallow: /\n"
        }
        var text = "User-agent: *\nAllow: /\n"
        if let sitemapURL {
            // Line breaks cannot occur in a URL built from base_url and a fixed file name; strip
            // them anyway so the file can never gain a directive from configuration text.
            text += "\nSitemap: \(sitemapURL.filter { !$0.isNewline })\n"
        }
        return text
    }
}
