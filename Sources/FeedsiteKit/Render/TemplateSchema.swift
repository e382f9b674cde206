/// What feedsite's view types offer the templates, for the check made when a theme is loaded.
///
/// `viewTypes` (each view type's fields) is generated from `PageViews*.swift` at build time by the
/// TemplateGlue plugin (into `PageViews+Template.swift` under `.build/plugins/outputs/`);
/// `pageTypes` says which view type each page template is rendered with.
enum TemplateSchema {
    /// What a field holds.
    indirect enum Kind: Sendable, Hashable {
        /// Text, escaped by every tag.
        case string
        /// `SanitisedHTML`: the only value `{{{name}}}` emits unescaped.
        case html
        case int
        case bool
        /// A view type, by name: a section on it looks names up in it first.
        case object(String)
        /// A section repeats for each element.
        case list(Kind)
        /// May be absent: a section on it shows only when it is there.
        case optional(Kind)

        /// The kind without `optional`.
        var present: Kind {
            if case .optional(let wrapped) = self { return wrapped.present }
            return self
        }
    }

    /// The view type `PageRenderer` renders each page template with; partials and parents are
    /// checked where these include them.
    static let pageTypes: [String: String] = [
        "index": "IndexPage", "feed": "FeedPage", "item": "ItemPage", "status": "StatusPage",
        "archive": "ArchiveMonthPage", "archive-index": "ArchiveIndexPage",
        PageRenderer.notFoundTemplate: "NotFoundPage", PageRenderer.termIndexTemplate: "TermIndexPage",
        PageRenderer.termTemplate: "TermPage", PageRenderer.searchTemplate: "SearchPage",
    ]
}
