import DAVTestSupport
import Foundation
import Testing

@testable import PlainContacts
import PlainContactsSystem

/// The cards a server serves, read from the record files alone: a person's card is the one a
/// sync uploads without the file key, a listing takes only the UID and fingerprint, and a
/// group's card names its members by the UIDs the caller gives.
@Suite struct RecordCardsTests {
    /// A store with Katie (no image), Oliver (an image) and the group Family holding Katie.
    private func store() throws -> (TemporaryStore, katie: Person, oliver: Person, family: Group) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let oliver = makePerson("Oliver", "Wood")
        oliver.setImageData(Data("not really a picture".utf8))
        let family = Group(name: "Family")
        try book.add(katie)
        try book.add(oliver)
        try book.add(family)
        try book.save()
        try book.addMember(katie, to: family)
        try book.save()
        return (store, katie, oliver, family)
    }

    private func cards(_ store: TemporaryStore) -> RecordCards {
        RecordCards(layout: StoreLayout(root: store.storeURL))
    }

    @Test func aPersonsCardIsTheSyncedCardWithoutTheFileKey() throws {
        let (store, katie, _, _) = try store()
        let key = try #require(katie.key)
        let read = try cards(store).person(key)
        let file = try #require(read)
        let bytes = try Data(contentsOf: store.path(try store.personFile(katie)))
        #expect(file.uid == CardMapping.matchKey(of: katie))
        #expect(file.fingerprint == Fingerprint(bytes))
        #expect(file.imageFingerprint == nil)
        #expect(file.signature == FileSignature.of(store.path(try store.personFile(katie)).path(percentEncoded: false)))
        #expect(!file.isListed)
        let saved = Person(state: katie.state, key: key, recordID: katie.recordID)
        for version in [nil, VCardVersion.v3, .v4] {
            #expect(file.card(version: version) == CardMapping.data(for: saved, imageData: nil, version: version, carryingKey: false))
        }
    }

    @Test func aPersonWithoutAFileHasNoCard() throws {
        let (store, _, _, _) = try store()
        let key = try #require(RecordKey(rawValue: "nobody-abc234"))
        #expect(try cards(store).person(key)?.uid == nil)
        #expect(try cards(store).group(key)?.signatures == nil)
    }

    @Test func aListingTakesTheUIDAndFingerprintWithoutTheCard() throws {
        let (store, katie, _, _) = try store()
        let key = try #require(katie.key)
        let missing = try #require(RecordKey(rawValue: "nobody-abc234"))
        let listed = cards(store).listedPeople([key, missing])
        let first = try listed[0].get()
        let file = try #require(first)
        let whole = try cards(store).person(key)
        let read = try #require(whole)
        #expect(file.isListed)
        #expect(file.card(version: nil) == nil)
        #expect(file.uid == read.uid)
        #expect(file.fingerprint == read.fingerprint)
        #expect(file.signature == read.signature)
        #expect(try listed[1].get()?.uid == nil)
    }

    @Test func aListingReadsAPersonWithAnImageWhole() throws {
        let (store, _, oliver, _) = try store()
        let key = try #require(oliver.key)
        let listed = try cards(store).listedPeople([key])[0].get()
        let file = try #require(listed)
        #expect(!file.isListed)
        #expect(file.imageFingerprint == Fingerprint(Data("not really a picture".utf8)))
        #expect(file.card(version: .v4) != nil)
    }

    @Test func theKeysOfEachKindAreThoseOfTheRecordFiles() throws {
        let (store, katie, oliver, family) = try store()
        let groupKey = try #require(family.key)
        let people = try cards(store).keys(of: .person).map(\.rawValue).sorted()
        #expect(people == [katie, oliver].compactMap(\.key?.rawValue).sorted())
        #expect(try cards(store).keys(of: .group) == [groupKey])
    }

    @Test func theSignaturesOfAGroupAreThoseOfItsTwoFiles() throws {
        let (store, katie, _, family) = try store()
        let groupKey = try #require(family.key)
        let personKey = try #require(katie.key)
        let groupRead = try cards(store).group(groupKey)
        let group = try #require(groupRead)
        #expect(group.signatures.count == 2)
        #expect(cards(store).signatures(of: .group, keys: [groupKey]) == [group.signatures])
        let personRead = try cards(store).person(personKey)
        let person = try #require(personRead)
        #expect(cards(store).signatures(of: .person, keys: [personKey]) == [[person.signature]])
    }

    @Test func aGroupsCardNamesItsMembersByTheUIDsGiven() throws {
        let (store, katie, _, family) = try store()
        let groupKey = try #require(family.key)
        let read = try cards(store).group(groupKey)
        let group = try #require(read)
        let (data, uid) = group.card(uidOfPerson: { $0 == katie.key ? "katie-uid" : nil }, version: .v4)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("KIND:group"))
        #expect(text.contains("MEMBER:urn:uuid:katie-uid"))
        #expect(uid == VCardRecordFields.matchKey(GroupCard(group: family.state, key: family.key, memberUIDs: []).uid))
        let nobody = String(decoding: group.card(uidOfPerson: { _ in nil }, version: .v4).data, as: UTF8.self)
        #expect(!nobody.contains("MEMBER"))
    }

    @Test func aPersonSaysWhatItsOwnCardSaysAndNotAnotherName() throws {
        let (store, katie, _, _) = try store()
        let key = try #require(katie.key)
        let read = try cards(store).person(key)
        let file = try #require(read)
        #expect(file.says(katie.state))
        let renamed = makePerson("Katherine", "Bell")
        #expect(!file.says(renamed.state))
    }
}
