import FeedsiteImage
import FeedsiteShared
import Foundation

extension SiteGenerator {
    /// Where things are and how hard to work.
    package struct Options: Sendable {
        package var configFile: URL
        package var outputDirectory: URL
        /// A folder whose files override the built-in theme; nil: `Templates/` beside the
        /// configuration file, when there is one.
        package var templatesDirectory: URL?
        /// Overrides `state_dir` from `feeds.yml`.
        package var stateDirectory: URL?
        /// Seeds a missing state directory from this URL or path (overrides `state_url`).
        package var restoreState: String?
        /// Build even when the state cannot be restored (`--allow-fresh-state`): the site then
        /// starts without its history. Without it such a build fails (`BuildError.stateNotRestored`).
        package var allowFreshState: Bool
        /// The largest state restored or loaded (`StateLimits.fileBytes`; smaller in tests).
        var stateSizeLimit = StateLimits.fileBytes
        /// Feeds fetched (and parsed, and sanitised) at the same time.
        package var concurrency: Int
        /// Overrides `timeout` from `feeds.yml`.
        package var timeoutSeconds: Int?
        /// Re-render from saved state without touching the network.
        package var offline: Bool
        /// Fetch only feeds that have no saved state yet (`feedsite serve` after a `feeds.yml` edit);
        /// the others render from their saved items.
        package var onlyNewFeeds: Bool = false
        /// When failed feeds keep the site from being replaced.
        package var failurePolicy: FailurePolicy
        /// "Now", injected so builds are reproducible and testable.
        package var now: Date
        /// The libvips feed avatars are made with (`FEEDSITE_LIBVIPS`, else the system's); tests
        /// name one that does not exist to build without it.
        package var imageLibrary: AvatarImage.Library = .system
        /// Whether feeds' icons are downloaded and made avatars (`AvatarFetcher`); off, every feed
        /// keeps the avatar it has. Tests whose feeds name real hosts turn it off, so that no
        /// test ever reaches the internet.
        package var fetchesAvatars = true
        /// Called as feeds finish: (done, total). For the terminal's progress line.
        package var progress: (@Sendable (Int, Int) -> Void)?
        /// Called with what the user should know at once, before the build's report: that it
        /// waits for another build using the same state folder.
        package var notice: (@Sendable (String) -> Void)?

        package init(
            configFile: URL, outputDirectory: URL, templatesDirectory: URL? = nil, stateDirectory: URL? = nil,
            restoreState: String? = nil, allowFreshState: Bool = false, concurrency: Int = 64,
            timeoutSeconds: Int? = nil, offline: Bool = false, failurePolicy: FailurePolicy = .allFailed,
            now: Date = Date(), progress: (@Sendable (Int, Int) -> Void)? = nil
        ) {
            self.configFile = configFile
            self.outputDirectory = outputDirectory
            self.templatesDirectory = templatesDirectory
            self.stateDirectory = stateDirectory
            self.restoreState = restoreState
            self.allowFreshState = allowFreshState
            self.concurrency = concurrency
            self.timeoutSeconds = timeoutSeconds
            self.offline = offline
            self.failurePolicy = failurePolicy
            self.now = now.wholeSeconds
            self.progress = progress
        }
    }
}
