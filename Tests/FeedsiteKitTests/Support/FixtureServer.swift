import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP server on 127.0.0.1 (port chosen by the OS) serving canned responses, so tests
/// exercise the real fetch path without touching the internet.
final class FixtureServer: Sendable {
    /// One canned response.
    struct Route: Sendable {
        var status: HTTPResponseStatus = .ok
        var headers: [(String, String)] = [("Content-Type", "application/xml")]
        var body: Data = Data()
        /// Wait this long before sending the head (a slow server).
        var delay: TimeAmount = .zero
        /// When set, a request whose `If-None-Match` equals it gets a 304, and 200s carry it as `ETag`.
        var etag: String?
        /// Send this many body bytes, then stall (the connection stays open, nothing more comes).
        var stallAfter: Int?
        /// Send this many body bytes, then close the connection (`Content-Length` still announces
        /// the whole body): a server that dies in the middle of a response.
        var closeAfter: Int?
        /// Send the body this many bytes at a time, one piece per interval (a trickling server:
        /// never silent long enough for a read timeout).
        var trickle: (bytes: Int, every: TimeAmount)?
        /// Hold the response until this path has been requested (then wait `delay`), for at most
        /// ten minutes: what a client asks for while this response is outstanding
        /// (`releasedByRequest` says which ended the wait).
        var heldUntilRequested: String?

        static func feed(_ data: Data, contentType: String = "application/xml") -> Route {
            Route(headers: [("Content-Type", contentType)], body: data)
        }

        static func status(_ status: HTTPResponseStatus, body: String = "") -> Route {
            Route(status: status, headers: [("Content-Type", "text/plain")], body: Data(body.utf8))
        }
    }

    /// One request as the server saw it.
    struct Request: Sendable {
        var path: String
        var headers: [(String, String)]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    let port: Int
    /// Every request received, in order.
    var requests: [Request] { log.entries.withLock { $0 } }
    /// The most requests that were being answered at the same time (received, response not yet sent).
    var maxInFlight: Int { log.inFlight.withLock { $0.max } }
    /// Whether the held response for `path` was released by the request it waited for (false: by
    /// its deadline); nil while it has not been released.
    func releasedByRequest(_ path: String) -> Bool? {
        log.releases.withLock { $0.last { $0.path == path }?.byRequest }
    }
    private let log: RequestLog
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Starts serving `routes` (path → response); unknown paths get 404. A path in `sequences`
    /// answers with its routes in turn, repeating the last (a 503, then a 200…).
    init(routes: [String: Route], sequences: [String: [Route]] = [:]) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = RequestLog()
        let recorder: @Sendable (Request) -> Void = { request in log.entries.withLock { $0.append(request) } }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(
                        RouteHandler(routes: routes, sequences: sequences, log: log, record: recorder))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        self.channel = channel
        self.group = group
        self.log = log
        self.port = channel.localAddress?.port ?? 0
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }
}

/// Shared between the server object and its channel handlers.
private final class RequestLog: Sendable {
    let entries = Mutex<[FixtureServer.Request]>([])
    /// Requests answered per sequenced path.
    let counters = Mutex<[String: Int]>([:])
    /// Requests being answered now, and the most at once.
    let inFlight = Mutex<(now: Int, max: Int)>((0, 0))
    /// Each held response's path, and whether the request it waited for released it (else its
    /// deadline did).
    let releases = Mutex<[(path: String, byRequest: Bool)]>([])
}

private final class RouteHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let routes: [String: FixtureServer.Route]
    let sequences: [String: [FixtureServer.Route]]
    let log: RequestLog
    let record: @Sendable (FixtureServer.Request) -> Void

    init(
        routes: [String: FixtureServer.Route], sequences: [String: [FixtureServer.Route]], log: RequestLog,
        record: @escaping @Sendable (FixtureServer.Request) -> Void
    ) {
        self.routes = routes
        self.sequences = sequences
        self.log = log
        self.record = record
    }

    private func route(for path: String) -> FixtureServer.Route {
        if let sequence = sequences[path], let last = sequence.last {
            let index = log.counters.withLock { counters -> Int in
                defer { counters[path, default: 0] += 1 }
                return counters[path, default: 0]
            }
            return index < sequence.count ? sequence[index] : last
        }
        return routes[path] ?? .status(.notFound, body: "not found")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        record(FixtureServer.Request(path: path, headers: head.headers.map { ($0.name, $0.value) }))
        log.inFlight.withLock { count in
            count.now += 1
            count.max = max(count.max, count.now)
        }
        let log = self.log
        var route = route(for: path)
        if let etag = route.etag {
            if head.headers.first(name: "If-None-Match") == etag {
                route = FixtureServer.Route(status: .notModified, headers: [], body: Data())
            }
            route.headers.append(("ETag", etag))
        }
        let finalRoute = route
        var headers = HTTPHeaders(route.headers)
        headers.replaceOrAdd(name: "Content-Length", value: "\(route.body.count)")
        headers.replaceOrAdd(name: "Connection", value: "close")
        let responseHead = HTTPResponseHead(version: head.version, status: route.status, headers: headers)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let respond: @Sendable () -> Void = {
            let context = loopBoundContext.value
            context.write(NIOAny(HTTPServerResponsePart.head(responseHead)), promise: nil)
            if let trickle = finalRoute.trickle {
                Self.trickle(finalRoute.body[...], trickle, context: loopBoundContext, log: log)
                return
            }
            if let close = finalRoute.closeAfter {
                let part = ByteBuffer(bytes: finalRoute.body.prefix(close))
                context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(part)))).whenComplete { _ in
                    log.inFlight.withLock { $0.now -= 1 }
                    loopBoundContext.value.close(promise: nil)
                }
                return
            }
            if let stall = finalRoute.stallAfter {
                let part = ByteBuffer(bytes: finalRoute.body.prefix(stall))
                context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(part))), promise: nil)
                return
            }
            context.write(
                NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: finalRoute.body)))), promise: nil)
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in
                log.inFlight.withLock { $0.now -= 1 }
                loopBoundContext.value.close(promise: nil)
            }
        }
        let delay = route.delay
        let start = context.eventLoop
        @Sendable func release(after awaited: String?, deadline: NIODeadline) {
            let isRequested = awaited.map { awaited in log.entries.withLock { $0.contains { $0.path == awaited } } }
            guard isRequested == false, .now() < deadline else {
                if isRequested != nil { log.releases.withLock { $0.append((path, isRequested == true)) } }
                if delay == .zero { respond() } else { start.scheduleTask(in: delay, respond) }
                return
            }
            start.scheduleTask(in: .milliseconds(20)) { release(after: awaited, deadline: deadline) }
        }
        release(after: route.heldUntilRequested, deadline: .now() + .minutes(10))
    }

    /// Writes `body` a piece at a time, then ends the response; stops when the client has gone.
    private static func trickle(
        _ body: Data.SubSequence, _ pace: (bytes: Int, every: TimeAmount),
        context: NIOLoopBound<ChannelHandlerContext>, log: RequestLog
    ) {
        let channelContext = context.value
        guard channelContext.channel.isActive else {
            log.inFlight.withLock { $0.now -= 1 }
            return
        }
        let piece = body.prefix(pace.bytes)
        let rest = body.dropFirst(pace.bytes)
        channelContext.writeAndFlush(
            NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
        guard !rest.isEmpty else {
            channelContext.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in
                log.inFlight.withLock { $0.now -= 1 }
                context.value.close(promise: nil)
            }
            return
        }
        channelContext.eventLoop.scheduleTask(in: pace.every) {
            trickle(rest, pace, context: context, log: log)
        }
    }
}
