/// The stages of `SiteGenerator.build()`, in order, named as `--verbose` times them and as a
/// `BuildError.stageFailed` names where a build stopped.
package enum BuildStage: String, Sendable, Hashable, CaseIterable {
    /// `feeds.yml`, the templates, the output folder's check, the saved (or restored) state.
    case load
    /// Every feed fetched, parsed and sanitised (`Fetch/`, `FeedsiteParse`, `FeedsiteSanitise`).
    case fetch = "fetch+parse+sanitise"
    /// This run's outcomes merged into the saved state (`SiteState.merge`).
    case merge
    /// Nothing the site depends on changed since the build that wrote it: the site is kept.
    case skip = "render+write (unchanged: skipped)"
    /// The saved items of the feeds the merge did not touch, read for the new site.
    case loadItems = "load items"
    /// The site model: items de-duplicated, limited, sorted (`Site.assemble`).
    case assemble = "model"
    /// Every page rendered into the staging folder (`Render/`).
    case render
    /// The search index: Pagefind's bundle added to the staging folder (`Search/`).
    case search
    /// The rest of saving the state (it is saved on another core during assembly and rendering).
    case saveState = "save state"
    /// Static files and the published state added, the new site swapped in (`Write/`).
    case write = "write+swap"
}
