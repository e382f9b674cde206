import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// Replays every input the fuzz targets found (`Fixtures/fuzz-regressions/<target>/`) through the
/// same code and checks as the target, so no crash, hang or escape comes back.
@Suite("Fuzz regressions: every input a fuzz target found, replayed")
struct FuzzRegressionTests {
    static func inputs(_ target: String) throws -> [(name: String, data: Data)] {
        let directory = Fixtures.url("fuzz-regressions/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return try names.sorted().filter { !$0.hasPrefix(".") }.map {
            ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    @Test("sanitiser: output inside the allowlist, nesting within the limit")
    func sanitiser() throws {
        let sanitiser = HTMLSanitiser()
        let base = URL(string: "https://fuzz.example/post/")
        for (name, data) in try Self.inputs("FuzzSanitiser") {
            let text = String(decoding: data, as: UTF8.self)
            for content in [
                sanitiser.sanitise(html: text, baseURL: base), sanitiser.sanitise(plainText: text, baseURL: base),
            ] {
                // The oracle re-parses the output: elements, attributes and URL schemes.
                #expect(AllowlistOracle.violations(in: content.html.html).isEmpty, "\(name)")
                #expect(!content.html.html.lowercased().contains("<script"), "\(name)")
                if let depth = HTMLFragment.gumboDepth(parsing: content.html.html) {
                    #expect(depth <= sanitiser.limits.maxDepth + 1, "\(name): output depth \(depth)")
                }
            }
            let limited =
                NestingLimiter.limited(text, maxDepth: 8, opaqueElements: ContentBuilder.droppedElements) ?? text
            if let depth = HTMLFragment.gumboDepth(parsing: limited) {
                #expect(depth <= 9, "\(name): depth \(depth)")
            }
        }
    }

    @Test("subset parser: whenever it answers, its tree and depth are gumbo's (as the input reaches it in production)")
    func subsetParser() throws {
        let inputs = try Self.inputs("FuzzSubsetParser")
        #expect(inputs.count >= 40)
        let opaque = ContentBuilder.droppedElements
        for (name, data) in inputs {
            var text = String(decoding: data, as: UTF8.self)
            let isPlain = !text.withUTF8(HTMLSubsetParser.hasCharactersGumboReplaces)
            let input = isPlain ? text : HTMLSanitiser.replacingForbiddenControls(text)
            for maxDepth in [200, 8] {
                // As gumbo's input is in production: attributes past the 256th left out by the limiter.
                let limited =
                    NestingLimiter.limited(input, maxDepth: maxDepth, opaqueElements: opaque, scanningAlways: true)
                    ?? input
                guard
                    let subset = HTMLSubsetParser.parseMeasuringDepth(
                        limited, maxDepth: maxDepth, hasNoReplacedCharacters: isPlain)
                else { continue }
                let gumbo = HTMLFragment.gumboNodes(parsing: limited, maxDepth: maxDepth, opaqueElements: opaque)
                #expect(subset.nodes == gumbo, "\(name), maxDepth \(maxDepth)")
            }
        }
    }

    @Test("feed parser: every input parses or is refused")
    func feedParser() throws {
        for (_, data) in try Self.inputs("FuzzFeedParser") {
            _ = try? FeedParser().parse(data, url: URL(string: "https://fuzz.example/feed"))
            _ = try? FeedParser().parse(data, url: nil, contentType: "text/xml; charset=iso-8859-1")
        }
    }

    @Test("state decoder: every input is restored or refused; a restored state restores again unchanged")
    func stateDecoder() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for (name, data) in try Self.inputs("FuzzStateDecoder") {
            _ = StateFile.decode(data, origin: "fuzz", trusted: true, now: now)
            let restored = StateFile.decode(data, origin: "fuzz", trusted: false, now: now)
            if restored.failure == nil {
                // What feedsite saves from a restored state, it reads back whole and unchanged.
                let saved = StateStore.encode(restored.state)
                let again = StateFile.decode(saved, origin: "again", trusted: false, now: now)
                #expect(again.failure == nil, "\(name)")
                #expect(again.state == restored.state, "\(name)")
                #expect(again.warnings.isEmpty, "\(name): \(again.warnings)")
            }
            let decoder = StateFile.decoder(trusted: true)
            if let list = try? decoder.decode(StateFile.ItemList.self, from: data) {
                var validator = StateValidator(origin: "fuzz", now: now)
                var items = list.items
                validator.validate(&items, feed: "https://fuzz.example/feed")
            }
        }
    }

    @Test("configuration loader: every input loads or is refused with diagnostics")
    func configuration() throws {
        for (_, data) in try Self.inputs("FuzzConfiguration") {
            _ = try? SiteConfiguration.parse(
                yaml: String(decoding: data, as: UTF8.self), directory: URL(fileURLWithPath: "/nonexistent-fuzz"))
        }
    }
}
