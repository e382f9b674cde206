import FeedsiteCompression
import Foundation
import Testing

/// `Decompression` on its own: the bounds hold across gzip members, and what is not compressed
/// is told from what is damaged. (What a fetch makes of each outcome: FeedFetcherTests.)
struct DecompressionTests {
    @Test("the output limit holds across gzip members")
    func limitAcrossMembers() throws {
        let part = Data(repeating: UInt8(ascii: "a"), count: 60_000)
        let body = try FeedFetcherTests.gzip(part) + FeedFetcherTests.gzip(part)
        #expect(Decompression.decompress(body, .gzip, limitBytes: 100_000) == .failure(.tooLarge(limitBytes: 100_000)))
        #expect(try Decompression.decompress(body, .gzip, limitBytes: 120_000).get().body == part + part)
    }

    /// 100,000 empty members (2 MB): each is a reset of the same zlib stream, not a new one.
    @Test("a body of 100,000 empty gzip members decompresses to nothing")
    func manyEmptyMembers() throws {
        let empty = try FeedFetcherTests.gzip(Data())
        let body = Data((0..<100_000).flatMap { _ in empty })
        let output = try Decompression.decompress(body, .gzip, limitBytes: 1_000).get()
        #expect(output.body.isEmpty)
        #expect(output.shortfall == nil)
    }

    @Test("a plain document is not compressed; a gzip header before junk is damaged; junk after a member is left")
    func plainDamagedTrailing() throws {
        let document = Data("<rss version=\"2.0\"><channel><title>T</title></channel></rss>".utf8)
        #expect(Decompression.decompress(document, .gzip, limitBytes: 1_000) == .failure(.notCompressed))
        #expect(Decompression.decompress(document, .deflate, limitBytes: 1_000) == .failure(.notCompressed))
        let gzipped = try FeedFetcherTests.gzip(document)
        let junk = gzipped.prefix(10) + Data(repeating: 0xFF, count: 40)
        #expect(Decompression.decompress(junk, .gzip, limitBytes: 1_000) == .failure(.damaged))
        let trailing = try Decompression.decompress(gzipped + Data("tail".utf8), .gzip, limitBytes: 1_000).get()
        #expect(trailing.body == document)
        #expect(trailing.trailingBytes == 4)
        #expect(trailing.shortfall == nil)
    }

    /// Raw deflate whose first two bytes read as a zlib header: a stored block of 29 bytes
    /// (`08`: not final, stored; `1D 00`: its length, 29, which makes `08 1D` a multiple of 31),
    /// then an empty final stored block. As zlib data it breaks off at once; as raw deflate it
    /// is whole.
    @Test("raw deflate that starts like a zlib header is read as raw deflate")
    func rawDeflateLookingLikeZlib() throws {
        let text = Data("<rss><channel></channel></rss>".utf8.prefix(29))
        #expect(text.count == 29)
        let raw = Data([0x08, 0x1D, 0x00, 0xE2, 0xFF]) + text + Data([0x01, 0x00, 0x00, 0xFF, 0xFF])
        #expect((0x08 << 8 | 0x1D) % 31 == 0)
        let output = try Decompression.decompress(raw, .deflate, limitBytes: 1_000).get()
        #expect(output.body == text)
        #expect(output.shortfall == nil)
        // Under the name gzip, raw deflate is not read (browsers do not either): it is damaged.
        #expect(Decompression.decompress(raw, .gzip, limitBytes: 1_000) == .failure(.damaged))
    }

    @Test("a gzip body cut anywhere gives the document's beginning, marked cut off")
    func cutAnywhere() throws {
        let document = Data((0..<2_000).map { "line \($0) of a feed\n" }.joined().utf8)
        let gzipped = try FeedFetcherTests.gzip(document)
        for length in stride(from: 2, to: gzipped.count, by: 97) {
            switch Decompression.decompress(gzipped.prefix(length), .gzip, limitBytes: 1_000_000) {
            case .success(let output):
                #expect(output.shortfall == .cutOff, "\(length)")
                #expect(!output.body.isEmpty && document.starts(with: output.body), "\(length)")
            case .failure(let failure):
                // Before the first block's code tables are whole, not one byte decompresses.
                #expect(failure == .damaged && length < 200, "\(length)")
            }
        }
    }
}
