import FeedsiteImage
import Foundation
import Testing

/// `IconFile`: the images inside an `.ico`. The BMPs here are written byte by byte from the format
/// (BITMAPINFOHEADER, palette, colour rows bottom up padded to 4 bytes, then the 1-bit mask), and
/// the expected pixels are read off those bytes by hand.
@Suite("ICO files")
struct IconFileTests {
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// A BITMAPINFOHEADER as an ICO holds it: the height counts the colour rows and the mask.
    static func header(width: Int, height: Int, depth: Int, colors: Int = 0, compression: Int = 0) -> [UInt8] {
        le32(40) + le32(width) + le32(height * 2) + [1, 0, UInt8(depth), 0] + le32(compression) + le32(0)
            + le32(0) + le32(0) + le32(colors) + le32(0)
    }

    /// An ICO file of `images` (each with the size and depth its directory entry claims).
    static func ico(_ images: [(width: Int, height: Int, depth: Int, bytes: [UInt8])]) -> Data {
        var directory: [UInt8] = [0, 0, 1, 0, UInt8(images.count), 0]
        var offset = 6 + 16 * images.count
        for image in images {
            directory += [UInt8(image.width % 256), UInt8(image.height % 256), 0, 0, 1, 0, UInt8(image.depth), 0]
            directory += le32(image.bytes.count) + le32(offset)
            offset += image.bytes.count
        }
        return Data(directory + images.flatMap(\.bytes))
    }

