import Foundation
import _NIOFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SiteWriter {
    /// The site could not be written; the old site (if any) is untouched.
    package struct WriteError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for the exit status.
        package enum Kind: Sendable, Hashable {
            /// The output folder cannot be created, or is not feedsite's to write (exit 73).
            case refused
            /// Reading or writing failed: a full disk, an I/O error (exit 74).
            case io
            /// A page path that would leave the site, or one written twice: a bug (exit 74).
            case invalidSite
        }

        package var path: String
        package var message: String
        package var kind: Kind

        package init(path: String, message: String, kind: Kind = .io) {
            self.path = path
            self.message = message
            self.kind = kind
        }

        package var description: String { "error: \(path): \(message)" }

        /// A failed system call on `path`: `doing` (`cannot write the new site`), the system's
        /// reason, and what to do. Lack of space or an I/O error is `.io` (exit 74) unless `kind`
        /// says otherwise.
        init(path: String, doing: String, errno code: Int32, kind: Kind = .io) {
            self.init(
                path: path, message: "\(doing): \(String(cString: strerror(code)))\(Self.advice(errno: code))",
                kind: Self.isShortage(code) ? .io : kind)
        }

        /// An error of swift-nio's file system on `path`, by its code: a missing or forbidden path
        /// is `.refused` (exit 73) when `kind` is, lack of space and I/O errors are always `.io`.
        init(path: String, doing: String, _ error: any Error, kind: Kind = .io) {
            guard let failure = error as? FileSystemError else {
                // Cancellation: the build was stopped; nothing half-done is published.
                self.init(path: path, message: "\(doing): \(error)", kind: .io)
                return
            }
            if let code = Self.errno(in: failure as any Error) {
                self.init(path: path, doing: doing, errno: code, kind: kind)
                return
            }
            let reason: String =
                switch failure.code {
                case .permissionDenied: "permission denied; check the folder's owner and permissions"
                case .notFound: "a folder on the way does not exist (or was moved while feedsite ran)"
                case .fileAlreadyExists: "something is already there; move it away"
                case .notEmpty: "the folder is not empty"
                case .resourceExhausted: "out of space or file handles; free some and build again"
                case .io: "an I/O error; check the disk"
                case .unsupported: "not a file or folder feedsite can handle (a pipe, socket or device); remove it"
                default: failure.message
                }
            self.init(path: path, message: "\(doing): \(reason)", kind: failure.code == .io ? .io : kind)
        }

        /// The `errno` a swift-nio error carries, looking through the errors it wraps.
        static func errno(in error: any Error) -> Int32? {
            var cause: (any Error)? = error
            while let current = cause {
                if let call = current as? FileSystemError.SystemCallError { return call.errno.rawValue }
                cause = (current as? FileSystemError)?.cause
            }
            return nil
        }

        /// Lack of space or an I/O error: the disk's fault, never the folder's.
        private static func isShortage(_ code: Int32) -> Bool {
            code == ENOSPC || code == EIO || code == EDQUOT
        }

        /// What to do about a failed call, by its `errno` (empty when the reason says it all).
        static func advice(errno code: Int32) -> String {
            switch code {
            case ENOSPC, EDQUOT: "; free some space (the new site is written beside the old one) and build again"
            case EACCES, EPERM: "; check the folder's owner and permissions"
            case EROFS: "; the file system is read-only: pass an --output on a writable disk"
            case ENOTDIR: "; a part of the path is a file, not a folder: pass another --output"
            case EIO: "; check the disk"
            default: ""
            }
        }
    }
}
