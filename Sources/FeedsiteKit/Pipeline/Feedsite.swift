/// Facts about feedsite itself.
public enum Feedsite {
    /// The version printed by `feedsite --version` and sent in the User-Agent.
    public static let version = "0.1.0"
    /// Where feedsite lives; named in the User-Agent when the site has no `base_url`.
    public static let projectURL = "https://github.com/feedsite/feedsite"
}
