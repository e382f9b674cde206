import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drives Pagefind (https://pagefind.app) in its service mode, `pagefind --service`: feedsite hands
/// it small HTML pages of its own making (`Record`: several items each; no page of the site is
/// parsed again) and gets the search bundle back as files, which go into the staging folder like
/// every page (unchanged files keep their inodes). One process indexes one shard.
///
/// The protocol (Pagefind's `src/service`): each message is JSON, base64-encoded, followed by a
/// comma, on stdin (requests) and stdout (responses). Requests are pipelined: the first index of a
/// fresh process has id 0, so every record is sent without waiting for an answer. Pagefind exits
/// when its stdin closes, so stdin stays open until the files have arrived.
struct PagefindService: Sendable {
    /// The Pagefind executable.
    let executable: URL
    /// Longest a whole run may take before Pagefind is stopped.
    var timeout: Duration = .seconds(900)

    /// One page of the index: an HTML document Pagefind reads as if it were a page of the site at
    /// `url` (feedsite writes no such page: each holds several items, one heading with an `id`
    /// each, which Pagefind turns into a sub-result per item).
    struct Record: Sendable, Hashable {
        /// Where Pagefind believes the page is (unique in one index).
        var url: String
        /// The document: `<html lang="…"><body>…</body></html>`.
        var html: String
    }

    /// Why indexing failed (the site is still published, without a fresh search index).
    enum Failure: Error, CustomStringConvertible {
        case cannotStart(String)
        case stopped(String)
        case refused(String)

        var description: String {
            switch self {
            case .cannotStart(let reason): "cannot start Pagefind: \(reason)"
            case .stopped(let reason): "Pagefind stopped before it had written the index (\(reason))"
            case .refused(let reason): "Pagefind did not build the index: \(reason)"
            }
        }
    }

    /// Indexes `records` and returns the bundle's files by their path inside the bundle folder
    /// (`pagefind.js`, `fragment/en_1a2b3c4.pf_fragment`…), and how many records were refused.
    func index(_ records: [Record]) async throws(Failure) -> (files: [String: Data], refused: [String]) {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--service"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (chunks, continuation) = AsyncStream<Data>.makeStream()
        // Drained on Foundation's queue whatever this task does, so Pagefind never blocks on a
        // full stdout while feedsite is still writing its stdin.
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
            } else {
                continuation.yield(data)
            }
        }
        // A write to a pipe whose reader has died must fail with EPIPE, not kill feedsite.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            output.fileHandleForReading.readabilityHandler = nil
            continuation.finish()
            throw .cannotStart("\(executable.path): \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        let deadline = timeout
        let watchdog = Task {
            try await Task.sleep(for: deadline)
            kill(pid, SIGKILL)
        }
        defer {
            watchdog.cancel()
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let lastID = records.count + 1
        let messages = Self.requests(records)
        let writer = input.fileHandleForWriting
        // Written on a queue of its own: the pipe blocks while Pagefind works through the records.
        DispatchQueue.global().async {
            for message in messages {
                do { try writer.write(contentsOf: message) } catch { return }
            }
        }
        var reader = ResponseReader()
        var refused: [String] = []
        for await chunk in chunks {
            for response in reader.read(chunk) {
                switch response.payload {
                case .error(let message):
                    guard let id = response.messageID, id >= 1, id <= records.count else {
                        throw .refused(message)
                    }
                    refused.append("\(records[id - 1].url): \(message)")
                case .files(let files) where response.messageID == lastID:
                    var result: [String: Data] = [:]
                    for file in files {
                        guard let data = Data(base64Encoded: file.content), Self.isSafe(file.path) else {
                            throw .refused("it returned an unreadable file \(file.path)")
                        }
                        result[file.path] = data
                    }
                    return (result, refused)
                default:
                    continue
                }
            }
            if reader.isOverlong { throw .refused("an answer was larger than \(ResponseReader.maxMessage >> 20) MB") }
        }
        throw .stopped(Task.isCancelled ? "cancelled" : "its output ended")
    }

    /// Every request, encoded: a new index (id 0), one record each, then the files.
    static func requests(_ records: [Record]) -> [Data] {
        struct Request<Payload: Encodable>: Encodable {
            var message_id: Int
            var payload: Payload
        }
        struct NewIndex: Encodable { var type = "NewIndex" }
        struct AddFile: Encodable {
            var type = "AddFile"
            var index_id = 0
            var url: String
            var file_contents: String
        }
        struct GetFiles: Encodable {
            var type = "GetFiles"
            var index_id = 0
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func message(_ value: some Encodable) -> Data {
            // Plain strings and dictionaries of strings always encode.
            let json = (try? encoder.encode(value)) ?? Data("{}".utf8)
            return Data((json.base64EncodedString() + ",").utf8)
        }
        var messages = [message(Request(message_id: 0, payload: NewIndex()))]
        messages.reserveCapacity(records.count + 2)
        for (index, record) in records.enumerated() {
            messages.append(
                message(
                    Request(
                        message_id: index + 1,
                        payload: AddFile(url: record.url, file_contents: record.html))
                ))
        }
        messages.append(message(Request(message_id: records.count + 1, payload: GetFiles())))
        return messages
    }

    /// A bundle path Pagefind may write: relative, no `..`, no hidden or empty parts.
    static func isSafe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && !path.hasPrefix("/")
            && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") }
    }

    /// Splits Pagefind's stdout into its comma-terminated messages and decodes them.
    struct ResponseReader {
        /// The largest message kept (the files of a 30,000-item index are one message of ~100 MB).
        static let maxMessage = 1 << 30

        struct Response: Decodable {
            var messageID: Int?
            var payload: Payload

            enum CodingKeys: String, CodingKey {
                case messageID = "message_id"
                case payload
            }
        }

        struct File: Decodable {
            var path: String
            var content: String
        }

        enum Payload: Decodable {
            case error(String)
            case files([File])
            case other

            enum CodingKeys: String, CodingKey {
                case type, message, files
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                switch try container.decode(String.self, forKey: .type) {
                case "Error": self = .error(try container.decodeIfPresent(String.self, forKey: .message) ?? "error")
                case "GetFiles": self = .files(try container.decode([File].self, forKey: .files))
                default: self = .other
                }
            }
        }

        private var buffer = Data()
        /// Where the search for the next comma resumes (bytes before it hold none).
        private var scanned = 0
        private(set) var isOverlong = false

        /// The messages completed by `chunk`; a message that does not decode is an error response.
        mutating func read(_ chunk: Data) -> [Response] {
            buffer.append(chunk)
            var responses: [Response] = []
            let decoder = JSONDecoder()
            while let comma = buffer[(buffer.startIndex + scanned)...].firstIndex(of: UInt8(ascii: ",")) {
                let message = buffer[buffer.startIndex..<comma]
                buffer = Data(buffer[(comma + 1)...])
                scanned = 0
                guard let json = Data(base64Encoded: message),
                    let response = try? decoder.decode(Response.self, from: json)
                else {
                    responses.append(Response(messageID: nil, payload: .error("an unreadable answer")))
                    continue
                }
                responses.append(response)
            }
            scanned = buffer.count
            isOverlong = buffer.count > Self.maxMessage
            return responses
        }
    }

    /// Where Pagefind is: `FEEDSITE_PAGEFIND`, else `pagefind_extended` or `pagefind` on `PATH`,
    /// else where `make` installs it (`.build/pagefind/pagefind`, or `.build/venv/bin/pagefind`
    /// where an older checkout pip-installed it), found beside the feedsite executable of a source
    /// checkout or under the current directory. Nil when it is nowhere.
    static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> URL? {
        let files = FileManager.default
        func usable(_ path: String) -> URL? {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                files.isExecutableFile(atPath: path)
            else { return nil }
            return URL(fileURLWithPath: path)
        }
        if let explicit = environment["FEEDSITE_PAGEFIND"], !explicit.isEmpty { return usable(explicit) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            for name in ["pagefind_extended", "pagefind"] {
                if let found = usable("\(folder)/\(name)") { return found }
            }
        }
        var candidates: [String] = []
        if let executable {
            // `.build/release/feedsite` is a link to `.build/<triple>/release/feedsite`.
            let folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            for relative in [
                "../pagefind/pagefind", "../../pagefind/pagefind", "../venv/bin/pagefind", "../../venv/bin/pagefind",
            ] {
                candidates.append(folder.appendingPathComponent(relative).standardizedFileURL.path)
            }
        }
        for relative in [".build/pagefind/pagefind", ".build/venv/bin/pagefind"] {
            candidates.append(URL(fileURLWithPath: currentDirectory).appendingPathComponent(relative).path)
        }
        return candidates.lazy.compactMap(usable).first
    }
}
