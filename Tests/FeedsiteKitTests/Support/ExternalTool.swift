import Foundation

/// Command-line validators the tests use when the machine has them (`scripts/install-deps.sh`
/// installs xmllint; Python's feedparser is optional). Tests that need one are skipped with a
/// note naming what to install, never failed, when it is missing.
enum ExternalTool {
    /// `xmllint` from libxml2-utils.
    static let xmllint: String? = ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/bin/xmllint"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `python3`, when it can `import feedparser`.
    static let pythonWithFeedparser: String? = {
        guard let python = python3 else { return nil }
        return (try? run(python, ["-c", "import feedparser"]))?.status == 0 ? python : nil
    }()

    static let python3: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map { "\($0)/python3" } + ["/usr/bin/python3"]).first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Runs a tool to completion; returns its exit status and standard output and error, merged.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
