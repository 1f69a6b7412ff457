import Glibc

/// Turns failed POSIX calls into the library's `ContactsError` values.
enum PosixError {
    /// An `.io` error for a failed call, with the system's text for `code` as the message tail.
    ///
    /// ```swift
    /// throw PosixError.io("could not rename staged file", path: target, code: errno)
    /// ```
    static func io(_ action: String, path: String, code: Int32) -> ContactsError {
        ContactsError(.io, "\(action): \(describe(code))", path: path)
    }

    /// The system's description of an `errno` value, such as "No such file or directory".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
