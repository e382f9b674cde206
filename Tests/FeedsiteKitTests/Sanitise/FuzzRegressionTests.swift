import Foundation
import Testing

@testable import FeedsiteKit

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

    /// Each input is replayed within this (as the fuzzer's `-timeout=1`, with room for a debug build).
    static let budget = Duration.seconds(10)

    @Test("sanitiser: output inside the allowlist, nesting within the limit, in bounded time")
    func sanitiser() throws {
        let sanitiser = HTMLSanitiser()
        let base = URL(string: "https://fuzz.example/post/")
        for (name, data) in try Self.inputs("FuzzSanitiser") {
            let text = String(decoding: data, as: UTF8.self)
            let elapsed = ContinuousClock().measure {
                for content in [
                    sanitiser.sanitise(html: text, baseURL: base), sanitiser.sanitise(plainText: text, baseURL: base),
                ] {
                    // The oracle re-parses the output: elements, attributes and URL schemes.
                    #expect(AllowlistOracle.violations(in: content.html.html).isEmpty, "\(name)")
                    #expect(!content.html.html.lowercased().contains("<script"), "\(name)")
                }
                let limited =
                    NestingLimiter.limited(text, maxDepth: 8, opaqueElements: ContentBuilder.droppedElements) ?? text
                if let depth = HTMLFragment.gumboDepth(parsing: limited) {
                    #expect(depth <= 9, "\(name): depth \(depth)")
                }
            }
            #expect(elapsed < Self.budget, "\(name) took \(elapsed)")
        }
    }

    @Test("feed parser: every input parses or is refused, in bounded time")
    func feedParser() throws {
        for (name, data) in try Self.inputs("FuzzFeedParser") {
            let elapsed = ContinuousClock().measure {
                _ = try? FeedParser().parse(data, url: URL(string: "https://fuzz.example/feed"))
            }
            #expect(elapsed < Self.budget, "\(name) took \(elapsed)")
        }
    }

    @Test("state decoder: every input decodes or is set aside, in bounded time")
    func stateDecoder() throws {
        for (name, data) in try Self.inputs("FuzzStateDecoder") {
            let elapsed = ContinuousClock().measure {
                _ = StateStore.decode(data, origin: "fuzz", trusted: false)
            }
            #expect(elapsed < Self.budget, "\(name) took \(elapsed)")
        }
    }

    @Test("configuration loader: every input loads or is refused with diagnostics, in bounded time")
    func configuration() throws {
        for (name, data) in try Self.inputs("FuzzConfiguration") {
            let elapsed = ContinuousClock().measure {
                _ = try? SiteConfiguration.parse(yaml: String(decoding: data, as: UTF8.self))
            }
            #expect(elapsed < Self.budget, "\(name) took \(elapsed)")
        }
    }
}
