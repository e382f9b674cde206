extension SiteTemplates {
    /// The templates' names checked against the view types (`Template.checkNames`): every tag
    /// whose name feedsite does not provide where it is used, as a located warning with the
    /// nearest name that is there (`Templates/item-summary.mustache:3:12: warning: 'titel' is not a
    /// variable here; did you mean 'title'?`). Warnings, not errors: an older theme still builds.
    ///
    /// - Parameter folder: how the messages name the templates folder (`Templates`).
    package func checkNames(folder: String) -> [Diagnostic] {
        Template.checkNames(templates).map { warning in
            .warning(
                file: "\(folder)/\(warning.template).mustache", line: warning.location.line,
                column: warning.location.column, warning.message)
        }
    }
}

extension SiteTemplates {
    /// What is wrong in the templates folder's catalogues (`strings/*.yml`: unknown keys with the
    /// nearest one, values of the wrong shape), and a warning when `language` has no catalogue
    /// (the pages are then in English).
    ///
    /// - Parameters:
    ///   - configFile: how the messages name `feeds.yml`.
    ///   - folder: how they name the templates folder.
    package func checkCatalogues(language: String, configFile: String, folder: String) -> [Diagnostic] {
        var diagnostics = catalogueWarnings
        if !hasCatalogue(for: language) {
            let available = catalogues.keys.sorted().joined(separator: ", ")
            diagnostics.append(
                .warning(
                    file: configFile,
                    "'language: \(language)' has no interface strings, so pages are in English; add "
                        + "\(folder)/strings/\(language).yml (a copy of en.yml from 'feedsite init --theme', translated)"
                        + " or use one of: \(available)"))
        }
        return diagnostics
    }
}
