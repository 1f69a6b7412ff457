import Glibc

/// The failed system call behind a ``ContactsError``: which call failed and the `errno` it set.
///
/// It is the error's ``ContactsError/underlying`` value whenever the library met a failing
/// call, so that a program can tell "permission denied" from "no such file" without reading
/// the message.
///
/// ```swift
/// if let cause = error.underlying as? SystemCallError, cause.errno == EACCES { ... }
/// ```
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the call, such as `open` or `rename`.
    public var call: String
    /// The `errno` value the call set.
    public var errno: Int32

    /// Creates the cause of a failed call.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): errno \(errno)" }
}
