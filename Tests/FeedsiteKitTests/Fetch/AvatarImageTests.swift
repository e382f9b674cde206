import FeedsiteImage
import Foundation
import Testing

/// `AvatarImage`: an icon decoded and shrunk by libvips (loaded at run time) to at most 64×64 px
/// and 16 KB, and hostile images refused without a crash. The fixtures' sizes are known by hand
/// (`Fixtures/avatars/README.md`); the output's are read from its own header bytes here.
@Suite("Avatar images")
struct AvatarImageTests {
    /// libvips as the machine has it; the tests that need it are skipped where it is missing.
    static let library = AvatarImage.Library(path: "libvips.so.42")
    static let hasLibrary = library.unavailability() == nil

    static func fixture(_ name: String) throws -> Data {
        try Fixtures.data("avatars/\(name)")
    }

    /// Width and height from a WebP (`VP8 `, `VP8L`, `VP8X`) or PNG header, read by hand.
    static func dimensions(_ data: Data) -> (width: Int, height: Int)? {
        let b = [UInt8](data)
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
            return (u32(16), u32(20))
        }
        guard b.count >= 30, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) else {
            return nil
        }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return ((Int(b[26]) | Int(b[27]) << 8) & 0x3FFF, (Int(b[28]) | Int(b[29]) << 8) & 0x3FFF)
        case "VP8L":
            // Signature 0x2f, then width-1 and height-1 in 14 bits each, little-endian.
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            let width = Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16
            let height = Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16
            return (width + 1, height + 1)
        default:
            return nil
        }
    }

    @Test(
        "a large icon comes out at most 64×64 px and 16 KB, its shape kept",
        .enabled(if: hasLibrary),
        arguments: [
            // 1500×1500 → 64×64; 400×100 (4:1) → 64×16; a 1-pixel GIF is never enlarged.
            ("big.png", 64, 64), ("wide.png", 64, 16), ("one.gif", 1, 1),
        ])
    func resizes(name: String, width: Int, height: Int) throws {
        let input = try Self.fixture(name)
        let avatar = try AvatarImage(resizing: input, library: Self.library)
        #expect(avatar.format == .webp)
        #expect(avatar.data.count <= 16 * 1024)
        let size = try #require(Self.dimensions(avatar.data))
        #expect(size.width == width && size.height == height)
        #expect(AvatarImage.format(of: avatar.data) == .webp)
    }

    @Test("an ICO file gives the PNG inside it", .enabled(if: hasLibrary))
    func icoWithPNG() throws {
        let png = try Self.fixture("wide.png")
        // ICONDIR (one image) and its entry: 0 = 256 wide and high (as the entry claims), 32 bpp,
        // the PNG's length and its offset (22).
        var ico = Data([0, 0, 1, 0, 1, 0])
        ico += Data([0, 0, 0, 0, 1, 0, 32, 0])
        ico += withUnsafeBytes(of: UInt32(png.count).littleEndian) { Data($0) }
        ico += withUnsafeBytes(of: UInt32(22).littleEndian) { Data($0) }
        ico += png
        let avatar = try AvatarImage(resizing: ico, library: Self.library)
        let size = try #require(Self.dimensions(avatar.data))
        #expect(size.width == 64 && size.height == 16)
        // An entry pointing past the end of the file is ignored: nothing to decode, no crash.
        var broken = ico.prefix(22)
        broken[14] = 0xFF
        #expect(throws: AvatarImage.Failure.self) { try AvatarImage(resizing: Data(broken), library: Self.library) }
    }

    @Test("an ICO file of BMPs (most /favicon.ico files) gives its largest, shrunk", .enabled(if: hasLibrary))
    func icoWithBMP() throws {
        // A 16×16 and a 128×128 24-bit BMP (rows of 48 and 384 bytes: no padding), each with its mask.
        func bmp(_ side: Int) -> [UInt8] {
            IconFileTests.header(width: side, height: side, depth: 24)
                + [UInt8](repeating: 0x80, count: side * side * 3)
                + [UInt8](repeating: 0, count: (side + 31) / 32 * 4 * side)
        }
        let ico = IconFileTests.ico([(16, 16, 24, bmp(16)), (128, 128, 24, bmp(128))])
        let avatar = try AvatarImage(resizing: ico, library: Self.library)
        #expect(avatar.format == .webp)
        let size = try #require(Self.dimensions(avatar.data))
        #expect(size.width == 64 && size.height == 64)
        // A small one is never enlarged.
        let small = try AvatarImage(resizing: IconFileTests.ico([(16, 16, 24, bmp(16))]), library: Self.library)
        let smallSize = try #require(Self.dimensions(small.data))
        #expect(smallSize.width == 16 && smallSize.height == 16)
    }

    /// A PNG of its signature, an IHDR chunk (8-bit RGBA, `width`×`height`), an IDAT of no
    /// bytes (zlib's empty stream; a PNG reader wants one before IEND) and IEND: no pixels.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
                + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", []))
    }

    @Test("hostile icons are refused with a reason, never a crash", .enabled(if: hasLibrary))
    func hostile() throws {
        func failure(_ data: Data) -> AvatarImage.Failure? {
            do {
                _ = try AvatarImage(resizing: data, library: Self.library)
                return nil
            } catch {
                return error
            }
        }
        // Truncated: half of big.png, its pixel data cut short.
        guard case .undecodable? = failure(try Self.fixture("trunc.png")) else {
            Issue.record("a truncated PNG was not refused")
            return
        }
        // Text with a .png name.
        guard case .undecodable? = failure(Data("hello, this is not a picture\n".utf8)) else {
            Issue.record("text was not refused")
            return
        }
        // SVG: its loader is not safe for untrusted input, so libvips blocks it.
        let svg =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>"#
        guard case .undecodable(let reason)? = failure(Data(svg.utf8)) else {
            Issue.record("an SVG was not refused")
            return
        }
        #expect(reason.contains("blocked"))
        // A pixel bomb: its header claims 20,000×20,000.
        guard case .tooManyPixels(let bomb)? = failure(try Self.fixture("bomb.png")) else {
            Issue.record("a pixel bomb was not refused")
            return
        }
        #expect(bomb.contains("20000"))
        // Past 4,096 on a side: refused from the header alone (here it is all there is).
        guard case .tooManyPixels(let wide)? = failure(Self.pngHeader(width: 4_097, height: 16)) else {
            Issue.record("a PNG 4,097 pixels wide was not refused")
            return
        }
        #expect(wide.contains("4097"))
        // Empty, and over the 1 MiB read.
        #expect(failure(Data()) != nil)
        #expect(failure(Data(count: (1 << 20) + 1)) == .inputTooLarge(bytes: (1 << 20) + 1))
    }

    @Test("without libvips every icon fails as 'unavailable', naming the library")
    func libraryMissing() {
        let missing = AvatarImage.Library(path: "/nonexistent/libvips.so.42")
        #expect(missing.unavailability()?.contains("/nonexistent/libvips.so.42") == true)
        #expect(throws: AvatarImage.Failure.self) { try AvatarImage(resizing: Data([1, 2, 3]), library: missing) }
        do {
            _ = try AvatarImage(resizing: Data([1, 2, 3]), library: missing)
        } catch {
            guard case .unavailable(let library, _) = error else {
                Issue.record("expected .unavailable, got \(error)")
                return
            }
            #expect(library == "/nonexistent/libvips.so.42")
        }
    }
}
