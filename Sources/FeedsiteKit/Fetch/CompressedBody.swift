import FeedsiteCompression
import Foundation

/// A response body under its `Content-Encoding`, decompressed for the parser (`Decompression`):
/// what reads is read, and what the server got wrong is a warning on the feed, not a lost feed.
enum CompressedBody {
    /// The compressions a response's `Content-Encoding` names (canonical form: one value each), in
    /// the order the server applied them. Other names (`identity`, and `utf-8` and the like, which
    /// servers send over plain feeds) are left out; `br`, `zstd`… are refused before
    /// (`FeedFetcher.unreadableCoding`).
    static func formats(_ codings: [Substring]) -> [Decompression.Format] {
        codings.compactMap {
            switch $0.lowercased() {
            case "gzip", "x-gzip": .gzip
            case "deflate": .deflate
            default: nil
            }
        }
    }

    /// The body and what the feed's owner should hear about it.
    struct Decoded {
        var body: Data
        var warnings: [String] = []
    }

    /// Why a body is not read.
    enum Failure: Error {
        /// Larger than `limitBytes` once decompressed.
        case tooLarge(limitBytes: Int)
        /// Not one byte decompresses, or it stops short: worth asking once more for the body
        /// uncompressed.
        case undecodable
    }

    /// `body` with every compression in `formats` undone, last applied first.
    /// - Parameter acceptsPartial: a body that stops short is read as far as it goes (with a
    ///   warning) rather than refused: the last attempt, after the server was asked for the body
    ///   uncompressed.
    static func decode(
        _ body: Data, _ formats: [Decompression.Format], limitBytes: Int, acceptsPartial: Bool
    ) -> Result<Decoded, Failure> {
        var decoded = Decoded(body: body)
        for format in formats.reversed() {
            let name = format == .gzip ? "gzip" : "deflate"
            switch Decompression.decompress(decoded.body, format, limitBytes: limitBytes) {
            case .success(let output):
                if let shortfall = output.shortfall {
                    guard acceptsPartial else { return .failure(.undecodable) }
                    let how = shortfall == .cutOff ? "is cut off" : "is damaged"
                    decoded.warnings.append(
                        "the server's \(name)-compressed body \(how) after \(output.body.count) bytes of the feed, even"
                            + " when asked for it uncompressed: read as far as it goes, so later items may be missing;"
                            + " tell the feed's owner")
                }
                decoded.body = output.body
            case .failure(.tooLarge(let limit)):
                return .failure(.tooLarge(limitBytes: limit))
            case .failure(.notCompressed):
                // Content-Encoding said gzip over a plain body: read as sent, as browsers do.
                decoded.warnings.append(
                    "the response says 'Content-Encoding: \(name)' but the body is not compressed: read as sent;"
                        + " the server should not send that header")
            case .failure(.damaged):
                return .failure(.undecodable)
            }
        }
        return .success(decoded)
    }
}
