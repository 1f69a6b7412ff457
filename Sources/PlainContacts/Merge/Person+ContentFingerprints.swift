import FoundationEssentials
import PlainContactsSystem

/// What a person says, as fingerprints that a rewrite of its record file leaves alone.
///
/// ```swift
/// let (content, image) = person.contentFingerprints()
/// if content == recorded.content && image == recorded.image { return }   // nothing to sync
/// ```
extension Person {
    /// The fingerprints of what the person says: of its content (``RecordContent``, with a UID
    /// that export derives from its key left out, and without a saved image) as the store
    /// writes it, and of its saved image's bytes (`nil` without one, or when they cannot be
    /// read). A rewrite of the record file that changes no content (a settled record ID,
    /// another clone's modification date, a Git merge) leaves both as they are: what a sync
    /// compares to tell a change from a rewrite.
    package func contentFingerprints() -> (content: Fingerprint, image: Fingerprint?) {
        var content = RecordContent.of(state)
        if let key { VCardRecordFields.removeDerivedUID(from: &content, key: key) }
        var image: Fingerprint?
        if case .stored = content.image {
            image = (try? imageData()).flatMap { $0 }.map { Fingerprint($0) }
            content.image = .none
        }
        return (Fingerprint(PersonRecordCoder.encode(id: RecordID(0), state: content)), image)
    }
}
