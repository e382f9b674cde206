import Foundation
import Testing

@testable import FeedsiteKit

/// File names are bytes to a file system, but Swift's `==` takes `café` spelt with U+00E9 (NFC)
/// and with `e` + U+0301 (NFD) for one string: every name feedsite compares is compared byte for byte.
extension PublicationTests {
    static let nfc = "caf\u{E9}.html"
    static let nfd = "cafe\u{301}.html"

    /// The names at the top of `folder`, as bytes (a `String` would hide the spelling).
    static func names(in folder: URL) -> [[UInt8]] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map { Array($0.utf8) }
    }

    @Test("static/ names that read the same, or that begin with a combining mark, are errors before fetching")
    func staticNameSpellings() async throws {
        let project = try await Project()
        try project.write(Data("nfc".utf8), "static/" + Self.nfc)
        try project.write(Data("nfd".utf8), "static/" + Self.nfd)
        try project.write(Data("mark".utf8), "static/docs/\u{301}x.html")
        let error = await #expect(throws: ConfigurationError.self) { try await project.build() }
        let text = error?.description ?? ""
        #expect(text.contains("but is spelt with other Unicode code points"), "\(text)")
        #expect(text.contains("cafe<U+0301>.html") && text.contains("caf<U+00E9>.html"), "\(text)")
        #expect(text.contains("begins with a combining mark"), "\(text)")
        #expect(error?.diagnostics.count == 2)
        #expect(project.server.requests.isEmpty)
        try await project.finish()
    }

    @Test("a user's file in the site spelt like a static file (NFD beside NFC) stops the build and stays as it is")
    func userFileSpeltLikeStaticFile() async throws {
        let project = try await Project()
        try project.write(Data("static".utf8), "static/" + Self.nfc)
        _ = try await project.build()
        try project.write(Data("mine".utf8), "Site/" + Self.nfd)
        let error = await #expect(throws: SiteWriter.WriteError.self) { try await project.build() }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description.contains("a name that reads the same (caf<U+00E9>.html") == true)
        #expect(project.data("Site/" + Self.nfd) == Data("mine".utf8))
        // Without the static file, the user's file is carried over like any other.
        try FileManager.default.removeItem(at: project.work.appendingPathComponent("static/" + Self.nfc))
        for _ in 0..<2 { _ = try await project.build() }
        #expect(project.data("Site/" + Self.nfd) == Data("mine".utf8))
        #expect(!Self.names(in: project.work.appendingPathComponent("Site")).contains(Array(Self.nfc.utf8)))
        try await project.finish()
    }

    @Test("a static file renamed from NFD to NFC is published under the new spelling only, build after build")
    func staticFileRespelt() async throws {
        let project = try await Project()
        try project.write(Data("one".utf8), "static/" + Self.nfd)
        try project.write(Data("one".utf8), "static/dir/" + Self.nfd)
        _ = try await project.build()
        for path in ["static/" + Self.nfd, "static/dir/" + Self.nfd] {
            try FileManager.default.moveItem(
                at: project.work.appendingPathComponent(path),
                to: project.work.appendingPathComponent(path.replacingOccurrences(of: Self.nfd, with: Self.nfc)))
        }
        // The second build reuses the first's site (`.Site.previous`), which has the old spelling.
        for round in 0..<2 {
            // A change, so the build writes a site rather than finding nothing to do.
            try project.write(Data("round \(round)".utf8), "static/round.txt")
            _ = try await project.build()
            for folder in ["Site", "Site/dir"] {
                let names = Self.names(in: project.work.appendingPathComponent(folder))
                #expect(names.contains(Array(Self.nfc.utf8)), "\(folder)")
                #expect(!names.contains(Array(Self.nfd.utf8)), "\(folder)")
            }
        }
        try await project.finish()
    }
}
