import Foundation

/// The `.ico` container (`/favicon.ico`): a directory of images, each a PNG or a headerless BMP.
/// libvips reads neither the container nor BMP with its trusted loaders, so the largest PNG inside
/// is taken out and decoded on its own. Hand-written because no library on the machine does it;
/// every offset and length is checked against the data.
enum IconFile {
    /// The largest PNG image in an ICO file, or nil when `data` is not an ICO file or holds no PNG.
    static func largestPNG(in data: Data) -> Data? {
        let bytes = [UInt8](data.prefix(6))
        // ICONDIR: reserved 0, type 1 (icon), image count.
        guard bytes.count == 6, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0 else { return nil }
        let count = Int(bytes[4]) | Int(bytes[5]) << 8
        guard count > 0, 6 + count * 16 <= data.count else { return nil }
        let start = data.startIndex
        func uint32(_ offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(data[start + offset + $1]) << (8 * $1) }
        }
        var best: (area: Int, range: Range<Int>)?
        for index in 0..<count {
            let entry = 6 + index * 16
            // 0 means 256.
            let width = Int(data[start + entry]) == 0 ? 256 : Int(data[start + entry])
            let height = Int(data[start + entry + 1]) == 0 ? 256 : Int(data[start + entry + 1])
            let length = uint32(entry + 8)
            let offset = uint32(entry + 12)
            guard length > 8, offset >= 6 + count * 16, offset <= data.count, length <= data.count - offset else {
                continue
            }
            let range = (start + offset)..<(start + offset + length)
            guard data[range].starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { continue }
            if best == nil || width * height > best?.area ?? 0 { best = (width * height, range) }
        }
        return best.map { Data(data[$0.range]) }
    }
}
