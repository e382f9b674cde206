import Foundation

/// `feeds.yml` could not be used. Every problem found is listed at once, each with file, line and
/// column, so one edit fixes them all.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    package var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    /// The bytes of `url`, or the error that `what` (`the OPML file`) cannot be read, ended by
    /// `advice` when there is some. With a `limit`, a larger file is its `tooLarge` error (given
    /// the size, `"12345 bytes"` or `"more than 10000000 bytes"`), found before it is read: at most
    /// `bytes` + 1 bytes are ever held (a 4 GB file, a FIFO, `/dev/zero`).
    static func contents(
        of url: URL, what: String, advice: String? = nil,
        limit: (bytes: Int, tooLarge: (String) -> ConfigurationError)? = nil
    ) throws(ConfigurationError) -> Data {
        func failure(_ reason: String) -> ConfigurationError {
            let message = "cannot read \(what) at \(url.path): \(reason)"
            return ConfigurationError([
                .error(file: url.lastPathComponent, advice.map { "\(message); \($0)" } ?? message)
            ])
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw failure("it is a folder, not a file")
        }
        guard let (maxBytes, tooLarge) = limit else {
            do {
                return try Data(contentsOf: url)
            } catch {
                throw failure("it does not exist or is not readable")
            }
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > maxBytes {
            throw tooLarge("\(size) bytes")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw failure("it does not exist or is not readable")
        }
        guard data.count <= maxBytes else { throw tooLarge("more than \(maxBytes) bytes") }
        return data
    }
}
