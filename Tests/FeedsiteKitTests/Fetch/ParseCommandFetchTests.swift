import Foundation
import Testing

@testable import FeedsiteParse

#if canImport(Glibc)
    import Glibc
#endif

/// `feedsite parse` reads URLs and files exactly as `build` does: the real binary, a real server.
@Suite("feedsite parse reads as build does", .serialized)
struct ParseCommandFetchTests {
    @Test("a web page is followed to the feed it links, with a note")
    func followsWebPage() async throws {
        let page = """
            <!DOCTYPE html><html><head><title>Blog</title>
            <link rel="alternate" type="application/atom+xml" title="Feed" href="/releases.atom">
            </head><body><p>Hello</p></body></html>
            """
        let server = try await FixtureServer(routes: [
            "/blog": .feed(Data(page.utf8), contentType: "text/html"),
            "/releases.atom": .feed(try Fixtures.data("real-feeds/github-releases-atom.xml")),
        ])
        let run = try CommandLineTests.run(["parse", server.url("/blog").absoluteString])
        try await server.shutdown()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("items:    4"))
        #expect(
            run.stderr.contains(
                "note: this is a web page; its feed is \(server.url("/releases.atom").absoluteString)"))
        #expect(server.requests.map(\.path) == ["/blog", "/releases.atom"])
    }

    @Test("a page that links no feed fails as build fails it")
    func pageWithoutFeed() async throws {
        let server = try await FixtureServer(routes: [
            "/page": .feed(Data("<!DOCTYPE html><html><body>hi</body></html>".utf8), contentType: "text/html")
        ])
        let run = try CommandLineTests.run(["parse", server.url("/page").absoluteString])
        try await server.shutdown()
        #expect(run.status == 1)
        #expect(run.stderr.contains("is an HTML page, not a feed, and it links to no feed either"))
    }

    @Test("a local page whose linked feed cannot be fetched says so, without calling the file a URL")
    func localPageWithUnfetchableFeed() async throws {
        let server = try await FixtureServer(routes: [:])
        let feed = server.url("/gone.xml").absoluteString
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let page =
            #"<!DOCTYPE html><html><head><link rel="alternate" type="application/rss+xml" href=""# + feed
            + #""></head><body>hi</body></html>"#
        try Data(page.utf8).write(to: work.appendingPathComponent("page.html"))
        let run = try CommandLineTests.run(["parse", "page.html"], in: work)
        try await server.shutdown()
        #expect(run.status == 1)
        #expect(run.stderr.contains("this is a web page; its feed \(feed) could not be fetched"), "\(run.stderr)")
        #expect(!run.stderr.contains("URL is"))
    }

    @Test("paths (relative to the current folder) and file: URLs are read; a FIFO is refused at once")
    func files() throws {
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try Fixtures.data("real-feeds/jekyll-atom.xml").write(to: work.appendingPathComponent("feed.xml"))
        let relative = try CommandLineTests.run(["parse", "feed.xml"], in: work)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(relative.stdout.contains("items:    10"))
        let fileURL = try CommandLineTests.run(["parse", work.appendingPathComponent("feed.xml").absoluteString])
        #expect(fileURL.status == 0, "\(fileURL.stderr)")

        let fifo = work.appendingPathComponent("pipe.xml")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let refused = try CommandLineTests.run(["parse", fifo.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("it is a named pipe (FIFO), not a regular file"))
        let missing = try CommandLineTests.run(["parse", "nope.xml"], in: work)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read \(work.appendingPathComponent("nope.xml").path): no such file"))
    }

    /// No feed starts with gzip's magic number, so a body that does is a server's mistake (a `.gz`
    /// file served as the feed, or compression applied twice): decompressed once, read, and named.
    @Test("a gzip body the server did not declare is decompressed and read, with a warning; a .gz file too")
    func undeclaredGzip() async throws {
        let feed = try Fixtures.data("real-feeds/jekyll-atom.xml")
        let server = try await FixtureServer(routes: [
            "/feed.xml": .feed(try FeedFetcherTests.gzip(feed), contentType: "application/atom+xml"),
            // Compressed twice, declared once: the client undoes one layer, feedsite the other.
            "/twice.xml": FixtureServer.Route(
                headers: [("Content-Type", "application/atom+xml"), ("Content-Encoding", "gzip")],
                body: try FeedFetcherTests.gzip(try FeedFetcherTests.gzip(feed))),
        ])
        for path in ["/feed.xml", "/twice.xml"] {
            let run = try CommandLineTests.run(["parse", server.url(path).absoluteString])
            #expect(run.status == 0, "\(path): \(run.stderr)")
            #expect(run.stdout.contains("items:    10"), "\(path)")
            #expect(
                run.stdout.contains(
                    "the document is gzip-compressed data that the server did not declare (no Content-Encoding:"
                        + " gzip): read after decompressing it"), "\(path): \(run.stdout)")
        }
        try await server.shutdown()

        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try FeedFetcherTests.gzip(feed).write(to: work.appendingPathComponent("feed.xml.gz"))
        let file = try CommandLineTests.run(["parse", "feed.xml.gz"], in: work)
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout.contains("items:    10"))
        #expect(!file.stdout.contains("warnings:"), "a compressed file is no server's mistake: \(file.stdout)")
        try FeedFetcherTests.gzip(Data("<rss><channel>".utf8)).prefix(12).write(
            to: work.appendingPathComponent("cut.xml.gz"))
        let cut = try CommandLineTests.run(["parse", "cut.xml.gz"], in: work)
        #expect(cut.status == 1)
        // Two bytes of deflate data: at most "<r" arrives, which is no feed, and the error says why.
        #expect(cut.stderr.contains("error: the file is gzip-compressed data, cut off after "), "\(cut.stderr)")
        #expect(cut.stderr.contains("bytes of the feed, and what arrived does not read: "), "\(cut.stderr)")
        try FeedFetcherTests.gzip(Data("<rss><channel>".utf8)).prefix(10).write(
            to: work.appendingPathComponent("header.xml.gz"))
        let header = try CommandLineTests.run(["parse", "header.xml.gz"], in: work)
        #expect(header.status == 1)
        #expect(
            header.stderr.contains(
                "error: the file is gzip-compressed data, and it does not decompress: it is damaged or cut off"),
            "\(header.stderr)")
    }

    /// A gzip body cut off in the middle, whatever it is asked for, and a `.gz` file cut off: read as
    /// far as the data goes (the parser closes the document), each entry that arrived whole kept,
    /// and the warning says where the data stops.
    @Test("a cut-off gzip body or .gz file is read as far as it goes, with a warning that says so")
    func cutOffGzip() async throws {
        let feed = try Fixtures.data("real-feeds/jekyll-atom.xml")
        let gzipped = try FeedFetcherTests.gzip(feed)
        let cut = gzipped.prefix(gzipped.count * 2 / 3)
        let server = try await FixtureServer(routes: [
            "/feed.xml": FixtureServer.Route(
                headers: [("Content-Type", "application/atom+xml"), ("Content-Encoding", "gzip")], body: cut)
        ])
        let run = try CommandLineTests.run(["parse", server.url("/feed.xml").absoluteString])
        try await server.shutdown()
        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try cut.write(to: work.appendingPathComponent("cut.xml.gz"))
        let file = try CommandLineTests.run(["parse", "cut.xml.gz"], in: work)
        for (run, wording) in [
            (run, "the server's gzip-compressed body is cut off after "),
            (file, "the file's gzip data is cut off after "),
        ] {
            #expect(run.status == 0, "\(run.stderr)")
            guard let range = run.stdout.range(of: wording) else {
                Issue.record("no warning '\(wording)': \(run.stdout)")
                continue
            }
            let bytes = Int(run.stdout[range.upperBound...].prefix { $0.isNumber }) ?? 0
            #expect(bytes > 0 && bytes < feed.count)
            let whole =
                String(decoding: feed.prefix(bytes), as: UTF8.self).components(separatedBy: "</entry>").count - 1
            #expect(whole > 0 && whole < 10)
            #expect(run.stdout.contains("items:    \(whole)"), "\(run.stdout)")
        }
    }

    /// zlib's container (HTTP's `deflate`) is told by its header as gzip's is, and read the same way.
    @Test(
        "zlib data (HTTP's deflate) the server did not declare is decompressed and read, with a warning; a .z file too"
    )
    func undeclaredZlib() async throws {
        let feed = try Fixtures.data("real-feeds/jekyll-atom.xml")
        let zlib = try FeedFetcherTests.zlib(feed)
        #expect(zlib.prefix(2) == Data([0x78, 0x9C]))
        let server = try await FixtureServer(routes: ["/feed.xml": .feed(zlib, contentType: "application/atom+xml")])
        let run = try CommandLineTests.run(["parse", server.url("/feed.xml").absoluteString])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("items:    10"))
        #expect(
            run.stdout.contains(
                "the document is zlib-compressed data that the server did not declare (no Content-Encoding:"
                    + " deflate): read after decompressing it"), "\(run.stdout)")
        try await server.shutdown()

        let work = try CommandLineTests.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        try zlib.write(to: work.appendingPathComponent("feed.xml.z"))
        let file = try CommandLineTests.run(["parse", "feed.xml.z"], in: work)
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout.contains("items:    10"))
        #expect(!file.stdout.contains("warnings:"), "\(file.stdout)")
        // A wrong checksum: every byte of the feed arrived, and is read, with the damage named.
        var damaged = zlib
        damaged[damaged.count - 1] ^= 0xFF
        try damaged.write(to: work.appendingPathComponent("damaged.xml.z"))
        let bad = try CommandLineTests.run(["parse", "damaged.xml.z"], in: work)
        #expect(bad.status == 0, "\(bad.stderr)")
        #expect(bad.stdout.contains("items:    10"))
        #expect(
            bad.stdout.contains(
                "the file's zlib data is damaged after \(feed.count) bytes of the feed: read as far as it goes"),
            "\(bad.stdout)")
        // Not a byte of deflate data after the header: nothing to read.
        try zlib.prefix(2).write(to: work.appendingPathComponent("header.xml.z"))
        let empty = try CommandLineTests.run(["parse", "header.xml.z"], in: work)
        #expect(empty.status == 1)
        #expect(
            empty.stderr.contains(
                "error: the file is zlib-compressed data, and it does not decompress: it is damaged or cut off"),
            "\(empty.stderr)")
    }

    @Test(
        "undeclared gzip cut in half is read as far as it goes; larger than the body limit once decompressed, it fails the feed"
    )
    func undeclaredGzipRefused() async throws {
        let feed = try FeedFetcherTests.gzip(try Fixtures.data("real-feeds/jekyll-atom.xml"))
        // 51 MB of spaces (a 50 KB download) decompress past the default 50 MB body limit (max_body_mb).
        let bomb = try FeedFetcherTests.gzip(Data(repeating: UInt8(ascii: " "), count: 51_000_000))
        #expect(bomb.count < 100_000)
        let server = try await FixtureServer(routes: [
            "/cut.xml": .feed(feed.prefix(feed.count / 2)),
            "/bomb.xml": .feed(bomb),
        ])
        // Cut in half: read as far as it goes, both mistakes named (`cutOffGzip` counts the entries).
        let cut = try CommandLineTests.run(["parse", server.url("/cut.xml").absoluteString])
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(
            cut.stdout.contains(
                "the document is gzip-compressed data that the server did not declare (no Content-Encoding: gzip):"
                    + " read after decompressing it"), "\(cut.stdout)")
        #expect(cut.stdout.contains("the document's gzip data is cut off after "), "\(cut.stdout)")
        let large = try CommandLineTests.run(["parse", server.url("/bomb.xml").absoluteString])
        #expect(large.status == 1)
        #expect(
            large.stderr.contains("and decompressed it is larger than the 50 MB limit (max_body_mb)"), "\(large.stderr)"
        )
        try await server.shutdown()
    }
}
