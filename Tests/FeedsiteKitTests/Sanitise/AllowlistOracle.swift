@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// Re-parses sanitiser output with the same HTML5 parser a browser-like consumer would use and
/// reports anything outside the published allowlist. Deliberately independent of the sanitiser's
/// own rules: it knows only what may appear in the output.
enum AllowlistOracle {
    static let elements: Set<String> = [
        "p", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "pre", "code", "em", "strong",
        "del", "a", "img", "br", "hr", "table", "thead", "tbody", "tr", "th", "td",
    ]
    static let attributes: Set<String> = [
        "href", "src", "alt", "title", "rel", "loading", "decoding", "referrerpolicy", "start", "class", "align",
    ]

    static func violations(in html: String) -> [String] {
        var problems: [String] = []
        let nodes = HTMLFragment.gumboNodes(parsing: html, maxDepth: 100_000, opaqueElements: [])
        var stack = nodes
        while let node = stack.popLast() {
            guard case .element(let element) = node else { continue }
            stack += element.children
            guard element.isHTML, elements.contains(element.name) else {
                problems.append("element <\(element.name)> (html: \(element.isHTML))")
                continue
            }
            for (name, value) in element.attributes {
                if !attributes.contains(name) {
                    problems.append("attribute \(name) on <\(element.name)>")
                }
                if name == "class", element.name != "code" || !isLanguageClass(value) {
                    problems.append("class=\"\(value)\" on <\(element.name)>")
                }
                if name == "href" || name == "src" {
                    let lower = value.lowercased()
                    let allowed = ["https://", "http://"] + (name == "href" ? ["mailto:"] : [])
                    if !allowed.contains(where: lower.hasPrefix) {
                        problems.append("\(name)=\"\(value)\"")
                    }
                }
            }
        }
        return problems
    }

    private static func isLanguageClass(_ value: String) -> Bool {
        guard value.hasPrefix("language-") else { return false }
        return value.dropFirst("language-".count).unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_+-".unicodeScalars.contains($0)
        }
    }
}
