import PlainContactsSystem

/// The files, locks and durable writes of the layer beneath the store, failing with the
/// store's own errors: every failed call becomes a `ContactsError` coded by ``PosixError``.
///
/// The store and the libraries on it name these types as if they were the store's own:
///
/// ```swift
/// try DurableFile.write(data, to: url)  // throws ContactsError .diskFull, .io, …
/// ```
package typealias PosixFile = PlainContactsSystem.PosixFile<PosixError>

/// Path-based file operations, failing with the store's own errors (``PosixError``).
package typealias PosixFileSystem = PlainContactsSystem.PosixFileSystem<PosixError>

/// Durable replacement of one file, failing with the store's own errors (``PosixError``).
package typealias DurableFile = PlainContactsSystem.DurableFile<PosixError>

/// Cross-process locks on dedicated lock files, failing with the store's own errors
/// (``PosixError``).
package typealias FileLock = PlainContactsSystem.FileLock<PosixError>
