import FeedsiteKit
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `feedsite serve`: serves the built site on a local port, rebuilds it when `Templates/` or
/// `feeds.yml` change, and reloads the browsers.
///
/// How to build is injected (`Rebuild`), so the command line decides what a template edit costs
/// (a full build today; the offline re-render once it exists) and tests can count builds. The
/// server itself never imports the pipeline's internals.
package struct PreviewServer: Sendable {
    /// Where to listen and what to watch.
    package struct Options: Sendable {
        package var host: String
        /// `0` lets the system pick a free port (printed once the server listens).
        package var port: Int
        /// The built site (`Site/`).
        package var siteDirectory: URL
        /// The configuration file; an edit to it is a `.configuration` rebuild.
        package var configFile: URL
        /// Every file or folder watched, recursively (`Templates/`, `feeds.yml`).
        package var watchedPaths: [URL]
        /// Build before announcing the URL (`--no-build` turns it off).
        package var buildsFirst: Bool
        package var pollInterval: Duration
        /// A connection whose next request header has not fully arrived this long after it opened
        /// (or after its last response) is closed, so half-sent requests cannot hold connections.
        package var headerTimeout: Duration
        /// A response none of whose pending writes completes for this long is cut off, and a close
        /// waits at most this long between writes for the last response to be sent
        /// (`SendBeforeClose`). Writes complete in bursts, when the socket's buffer (a few MB on
        /// loopback) has room again: a client reading at 256 KB/s saw none complete for over 5 s.
        package var stallTimeout: Duration

        package init(
            host: String = "127.0.0.1", port: Int = 8000, siteDirectory: URL, configFile: URL, watchedPaths: [URL],
            buildsFirst: Bool = true, pollInterval: Duration = .milliseconds(300),
            headerTimeout: Duration = .seconds(5), stallTimeout: Duration = .seconds(60)
        ) {
            self.host = host
            self.port = port
            self.siteDirectory = siteDirectory
            self.configFile = configFile
            self.watchedPaths = watchedPaths
            self.buildsFirst = buildsFirst
            self.pollInterval = pollInterval
            self.headerTimeout = headerTimeout
            self.stallTimeout = stallTimeout
        }
    }

    /// Request-line and header sizes: a request line (its URL) or one header field over 8 KB, or
    /// headers over 32 KB in all, close the connection (NIO's decoder refuses them as it reads).
    static let requestLimits = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100)

    /// Why a build runs.
    package enum RebuildReason: Sendable, Hashable {
        /// At start-up (unless `--no-build`).
        case initial
        /// `feeds.yml` changed: feeds may have been added.
        case configuration
        /// A template or asset changed: the feeds themselves did not.
        case templates
    }

    /// Builds the site; returns the line to print (the build summary) or throws an error whose
    /// description is shown in the terminal and in the browser overlay.
    package typealias Rebuild = @Sendable (RebuildReason) async throws -> String

    package let options: Options
    let rebuild: Rebuild
    let log: @Sendable (String) -> Void
    let hub = LiveReloadHub()

    /// - Parameter log: where progress lines go (the terminal).
    package init(options: Options, log: @escaping @Sendable (String) -> Void, rebuild: @escaping Rebuild) {
        self.options = options
        self.log = log
        self.rebuild = rebuild
    }

    /// Runs until cancelled or, with `handlesSignals`, until SIGINT or SIGTERM, then shuts down
    /// gracefully: the watcher stops, event streams end, open requests finish.
    ///
    /// - Parameter onReady: called once the server listens and the first build is done, with the
    ///   site's URL (the real port when `port` was 0).
    /// - Throws: `PreviewServerError` when the address cannot be bound.
    /// - Parameter onGraceOver: with `handlesSignals`, called when responses are still being
    ///   sent `shutdownGrace` after the signal (a client stopped reading); the caller ends the
    ///   process there. Cancelling those responses instead can crash inside swift-nio when a
    ///   connection still holds pipelined requests (apple/swift-nio#2637), so the server never
    ///   cancels them itself on a signal.
    package func run(
        handlesSignals: Bool, onGraceOver: @escaping @Sendable () -> Void = {},
        onReady: @escaping @Sendable (URL) async -> Void
    ) async throws {
        Self.raiseFileLimit()
        var logger = Logger(label: "feedsite.serve")
        logger.logLevel = .critical  // our own lines go to `log`; Hummingbird's info lines would only repeat them
        let (listening, listeningContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            responder: SiteResponder(
                root: options.siteDirectory, hub: hub,
                answersAnyHost: !SiteResponder.isLoopback(listeningOn: options.host)),
            // Hummingbird's idle timeout counts from the connection's start or its last response
            // until a whole request head has been decoded, and never interrupts a response (the
            // live-reload event stream stays open): exactly a header timeout. Its close waits for
            // the last response to be written (`SendBeforeClose`).
            server: HTTPServerBuilder { [options] responder in
                PreviewHTTP1Channel(
                    channel: HTTP1Channel(
                        responder: responder,
                        configuration: .init(
                            additionalChannelHandlers: [
                                RequestDeadline(limit: Self.timeAmount(options.headerTimeout)),
                                SendBeforeClose(stallLimit: Self.timeAmount(options.stallTimeout)),
                            ],
                            idleTimeout: Self.timeAmount(options.headerTimeout),
                            httpDecoderConfiguration: Self.requestLimits)))
            },
            configuration: .init(
                address: .hostname(options.host, port: options.port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(Self.maxConnections())),
            onServerRunning: { channel in
                listeningContinuation.yield(channel.localAddress?.port ?? 0)
                listeningContinuation.finish()
            },
            logger: logger)
        let watcher = SiteWatcher(
            options: options, hub: hub, rebuild: rebuild, log: log, listening: listening, onReady: onReady)
        // Graceful shutdown runs in reverse order: the watcher ends the event streams first, then
        // the server stops with no open response to wait for.
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application), .init(service: watcher)],
            gracefulShutdownSignals: handlesSignals ? [.sigint, .sigterm] : [],
            logger: logger)
        // Responses still being sent (a stalled download) are cancelled after this, so the server
        // always ends; on a signal, `onGraceOver` ends the process first.
        configuration.maximumGracefulShutdownDuration = handlesSignals ? Self.shutdownGrace * 5 : Self.shutdownGrace
        let group = ServiceGroup(configuration: configuration)
        let watchdog: Task<Void, Never>? =
            handlesSignals
            ? Task {
                for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
                    try? await Task.sleep(for: Self.shutdownGrace)
                    guard !Task.isCancelled else { return }
                    onGraceOver()
                }
            } : nil
        defer { watchdog?.cancel() }
        do {
            try await group.run()
        } catch {
            hub.finishAll()
            throw Self.describe(error, host: options.host, port: options.port)
        }
    }

    /// Every connection holds a file descriptor. Run out of them and the process dies (libdispatch
    /// aborts when its thread monitor cannot open `/proc`), so the soft limit (often 1,024) is
    /// raised to the hard one the system allows.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(openFiles, &limit)
    }

    /// The open-files resource, as `getrlimit` takes it here.
    #if os(Linux)
        private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let openFiles = RLIMIT_NOFILE
    #endif

    /// How long Ctrl-C waits for responses in progress.
    static let shutdownGrace = Duration.seconds(2)

    /// Connections open at once: half the open-files limit (at most 4,096). Past it, new
    /// connections wait in the system's queue instead of taking the descriptors the process needs
    /// (out of them, it died).
    static func maxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return 256 }
        return max(32, min(4096, Int(clamping: limit.rlim_cur) / 2))
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// `http://127.0.0.1:8000/` (IPv6 hosts in brackets).
    static func url(host: String, port: Int) -> URL {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(shownHost):\(port)/") ?? URL(fileURLWithPath: "/")
    }

    /// Bind failures as `PreviewServerError`, in words (NIO's texts name its own functions);
    /// anything else unchanged.
    static func describe(_ error: any Error, host: String, port: Int) -> any Error {
        if let ioError = error as? IOError {
            switch ioError.errnoCode {
            case EADDRINUSE: return PreviewServerError.portInUse(host: host, port: port)
            case EADDRNOTAVAIL:
                return PreviewServerError.cannotListen(
                    host: host, port: port, reason: "this machine has no such address")
            case EACCES:
                return PreviewServerError.cannotListen(
                    host: host, port: port, reason: "permission denied (ports below 1024 need root)")
            default: break
            }
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return PreviewServerError.cannotListen(
                host: host, port: port, reason: "'\(host)' is not an address or a known host name")
        }
        return error
    }
}
