import PlainContacts
import PlainContactsSystem

/// The files, locks and durable writes of the system library, failing with the store's own
/// errors: every failed call becomes a `ContactsError` coded by `PosixError`, as the store's
/// own files do.
///
/// ```swift
/// try DurableFile.write(data, to: url)  // throws ContactsError .diskFull, .io, …
/// ```
typealias PosixFile = PlainContactsSystem.PosixFile<PosixError>

/// Path-based file operations, failing with the store's own errors.
typealias PosixFileSystem = PlainContactsSystem.PosixFileSystem<PosixError>

/// Durable replacement of one file, failing with the store's own errors.
typealias DurableFile = PlainContactsSystem.DurableFile<PosixError>

/// Cross-process locks on dedicated lock files, failing with the store's own errors.
typealias FileLock = PlainContactsSystem.FileLock<PosixError>

/// The device-local files in a store's private folder (sync status and history, the server's
/// state, users and sent cards), read and appended with the store's own errors.
typealias DeviceFiles = PlainContactsSystem.PrivateFiles<PosixError>
