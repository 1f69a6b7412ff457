import Dispatch

/// A registered external-change callback, returned by
/// ``AddressBook/registerExternalChangeCallback(queue:_:)`` and used to unregister it.
public struct ExternalChangeRegistration: Hashable, Sendable {
    let id: UInt64
}

/// Notifications when someone else changes the store.
extension AddressBook {
    /// Calls `callback` on `queue` after another process or another address book saves, or
    /// files change underneath (`git checkout`, `git pull`, an editor); never for this book's
    /// own saves. Bursts of changes are coalesced into one call, which says which records were
    /// added, changed and removed.
    ///
    /// The recommended pattern: when the book has no unsaved changes, ``revert()`` to see the
    /// fresh data; when it has some, ``save()``, which merges with what others saved, and handle
    /// ``ContactsError/Code/conflict``.
    ///
    /// The AddressBook equivalent is `ABAddressBookRegisterExternalChangeCallback`.
    ///
    /// ```swift
    /// let registration = try book.registerExternalChangeCallback(queue: .main) { change in
    ///     print("\(change.changedPeople.count) people changed elsewhere")
    /// }
    /// book.unregisterExternalChangeCallback(registration)
    /// ```
    ///
    /// - Throws: ``ContactsError/Code/io`` when the store cannot be watched.
    @discardableResult
    public func registerExternalChangeCallback(
        queue: DispatchQueue, _ callback: @escaping @Sendable (StoreChange) -> Void
    ) throws -> ExternalChangeRegistration {
        let id = try changeCenter.register(storeURL: layout.root, queue: queue, callback: callback)
        return ExternalChangeRegistration(id: id)
    }

    /// Removes a callback (`ABAddressBookUnregisterExternalChangeCallback`).
    public func unregisterExternalChangeCallback(_ registration: ExternalChangeRegistration) {
        changeCenter.unregister(registration.id)
    }
}
