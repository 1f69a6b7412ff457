import PlainContactsSystem

/// The files, locks and durable writes of the layer beneath the store, failing with the
/// store's own errors: every failed call becomes a `ContactsError` coded by ``PosixError``.
///
/// The store names these types as if they were its own; the libraries on the store name the
/// system library's types with ``PosixError`` themselves:
///
/// ```swift
/// try DurableFile.write(data, to: url)  // throws ContactsError .diskFull, .io, …
/// ```
typealias PosixFile = PlainContactsSystem.PosixFile<PosixError>

/// Path-based file operations, failing with the store's own errors (``PosixError``).
typealias PosixFileSystem = PlainContactsSystem.PosixFileSystem<PosixError>

/// Durable replacement of one file, failing with the store's own errors (``PosixError``).
typealias DurableFile = PlainContactsSystem.DurableFile<PosixError>

/// Cross-process locks on dedicated lock files, failing with the store's own errors
/// (``PosixError``).
typealias FileLock = PlainContactsSystem.FileLock<PosixError>

/// The device-local files in the store's private folder, read and appended with the store's
/// own errors (``PosixError``).
typealias DeviceFiles = PlainContactsSystem.PrivateFiles<PosixError>
