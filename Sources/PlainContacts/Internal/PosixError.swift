import Foundation
import Glibc
import PlainContactsSystem

/// Turns failed POSIX calls, and Foundation's file errors, into the library's `ContactsError`
/// values, keeping the call and its `errno` as the underlying ``SystemCallError``.
///
/// `EACCES` and `EPERM` become ``ContactsError/Code/permissionDenied``, `ENOSPC` and `EDQUOT`
/// ``ContactsError/Code/diskFull``, `EROFS` ``ContactsError/Code/readOnlyFileSystem``; every
/// other value ``ContactsError/Code/io`` with the system's description of it.
///
/// It is the failures of the store's files, locks and durable writes: the file layer beneath
/// is generic over ``FileFailures`` and knows nothing of `ContactsError`.
package enum PosixError: FileFailures {
    /// The error for a failed call, its message the action and the reason.
    ///
    /// ```swift
    /// throw PosixError.error("could not rename staged file", path: target, code: errno, call: "rename")
    /// ```
    package static func error(_ action: String, path: String?, code: Int32, call: String) -> ContactsError {
        let (errorCode, reason) = classify(code)
        return ContactsError(errorCode, "\(action): \(reason)", path: path, underlying: SystemCallError(call: call, errno: code))
    }

    /// The error for a failed Foundation file operation (such as `Data(contentsOf:)`), classified
    /// by the `errno` it carries; without one it is ``ContactsError/Code/io`` with the Foundation
    /// error as its cause.
    static func error(_ action: String, path: String?, foundationError error: any Error, call: String) -> ContactsError {
        if let code = errno(of: error) {
            return self.error(action, path: path, code: code, call: call)
        }
        return ContactsError(.io, "\(action): \(error.localizedDescription)", path: path, underlying: error)
    }

    /// The `errno` behind a Foundation file error: its underlying `POSIXError`, or the one its
    /// Cocoa code stands for.
    static func errno(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        guard let cocoa = error as? CocoaError else { return nil }
        if let posix = cocoa.userInfo[NSUnderlyingErrorKey] as? POSIXError { return posix.code.rawValue }
        switch cocoa.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        default: return nil
        }
    }

    /// The library's code for an `errno` value, and the reason the message gives.
    static func classify(_ code: Int32) -> (ContactsError.Code, String) {
        switch code {
        case EACCES, EPERM: (.permissionDenied, "permission denied (check the owner and mode of the file and its folders)")
        case ENOSPC, EDQUOT: (.diskFull, "the disk is full")
        case EROFS: (.readOnlyFileSystem, "the file system is read-only")
        default: (.io, describe(code))
        }
    }

    /// The system's description of an `errno` value, such as "No such file or directory".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
