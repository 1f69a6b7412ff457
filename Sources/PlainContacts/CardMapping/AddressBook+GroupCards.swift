/// Applying a group's card to the book, as the server's `PUT` and the sync do; the person's
/// counterpart is ``AddressBook/applyCard(_:to:merging:placement:)``.
extension AddressBook {
    /// Applies a group's card to the book: a new group when `group` is `nil`, else the card's
    /// name, UID, form and kept lines set on `group`. Its members are set by
    /// ``GroupCard/setMembers(of:in:keyOfUID:)`` once the group and its people are saved.
    ///
    /// ```swift
    /// let group = try book.applyGroupCard(card, to: nil, keepingSent: sent)
    /// try book.save()
    /// try card.setMembers(of: group, in: book, keyOfUID: keys)
    /// ```
    ///
    /// - Parameter sent: the card as a client sent it, kept so that it is read back as sent
    ///   (``GroupCard/keepSent(_:in:)``).
    /// - Throws: the errors of ``add(_:)-9ywnr`` for a new group.
    @discardableResult
    package func applyGroupCard(
        _ card: GroupCard, to group: Group?, keepingSent sent: VCard? = nil, placement: RecordPlacement? = nil
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
        return target
    }
}
