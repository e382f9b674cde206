import NIOCore
import NIOHTTP1

/// Whether a connection stays open after a response, as HTTP/1 decides it (RFC 9112 §9.3), in
/// the pipeline between NIO's HTTP/1 decoder and the conversion to version-less HTTP types (which
/// drops the request's version, so nothing after it can tell HTTP/1.0 from 1.1).
///
/// - A request that does not ask to keep the connection (HTTP/1.0 without `Connection:
///   keep-alive`; any `Connection: close`, in any case or among other options) reaches Hummingbird
///   as `Connection: close`, the one spelling it ends its request loop on; its response says
///   `Connection: close`, and the connection closes once the response is written. An HTTP/1.0
///   client reads until the connection closes: kept open, it waited for the idle timer, 5 s a
///   request.
/// - A response to an HTTP/1.0 request that asked to keep the connection says `Connection:
///   keep-alive`, without which such a client takes the connection to be closing.
///
/// Responses come in the order of their requests (Hummingbird answers one at a time), so each
/// request's decision waits in a queue for its response.
final class ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    enum Decision: Equatable {
        /// HTTP/1.1's default: the connection stays open.
        case persistent
        /// An HTTP/1.0 request with `Connection: keep-alive`.
        case keepAlive
        case close
    }

    /// The decisions of requests whose responses have not started, oldest first.
    private var waiting = CircularBuffer<Decision>(initialCapacity: 4)
    /// The decision of the response being written.
    private var current = Decision.persistent

    static func decision(for head: HTTPRequestHead) -> Decision {
        guard head.isKeepAlive else { return .close }
        return head.version.major == 1 && head.version.minor == 0 ? .keepAlive : .persistent
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let decision = Self.decision(for: head)
        waiting.append(decision)
        if decision == .close { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            // A response that closes the connection of its own accord (a 400, a 421) closes it
            // whatever the request asked.
            let decision = waiting.popFirst() ?? .persistent
            current = head.headers["Connection"].contains { $0.lowercased().contains("close") } ? .close : decision
            switch current {
            case .close: head.headers.replaceOrAdd(name: "Connection", value: "close")
            case .keepAlive: head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
            case .persistent: break
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where current == .close:
            current = .persistent
            let written = promise ?? context.eventLoop.makePromise()
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.write(data, promise: written)
        case .head, .body, .end:
            context.write(data, promise: promise)
        }
    }
}
