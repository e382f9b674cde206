import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with `AbsoluteFormTarget` and `HTTP1Rules` placed
/// before its conversion to HTTP types, which drops what they read (the request's version, the
/// host of an absolute-form target); Hummingbird's own handlers can only go after it.
struct PreviewHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let channel: HTTP1Channel

    var responder: HTTPChannelHandler.Responder { channel.responder }

    func setup(channel child: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.setup(channel: child, logger: logger).flatMapThrowing { value in
            let operations = child.pipeline.syncOperations
            let codec = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            try operations.addHandlers([AbsoluteFormTarget(), HTTP1Rules()], position: .before(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await channel.handle(value: value, logger: logger)
    }
}
