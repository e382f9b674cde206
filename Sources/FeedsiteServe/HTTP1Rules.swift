import HTTPTypes
import NIOCore
import NIOHTTP1

/// What HTTP/1 decides from a request's version and framing, in the pipeline between NIO's
/// HTTP/1 decoder and the conversion to version-less HTTP types (which drops the version, so
/// nothing after it can tell HTTP/1.0 from 1.1).
///
/// - **Whether the connection stays open** (RFC 9112 §9.3). A request that does not ask to keep
///   it (HTTP/1.0 without `Connection: keep-alive`; any `Connection: close`, in any case, among
///   other options, even beside `keep-alive`), or that carries a body (the preview server reads
///   none, and one that breaks off or is malformed would otherwise be answered a second time),
///   reaches Hummingbird as `Connection: close`, the one spelling it ends its request loop on;
///   its response says `Connection: close`, and the connection closes once the response is
///   written (an HTTP/1.0 client reads until then: kept open, it waited for the idle timer). A
///   response to an HTTP/1.0 keep-alive request says `Connection: keep-alive`.
/// - **How an HTTP/1.0 client gets a body of unknown length** (the live-reload event stream): not
///   chunked, which it cannot read (RFC 9112 §6.1), but up to the connection's close.
/// - **Requests answered `400`** (through `badRequest`, which the responder answers, so the answer
///   keeps its place among pipelined ones): an HTTP/1.1 request without `Host` (RFC 9112 §3.2),
///   a target that is neither a path nor an http(s) URL (`targetProblem`), and a
///   `Transfer-Encoding` whose last coding is not `chunked`, whose body has no knowable end
///   (RFC 9112 §6.3).
///
/// - **Requests NIO's parser refuses** (an unknown method, a malformed request line or field, a
///   header past its size limit): Hummingbird answers them with a bare `400` head and closes;
///   `write` gives that answer its status (`501` for a method, RFC 9110 §15.6.2; `431` for an
///   oversized header, RFC 6585 §5) and a line of words saying what was wrong.
///
/// Responses come in the order of their requests (Hummingbird answers one at a time), so each
/// request's decision waits in a queue for its response.
final class HTTP1Rules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Set on a request that must be answered `400`, to why; a client's own field of that name
    /// is removed first.
    static let badRequest = HTTPField.Name("Feedsite-Bad-Request")!

    enum Persistence: Equatable {
        /// HTTP/1.1's default: the connection stays open.
        case persistent
        /// An HTTP/1.0 request with `Connection: keep-alive`.
        case keepAlive
        case close
    }

    struct Exchange: Equatable {
        var persistence: Persistence
        var isHTTP10: Bool
    }

    /// The requests whose responses have not started, oldest first.
    private var waiting = CircularBuffer<Exchange>(initialCapacity: 4)
    /// Whether the response being written closes the connection when it ends.
    private var closesAfterResponse = false
    /// What NIO's parser refused on this connection, until Hummingbird's answer to it is written.
    private var parseError: HTTPParserError?
    /// The words of the answer being written to a refused request, sent before its end.
    private var refusalBody: ByteBuffer?

    /// What `head` asks of its connection, and why it must be answered `400` (nil: it need not).
    static func rules(for head: HTTPRequestHead) -> (exchange: Exchange, badRequest: String?) {
        let options = head.headers[canonicalForm: "connection"].map { $0.lowercased() }
        let isHTTP10 = !(head.version.major == 1 && head.version.minor >= 1) && head.version.major < 2
        var persistence: Persistence =
            options.contains("close")
            ? .close : isHTTP10 ? (options.contains("keep-alive") ? .keepAlive : .close) : .persistent
        let codings = head.headers[canonicalForm: "transfer-encoding"].map { $0.lowercased() }
        let length = head.headers["content-length"].first.flatMap { Int($0) } ?? 0
        if !codings.isEmpty || length != 0 { persistence = .close }
        var problem: String?
        let hosts = head.headers["host"]
        if !isHTTP10 && hosts.isEmpty {
            problem = "an HTTP/1.1 request names its host: this one has no Host field"
        } else if hosts.count > 1 {
            problem = "the request has \(hosts.count) Host fields; a request names one host"
        } else if let host = hosts.first, !isAuthority(host) {
            problem = "the request's Host field is not a host with an optional port"
        } else if let target = targetProblem(head.uri, method: head.method) {
            problem = target
        } else if let last = codings.last, last != "chunked" {
            problem = "the request's Transfer-Encoding does not end in chunked, so its body has no knowable end"
        }
        if problem != nil { persistence = .close }
        return (Exchange(persistence: persistence, isHTTP10: isHTTP10), problem)
    }

    /// Why a request target is none a server of paths answers (RFC 9112 §3.2): a path (`/…`), an
    /// `http` or `https` URL (absolute-form), `*` for `OPTIONS`, or an authority for `CONNECT`
    /// (both answered `405`). An `ftp:` or `ws:` URL, or `*`, was served as its path.
    static func targetProblem(_ target: String, method: HTTPMethod) -> String? {
        if target.hasPrefix("/") || AbsoluteFormTarget.authority(of: target) != nil { return nil }
        if (target == "*" && method == .OPTIONS) || method == .CONNECT { return nil }
        return "the request's target is neither a path (/…) nor an http or https URL"
    }

    /// Whether `value` can be a Host field's value (RFC 9110 §7.2: `uri-host [ ":" port ]`): only
    /// the characters an authority may hold (RFC 3986 §3.2.2), so no space, `/`, `@` or list.
    static func isAuthority(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: "-._~!$&'()*+,;=:%[]".utf8.contains(byte)
            }
        }
    }

    /// The status and words answering a request NIO's parser refused with `error`.
    static func refusal(of error: HTTPParserError) -> (status: HTTPResponseStatus, reason: String) {
        switch error {
        case .invalidMethod:
            (
                .notImplemented,
                "the request's method is not one this server knows; the preview server only reads (GET, HEAD)"
            )
        case .headerOverflow:
            (.requestHeaderFieldsTooLarge, headerOverflowReason)
        case .invalidURL:
            (.badRequest, "the request's target is not a path (/…) or an http or https URL")
        case .invalidVersion:
            (
                .badRequest,
                "the request line does not end in HTTP/1.1 or HTTP/1.0 and CR LF (this server reads no other)"
            )
        case .invalidHeaderToken, .lfExpected, .invalidCharactersUsed, .invalidConstant:
            (.badRequest, "the request line or a header field is not well-formed HTTP/1.1")
        case .invalidContentLength, .unexpectedContentLength, .invalidChunkSize:
            (.badRequest, "the request's body is not framed as its header fields say")
        default:
            // The parser's own names (`paused`, `unknown`, `strict mode assertion`) say nothing to a user.
            (
                .badRequest,
                "the request is not HTTP/1.1 this server reads (lines ending in CR LF, a body framed by one "
                    + "Content-Length or Transfer-Encoding: chunked)"
            )
        }
    }

    /// Why a request over `PreviewServer.requestLimits` is refused.
    static let headerOverflowReason: String = {
        let limits = PreviewServer.requestLimits
        return "the request is longer than this server reads: its line and each header field at most "
            + "\(limits.maxHeaderFieldSize / 1024) KB, its header fields at most \(limits.maxHeaderListSize / 1024) KB "
            + "and \(limits.maxHeaderFieldCount) in all"
    }()

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if parseError == nil, let error = error as? HTTPParserError { parseError = error }
        context.fireErrorCaught(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let (exchange, problem) = Self.rules(for: head)
        waiting.append(exchange)
        head.headers.remove(name: Self.badRequest.rawName)
        if let problem { head.headers.add(name: Self.badRequest.rawName, value: problem) }
        if exchange.persistence == .close { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            // Every request read has been answered: a `400` now is Hummingbird's to the refusal.
            if waiting.isEmpty, head.status == .badRequest, let error = parseError {
                parseError = nil
                let (status, reason) = Self.refusal(of: error)
                let body = context.channel.allocator.buffer(string: "\(status.code) \(reason)\n")
                head.status = status
                head.headers.replaceOrAdd(name: "Content-Length", value: "\(body.readableBytes)")
                head.headers.replaceOrAdd(name: "Content-Type", value: "text/plain; charset=utf-8")
                refusalBody = body
            }
            let exchange = waiting.popFirst() ?? Exchange(persistence: .persistent, isHTTP10: false)
            var persistence = exchange.persistence
            // A response that closes the connection of its own accord (a 400, a 421) closes it
            // whatever the request asked.
            if head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
                persistence = .close
            }
            if exchange.isHTTP10, !head.headers.contains(name: "content-length"), head.status.mayHaveResponseBody {
                // Sent as HTTP/1.0, NIO does not chunk it: the body ends with the connection.
                head.version = .http1_0
                persistence = .close
            }
            closesAfterResponse = persistence == .close
            switch persistence {
            case .close: head.headers.replaceOrAdd(name: "Connection", value: "close")
            case .keepAlive: head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
            case .persistent: break
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where refusalBody != nil:
            if let body = refusalBody { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            refusalBody = nil
            write(context: context, data: data, promise: promise)
        case .end where closesAfterResponse:
            closesAfterResponse = false
            let written = promise ?? context.eventLoop.makePromise()
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.write(data, promise: written)
        case .head, .body, .end:
            context.write(data, promise: promise)
        }
    }
}
