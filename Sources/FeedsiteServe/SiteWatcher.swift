import Foundation
import ServiceLifecycle

/// Builds once the server listens, then polls the watched files and rebuilds on every change,
/// telling the browsers through the hub. Runs as a service beside the HTTP server.
struct SiteWatcher: Service {
    let options: PreviewServer.Options
    let hub: LiveReloadHub
    let rebuild: PreviewServer.Rebuild
    let log: @Sendable (String) -> Void
    /// Yields the bound port once the server listens.
    let listening: AsyncStream<Int>
    let onReady: @Sendable (URL) async -> Void

    func run() async throws {
        // On graceful shutdown (Ctrl-C), stop polling or building, then end every event stream
        // so the HTTP server has no open response to wait for.
        await cancelWhenGracefulShutdown {
            await self.watch()
        }
        hub.finishAll()
    }

    private func watch() async {
        var ports = listening.makeAsyncIterator()
        guard let port = await ports.next() else { return }
        var snapshot = FileSnapshot.take(options.watchedPaths)
        if options.buildsFirst {
            await build(.initial, changed: [])
            snapshot = FileSnapshot.take(options.watchedPaths)
        }
        guard !Task.isCancelled else { return }
        await onReady(PreviewServer.url(host: options.host, port: port))
        var lastHeartbeat = ContinuousClock.now
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: options.pollInterval)
            } catch {
                return
            }
            if ContinuousClock.now - lastHeartbeat >= LiveReloadHub.heartbeatInterval {
                hub.heartbeat()
                lastHeartbeat = ContinuousClock.now
            }
            var current = FileSnapshot.take(options.watchedPaths)
            guard current != snapshot else { continue }
            // Editors often write several files (or write one twice); let the burst settle.
            try? await Task.sleep(for: options.pollInterval / 3)
            current = FileSnapshot.take(options.watchedPaths)
            let changed = current.changes(since: snapshot)
            snapshot = current
            let configPath = options.configFile.standardizedFileURL.path
            await build(changed.contains(configPath) ? .configuration : .templates, changed: changed)
        }
    }

    private func build(_ reason: PreviewServer.RebuildReason, changed: [String]) async {
        hub.buildStarted()
        // Named from the folder holding feeds.yml: `static/about/index.html`, not `index.html`.
        let project = options.configFile.standardizedFileURL.deletingLastPathComponent().path + "/"
        let names = changed.prefix(3).map { $0.hasPrefix(project) ? String($0.dropFirst(project.count)) : $0 }
            .joined(separator: ", ")
        switch reason {
        case .initial: log("building the site…")
        case .configuration, .templates:
            log("\(names)\(changed.count > 3 ? " and \(changed.count - 3) more" : "") changed; rebuilding…")
        }
        do {
            let summary = try await rebuild(reason)
            hub.buildSucceeded()
            if !summary.isEmpty { log(summary) }
        } catch  where Task.isCancelled || error is CancellationError {
            // Shutting down (Ctrl-C): a build cut short is not a failure worth reporting.
            hub.buildFailed("the build was cancelled")
        } catch {
            let message = String(describing: error)
            hub.buildFailed(message)
            log(message)
            let hasSite = FileManager.default.fileExists(
                atPath: options.siteDirectory.appendingPathComponent("index.html").path)
            log(
                hasSite
                    ? "the last good site is still being served; fix the problem and save again"
                    : "there is no site to preview yet (the browser shows this error); fix the problem and save again")
        }
    }
}
