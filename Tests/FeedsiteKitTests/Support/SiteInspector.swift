import Foundation

/// Reads a built site from disk for end-to-end assertions: pages, their links, and what can be
/// reached from the index by following relative links (as a reader with a browser would).
struct SiteInspector {
    let root: URL
    /// Site-relative path → contents, for every file.
    let files: [String: String]

    init(root: URL) {
        self.root = root
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = root.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
        }
        self.files = files
    }

    /// A site held in memory (`PageRenderer`'s output), for the same checks without a build.
    init(files: [String: Data]) {
        self.root = FileManager.default.temporaryDirectory
        self.files = files.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    var pages: [String] { files.keys.filter { $0.hasSuffix(".html") }.sorted() }
    var itemPages: [String] { pages.filter { $0.hasPrefix("items/") } }

    /// Every `href="…"`, `src="…"` and form `action="…"` value in a page, entity-decoded for `&amp;`.
    static func links(in html: String) -> [String] {
        var result: [String] = []
        for attribute in ["href=\"", "src=\"", "action=\""] {
            var rest = html[...]
            while let start = rest.range(of: attribute) {
                let after = rest[start.upperBound...]
                guard let end = after.firstIndex(of: "\"") else { break }
                result.append(String(after[..<end]).replacingOccurrences(of: "&amp;", with: "&"))
                rest = after[end...]
            }
        }
        return result
    }

    /// Resolves a relative link from `page` to a site path; nil for absolute URLs.
    static func resolve(_ link: String, from page: String) -> String? {
        if link.contains(":") || link.hasPrefix("/") || link.hasPrefix("#") { return nil }
        var components = page.split(separator: "/").dropLast().map(String.init)
        let target = link.split(separator: "#", maxSplits: 1).first.map(String.init) ?? link
        for part in target.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "..": _ = components.popLast()
            case ".", "": continue
            default: components.append(String(part))
            }
        }
        var path = components.joined(separator: "/")
        if target.hasSuffix("/") || target.isEmpty { path += (path.isEmpty ? "" : "/") + "index.html" }
        return path
    }

    /// Pages reachable from `index.html` through relative links.
    func reachablePages() -> Set<String> {
        var seen: Set<String> = ["index.html"]
        var queue = ["index.html"]
        while let page = queue.popLast() {
            for link in Self.links(in: files[page] ?? "") {
                guard let target = Self.resolve(link, from: page), target.hasSuffix(".html"), files[target] != nil,
                    !seen.contains(target)
                else { continue }
                seen.insert(target)
                queue.append(target)
            }
        }
        return seen
    }

    /// The `<link rel="…" href="…">` target of a page's head (`prev`, `next`, `canonical`), as written.
    static func headLink(_ rel: String, in html: String) -> String? {
        guard let start = html.range(of: "<link rel=\"\(rel)\" href=\""),
            let end = html[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(html[start.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The pages met by following `<link rel="next">` from `page` (itself first); stops at a
    /// missing page or a loop.
    func chain(from page: String) -> [String] {
        var result = [page]
        var current = page
        while let next = Self.headLink("next", in: files[current] ?? ""),
            let target = Self.resolve(next, from: current), files[target] != nil, !result.contains(target)
        {
            result.append(target)
            current = target
        }
        return result
    }

    /// Relative links that point at nothing in the site (a broken page or an unresolved feed URL).
    func brokenRelativeLinks() -> [String] {
        var broken: [String] = []
        for page in pages {
            for link in Self.links(in: files[page] ?? "") {
                // Path-absolute links only on the 404 page, which hosts serve at any depth.
                if link.hasPrefix("/") && !link.hasPrefix("//") {
                    if page != "404.html" { broken.append("\(page): \(link) (not relative)") }
                    continue
                }
                guard let target = Self.resolve(link, from: page) else { continue }
                if files[target] == nil { broken.append("\(page): \(link)") }
            }
        }
        return broken
    }
}
