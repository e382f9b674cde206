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
}
