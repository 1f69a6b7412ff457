import DAVTestSupport
import Foundation
import Testing

@testable import PlainContacts
import PlainContactsSystem

/// A person's content fingerprints change with what it says, and not with a rewrite of its
/// file that says the same.
@Suite struct PersonContentFingerprintsTests {
    @Test func bookkeepingLeavesTheFingerprintsAlone() throws {
        let person = makePerson("Katie", "Bell")
        let before = person.contentFingerprints()
        var state = person.state
        state.values[.modificationDate] = .timestamp(try #require(Timestamp.parse("2026-11-23T08:07:36Z")))
        state.nextValueIdentifier += 5
        let rewritten = Person(state: state, key: nil, recordID: RecordID(rawValue: 42))
        let after = rewritten.contentFingerprints()
        #expect(after.content == before.content)
        #expect(after.image == nil && before.image == nil)
    }

    @Test func aChangedNameChangesTheContentFingerprint() {
        let katie = makePerson("Katie", "Bell")
        let katherine = makePerson("Katherine", "Bell")
        #expect(katie.contentFingerprints().content != katherine.contentFingerprints().content)
    }

    @Test func aUIDDerivedFromTheKeyIsLeftOut() throws {
        let key = try #require(RecordKey(rawValue: "katie-bell-abc234"))
        let plain = Person(state: makePerson("Katie", "Bell").state, key: key)
        var state = plain.state
        state.unknownFields[VCardRecordFields.uidKey] = .string(VCardRecordFields.derivedUID(for: key))
        let derived = Person(state: state, key: key)
        #expect(derived.contentFingerprints().content == plain.contentFingerprints().content)
        state.unknownFields[VCardRecordFields.uidKey] = .string("another-uid")
        #expect(Person(state: state, key: key).contentFingerprints().content != plain.contentFingerprints().content)
    }

    @Test func aSavedImageIsFingerprintedApart() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = makePerson("Oliver", "Wood")
        person.setImageData(Data("picture".utf8))
        try book.add(person)
        try book.save()
        let saved = person.contentFingerprints()
        #expect(saved.image == Fingerprint(Data("picture".utf8)))
    }
}
