import Foundation

/// Opens a URL in the desktop's browser, when there is one.
enum Browser {
    static func open(_ url: URL) {
        let candidates = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open", "/usr/bin/open"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Terminal.printError("warning: --open: xdg-open is not installed; open \(url.absoluteString) yourself")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [url.absoluteString]
        do {
            try process.run()
        } catch {
            Terminal.printError("warning: --open: \(tool) failed: \(error.localizedDescription)")
        }
    }
}
