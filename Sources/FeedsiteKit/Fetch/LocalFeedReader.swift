import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a feed from a local file (a path or a `file:` URL in `feeds.yml`): no network, the same
/// body cap as a download, and change detection standing in for HTTP validators, so a file that
/// did not change is "not modified" (304) and is not parsed again.
///
/// - `lastModified` holds the file's modification time and size: when both are as saved, the file
///   is not even opened. A file modified in the last two seconds gets no such stamp (a same-size
///   edit within the file system's time resolution would look unchanged), so it is compared by
///   content next time.
/// - `etag` holds a digest of the content: a file rewritten with the same bytes (a tool that
///   regenerates it on a schedule) is still "not modified".
///
/// Only regular files are read. Directories, FIFOs, sockets and devices are refused before they
/// are opened (opening a FIFO would block the build until a writer came), and the open itself is
/// non-blocking and checked again, in case the path changed in between.
enum LocalFeedReader {
    /// Plain POSIX calls: one `stat`, one `open`, a bounded `read` loop. Blocking, but bounded by
    /// the body cap on a local disk (a few milliseconds for the largest feeds).
    static func read(_ request: FetchRequest, maxBodyBytes: Int) -> Result<FetchResponse, FetchError> {
        let url = request.url
        let path = url.path
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(failure(errno, path)) }
        if let refusal = refusal(status, path) { return .failure(refusal) }
        if Int64(status.st_size) > Int64(maxBodyBytes) { return .failure(.tooLarge(limitBytes: maxBodyBytes)) }
        if let saved = request.lastModified, saved == stamp(status) {
            return .success(.notModified(FetchInfo(finalURL: url, status: 304)))
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(failure(errno, path)) }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else { return .failure(failure(errno, path)) }
        if let refusal = refusal(opened, path) { return .failure(refusal) }
        let body: Data
        switch readAll(descriptor, limit: maxBodyBytes) {
        case .success(let data): body = data
        case .failure(.tooLarge): return .failure(.tooLarge(limitBytes: maxBodyBytes))
        case .failure(.system(let code)): return .failure(failure(code, path))
        }
        var fingerprint = BuildFingerprint()
        fingerprint.add(body)
        let digest = "content-\(fingerprint.text)-\(body.count)"
        if let saved = request.etag, saved == digest {
            return .success(.notModified(FetchInfo(finalURL: url, status: 304)))
        }
        let (seconds, nanoseconds) = modificationTime(opened)
        let modified = Double(seconds) + Double(nanoseconds) / 1e9
        let isSettled = Date().timeIntervalSince1970 - modified >= 2
        return .success(
            .fetched(
                FetchedFeed(
                    info: FetchInfo(finalURL: url, status: 200), contentType: nil, etag: digest,
                    lastModified: isSettled ? stamp(opened) : nil, body: body)))
    }

    /// `mtime 1795000000.123456789 size 27000`: what "the same file" means without opening it.
    static func stamp(_ status: stat) -> String {
        let (seconds, nanoseconds) = modificationTime(status)
        let fraction = String(nanoseconds)
        let padded = String(repeating: "0", count: max(0, 9 - fraction.count)) + fraction
        return "mtime \(seconds).\(padded) size \(status.st_size)"
    }

    private static func modificationTime(_ status: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
            (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
        #else
            (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
        #endif
    }

    private enum ReadFailure: Error {
        case tooLarge
        case system(Int32)
    }

    /// Reads to the end, failing as soon as more than `limit` bytes arrived (the file may have grown
    /// since it was measured).
    private static func readAll(_ descriptor: Int32, limit: Int) -> Result<Data, ReadFailure> {
        var data = Data()
        let chunkSize = 256 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno))
            }
            if count == 0 { return .success(data) }
            data.append(contentsOf: chunk[0..<count])
            if data.count > limit { return .failure(.tooLarge) }
        }
    }

    /// Anything but a regular file, named in the error.
    private static func refusal(_ status: stat, _ path: String) -> FetchError? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .localFile(path: path, problem: .directory)
        case S_IFIFO: return .localFile(path: path, problem: .notRegularFile(kind: "named pipe (FIFO)"))
        case S_IFSOCK: return .localFile(path: path, problem: .notRegularFile(kind: "socket"))
        case S_IFCHR, S_IFBLK: return .localFile(path: path, problem: .notRegularFile(kind: "device"))
        default: return .localFile(path: path, problem: .notRegularFile(kind: "special file"))
        }
    }

    private static func failure(_ code: Int32, _ path: String) -> FetchError {
        switch code {
        case ENOENT, ENOTDIR: return .localFile(path: path, problem: .missing)
        case EACCES, EPERM: return .localFile(path: path, problem: .notPermitted)
        case EISDIR: return .localFile(path: path, problem: .directory)
        default: return .localFile(path: path, problem: .unreadable(reason: String(cString: strerror(code))))
        }
    }
}

/// The C library's `read(2)` (inside `LocalFeedReader`, `read` names its own method).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
