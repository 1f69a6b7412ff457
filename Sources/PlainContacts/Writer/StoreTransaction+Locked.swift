import FoundationEssentials

/// The writer beneath the address book as one program outside the store drives it: the crash
/// helper, which commits files and is killed at chosen points, and holds the store's lock while
/// the tests try to take it.
///
/// ```swift
/// try StoreTransaction.withExclusiveLock(onStoreAt: root, timeout: .seconds(30)) {
///     try StoreTransaction.commit(writing: [("people/p0.json", data)], deleting: ["groups/g0.json"], storeRoot: root)
/// }
/// ```
extension StoreTransaction {
    /// Runs `body` while holding the exclusive lock of the store at `root` (``StoreLock``),
    /// waiting at most `timeout` for it.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: `ContactsError` `.busy` if another holder keeps the lock past `timeout`; `.io`
    ///   if the lock file cannot be created, opened or locked; whatever `body` throws.
    package static func withExclusiveLock<T>(onStoreAt root: URL, timeout: Duration, _ body: () throws -> T) throws -> T {
        try StoreLock(storeRoot: root).withExclusive(timeout: timeout, body)
    }

    /// Writes the files of `writing` (paths relative to the store's root, with their new
    /// bytes) and then removes those of `deleting`, all or nothing, as ``commit(_:storeRoot:)``
    /// does. The caller holds the exclusive lock (``withExclusiveLock(onStoreAt:timeout:_:)``).
    ///
    /// - Throws: As ``commit(_:storeRoot:)``.
    package static func commit(writing: [(path: String, data: Data)], deleting: [String], storeRoot: URL) throws {
        let changes = writing.map { FileChange.write($0.data, to: $0.path) } + deleting.map(FileChange.delete)
        try commit(changes, storeRoot: storeRoot)
    }
}
