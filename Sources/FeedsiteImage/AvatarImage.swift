internal import CVipsLoader
import Foundation

/// A feed's icon as the site publishes it: decoded and shrunk by libvips to at most 64×64 pixels
/// and 16 KB, as WebP (or PNG where this libvips cannot write WebP).
///
/// libvips is loaded at run time (`Sources/CVipsLoader`), not linked: `make dist` builds a
/// stand-alone static binary, Debian ships no static libvips, and the shared libvips42 pulls in
/// ~100 libraries. Where it is missing, `AvatarImage.Failure.unavailable` says so and feeds show
/// their monograms.
package struct AvatarImage: Sendable, Hashable {
    /// The encodings an avatar is published in; the raw value is its file name ending.
    package enum Format: String, Sendable, Hashable, CaseIterable {
        case webp
        case png
    }

    package var data: Data
    package var format: Format

    /// The largest side of an avatar, in pixels.
    package static let size = 64
    /// The largest avatar file, in bytes.
    package static let maxBytes = 16 << 10
    /// The largest icon read (downloaded or decoded): 1 MiB.
    package static let maxInputBytes = 1 << 20
    /// Icons larger than this on a side are refused from their header, before any pixel is decoded
    /// (a PNG is decoded whole to be shrunk: 9,999 on a side at 16 bits took 3.6 s and 200 MB;
    /// 4,096, more than any icon or logo needs, takes a sixth of that at most).
    package static let maxInputSide = 4_096

    package init(data: Data, format: Format) {
        self.data = data
        self.format = format
    }

    /// Which libvips to load: a file name for `dlopen`. `FEEDSITE_LIBVIPS` overrides the default
    /// (`libvips.so.42`), so the fallback can be tried with a path that does not exist.
    package struct Library: Sendable, Hashable {
        package var path: String

        package init(path: String) {
            self.path = path
        }

        /// `FEEDSITE_LIBVIPS`, else the system's libvips 8.
        package static var system: Library {
            if let path = ProcessInfo.processInfo.environment["FEEDSITE_LIBVIPS"], !path.isEmpty {
                return Library(path: path)
            }
            #if canImport(Darwin)
                return Library(path: "libvips.42.dylib")
            #else
                return Library(path: "libvips.so.42")
            #endif
        }

        /// Nil when the library loads and starts, else why not (`dlopen`'s message).
        package func unavailability() -> String? {
            var error = [CChar](repeating: 0, count: 512)
            guard feedsite_vips_available(path, &error, error.count) == 0 else { return nil }
            return Self.message(error)
        }

        static func message(_ buffer: [CChar]) -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Why an icon gave no avatar.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// libvips cannot be loaded or started.
        case unavailable(library: String, reason: String)
        /// More than `maxInputBytes`.
        case inputTooLarge(bytes: Int)
        /// Not an image libvips may read: unknown, damaged or truncated, or a format whose loader
        /// is not safe for untrusted input (SVG, PDF, ImageMagick's).
        case undecodable(String)
        /// Wider or taller than `maxInputSide`.
        case tooManyPixels(String)
        /// No WebP or PNG of it fits in `maxBytes`.
        case tooLargeAfterResizing(String)

        package var description: String {
            switch self {
            case .unavailable(let library, let reason): return "libvips is not installed (\(library)): \(reason)"
            case .inputTooLarge(let bytes): return "\(bytes) bytes, more than the \(AvatarImage.maxInputBytes) read"
            case .undecodable(let reason): return "not an image feedsite can read: \(reason)"
            case .tooManyPixels(let reason): return "too large: \(reason)"
            case .tooLargeAfterResizing(let reason): return reason
            }
        }
    }

    /// `input` decoded (trusted loaders only) and shrunk to fit 64×64 (never enlarged), at most
    /// 16 KB. An ICO file gives its largest image, PNG or BMP.
    package init(resizing input: Data, library: Library = .system) throws(Failure) {
        guard input.count <= Self.maxInputBytes else { throw .inputTooLarge(bytes: input.count) }
        var output = [UInt8](repeating: 0, count: Self.maxBytes)
        var error = [CChar](repeating: 0, count: 512)
        var result = feedsite_vips_result()
        let status: Int32
        switch IconFile.largestImage(in: input) {
        case .pixels(let pixels)?:
            status = feedsite_vips_thumbnail_rgba(
                library.path, pixels.rgba, Int32(pixels.width), Int32(pixels.height), Int32(Self.size), &output,
                output.count, &result, &error, error.count)
        case .png(let png)?:
            status = Self.thumbnail(png, library: library, into: &output, &result, &error)
        case nil:
            status = Self.thumbnail(input, library: library, into: &output, &result, &error)
        }
        let message = Library.message(error)
        switch Int(status) {
        case FEEDSITE_VIPS_OK:
            break
        case FEEDSITE_VIPS_UNAVAILABLE:
            throw .unavailable(library: library.path, reason: message)
        case FEEDSITE_VIPS_TOO_LARGE:
            throw .tooManyPixels(message)
        case FEEDSITE_VIPS_UNENCODABLE:
            throw .tooLargeAfterResizing(message)
        default:
            throw .undecodable(message)
        }
        let length = min(Int(result.length), output.count)
        self.init(data: Data(output[..<length]), format: Int(result.format) == FEEDSITE_VIPS_PNG ? .png : .webp)
    }

    /// `feedsite_vips_thumbnail` on encoded image bytes.
    private static func thumbnail(
        _ bytes: Data, library: Library, into output: inout [UInt8], _ result: inout feedsite_vips_result,
        _ error: inout [CChar]
    ) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            feedsite_vips_thumbnail(
                library.path, buffer.baseAddress, buffer.count, Int32(size), Int32(maxInputSide), &output,
                output.count, &result, &error, error.count)
        }
    }

    /// The format of avatar bytes read back (from the last site), by their signature; nil when
    /// they are neither WebP nor PNG.
    package static func format(of data: Data) -> Format? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count == 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}
