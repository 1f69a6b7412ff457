/// What changed in a store's folder since the address book last looked, as found by the
/// store's watcher.
///
/// A person counts as changed when its file or one of its image files changed; a group counts
/// as changed when its file or its membership file changed. Records are named by their
/// ``RecordID``s, so a change that only touched a file whose record ID cannot be read (such as
/// an image whose person file is missing) is not reported.
///
/// The AddressBook equivalent is the notification that
/// `ABAddressBookRegisterExternalChangeCallback` delivers; AddressBook does not say what
/// changed, this type does.
///
/// ```swift
/// func storeDidChange(_ change: StoreChange) {
///     if change.settingsChanged { reloadSettings() }
///     for id in change.removedPeople { forgetPerson(id) }
///     for id in change.addedPeople.union(change.changedPeople) { reloadPerson(id) }
/// }
/// ```
public struct StoreChange: Sendable, Hashable {
    /// People whose record IDs appeared in the store.
    public var addedPeople: Set<RecordID>
    /// People whose file or image changed while keeping their record IDs.
    public var changedPeople: Set<RecordID>
    /// People whose record IDs are no longer in the store.
    public var removedPeople: Set<RecordID>
    /// Groups whose record IDs appeared in the store.
    public var addedGroups: Set<RecordID>
    /// Groups whose file or membership file changed while keeping their record IDs.
    public var changedGroups: Set<RecordID>
    /// Groups whose record IDs are no longer in the store.
    public var removedGroups: Set<RecordID>
    /// Whether the store's manifest (`store.json`, which holds the store's settings) changed.
    public var settingsChanged: Bool

    /// Creates a change; every part defaults to "nothing changed".
    ///
    /// ```swift
    /// let change = StoreChange(changedPeople: [RecordID(7)])
    /// ```
    public init(
        addedPeople: Set<RecordID> = [],
        changedPeople: Set<RecordID> = [],
        removedPeople: Set<RecordID> = [],
        addedGroups: Set<RecordID> = [],
        changedGroups: Set<RecordID> = [],
        removedGroups: Set<RecordID> = [],
        settingsChanged: Bool = false
    ) {
        self.addedPeople = addedPeople
        self.changedPeople = changedPeople
        self.removedPeople = removedPeople
        self.addedGroups = addedGroups
        self.changedGroups = changedGroups
        self.removedGroups = removedGroups
        self.settingsChanged = settingsChanged
    }

    /// Whether nothing changed at all.
    ///
    /// ```swift
    /// if !change.isEmpty { refreshUI() }
    /// ```
    public var isEmpty: Bool {
        addedPeople.isEmpty && changedPeople.isEmpty && removedPeople.isEmpty
            && addedGroups.isEmpty && changedGroups.isEmpty && removedGroups.isEmpty
            && !settingsChanged
    }
}
