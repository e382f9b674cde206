/// Facts about feedsite itself.
package enum Feedsite {
    /// The version printed by `feedsite --version` and sent in the User-Agent.
    package static let version = "0.1.0"
    /// Where feedsite lives; named in the User-Agent when the site has no `base_url`.
    package static let projectURL = "https://github.com/feedsite/feedsite"
}
