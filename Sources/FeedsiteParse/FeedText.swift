import FeedsiteShared
import Foundation

extension FeedParser {
    /// Small text operations the parsers share: turning HTML titles into plain text, deriving titles,
    /// splitting RSS author strings, and resolving URLs.
    ///
    /// These are deliberately simple scanners, not an HTML parser: they only ever produce *plain text*
    /// (titles) or metadata, never markup that is emitted. Real HTML handling happens in Sanitise.
    package enum FeedText {
        /// Collapses runs of whitespace to one space and trims the ends (titles, names). A no-break
        /// space right after U+00C2–U+00DF stays: that pair is what a second UTF-8 encoding makes of
        /// `à`, `Р` or a no-break space (bytes `C3 A0`, `D0 A0`, `C2 A0`), and the double-encoding
        /// repair (`undoingDoubleEncoding`) needs its 0xA0 to tell `mÃ gia` (`màgia`) from `Ã la`.
        package static func collapseWhitespace(_ text: String) -> String {
            if isCollapsedASCII(text) { return text }
            var result: [UInt8] = []
            result.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            var previous: UInt32 = 0
            for scalar in text.unicodeScalars {
                defer { previous = scalar.value }
                if scalar.value == 0xA0, (0xC2...0xDF).contains(previous) {
                    result.append(contentsOf: [0xC2, 0xA0])
                } else if String.isWhitespace(scalar) {
                    pendingSpace = !result.isEmpty
                } else {
                    if pendingSpace { result.append(UInt8(ascii: " ")) }
                    pendingSpace = false
                    if scalar.isASCII {
                        result.append(UInt8(truncatingIfNeeded: scalar.value))
                    } else if let encoded = UTF8.encode(scalar) {
                        result.append(contentsOf: encoded)
                    }
                }
            }
            return String(decoding: result, as: UTF8.self)
        }

        /// True when `collapseWhitespace` would return `text` unchanged and that is plain to see: ASCII
        /// without leading, trailing or doubled spaces or any other whitespace character.
        private static func isCollapsedASCII(_ text: String) -> Bool {
            var previous = UInt8(ascii: " ")  // so a leading space fails
            for byte in text.utf8 {
                guard byte < 0x80, byte > 0x20 || (byte == 0x20 && previous != 0x20) else { return false }
                previous = byte
            }
            return previous != 0x20 || text.isEmpty
        }

        /// True when a title that does not say what it is (RSS, RDF) reads as HTML: it has an end tag
        /// (`</b>`), an HTML void element (`<br>`) or a character reference (`&amp;`, `&#8217;`), and
        /// every tag in it names an HTML element. Otherwise it is text and kept as written:
        /// `Using the <dialog> element`, `</example>`, `List<T>`, `a<b` (the RSS Advisory Board asks
        /// readers to show titles literally; feedparser decides the same way).
        static func looksLikeHTML(_ text: String) -> Bool {
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
                return false
            }
            var hasEvidence = false
            let bytes = Array(text.utf8)
            var index = 0
            while index + 1 < bytes.count {
                let byte = bytes[index]
                let next = bytes[index + 1]
                if byte == UInt8(ascii: "&"), isASCIILetter(next) || next == UInt8(ascii: "#") {
                    var end = index + 1
                    while end < bytes.count, end - index <= 32,
                        isASCIILetter(bytes[end]) || isASCIIDigit(bytes[end])
                            || bytes[end] == UInt8(ascii: "#")
                    {
                        end += 1
                    }
                    if end < bytes.count, bytes[end] == UInt8(ascii: ";") { hasEvidence = true }
                } else if byte == UInt8(ascii: "<") {
                    let isEnd = next == UInt8(ascii: "/")
                    let start = index + (isEnd ? 2 : 1)
                    var end = start
                    while end < bytes.count, end - start < 16, isASCIILetter(bytes[end]) || isASCIIDigit(bytes[end]) {
                        end += 1
                    }
                    if end > start, isASCIILetter(bytes[start]) {
                        let name = String(decoding: bytes[start..<end].map { $0 | 0x20 }, as: UTF8.self)
                        guard htmlElements.contains(name) else { return false }
                        if isEnd || htmlVoidElements.contains(name) { hasEvidence = true }
                    } else if next == UInt8(ascii: "!") {
                        hasEvidence = true  // a comment
                    }
                }
                index += 1
            }
            return hasEvidence
        }

        private static func isASCIIDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private static let htmlVoidElements: Set<String> = ["br", "hr", "img", "wbr"]

        /// HTML's elements (current and obsolete ones feeds still write), lowercase.
        private static let htmlElements: Set<String> = [
            "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "bdi", "bdo", "big",
            "blink", "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
            "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em",
            "embed", "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
            "head", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend",
            "li", "link", "main", "map", "mark", "marquee", "menu", "meta", "meter", "nav", "nobr", "noscript",
            "object", "ol", "optgroup", "option", "output", "p", "param", "picture", "pre", "progress", "q", "rp",
            "rt", "ruby", "s", "samp", "script", "section", "select", "slot", "small", "source", "span", "strike",
            "strong", "style", "sub", "summary", "sup", "table", "tbody", "td", "template", "textarea", "tfoot", "th",
            "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video", "wbr",
        ]

