/// Writes indented XML one line at a time; element names are literals from this file, every value
/// and attribute goes through `XMLEscaping`.
struct XMLBuilder {
    private(set) var text = ""

    /// A literal line of markup (no feed text in it).
    mutating func line(_ markup: String, indent: Int = 0) {
        text += String(repeating: "  ", count: indent) + markup + "\n"
    }

    /// `<name attr="…">value</name>`
    mutating func element(_ name: String, _ value: String, attributes: [(String, String)] = [], indent: Int) {
        line("<\(name)\(Self.attributes(attributes))>\(XMLEscaping.text(value))</\(name)>", indent: indent)
    }

    /// `<name attr="…">`, to be closed with `line("</name>")`.
    mutating func open(_ name: String, attributes: [(String, String)], indent: Int) {
        line("<\(name)\(Self.attributes(attributes))>", indent: indent)
    }

    /// `<name attr="…"/>`
    mutating func empty(_ name: String, attributes: [(String, String)], indent: Int) {
        line("<\(name)\(Self.attributes(attributes))/>", indent: indent)
    }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(XMLEscaping.attribute($0.1))\"" }.joined()
    }
}
