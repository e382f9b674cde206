import Foundation

/// Test inputs and golden files live in the source tree beside the tests, so tests read them by
/// path (no resource bundle to keep in sync) and recordings land where git sees them.
enum Fixtures {
    /// `Tests/FeedsiteKitTests/`
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // FeedsiteKitTests

    /// The repository root (for `Templates/`).
    static let repositoryRoot =
        testsDirectory
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Fixtures/<relativePath>`, e.g. `real-feeds/medium-rss2.xml`.
    static func url(_ relativePath: String) -> URL {
        testsDirectory.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// Reads `Snapshots/<name>`; with `RECORD_SNAPSHOTS=1` writes `actual` there instead and
    /// returns nil so the calling test fails (a recording run never passes by accident).
    static func snapshot(_ name: String, actual: String) throws -> String? {
        let url = testsDirectory.appendingPathComponent("Snapshots").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return nil
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
