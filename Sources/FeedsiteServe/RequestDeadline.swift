import Hummingbird
import NIOCore
import NIOHTTPTypes

/// What Hummingbird's idle timer does not bound, in the channel's pipeline before the responder:
/// a request's body must have arrived whole `limit` after its head. The preview server reads no
/// body, and one trickled a byte at a time kept its connection open for ever (every byte restarts
/// the idle timer; thousands of them stopped the server answering). (A response that says
/// `Connection: close`, a `405` or a `421`, closes the connection once sent: `HTTP1Rules`.)
final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