    @Test("a 32-bit BMP: BGRA rows bottom up become RGBA top down, its own alpha kept")
    func thirtyTwoBit() throws {
        // 2×2. Bottom row first: blue (opaque), green (half); then the top row: red (opaque),
        // white (transparent). Mask: all zero (ignored, the image has alpha).
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 128] + [0, 0, 255, 255, 255, 255, 255, 0]
        let mask: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
        let bmp = Self.header(width: 2, height: 2, depth: 32) + pixels + mask
        let image = IconFile.largestImage(in: Self.ico([(2, 2, 32, bmp)]))
        #expect(
            image
                == .pixels(
                    IconFile.Pixels(
                        width: 2, height: 2, rgba: [255, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 255, 0, 128])))
    }

    @Test("a 32-bit BMP without alpha takes its transparency from the mask")
    func thirtyTwoBitMask() throws {
        // 1×2, alpha bytes all 0. Mask rows (bottom up, 4 bytes each): bottom 0x80 (transparent), top 0.
        let pixels: [UInt8] = [1, 2, 3, 0] + [4, 5, 6, 0]
        let mask: [UInt8] = [0x80, 0, 0, 0] + [0, 0, 0, 0]
        let bmp = Self.header(width: 1, height: 2, depth: 32) + pixels + mask
        let image = IconFile.bitmap(ArraySlice(bmp))
        #expect(image == IconFile.Pixels(width: 1, height: 2, rgba: [6, 5, 4, 255, 3, 2, 1, 0]))
        // Without a mask at all (or too short a one) the same image is opaque.
        let unmasked = IconFile.bitmap(ArraySlice(Self.header(width: 1, height: 2, depth: 32) + pixels))
        #expect(unmasked == IconFile.Pixels(width: 1, height: 2, rgba: [6, 5, 4, 255, 3, 2, 1, 255]))
    }

    @Test("24-bit rows are padded to 4 bytes")
    func twentyFourBit() throws {
        // 3×1: 9 bytes of BGR and 3 of padding; mask row 0b0100_0000: the middle pixel is transparent.
        let row: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 0xEE, 0xEE, 0xEE]
        let bmp = Self.header(width: 3, height: 1, depth: 24) + row + [0x40, 0, 0, 0]
        #expect(
            IconFile.bitmap(ArraySlice(bmp))
                == IconFile.Pixels(width: 3, height: 1, rgba: [30, 20, 10, 255, 60, 50, 40, 0, 90, 80, 70, 255]))
    }

    @Test("palette images: 8, 4 and 1 bits a pixel, high bits first, a short palette")
    func palettes() throws {
        // Palette (BGR0): 0 = red, 1 = blue, 2 = white.
        let palette: [UInt8] = [0, 0, 255, 0, 255, 0, 0, 0, 255, 255, 255, 0]
        let mask: [UInt8] = [0, 0, 0, 0]
        let red: [UInt8] = [255, 0, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        let white: [UInt8] = [255, 255, 255, 255]
        // 8 bits, 3×1: indices 2, 0, 1, one byte of padding.
        let eight = Self.header(width: 3, height: 1, depth: 8, colors: 3) + palette + [2, 0, 1, 0] + mask
        #expect(IconFile.bitmap(ArraySlice(eight)) == IconFile.Pixels(width: 3, height: 1, rgba: white + red + blue))
        // 4 bits, 3×1: 0x21 0x00 → 2, 1, 0.
        let four = Self.header(width: 3, height: 1, depth: 4, colors: 3) + palette + [0x21, 0x00, 0, 0] + mask
        #expect(IconFile.bitmap(ArraySlice(four)) == IconFile.Pixels(width: 3, height: 1, rgba: white + blue + red))
        // 1 bit, 3×1, two colours: 0b101 → blue, red, blue.
        let one = Self.header(width: 3, height: 1, depth: 1, colors: 2) + palette.prefix(8) + [0xA0, 0, 0, 0] + mask
        #expect(IconFile.bitmap(ArraySlice(one)) == IconFile.Pixels(width: 3, height: 1, rgba: blue + red + blue))
        // An index past the palette (3 of 3 colours) is black.
        let past = Self.header(width: 1, height: 1, depth: 8, colors: 3) + palette + [3, 0, 0, 0] + mask
        #expect(IconFile.bitmap(ArraySlice(past)) == IconFile.Pixels(width: 1, height: 1, rgba: [0, 0, 0, 255]))
    }

    @Test(
        "icons written by another encoder (Pillow) decode to the pixels its own reader sees",
        arguments: [("bmp32", 32), ("bmp24", 24), ("bmp8", 24), ("bmp1", 20)])
    func pillow(name: String, side: Int) throws {
        let ico = try Fixtures.data("avatars/\(name).ico")
        let expected = try [UInt8](Fixtures.data("avatars/\(name).rgba"))
        guard case .pixels(let pixels)? = IconFile.largestImage(in: ico) else {
            Issue.record("\(name).ico gave no pixels")
            return
        }
        #expect(pixels.width == side && pixels.height == side)
        #expect(pixels.rgba.count == expected.count)
        // Colours as Pillow reads them. Alpha too for the 32-bit image; the others are opaque:
        // Pillow writes them an all-clear mask, in rows not padded to 4 bytes (so too short a mask
        // for the format, which its own reader then takes partly from the colour rows).
        let differing = zip(pixels.rgba, expected).enumerated().filter { offset, pair in
            offset % 4 == 3 && name != "bmp32" ? pair.0 != 255 : pair.0 != pair.1
        }.map(\.offset)
        #expect(differing.isEmpty, "first differing bytes at \(differing.prefix(8))")
    }

    @Test("the largest image wins: a 2×2 BMP over a 1×1 PNG; at equal size the PNG")
    func largest() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 24)
        let bmp =
            Self.header(width: 2, height: 2, depth: 24) + [UInt8](repeating: 9, count: 16)
            + [UInt8](repeating: 0, count: 8)
        guard case .pixels(let pixels)? = IconFile.largestImage(in: Self.ico([(1, 1, 32, png), (2, 2, 24, bmp)])) else {
            Issue.record("the larger BMP was not chosen")
            return
        }
        #expect(pixels.width == 2 && pixels.height == 2)
        #expect(IconFile.largestImage(in: Self.ico([(2, 2, 24, bmp), (2, 2, 32, png)])) == .png(Data(png)))
        // A damaged larger BMP (16-bit) gives way to the smaller one that can be read.
        let damaged = Self.header(width: 4, height: 4, depth: 16) + [UInt8](repeating: 0, count: 64)
        guard case .pixels(let next)? = IconFile.largestImage(in: Self.ico([(4, 4, 32, damaged), (2, 2, 24, bmp)]))
        else {
            Issue.record("the readable BMP was not taken")
            return
        }
        #expect(next.width == 2 && next.height == 2)
    }

    @Test("damaged and unsupported BMPs give nothing, never a crash")
    func hostile() throws {
        let good =
            Self.header(width: 2, height: 2, depth: 24) + [UInt8](repeating: 9, count: 16)
            + [UInt8](repeating: 0, count: 8)
        #expect(IconFile.bitmap(ArraySlice(good)) != nil)
        // Every truncation of it: colour rows cut short, then the header itself.
        for length in 0..<(40 + 16) {
            #expect(IconFile.bitmap(ArraySlice(good.prefix(length))) == nil, "\(length) bytes")
        }
        // RLE-compressed, 16 bits a pixel, too wide, zero and negative heights.
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 2, height: 2, depth: 8, compression: 1) + good)) == nil)
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 2, height: 2, depth: 16) + good)) == nil)
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 257, height: 1, depth: 24) + good + good)) == nil)
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 2, height: 0, depth: 24) + good)) == nil)
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 2, height: -2, depth: 24) + good)) == nil)
        // A palette longer than the depth allows, and one past the end of the data.
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 1, height: 1, depth: 1, colors: 3) + good)) == nil)
        #expect(IconFile.bitmap(ArraySlice(Self.header(width: 1, height: 1, depth: 8, colors: 200) + [0, 0])) == nil)
        // A header size pointing past the data.
        var long = good
        long[0] = 0xFF
        long[1] = 0xFF
        #expect(IconFile.bitmap(ArraySlice(long)) == nil)
        // Random bytes after a valid directory entry.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let noise = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = IconFile.largestImage(
                in: Self.ico([(16, 16, 32, Array(Self.header(width: 16, height: 16, depth: 32).prefix(40)) + noise)]))
            _ = IconFile.largestImage(in: Self.ico([(16, 16, 8, noise)]))
        }
    }
}
