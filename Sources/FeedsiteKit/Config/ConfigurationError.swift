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

    /// `data` as text, or an error saying what it is instead and what to do: a file saved as
    /// UTF-16 (with its byte order mark, or without: then half its bytes are NUL), or one with a
    /// byte that is not UTF-8, named by its line.
    static func utf8Text(_ data: Data, file: String) throws(ConfigurationError) -> String {
        let bytes = [UInt8](data)
        func refuse(_ what: String) -> ConfigurationError {
            ConfigurationError([.error(file: file, "\(what); save it as UTF-8")])
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw refuse("the file is UTF-16 text (it starts with UTF-16's byte order mark), not UTF-8")
        }
        if bytes.contains(0) {
            throw refuse("the file holds NUL bytes, as UTF-16 or UTF-32 text does, and is not UTF-8 text")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            var line = 1
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
                case .emptyInput, .error: break decoding
                }
            }
            throw refuse(
                "the file is not UTF-8 text: line \(line) holds a byte that is not UTF-8 (Latin-1 or Windows-1252?)")
        }
        return text
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
