/// Applying a group's card to the book, as the server's `PUT` and the sync do; the person's
/// counterpart is ``AddressBook/applyCard(_:to:merging:placement:)``.
extension AddressBook {
    /// Applies a group's card to the book: a new group when `group` is `nil`, else the card's
    /// name, UID, form and kept lines set on `group`; with `keyOfUID`, its members too
    /// (``GroupCard/setMembers(of:in:keyOfUID:)``). Members join only a saved group, and only
    /// saved people join: a new group, or one whose new members are not saved yet, takes the
    /// card once without `keyOfUID`, and again with it after the save. Applying the same card
    /// again changes nothing but the members.
    ///
    /// ```swift
    /// let group = try book.applyGroupCard(card, to: nil, keepingSent: sent)
    /// try book.save()
    /// try book.applyGroupCard(card, to: group, keepingSent: sent, membersByUID: keys)
    /// try book.save()
    /// ```
    ///
    /// - Parameters:
    ///   - sent: the card as a client sent it, kept so that it is read back as sent
    ///     (``GroupCard/keepSent(_:in:)``).
    ///   - placement: where a new group goes (a key it carried, its UID).
    ///   - keyOfUID: the record key of the saved person with a UID
    ///     (``VCardRecordFields/matchKey(_:)`` form), or `nil` when the store has none; members
    ///     the store has no person for are kept as lines of the group's card.
    /// - Throws: the errors of ``add(_:)-9ywnr`` for a new group;
    ///   ``ContactsError/Code/personNotSaved`` and the other errors of adding a member.
    @discardableResult
    package func applyGroupCard(
        _ card: GroupCard, to group: Group?, keepingSent sent: VCard? = nil, placement: RecordPlacement? = nil,
        membersByUID keyOfUID: ((String) -> RecordKey?)? = nil
    ) throws -> Group {
        let target: Group
        if let group {
            target = group
        } else {
            target = Group(name: card.name)
            if let placement { try add(target, placement: placement) } else { try add(target) }
        }
        card.applyFields(to: target)
        if let sent {
            var state = target.state
            GroupCard.keepSent(sent, in: &state)
            if state != target.state { target.state = state }
        }
        if let keyOfUID { try card.setMembers(of: target, in: self, keyOfUID: keyOfUID) }
        return target
    }
}
