import Foundation

extension SiteTemplates {
    /// Whether the theme has `404.mustache` (a theme copied before it existed gets no `404.html`).
    package var hasNotFoundPage: Bool { templates[PageRenderer.notFoundTemplate] != nil }
}

extension PageRenderer {
    static let notFoundTemplate = "404"
    static let notFoundPath = "404.html"

    /// Renders `404.html` when the theme has a `404` template.
    func renderNotFound(_ context: RenderContext, into files: inout [String: Data]) throws(TemplateError) {
        guard templates.hasNotFoundPage else { return }
        let root = Self.hostRoot(context.site.configuration.baseURL)
        let page = NotFoundPage(
            site: context.siteView, root: root,
            pageTitle: "\(context.messages.format("not_found")) · \(context.site.configuration.title)")
        files[Self.notFoundPath] = try templates.render(
            Self.notFoundTemplate, page, root: root, messages: context.messages)
    }

    /// The site's path on its host, ending in `/`: `base_url`'s path, else `/`.
    static func hostRoot(_ baseURL: URL?) -> String {
        var path = baseURL.map { $0.path(percentEncoded: true) } ?? "/"
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }
}
