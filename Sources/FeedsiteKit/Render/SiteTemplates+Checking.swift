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
