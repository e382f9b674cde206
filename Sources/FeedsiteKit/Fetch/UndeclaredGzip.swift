import FeedsiteParse
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// A feed body that is gzip (or zlib) data although the response did not say so (no
/// `Content-Encoding: gzip`): a `.gz` file served as the feed, or a server compressing a response
/// that was already compressed. No feed starts with either's header (`FeedParser.compression(of:)`),
/// so such a body is decompressed (once) and read, with a warning that names the server's mistake.
///
/// Decompression goes through swift-nio-extras' response decompressor (zlib), the same code that
/// undoes a declared `Content-Encoding`, held to the same body limit.
enum UndeclaredGzip {
    /// Why a body that starts like gzip could not be decompressed.
    enum Failure: Error, Equatable {
        /// It decompresses to more than the body limit.
        case tooLarge(limitBytes: Int)
        /// It is not whole gzip or zlib data: damaged, cut off, or followed by other bytes.
        case damaged
    }

    /// `body` decompressed, at most `limitBytes` long.
    static func decompressed(
        _ body: Data, as compression: FeedParser.Compression = .gzip, limitBytes: Int
    ) -> Result<Data, Failure> {
        let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(max(limitBytes, 0))))
        defer { _ = try? channel.finish() }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Encoding", value: compression.contentEncoding)
        var output = Data()
        do {
            try channel.writeInbound(
                HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
            try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(bytes: body)))
            try channel.writeInbound(HTTPClientResponsePart.end(nil))
            while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
                if case .body(let buffer) = part { output.append(contentsOf: buffer.readableBytesView) }
            }
        } catch NIOHTTPDecompression.DecompressionError.limit {
            return .failure(.tooLarge(limitBytes: limitBytes))
        } catch {
            return .failure(.damaged)
        }
        return .success(output)
    }
}