        /// Plain text from an HTML fragment: tags and comments removed (block-level tags become a space
        /// so words don't run together), `script`/`style` bodies dropped, entities decoded once, and
        /// whitespace collapsed.
        package static func plainText(fromHTML html: String) -> String {
            // Without a '<' there is no tag to remove (most titles): the loop below would copy every scalar.
            guard html.utf8.contains(UInt8(ascii: "<")) else { return collapseWhitespace(decodeEntities(html)) }
            var output = ""
            output.reserveCapacity(html.utf8.count)
            let scalars = Array(html.unicodeScalars)
            var i = 0
            var skipUntilClosing: String?
            while i < scalars.count {
                let scalar = scalars[i]
                guard scalar == "<", i + 1 < scalars.count,
                    scalars[i + 1].properties.isAlphabetic || scalars[i + 1] == "/" || scalars[i + 1] == "!"
                else {
                    if skipUntilClosing == nil { output.unicodeScalars.append(scalar) }
                    i += 1
                    continue
                }
                // A comment runs to `-->`; any other tag to the next `>`.
                if i + 3 < scalars.count, scalars[i + 1] == "!", scalars[i + 2] == "-", scalars[i + 3] == "-" {
                    var j = i + 4
                    while j + 2 < scalars.count, !(scalars[j] == "-" && scalars[j + 1] == "-" && scalars[j + 2] == ">")
                    {
                        j += 1
                    }
                    i = min(j + 3, scalars.count)
                    continue
                }
                var j = i + 1
                while j < scalars.count, scalars[j] != ">" { j += 1 }
                var name = ""
                var k = i + 1
                let isClosing = scalars[k] == "/"
                if isClosing { k += 1 }
                while k < j, scalars[k].properties.isAlphabetic || ("0"..."9").contains(scalars[k]) {
                    name.unicodeScalars.append(scalars[k])
                    k += 1
                }
                name = name.lowercased()
                if let skipping = skipUntilClosing {
                    if isClosing, name == skipping { skipUntilClosing = nil }
                } else if !isClosing, name == "script" || name == "style" {
                    skipUntilClosing = name
                } else if blockTags.contains(name) {
                    output.unicodeScalars.append(" ")
                }
                i = min(j + 1, scalars.count)
            }
            return collapseWhitespace(decodeEntities(output))
        }

        private static let blockTags: Set<String> = [
            "br", "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "blockquote",
            "pre", "hr", "section", "article", "figure", "figcaption", "img", "dd", "dt", "table",
        ]

