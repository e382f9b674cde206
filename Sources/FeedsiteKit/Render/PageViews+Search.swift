import Foundation

// The search page's view model; see PageViews.swift for the rules every view follows.

/// `search/index.html`: a form, and the results of `?q=` filled in by `assets/search.js` from the
/// Pagefind index: the only page with a script, and the only one whose policy allows any (the
/// site's own: `script-src 'self'`; every other page has `'none'`); Pagefind compiles its WebAssembly in a web worker, whose
/// policy is its own response's, so the page's policy needs no `'wasm-unsafe-eval'`).
struct SearchPage {
    var head: PageHead
    /// `Words to find in the items of <site>`, the search field's label in the site's language.
    var label: String
    /// The script's texts in the site's language, as JSON (`{"searching": "…", "search_found":
    /// {"one": "…", "other": "…"}}`), for its `data-messages` attribute.
    var scriptMessages: String
}
