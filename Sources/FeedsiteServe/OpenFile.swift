import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file opened for one response: its size is read from the open descriptor, so the
/// `Content-Length` and the bytes sent describe the same file however the path changes meanwhile
/// (a rebuild renames a new file into place). Closed when the response lets go of it.
final class OpenFile: Sendable {
    /// A file that ended before the size it had when it was opened.
    struct Truncated: Error {}

    let descriptor: Int32
    let size: Int

    /// Nil unless `path` opens as a regular file.
    init?(path: String) {
        // Without blocking: a FIFO put in the file's place since it was checked must not hold
        // the request in `open`.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.size = Int(info.st_size)
    }

    deinit {
        _ = close(descriptor)
    }

    /// Up to `count` bytes from `offset`; nil at the end of the file or on an error. A local file
    /// read from the page cache: a short blocking read, as the preview server's only disk access.
    func read(at offset: Int, upTo count: Int) -> ByteBuffer? {
        var buffer = ByteBuffer()
        let wanted = min(count, size - offset)
        guard wanted > 0 else { return nil }
        let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { bytes in
            while true {
                let result = pread(descriptor, bytes.baseAddress, wanted, off_t(offset))
                if result < 0 && errno == EINTR { continue }
                return max(result, 0)
            }
        }
        return read > 0 ? buffer : nil
    }
}
