import FeedsiteShared
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
package enum URLPolicy {
    /// Where the URL will be used; links additionally allow `mailto:`.
    package enum Purpose {
        case link, image
    }

    /// The base relative references resolve against, looked at once per item rather than once
    /// per URL in it (its scheme, and its parts when it is a simple URL).
    package struct Base {
        /// Nil when there is no base, or when it is not http(s) (relative references are refused).
        package let url: URL?
        /// The parts of `url` when it is simple (`SimpleURL`).
        package let simple: SimpleURL?

        package init(_ url: URL?) {
            guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                self.url = nil
                self.simple = nil
                return
            }
            self.url = url
            self.simple = SimpleURL(url.absoluteString)
        }
    }

    /// The absolute, allowed form of `raw`, or nil when it must not be published.
    package static func resolve(_ raw: String, against base: URL?, for purpose: Purpose) -> String? {
        resolve(raw, against: Base(base), for: purpose)
    }

    /// `resolve` with the base already looked at (the sanitiser resolves every URL of an item
    /// against the same one).
    package static func resolve(_ raw: String, against base: Base, for purpose: Purpose) -> String? {
        guard var cleaned = clean(raw), !cleaned.isEmpty else { return nil }

        switch scheme(of: cleaned) {
        case .http:
            // Browsers treat `\` as `/` in special URLs, so `https:\\evil.example` is a host.
            cleaned = slashed(cleaned)
            if let simple = SimpleURL(cleaned) { return simple.text }
            return absolute(cleaned, relativeTo: nil, requireHost: true)
        case .mailto where purpose == .link:
            return absolute(cleaned, relativeTo: nil, requireHost: false)
        case .mailto, .other:
            return nil
        case nil:
            break
        }

        cleaned = slashed(cleaned)
        // A colon before the first `/`, `?` or `#` of a reference without a valid scheme is a
        // scheme spelt so that no parser recognises it (`java\u{FFFD}script:`, `%6Aavascript:`):
        // RFC 3986 forbids it in relative references, and no honest feed writes one.
        let firstSegment = cleaned.utf8.prefix {
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
        }
        guard !firstSegment.contains(UInt8(ascii: ":")) else { return nil }
        guard let baseURL = base.url else {
            // Protocol-relative URLs need no base path, only a scheme: assume the safe one.
            if cleaned.hasPrefix("//") {
                return absolute("https:" + cleaned, relativeTo: nil, requireHost: true)
            }
            return nil
        }
        if let simple = base.simple, let resolved = SimpleURL.resolve(cleaned, against: simple) { return resolved }
        return absolute(cleaned, relativeTo: baseURL, requireHost: true)
    }

    /// `\\` as `/`, as browsers read it in http(s) URLs.
    private static func slashed(_ url: String) -> String {
        guard url.utf8.contains(UInt8(ascii: "\\")) else { return url }
        return String(url.map { $0 == "\\" ? "/" : $0 })
    }

    /// Strips leading/trailing C0 controls and spaces, removes tab/LF/CR anywhere (as the URL
    /// parser in browsers does), and rejects any other control character.
    private static func clean(_ raw: String) -> String? {
        if isClean(raw) { return raw }
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

    /// True when `clean` would return `raw` unchanged: no control character anywhere (C0, DEL,
    /// or C1, whose UTF-8 lead byte is 0xC2) and no space at either end. One pass over the bytes,
    /// so the scalar array `clean` builds is made only for a URL that needs cleaning.
    private static func isClean(_ raw: String) -> Bool {
        let utf8 = raw.utf8
        guard let first = utf8.first, let last = utf8.last, first > 0x20, last > 0x20 else { return false }
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) { return false }
            previous = byte
        }
        return true
    }

    /// The schemes the policy tells apart.
    private enum Scheme {
        case http, mailto, other
    }

    /// The scheme `url` starts with, if any (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`),
    /// compared without case. Bytes only: no string is built for it.
    private static func scheme(of url: String) -> Scheme? {
        // The first seven bytes, lowercased, packed into an integer ("mailto" and "https" are
        // shorter, so a longer scheme never matches them).
        var packed: UInt64 = 0
        for (offset, byte) in url.utf8.enumerated() {
            if byte == UInt8(ascii: ":") {
                guard offset > 0 else { return nil }
                switch (offset, packed) {
                case (4, 0x6874_7470), (5, 0x68_7474_7073): return .http  // http, https
                case (6, 0x6D61_696C_746F): return .mailto  // mailto
                default: return .other
                }
            }
            let isLetter =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (offset > 0 && isOther) else { return nil }
            if offset < 7 { packed = packed << 8 | UInt64(isLetter ? byte | 0x20 : byte) }
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
