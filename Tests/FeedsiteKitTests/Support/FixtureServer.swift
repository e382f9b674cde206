import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

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

        static func feed(_ data: Data, contentType: String = "application/xml") -> Route {
            Route(headers: [("Content-Type", contentType)], body: data)
        }

        static func status(_ status: HTTPResponseStatus, body: String = "") -> Route {
            Route(status: status, headers: [("Content-Type", "text/plain")], body: Data(body.utf8))
        }
    }

    let port: Int
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Starts serving `routes` (path → response); unknown paths get 404.
    init(routes: [String: Route]) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(RouteHandler(routes: routes))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        self.channel = channel
        self.group = group
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

private final class RouteHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let routes: [String: FixtureServer.Route]

    init(routes: [String: FixtureServer.Route]) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        let route = routes[path] ?? .status(.notFound, body: "not found")
        var headers = HTTPHeaders(route.headers)
        headers.replaceOrAdd(name: "Content-Length", value: "\(route.body.count)")
        headers.replaceOrAdd(name: "Connection", value: "close")
        let responseHead = HTTPResponseHead(version: head.version, status: route.status, headers: headers)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let respond: @Sendable () -> Void = {
            let context = loopBoundContext.value
            context.write(NIOAny(HTTPServerResponsePart.head(responseHead)), promise: nil)
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: route.body)))), promise: nil)
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in
                loopBoundContext.value.close(promise: nil)
            }
        }
        if route.delay == .zero {
            respond()
        } else {
            context.eventLoop.scheduleTask(in: route.delay, respond)
        }
    }
}
