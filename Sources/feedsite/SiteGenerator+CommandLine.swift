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
    }
}
