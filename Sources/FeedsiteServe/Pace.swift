import Hummingbird
import NIOCore

/// Hummingbird's request context with the connection's channel, whose event loop paces a
/// response's chunks (`Pace`).
struct PreviewRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Hands a response's chunks over no faster than the connection sends them.
///
/// A chunk written from the responder's task is queued for the connection's event loop, and the
/// writer learns that the connection cannot take more only once the event loop has queued it:
/// a task that reads a file faster than the event loop gets round to it queued whole files (120
/// clients that asked for a 24 MB file and stopped reading held 1.9 GB). Waiting for the event
/// loop after each chunk lets the writer's backpressure see each chunk before the next is read,
/// so a stalled client holds about one chunk and the channel's write buffer.
struct Pace: Sendable {
    let eventLoop: any EventLoop

    func write(_ chunk: ByteBuffer, to writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(chunk)
        try await eventLoop.submit {}.get()
    }
}
