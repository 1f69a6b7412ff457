import FoundationEssentials

/// A named group of people.
///
/// A group must be saved before people can join it, and a person must be saved before joining
/// a group: add the person, save, add the person to the group, save.
///
/// The AddressBook equivalent is an `ABRecordRef` of type `kABGroupType`, created by
/// `ABGroupCreate`.
///
/// ```swift
/// let friends = Group(name: "Friends")
/// try book.add(friends)
/// try book.save()
/// try friends.addMember(katie)
/// try book.save()
/// ```
public final class Group {
    /// The record ID, ``RecordID/invalid`` until the group is first saved.
    public internal(set) var recordID: RecordID = .invalid

    /// The record type, always ``RecordType/group``.
    public var recordType: RecordType { .group }

    /// The file key, fixed by the first save.
    package var key: RecordKey?

    /// The record's contents. Set only inside the store (see ``Person/state``).
    package internal(set) var state: GroupState {
        didSet { owner?.noteTouched(self) }
    }

    /// The book this group was added to, if any.
    weak var owner: (any RecordOwner)?

    /// Creates a group that belongs to no address book (`ABGroupCreate`).
    public init(name: String? = nil) {
        state = GroupState()
        state.name = name
    }

    init(key: RecordKey, recordID: RecordID, state: GroupState, owner: any RecordOwner) {
        self.key = key
        self.recordID = recordID
        self.state = state
        self.owner = owner
    }

    /// The group's name (`kABGroupNameProperty`).
    public var name: String? {
        get { state.name }
        set {
            let value = (newValue?.isEmpty ?? true) ? nil : newValue
            if state.name != value { state.name = value }
        }
    }

    /// When the group was first saved.
    public var creationDate: Date? { state.creationDate }

    /// When a save last changed the group's name.
    public var modificationDate: Date? { state.modificationDate }

    /// The value of a group property (`ABRecordCopyValue`).
    public func value(for property: PropertyID) -> PropertyValue? {
        guard property == .groupName, let name = state.name else { return nil }
        return .string(name)
    }

    /// Sets a group property (`ABRecordSetValue`).
    ///
    /// - Throws: ``ContactsError/Code/unknownProperty`` for a person property;
    ///   ``ContactsError/Code/propertyTypeMismatch`` for a value that is not text.
    public func setValue(_ value: PropertyValue, for property: PropertyID) throws {
        guard property == .groupName else {
            throw ContactsError(.unknownProperty, "'\(property.key)' is not a group property")
        }
        guard case .string(let text) = value else {
            throw ContactsError(
                .propertyTypeMismatch, "'name' takes a string value, not a \(value.type.rawValue)")
        }
        name = text
    }

    /// Removes a group property (`ABRecordRemoveValue`).
    public func removeValue(for property: PropertyID) {
        if property == .groupName { name = nil }
    }

    /// The group's members in no particular order (`ABGroupCopyArrayOfAllMembers`).
    ///
    /// A member whose file cannot be read is left out and reported by
    /// ``AddressBook/lastLoadError``.
    public func members() -> [Person] {
        owner?.members(of: self) ?? []
    }

    /// The group's members sorted by name (`ABGroupCopyArrayOfAllMembersWithSortOrdering`).
    public func members(sortedBy ordering: SortOrdering) -> [Person] {
        owner?.sorted(members(), by: ordering) ?? []
    }

    /// Adds a saved person to this saved group (`ABGroupAddMember`); takes effect on save.
    ///
    /// - Throws: ``ContactsError/Code/groupNotSaved`` when the group was never saved to a store;
    ///   ``ContactsError/Code/personNotSaved`` when the person was never saved to this group's
    ///   store; ``ContactsError/Code/recordInAnotherBook`` when they belong to different books.
    public func addMember(_ person: Person) throws {
        guard let owner, key != nil, recordID.isValid else {
            throw ContactsError(.groupNotSaved, "save the group before adding members to it")
        }
        try owner.addMember(person, to: self)
    }

    /// Removes a person from this group (`ABGroupRemoveMember`); takes effect on save.
    ///
    /// - Throws: ``ContactsError/Code/groupNotSaved`` when the group was never saved.
    public func removeMember(_ person: Person) throws {
        guard let owner, key != nil else {
            throw ContactsError(.groupNotSaved, "the group was never saved, so it has no members")
        }
        owner.removeMember(person, from: self)
    }
}
