import NIOCore
import NIOHTTPTypes

/// Bounds a response's sending by its progress, in the channel's pipeline between Hummingbird's
/// idle timer and the socket.
///
/// - A close asked for while writes are pending waits until they are written to the socket (the
///   kernel then delivers the rest before its FIN). Hummingbird starts the idle timer when a
///   response's last part is handed over, not when it has been written: a client reading a large
///   file at 130 KB/s still had a megabyte of it in NIO's buffers when the timer closed the
///   connection, and lost it.
/// - A connection whose pending writes make no progress for `stallLimit` is closed: Hummingbird's
///   timer never interrupts a response, so a client that asked for a large file and stopped
///   reading held its connection for ever.
final class SendBeforeClose: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let stallLimit: TimeAmount
    /// Writes handed towards the socket that it has not written yet.
    private var unwritten = 0
    private var heldClose: EventLoopPromise<Void>?
    private var stall: Scheduled<Void>?

    init(stallLimit: TimeAmount) {
        self.stallLimit = stallLimit
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        unwritten += 1
        if unwritten == 1 { restartStall(context) }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { _ in self.didWrite(context) }
        context.write(data, promise: written)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, unwritten > 0 else {
            context.close(mode: mode, promise: promise)
            return
        }
        let held = heldClose ?? context.eventLoop.makePromise(of: Void.self)
        promise.map { held.futureResult.cascade(to: $0) }
        heldClose = held
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stall?.cancel()
        stall = nil
    }

    private func didWrite(_ context: ChannelHandlerContext) {
        unwritten -= 1
        if unwritten > 0 {
            restartStall(context)
        } else {
            stall?.cancel()
            stall = nil
            if let held = heldClose {
                heldClose = nil
                context.close(mode: .all, promise: held)
            }
        }
    }

    private func restartStall(_ context: ChannelHandlerContext) {
        stall?.cancel()
        stall = context.eventLoop.assumeIsolated().scheduleTask(in: stallLimit) {
            self.stall = nil
            let held = self.heldClose
            self.heldClose = nil
            context.close(mode: .all, promise: held)
        }
    }
}
