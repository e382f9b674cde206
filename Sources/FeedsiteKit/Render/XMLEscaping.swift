/// The one escaper every XML file feedsite publishes (`atom.xml`, `rss.xml`, `opml.xml`,
/// `sitemap.xml`) goes through: no text from a feed or from `feeds.yml` is ever concatenated into
/// markup without it.
///
/// Feed text can hold anything: `<`, `&`, `]]>`, quotes, control characters. Escaping `&`, `<` and
/// `>` makes `]]>` harmless too (it can only end a CDATA section, and we never write one), and the
/// characters XML 1.0 forbids outright (C0 controls other than tab, line feed and carriage return;
/// U+FFFE and U+FFFF) are dropped, because not even a character reference may name them.
package enum XMLEscaping {
    /// Character data: the content of an element.
    package static func text(_ value: String) -> String {
        escape(value, inAttribute: false)
    }

    /// An attribute value written between double quotes. Tabs and line breaks become character
    /// references, since a parser would otherwise normalise them to spaces.
    static func attribute(_ value: String) -> String {
        escape(value, inAttribute: true)
    }

    /// Whether XML 1.0 allows the character at all (production `Char`).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "'" where inAttribute: output += "&apos;"
            case "\t" where inAttribute: output += "&#9;"
            case "\n" where inAttribute: output += "&#10;"
            case "\r": output += "&#13;"  // a bare CR would be normalised to LF by any parser
            default:
                if isAllowed(scalar) { output.unicodeScalars.append(scalar) }
            }
        }
        return output
    }
}
