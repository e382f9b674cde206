import Foundation

extension SiteTemplates {
    /// Whether the theme has `404.mustache` (a theme copied before it existed gets no `404.html`).
    public var hasNotFoundPage: Bool { templates[PageRenderer.notFoundTemplate] != nil }
}

/// `404.html`: the page static hosts (GitHub Pages, Netlify, Cloudflare Pages, nginx with
/// `error_page`) serve for any missing URL, at whatever depth it was asked for.
struct NotFoundPage {
    var site: SiteView
    /// Path-absolute: the site's path on its host (`/`, or `/planet/` for a `base_url` of
    /// `https://example.org/planet/`), because the same file answers `/a/b/c/missing`, where a
    /// relative link would resolve against the missing URL's folder.
    var root: String
    var pageTitle: String
}

extension NotFoundPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        default: return nil
        }
    }
}

extension PageRenderer {
    static let notFoundTemplate = "404"
    static let notFoundPath = "404.html"

    /// Renders `404.html` when the theme has a `404` template.
    func renderNotFound(_ context: RenderContext, into files: inout [String: Data]) throws(TemplateError) {
        guard templates.hasNotFoundPage else { return }
        let page = NotFoundPage(
            site: context.siteView, root: Self.hostRoot(context.site.configuration.baseURL),
            pageTitle: "Page not found · \(context.site.configuration.title)")
        files[Self.notFoundPath] = try templates.render(Self.notFoundTemplate, page)
    }

    /// The site's path on its host, ending in `/`: `base_url`'s path, else `/`.
    static func hostRoot(_ baseURL: URL?) -> String {
        var path = baseURL.map { $0.path(percentEncoded: true) } ?? "/"
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }
}
