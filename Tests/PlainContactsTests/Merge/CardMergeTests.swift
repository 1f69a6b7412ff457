import Foundation
import Testing
@testable import PlainContacts

@Suite struct CardMergeTests {
    private func state(phones: [(String, Label?)], note: String? = nil) -> PersonState {
        let person = Person()
        person.firstName = "John"
        person.phones = MultiValue(phones.map { (value: $0.0, label: $0.1) })
        person.note = note
        return person.state
    }

    private func phones(_ state: PersonState) -> MultiValue<String> {
        if case .multiString(let phones)? = state.values[.phones] { return phones }
        return MultiValue()
    }

    @Test func cardEntriesTakeTheIdentifiersOfMatchingEntries() {
        // The store's entries have identifiers 0 and 1; the card lists them the other way round,
        // edits one's label, and adds one.
        let base = state(phones: [("+1 555 0100", .mobile), ("+1 555 0199", .home)])
        var theirs = state(phones: [("+1 555 0199", .work), ("+1 555 0100", .mobile), ("+1 555 0123", .home)])
        CardMerge.align(&theirs, to: base, also: base)

        let aligned = phones(theirs)
        let reference = phones(base)
        #expect(aligned.identifier(at: 0) == reference.identifier(at: 1))
        #expect(aligned.identifier(at: 1) == reference.identifier(at: 0))
        #expect(!reference.entries.map(\.identifier).contains(aligned.identifier(at: 2)))
    }

    @Test func aValueEditedOnThePhoneIsAnEditNotARemovalAndAnAddition() {
        let base = state(phones: [("+1 555 0100", .mobile), ("+1 555 0199", .home)])
        let theirs = state(phones: [("+1 555 0100", .mobile), ("+1 555 0777", .home)])
        var ours = base
        ours.values[.note] = .string("store note")

        let outcome = CardMerge.merge(base: base, ours: ours, theirs: theirs, image: { nil })

        #expect(outcome.conflicts.isEmpty)
        #expect(phones(outcome.merged).values == ["+1 555 0100", "+1 555 0777"])
        #expect(outcome.merged.values[.note] == .string("store note"))
    }

    @Test func versionsMetForTheFirstTimeKeepEveryEntryAndLine() {
        var ours = state(phones: [("+1 555 0100", .mobile)])
        VCardRecordFields.setLines(["X-A:1"], in: &ours)
        var theirs = state(phones: [("+1 555 0100", .mobile), ("+1 555 0199", .home)])
        VCardRecordFields.setLines(["X-B:2"], in: &theirs)

        let outcome = CardMerge.merge(base: nil, ours: ours, theirs: theirs, image: { nil })

        #expect(outcome.conflicts.isEmpty)
        #expect(phones(outcome.merged).values == ["+1 555 0100", "+1 555 0199"])
        #expect(VCardRecordFields.lines(of: outcome.merged) == ["X-A:1", "X-B:2"])
    }

    @Test func aPreferenceSettlesAConflictingProperty() {
        let base = state(phones: [], note: "old")
        let ours = state(phones: [], note: "ours")
        let theirs = state(phones: [], note: "theirs")

        #expect(CardMerge.merge(base: base, ours: ours, theirs: theirs, image: { nil }).conflicts == ["note"])
        let local = CardMerge.merge(base: base, ours: ours, theirs: theirs, prefer: .local, image: { nil })
        #expect(local.conflicts.isEmpty && local.merged.values[.note] == .string("ours"))
        let remote = CardMerge.merge(base: base, ours: ours, theirs: theirs, prefer: .remote, image: { nil })
        #expect(remote.conflicts.isEmpty && remote.merged.values[.note] == .string("theirs"))
    }

    @Test func theSamePictureOnTheCardKeepsTheStoresImageFile() {
        var ours = state(phones: [])
        ours.image = .stored(fileName: "john-abc.jpg")
        var theirs = state(phones: [])
        theirs.image = .pending(Data([1, 2, 3]))

        let outcome = CardMerge.merge(base: ours, ours: ours, theirs: theirs, image: { Data([1, 2, 3]) })

        #expect(outcome.merged.image == .stored(fileName: "john-abc.jpg"))
        #expect(CardMerge.sameContent(outcome.merged, ours))
    }
}
