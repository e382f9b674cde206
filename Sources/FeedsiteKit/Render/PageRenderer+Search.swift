import Foundation

extension PageRenderer {
    /// The template of `search/index.html`.
    static let searchTemplate = "search"
    /// The search page's script (part of the theme's assets; published only with search).
    static let searchScript = "assets/search.js"
    static let searchPath = "search/index.html"

    /// `search/index.html`: the form, and the script that queries the Pagefind index in `pagefind/`
    /// for `?q=`. Only when the build publishes an index and the theme has the template.
    func renderSearch(_ context: RenderContext, into files: inout [String: Data]) throws(TemplateError) {
        guard hasSearch, templates.templates[Self.searchTemplate] != nil else { return }
        let path = Self.searchPath
        let page = SearchPage(
            head: context.head(
                path, title: "\(context.messages.format("search")) · \(context.site.configuration.title)",
                meta: PageMeta(url: context.absoluteURL(path))),
            label: context.messages.format("search_words", ["site": context.site.configuration.title]),
            scriptMessages: context.messages.json(
                [
                    "search_from_file", "search_failed", "searching", "search_none", "search_found", "search_best",
                    "search_more",
                ]))
        files[path] = try templates.render(
            Self.searchTemplate, page, root: PagePaths.root(of: path), messages: context.messages)
    }
}
