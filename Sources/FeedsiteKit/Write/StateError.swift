import Foundation

/// The state folder cannot be used. Thrown before anything is fetched (a folder that is refused)
/// or while saving (an I/O error); the site on disk is left as it was.
package struct StateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, for the exit status.
    package enum Kind: Sendable, Hashable {
        /// The state folder cannot be created or is refused (a file stands where it should be):
        /// exit status 73, like an output folder that is refused.
        case refused
        /// Reading or writing the state failed: exit status 74.
        case io
    }

    package var kind: Kind
    /// The file or folder concerned.
    package var path: String
    /// What went wrong and what to do.
    package var message: String

    package init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    package var description: String { "error: \(path): \(message)" }
}

extension StateError {
    /// A file error in words with what to do (`No space left on device; free some space …`), not
    /// Foundation's internal description.
    static func reason(_ error: any Error) -> String {
        if let error = error as? StateError { return error.message }
        let error = error as NSError
        var code: Int32?
        if error.domain == NSPOSIXErrorDomain {
            code = Int32(error.code)
        } else if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            code = Int32(underlying.code)
        } else if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteOutOfSpace.rawValue {
            code = ENOSPC
        }
        guard let code else { return error.localizedDescription }
        return reason(errno: code)
    }

    /// A failed call's `errno` in words, with what to do about the state folder.
    static func reason(errno code: Int32) -> String {
        let advice =
            switch code {
            case ENOSPC, EDQUOT: "; free some space and build again"
            case EACCES, EPERM: "; check the state folder's owner and permissions"
            case EROFS:
                "; the file system is read-only: choose a state folder on a writable disk with --state or 'state_dir'"
            case ENOTDIR: "; a part of the path is a file, not a folder: choose another with --state or 'state_dir'"
            case EIO: "; check the disk"
            default: ""
            }
        return String(cString: strerror(code)) + advice
    }
}
