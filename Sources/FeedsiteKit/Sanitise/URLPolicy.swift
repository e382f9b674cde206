import Foundation

/// The one URL policy for every `href` and `src` feedsite publishes.
///
/// It cleans a URL the way browsers do before they look at it (so an obfuscated scheme is seen
/// for what it is), resolves it against the item's base, and lets through only schemes that cannot
/// run code: `http`/`https`, plus `mailto` for links. Entity obfuscation (`jav&#x61;script:`) is
/// already decoded by the HTML parser before a URL gets here, so the scheme check sees the real
/// text.
///
/// `data:` URLs are rejected for images too: they are rarely more than lazy-loading placeholders,
/// and allowing them would mean validating MIME types and payloads (SVG can carry script). Relative
/// URLs without a base are rejected, because on our site they would point into our own pages.
enum URLPolicy {
    /// Where the URL will be used; links additionally allow `mailto:`.
    enum Purpose {
        case link, image
    }

    /// The absolute, allowed form of `raw`, or nil when it must not be published.
    static func resolve(_ raw: String, against base: URL?, for purpose: Purpose) -> String? {
        guard var cleaned = clean(raw), !cleaned.isEmpty else { return nil }

        if let scheme = scheme(of: cleaned) {
            switch scheme {
            case "http", "https":
                // Browsers treat `\` as `/` in special URLs, so `https:\\evil.example` is a host.
                cleaned = slashed(cleaned)
                return absolute(cleaned, relativeTo: nil, requireHost: true)
            case "mailto" where purpose == .link:
                return absolute(cleaned, relativeTo: nil, requireHost: false)
            default:
                return nil
            }
        }

        cleaned = slashed(cleaned)
        // A colon before the first `/`, `?` or `#` of a reference without a valid scheme is a
        // scheme spelt so that no parser recognises it (`java\u{FFFD}script:`, `%6Aavascript:`):
        // RFC 3986 forbids it in relative references, and no honest feed writes one.
        let firstSegment = cleaned.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !firstSegment.contains(":") else { return nil }
        guard let base, let baseScheme = base.scheme?.lowercased(), baseScheme == "http" || baseScheme == "https"
        else {
            // Protocol-relative URLs need no base path, only a scheme: assume the safe one.
            if cleaned.hasPrefix("//") {
                return absolute("https:" + cleaned, relativeTo: nil, requireHost: true)
            }
            return nil
        }
        return absolute(cleaned, relativeTo: base, requireHost: true)
    }

    /// `\\` as `/`, as browsers read it in http(s) URLs.
    private static func slashed(_ url: String) -> String {
        guard url.utf8.contains(UInt8(ascii: "\\")) else { return url }
        return String(url.map { $0 == "\\" ? "/" : $0 })
    }

    /// Strips leading/trailing C0 controls and spaces, removes tab/LF/CR anywhere (as the URL
    /// parser in browsers does), and rejects any other control character.
    private static func clean(_ raw: String) -> String? {
        var scalars = Array(raw.unicodeScalars)
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                continue
            case 0x00...0x1F, 0x7F...0x9F:
                return nil
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The lowercased scheme when `url` starts with one (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
    private static func scheme(of url: String) -> String? {
        var scheme = ""
        for (offset, scalar) in url.unicodeScalars.enumerated() {
            if scalar == ":" {
                return offset == 0 ? nil : scheme.lowercased()
            }
            let isLetter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
            let isOther = (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "-" || scalar == "."
            guard isLetter || (offset > 0 && isOther) else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// Parses (percent-encoding what browsers would), resolves, and re-checks the final scheme.
    private static func absolute(_ string: String, relativeTo base: URL?, requireHost: Bool) -> String? {
        guard let url = URL(string: string, relativeTo: base) ?? encodedURL(string, relativeTo: base) else {
            return nil
        }
        let absoluteURL = url.absoluteURL
        guard let scheme = absoluteURL.scheme?.lowercased() else { return nil }
        switch scheme {
        case "http", "https":
            // IPv6 literals are refused: cmark percent-encodes `[` `]` in hrefs, which would break
            // the host on the next read (and feeds do not link to bare addresses).
            guard let host = absoluteURL.host, !host.isEmpty, !host.contains(":"), !host.contains("[") else {
                return nil
            }
        case "mailto":
            guard !requireHost else { return nil }
        default:
            return nil
        }
        // `HTTPS://x` and `https://x` are the same URL; publish the canonical lowercase scheme.
        let string = absoluteURL.absoluteString
        guard let colon = string.firstIndex(of: ":") else { return nil }
        return scheme + string[colon...]
    }

    /// Spaces, non-ASCII and other characters a feed may leave unencoded.
    private static func encodedURL(_ string: String, relativeTo base: URL?) -> URL? {
        var allowed = CharacterSet.urlFragmentAllowed
        allowed.insert(charactersIn: "#%")
        guard let encoded = string.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded, relativeTo: base)
    }
}
