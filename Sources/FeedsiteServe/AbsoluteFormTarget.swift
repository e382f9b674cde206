import NIOCore
import NIOHTTP1

/// A request whose target is a whole URL (`GET http://example.org/page HTTP/1.1`, the form sent
/// to proxies) is for the URL's host, whatever its `Host` says (RFC 9112 §3.2.2): the target's
/// authority replaces the `Host` field before the conversion to HTTP types, which takes the
/// authority from `Host` alone, so the responder's host check sees the host really asked for.
/// Several `Host` fields are left as they are, and so is a missing one in HTTP/1.1, which must send
/// one whatever its target (RFC 9112 §3.2); a target with userinfo (`http://a@b/`) gives a `Host`
/// that is no authority: `HTTP1Rules` answers all three `400`.
final class AbsoluteFormTarget: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// The authority (`host[:port]`) of an `http` or `https` absolute-form target, nil for any
    /// other form (`/path`, `*`, an authority alone).
    static func authority(of target: String) -> Substring? {
        let lowered = target.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return nil }
        let rest = target.dropFirst(schemeLength)
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), let authority = Self.authority(of: head.uri),
            head.headers["Host"].count == 1 || (head.headers["Host"].isEmpty && head.version == .http1_0)
        else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Host", value: String(authority))
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
