import FeedsiteKit
import Foundation

extension SiteGenerator.Options {
    /// What the shared options say; the rest keeps its defaults.
    init(paths: SitePaths, fetching: FetchOptions) {
        self.init(
            configFile: URL(fileURLWithPath: paths.config), outputDirectory: URL(fileURLWithPath: paths.output),
            templatesDirectory: paths.templates.map { URL(fileURLWithPath: $0) },
            stateDirectory: paths.state.map { URL(fileURLWithPath: $0) }, concurrency: fetching.concurrency,
            timeoutSeconds: fetching.timeout, offline: fetching.offline)
        // `FEEDSITE_AVATARS=off`: no icon requests this run, as `avatars: false` in feeds.yml (for
        // CI runs and test suites that serve real feeds, which name real icon hosts, locally).
        fetchesAvatars = ProcessInfo.processInfo.environment["FEEDSITE_AVATARS"] != "off"
    }
}
