import FeedsiteCompression
import FeedsiteParse
import Foundation

/// A feed body that is gzip (or zlib) data although the response did not say so (no
/// `Content-Encoding: gzip`): a `.gz` file served as the feed, or a server compressing a response
/// that was already compressed. No feed starts with either's header (`FeedParser.compression(of:)`),
/// so such a body is decompressed (once) and read, with a warning that names the server's mistake.
///
/// Decompression is the one that undoes a declared `Content-Encoding` (`Decompression`), held to
/// the same body limit.
enum UndeclaredGzip {
    /// Why a body that starts like gzip could not be decompressed.
    enum Failure: Error, Equatable {
        /// It decompresses to more than the body limit.
        case tooLarge(limitBytes: Int)
        /// Not one byte of it decompresses.
        case damaged
    }

    /// `body` decompressed (as far as it goes: see `Decompression.Output.shortfall`), at most
    /// `limitBytes` long.
    static func decompressed(
        _ body: Data, as compression: FeedParser.Compression = .gzip, limitBytes: Int
    ) -> Result<Decompression.Output, Failure> {
        let format: Decompression.Format = compression == .gzip ? .gzip : .deflate
        switch Decompression.decompress(body, format, limitBytes: limitBytes) {
        case .success(let output):
            return output.body.isEmpty && output.shortfall != nil ? .failure(.damaged) : .success(output)
        case .failure(.tooLarge(let limit)): return .failure(.tooLarge(limitBytes: limit))
        case .failure(.notCompressed), .failure(.damaged): return .failure(.damaged)
        }
    }
}
