/// How the library above reports a failed system call: the files, locks and durable writes of
/// this layer are generic over it, so that their failures reach callers as that library's own
/// errors while this layer knows nothing of them.
///
/// A library names each of these types once with its own failures (the store's are coded from
/// the `errno`):
///
/// ```swift
/// enum SettingsFailures: FileFailures {
///     static func error(_ action: String, path: String?, code: Int32, call: String) -> SettingsError {
///         SettingsError(message: "\(action): errno \(code) from \(call)", path: path)
///     }
/// }
/// typealias SettingsFile = DurableFile<SettingsFailures>
/// try SettingsFile.write(data, to: url)  // throws SettingsError
/// ```
package protocol FileFailures {
    /// The type of the errors thrown.
    associatedtype Failure: Error

    /// The error for a call that failed: `action` says what was being done ("could not
    /// rename staged file"), `path` the file involved, `code` the `errno` the call set and
    /// `call` its name, such as `rename`.
    static func error(_ action: String, path: String?, code: Int32, call: String) -> Failure
}