        /// Decodes `&name;`, `&#NNN;` and `&#xHHH;` once; unknown references are left as written.
        static func decodeEntities(_ text: String) -> String {
            guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
            var output = ""
            output.reserveCapacity(text.utf8.count)
            let scalars = Array(text.unicodeScalars)
            var i = 0
            while i < scalars.count {
                guard scalars[i] == "&", let end = scalars[(i + 1)...].prefix(33).firstIndex(of: ";"), end > i + 1
                else {
                    output.unicodeScalars.append(scalars[i])
                    i += 1
                    continue
                }
                let name = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
                var decoded: Unicode.Scalar?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    decoded = HTMLEntities.codePoints[name].flatMap(Unicode.Scalar.init)
                }
                if let decoded, decoded.value != 0 {
                    output.unicodeScalars.append(decoded)
                    i = end + 1
                } else {
                    output.unicodeScalars.append(scalars[i])
                    i += 1
                }
            }
            return output
        }

        /// A title made from the first words of an item's text, for items that have none
        /// (Scripting News, microblogs, JSON Feed notes). Ends with `…` when words were cut.
        static func derivedTitle(fromHTML html: String, maxWords: Int = 10) -> String {
            let words = plainText(fromHTML: html).split(separator: " ", omittingEmptySubsequences: true)
            guard words.count > maxWords else { return words.joined(separator: " ") }
            return words.prefix(maxWords).joined(separator: " ") + "…"
        }

        /// Escapes text for inclusion in re-serialised markup.
        static func escapeText(_ text: String) -> String {
            guard
                text.utf8.contains(where: {
                    $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ">")
                })
            else { return text }
            // On UTF-8 bytes: the three characters are ASCII, so no multi-byte sequence contains them.
            var output: [UInt8] = []
            output.reserveCapacity(text.utf8.count + 16)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
                default: output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        /// Escapes an attribute value for re-serialised markup (always double-quoted).
        static func escapeAttribute(_ text: String) -> String {
            let escaped = escapeText(text)
            // On UTF-8 bytes rather than `replacingOccurrences`, which goes through `NSString` on Linux.
            guard escaped.utf8.contains(UInt8(ascii: "\"")) else { return escaped }
            var output: [UInt8] = []
            output.reserveCapacity(escaped.utf8.count + 16)
            for byte in escaped.utf8 {
                if byte == UInt8(ascii: "\"") {
                    output.append(contentsOf: "&quot;".utf8)
                } else {
                    output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        /// Splits an RSS author string into name and email, in each form feeds use:
        /// `jo@example.com (Jo Bloggs)` (RSS 2.0's), `Jo Bloggs (jo@example.com)`,
        /// `Jo Bloggs <jo@example.com>` and `"Bloggs, Jo" <jo@example.com>` (RFC 5322's), a bare
        /// address (`mailto:` dropped), or just a name.
        ///
        /// On UTF-8 bytes, without Foundation: `trimmingCharacters` and string searches go through
        /// `NSString` on Linux, and this runs for every item's author.
        static func person(fromRSSAuthor raw: String) -> Person? {
            let text = collapseWhitespace(raw)
            guard !text.isEmpty else { return nil }
            let utf8 = text.utf8
            func name(_ part: Substring.UTF8View) -> String? {
                let isKept: (UInt8) -> Bool = {
                    $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'")
                }
                guard let first = part.firstIndex(where: isKept), let last = part.lastIndex(where: isKept) else {
                    return nil
                }
                return String(decoding: part[first...last], as: UTF8.self)
            }
            if utf8.last == UInt8(ascii: ")"), let open = utf8.firstIndex(of: UInt8(ascii: "(")) {
                let before = text[..<open].utf8
                let inside = text[utf8.index(after: open)..<utf8.index(before: utf8.endIndex)].utf8
                if let email = emailAddress(before) { return Person(name: name(inside), email: email) }
                if let email = emailAddress(inside) { return Person(name: name(before), email: email) }
            }
            if utf8.last == UInt8(ascii: ">"), let open = utf8.lastIndex(of: UInt8(ascii: "<")) {
                let inside = text[utf8.index(after: open)..<utf8.index(before: utf8.endIndex)].utf8
                if let email = emailAddress(inside) { return Person(name: name(text[..<open].utf8), email: email) }
            }
            if let email = emailAddress(text[...].utf8) { return Person(email: email) }
            return Person(name: text)
        }

        /// `part` as an email address (`mailto:` dropped), when it is one: an `@` inside and no space.
        private static func emailAddress(_ part: Substring.UTF8View) -> String? {
            var bytes = part.drop { $0 == UInt8(ascii: " ") }
            while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
            if bytes.count > 7, bytes.prefix(7).map({ $0 | 0x20 }).elementsEqual("mailto:".utf8) {
                bytes = bytes.dropFirst(7)
            }
            guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at != bytes.startIndex,
                bytes.last != UInt8(ascii: "@"), !bytes.contains(UInt8(ascii: " "))
            else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Resolves `reference` against `base` (RFC 3986), returning an absolute URL string.
        ///
        /// Without a base, or when Foundation can't parse the reference, the trimmed reference is
        /// returned as written rather than dropped: a slightly wrong link beats a missing one.
        /// Protocol-relative `//host/path` takes the base's scheme, or `https` with no base.
        static func resolve(_ reference: String, against base: URL?) -> String? {
            let trimmed = reference.trimmingWhitespace
            guard !trimmed.isEmpty else { return nil }
            // Plain references against a plain base (most item links) without Foundation's parser,
            // when the base is written as `SimpleURL` publishes it (a lowercase scheme), so both give
            // the same string (`URLPolicyTests` holds the two to each other).
            if let absolute = SimpleURL(trimmed), absolute.text == trimmed { return trimmed }
            // `www.example.org/post` is a host written without its scheme, never a path beside the
            // feed (`https://feeds.example/www.example.org/post` is what resolving it gives).
            if trimmed.utf8.count > 4, trimmed.prefix(4).lowercased() == "www.",
                trimmed.dropFirst(4).first.map({ $0.isLetter || $0.isNumber }) == true
            {
                let host = trimmed.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
                if host.dropFirst(4).contains("."), !host.hasSuffix("."), !host.contains(where: \.isWhitespace) {
                    let scheme = base?.scheme?.lowercased() == "http" ? "http" : "https"
                    return resolve(scheme + "://" + trimmed, against: nil)
                }
            }
            if let base {
                let baseString = base.absoluteString
                if let simple = SimpleURL(baseString), simple.text == baseString,
                    let resolved = SimpleURL.resolve(trimmed, against: simple)
                {
                    return resolved
                }
            }
            if let base, let url = URL(string: trimmed, relativeTo: base) {
                return url.absoluteString
            }
            if trimmed.hasPrefix("//") { return "https:" + trimmed }
            return trimmed
        }

        /// `resolve` for a base URL: nil when the result is not absolute.
        static func resolveBase(_ reference: String, against base: URL?) -> URL? {
            guard let resolved = resolve(reference, against: base), let url = URL(string: resolved), url.scheme != nil
            else { return nil }
            return url
        }

        private static func isASCIILetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
    }
}
