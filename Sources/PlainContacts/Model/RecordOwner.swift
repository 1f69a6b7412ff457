/// What a person or group asks of the address book that holds it: to hear of a change, where a
/// saved image's bytes are, how names are composed, and its members. ``AddressBook`` is the one
/// owner; the model names only this protocol, so that it sits beneath the book.
///
/// ```swift
/// person.owner?.noteTouched(person)   // the book marks the person as changed
/// ```
protocol RecordOwner: AnyObject {
    /// Where the images of the owner's people are read from.
    var imageSource: any PersonImageSource { get }
    /// How the owner composes people's names (`ABPersonGetCompositeNameFormat`).
    var compositeNameFormat: CompositeNameFormat { get }
    /// A person of the owner changed.
    func noteTouched(_ person: Person)
    /// A group of the owner changed.
    func noteTouched(_ group: Group)
    /// The members of a group, unsorted.
    func members(of group: Group) -> [Person]
    /// People sorted by an ordering.
    func sorted(_ people: [Person], by ordering: SortOrdering) -> [Person]
    /// Makes a person a member of a group.
    func addMember(_ person: Person, to group: Group) throws
    /// Makes a person no longer a member of a group.
    func removeMember(_ person: Person, from group: Group)
}
