import CZlib
import FeedsiteShared
import Foundation

/// A compressed body made readable the way browsers and feed readers read it, through zlib:
/// `Content-Encoding: gzip` or `deflate`, or gzip sent without saying so.
///
/// What a strict decoder refuses and they accept: a gzip body of several members (RFC 1952 allows
/// any number, each decompressed in turn), bytes after the last member (left unread), `deflate`
/// sent as raw deflate instead of zlib's format, either header under either name, and a body cut
/// off in the middle (decompressed as far as it goes; the caller says what is missing). The
/// output is bounded by `limitBytes`, so a small body that inflates to gigabytes stops there.
package enum Decompression {
    /// The name a body is compressed under.
    package enum Format: Sendable, Hashable {
        /// gzip (or zlib's format, which some servers send under this name).
        case gzip
        /// zlib's format (RFC 1950), or raw deflate (RFC 1951), which many servers send instead.
        case deflate
    }

    /// A body decompressed, wholly or as far as it goes.
    package struct Output: Sendable, Hashable {
        package var body: Data
        /// Why the body stops short, nil when it decompressed to its end.
        package var shortfall: Shortfall?
        /// Bytes after the last complete member that are not another member (left unread).
        package var trailingBytes = 0
    }

    /// Why a body's data stops before its end.
    package enum Shortfall: Sendable, Hashable {
        /// The compressed data ends in the middle (the body was cut off).
        case cutOff
        /// The compressed data turns invalid after `body` (damaged).
        case damaged
    }

    package enum Failure: Error, Sendable, Hashable {
        /// It decompresses to more than `limitBytes`.
        case tooLarge(limitBytes: Int)
        /// It does not start like gzip, zlib or raw deflate data: not compressed at all.
        case notCompressed
        /// It starts like compressed data, and not one byte of it decompresses.
        case damaged
    }

    /// `body` decompressed, at most `limitBytes` long.
    package static func decompress(_ body: Data, _ format: Format, limitBytes: Int) -> Result<Output, Failure> {
        guard !body.isEmpty else { return .success(Output(body: Data())) }
        let limit = max(limitBytes, 0)
        return body.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Result<Output, Failure> in
            // 32 + 15: a gzip or a zlib header, whichever it is; every gzip member in turn.
            let headered = inflate(input, windowBits: 32 + 15, limit: limit)
            switch headered {
            case .output(let output) where output.shortfall == nil: return .success(output)
            case .tooLarge: return .failure(.tooLarge(limitBytes: limit))
            case .output, .invalid: break
            }
            // Raw deflate: accepted only when it is one whole stream, so plain text that happens to
            // start like a deflate block is never taken for one. Tried also when a header was read
            // but the data after it broke off: one raw stream in 500 starts with two bytes that
            // read as a zlib header.
            if format == .deflate {
                switch inflate(input, windowBits: -15, limit: limit) {
                case .output(let output) where output.shortfall == nil: return .success(output)
                case .tooLarge: return .failure(.tooLarge(limitBytes: limit))
                default: break
                }
            }
            if case .output(let partial) = headered { return .success(partial) }
            return .failure(CompressionHeader(startOf: body) == nil ? .notCompressed : .damaged)
        }
    }

    private enum Pass {
        case output(Output)
        case tooLarge
        /// Invalid from its first byte: nothing decompressed.
        case invalid
    }

    /// One run of zlib's inflate over `input`. With a header (`windowBits` > 0), a member that ends
    /// before the input does is followed by the next one when the rest starts with gzip's magic
    /// number.
    private static func inflate(_ input: UnsafeRawBufferPointer, windowBits: Int32, limit: Int) -> Pass {
        guard let base = input.baseAddress?.assumingMemoryBound(to: Bytef.self) else {
            return .output(Output(body: Data()))
        }
        var stream = z_stream()
        guard feedsite_inflateInit2(&stream, windowBits) == Z_OK else { return .invalid }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var consumed = 0
        var anyMemberEnded = false
        while true {
            // zlib counts in 32 bits: the input is handed over in slices.
            if stream.avail_in == 0, consumed < input.count {
                let slice = min(input.count - consumed, 1 << 30)
                stream.next_in = UnsafeMutablePointer(mutating: base + consumed)
                stream.avail_in = uInt(slice)
                consumed += slice
            }
            let availableBefore = stream.avail_in
            let (code, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (code, buffer.count - Int(stream.avail_out))
            }
            if produced > limit - output.count { return .tooLarge }
            output.append(contentsOf: chunk[..<produced])
            let remaining = Int(stream.avail_in) + (input.count - consumed)
            switch code {
            case Z_STREAM_END:
                anyMemberEnded = true
                guard remaining > 0 else { return .output(Output(body: output)) }
                let next = input.count - remaining
                if windowBits > 0, remaining >= 2, input[next] == 0x1F, input[next + 1] == 0x8B {
                    guard inflateReset(&stream) == Z_OK else { return .output(Output(body: output)) }
                    continue
                }
                return .output(Output(body: output, trailingBytes: remaining))
            case Z_OK, Z_BUF_ERROR:
                // Input all used and the output not filled (or no progress at all): the data stops
                // in the middle.
                let stalled = produced == 0 && stream.avail_in == availableBefore
                guard remaining == 0 && produced < chunk.count || stalled else { continue }
                if output.isEmpty, !anyMemberEnded { return .invalid }
                return .output(Output(body: output, shortfall: remaining == 0 ? .cutOff : .damaged))
            default:
                // Z_DATA_ERROR, Z_NEED_DICT (a zlib stream with a preset dictionary), Z_MEM_ERROR.
                if output.isEmpty, !anyMemberEnded { return .invalid }
                return .output(Output(body: output, shortfall: .damaged))
            }
        }
    }
}
