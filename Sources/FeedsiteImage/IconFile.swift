import Foundation

/// The `.ico` container (`/favicon.ico`): a directory of images, each a PNG or a headerless BMP.
/// libvips reads neither the container nor BMP with its trusted loaders, so the largest image
/// inside is taken out: a PNG as it is, a BMP decoded here to RGBA pixels. Hand-written because no
/// library on the machine reads them safely (ImageMagick's loader is blocked as untrusted); every
/// offset, length and count is checked against the data.
package enum IconFile {
    /// One image of an ICO file.
    package enum Image: Equatable {
        case png(Data)
        case pixels(Pixels)
    }

    /// Straight (not premultiplied) RGBA, 4 bytes a pixel, the top row first.
    package struct Pixels: Equatable {
        package var width: Int
        package var height: Int
        package var rgba: [UInt8]

        package init(width: Int, height: Int, rgba: [UInt8]) {
            self.width = width
            self.height = height
            self.rgba = rgba
        }
    }

    /// The largest side of an icon image (the format's own limit).
    package static let maxSide = 256

    /// The largest image in an ICO file (by area; at equal area a PNG or the deeper BMP) that can
    /// be read, or nil when `data` is not an ICO file or holds none.
    package static func largestImage(in data: Data) -> Image? {
        let bytes = [UInt8](data)
        // ICONDIR: reserved 0, type 1 (icon), image count.
        guard bytes.count >= 6, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0 else { return nil }
        let count = Int(bytes[4]) | Int(bytes[5]) << 8
        guard count > 0, 6 + count * 16 <= bytes.count else { return nil }
        var entries: [(rank: (area: Int, depth: Int), range: Range<Int>, isPNG: Bool)] = []
        for index in 0..<count {
            let entry = 6 + index * 16
            // 0 means 256.
            let width = bytes[entry] == 0 ? 256 : Int(bytes[entry])
            let height = bytes[entry + 1] == 0 ? 256 : Int(bytes[entry + 1])
            let depth = Int(bytes[entry + 6]) | Int(bytes[entry + 7]) << 8
            let length = uint32(bytes, entry + 8)
            let offset = uint32(bytes, entry + 12)
            guard length > 8, offset >= 6 + count * 16, offset <= bytes.count, length <= bytes.count - offset else {
                continue
            }
            let range = offset..<(offset + length)
            let png = isPNG(bytes[range])
            entries.append(((width * height, png ? Int.max : depth), range, png))
        }
        // A damaged entry gives way to the next best.
        for entry in entries.sorted(by: { $0.rank > $1.rank }) {
            if entry.isPNG { return .png(Data(bytes[entry.range])) }
            if let pixels = bitmap(bytes[entry.range]) { return .pixels(pixels) }
        }
        return nil
    }

    package static func isPNG(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// A BMP as an ICO holds it: a BITMAPINFOHEADER (or a later, longer one), the palette for 1, 4
    /// and 8 bits a pixel, the colour rows, then the 1-bit transparency mask (1 = transparent), rows
    /// bottom up and padded to 4 bytes, the header's height counting both. Uncompressed only; nil
    /// when the colour rows are not all there.
    package static func bitmap(_ slice: ArraySlice<UInt8>) -> Pixels? {
        let bytes = Array(slice)
        guard bytes.count >= 40 else { return nil }
        let headerSize = uint32(bytes, 0)
        let width = Int(Int32(bitPattern: UInt32(uint32(bytes, 4))))
        let doubleHeight = Int(Int32(bitPattern: UInt32(uint32(bytes, 8))))
        let depth = Int(bytes[14]) | Int(bytes[15]) << 8
        let compression = uint32(bytes, 16)
        let colorsUsed = uint32(bytes, 32)
        let height = doubleHeight / 2
        guard headerSize >= 40, headerSize <= bytes.count, compression == 0, [1, 4, 8, 24, 32].contains(depth),
            (1...maxSide).contains(width), (1...maxSide).contains(height)
        else { return nil }
        var palette: [(UInt8, UInt8, UInt8)] = []
        var position = headerSize
        if depth <= 8 {
            let colors = colorsUsed == 0 ? 1 << depth : colorsUsed
            guard colors <= 1 << depth, position + colors * 4 <= bytes.count else { return nil }
            palette = (0..<colors).map {
                (bytes[position + $0 * 4 + 2], bytes[position + $0 * 4 + 1], bytes[position + $0 * 4])
            }
            position += colors * 4
        }
        let stride = (width * depth + 31) / 32 * 4
        let maskStride = (width + 31) / 32 * 4
        guard position + stride * height <= bytes.count else { return nil }
        let colorStart = position
        let maskStart = colorStart + stride * height
        // Some encoders leave the mask out, or write its rows unpadded (Pillow): the image is then
        // opaque, unless it is a 32-bit one with an alpha channel.
        let hasMask = maskStart + maskStride * height <= bytes.count
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var anyAlpha = false
        for row in 0..<height {
            let source = colorStart + (height - 1 - row) * stride
            for column in 0..<width {
                let out = (row * width + column) * 4
                switch depth {
                case 32, 24:
                    let pixel = source + column * depth / 8
                    rgba[out] = bytes[pixel + 2]
                    rgba[out + 1] = bytes[pixel + 1]
                    rgba[out + 2] = bytes[pixel]
                    rgba[out + 3] = depth == 32 ? bytes[pixel + 3] : 255
                    anyAlpha = anyAlpha || (depth == 32 && bytes[pixel + 3] != 0)
                default:
                    let bit = column * depth
                    let index = Int(bytes[source + bit / 8] >> (8 - depth - bit % 8)) & (1 << depth - 1)
                    // An index past a short palette is black, as Windows draws it.
                    let color = index < palette.count ? palette[index] : (0, 0, 0)
                    (rgba[out], rgba[out + 1], rgba[out + 2], rgba[out + 3]) = (color.0, color.1, color.2, 255)
                }
            }
        }
        // The mask decides transparency unless a 32-bit image has an alpha channel of its own.
        if !anyAlpha {
            for row in 0..<height {
                let source = maskStart + (height - 1 - row) * maskStride
                for column in 0..<width {
                    let isTransparent = hasMask && bytes[source + column / 8] & (0x80 >> (column % 8)) != 0
                    rgba[(row * width + column) * 4 + 3] = isTransparent ? 0 : 255
                }
            }
        }
        return Pixels(width: width, height: height, rgba: rgba)
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
