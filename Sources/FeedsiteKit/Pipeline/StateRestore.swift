import FeedsiteShared
import Foundation

/// Restores the state a live site published (`status/state.json`, named by `--restore-state` or
/// `state_url`) into an empty state folder, so a fresh CI runner keeps the site's history. The
/// file is untrusted input: downloaded with its own size limit and streamed to disk, every
/// record validated and every item's HTML sanitised again (`StateFile.decode`).
struct StateRestore: Sendable {
    /// What restoring a published state gave.
    enum Outcome {
        case restored(SavedState, [String])
        /// Nothing is published there yet (HTTP 404, no such file).
        case absent(String)
        case failed(String)
    }

    var store: StateStore
    var configuration: SiteConfiguration
    /// The largest state restored (`StateLimits.fileBytes`; smaller in tests).
    var limitBytes: Int
    var now: Date

    /// Reads a published state from a URL (downloaded, streamed into the state folder) or a path.
    func restore(from origin: String) async throws(StateError) -> Outcome {
        let file: URL
        var download: URL?
        if let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            try store.createFolder()
            let temporary = store.directory.appendingPathComponent(".restore-\(getpid()).json")
            let agent = configuration.fetch.userAgent ?? FeedFetcher.Options.userAgent(baseURL: configuration.baseURL)
            let result = await StateDownload.download(
                url, to: temporary, limitBytes: limitBytes, policy: configuration.fetch, userAgent: agent)
            switch result {
            case .success(.saved):
                file = temporary
                download = temporary
            case .success(.absent(let status)):
                try? FileManager.default.removeItem(at: temporary)
                return .absent("HTTP \(status)")
            case .failure(let failure):
                try? FileManager.default.removeItem(at: temporary)
                return .failed(failure.description)
            }
        } else {
            let path = origin.hasPrefix("file:") ? (URL(string: origin)?.path ?? origin) : origin
            guard FileManager.default.fileExists(atPath: path) else { return .absent("no such file") }
            file = URL(fileURLWithPath: path)
            // What a link leads to is what is read.
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.resolvingSymlinksInPath().path)
            switch attributes?[.type] as? FileAttributeType {
            case .typeRegular?: break
            case .typeDirectory?:
                return .failed("\(path) is a folder; give the path of a published status/state.json")
            default:
                // A FIFO or a device would be read without end (or block).
                return .failed("\(path) is not a regular file; give the path of a published status/state.json")
            }
            let size = attributes?[.size] as? Int ?? 0
            guard size <= limitBytes else {
                return .failed("the file is larger than feedsite's \(limitBytes >> 20) MB state limit")
            }
        }
        return decode(file, origin: origin, download: download)
    }

    /// Why the file at `path` cannot be read, in the system's words (`Input/output error`):
    /// Foundation's own said only "The operation could not be completed. (NSCocoaErrorDomain error 256.)".
    static func readFailure(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var byte: UInt8 = 0
        return read(descriptor, &byte, 1) < 0 ? String(cString: strerror(errno)) : "it could not be read whole"
    }

    /// Decodes the restored file; a download that cannot be used whole is kept aside for a look.
    private func decode(_ file: URL, origin: String, download: URL?) -> Outcome {
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            if let download { try? FileManager.default.removeItem(at: download) }
            return .failed("cannot read \(file.path): \(Self.readFailure(file.path))")
        }
        let decoded = StateFile.decode(data, origin: origin, trusted: false, now: now)
        let day = DayFormat.string(now)
        func keep(_ name: String) -> String {
            guard let download, let kept = store.place(download, as: name, keepingSource: false) else { return "" }
            return "; the download is kept as \(kept.path)"
        }
        switch decoded.failure {
        case .unreadable? where data.drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).first == UInt8(ascii: "<"):
            return .failed(
                "not a feedsite state file: it is an HTML or XML document (a web page?); check that the address is the site's status/state.json"
                    + keep("restored-state.json.unreadable-\(day)"))
        case .unreadable(let reason)?:
            return .failed("not a feedsite state file (\(reason))" + keep("restored-state.json.unreadable-\(day)"))
        case .newer(let version)?:
            return .failed(
                "it is state version \(version), newer than this feedsite reads (\(SiteState.currentVersion)): upgrade feedsite"
                    + keep("restored-state.v\(version).json"))
        case nil:
            break
        }
        var warnings = decoded.warnings
        if !warnings.isEmpty, download != nil {
            warnings.append("\(origin): skipped or repaired records" + keep("restored-state.json.damaged-\(day)"))
        }
        if let download { try? FileManager.default.removeItem(at: download) }
        return .restored(SavedState(state: decoded.state, store: store, now: now), warnings)
    }
}
