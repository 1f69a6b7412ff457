import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookMergeTests {
    /// Two books on one store, both holding Katie Bell as saved.
    private func twoBooks(_ store: TemporaryStore) throws -> (AddressBook, AddressBook, RecordID) {
        let first = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.phones = MultiValue([(value: "555-0100", label: .mobile)])
        try first.add(katie)
        try first.save()
        let second = try store.openBook()
        // People are read when first used; read Katie now, as a program editing her would.
        _ = second.person(withID: katie.recordID)
        return (first, second, katie.recordID)
    }

    @Test func differentPropertiesEditedInTwoBooksBothSurvive() throws {
        let store = try TemporaryStore()
        let (first, second, id) = try twoBooks(store)
        try #require(first.person(withID: id)).jobTitle = "Pilot"
        try #require(second.person(withID: id)).nickname = "Kat"
        try first.save()
        try second.save()
        let merged = try #require(try store.openBook().person(withID: id))
        #expect(merged.jobTitle == "Pilot")
        #expect(merged.nickname == "Kat")
        #expect(try #require(second.person(withID: id)).jobTitle == "Pilot")
        #expect(!second.hasUnsavedChanges)
    }

    @Test func theSamePropertyChangedDifferentlyIsATypedConflict() throws {
        let store = try TemporaryStore()
        let (first, second, id) = try twoBooks(store)
        try #require(first.person(withID: id)).jobTitle = "Pilot"
        try #require(second.person(withID: id)).jobTitle = "Sailor"
        try first.save()
        let before = try store.files(in: "people").map { try store.read("people/\($0)") }
        do {
            try second.save()
            Issue.record("the conflicting save succeeded")
        } catch let error as ContactsError {
            #expect(error.code == .conflict)
            #expect(error.conflicts == [SaveConflict(recordType: .person, recordID: id, property: "jobTitle")])
        }
        #expect(try store.files(in: "people").map { try store.read("people/\($0)") } == before)
        #expect(second.hasUnsavedChanges)
        try second.revert()
        try #require(second.person(withID: id)).note = "after revert"
        try second.save()
        let final = try #require(try store.openBook().person(withID: id))
        #expect(final.jobTitle == "Pilot")
        #expect(final.note == "after revert")
    }

    @Test func multiValuesMergeEntryByEntry() throws {
        let store = try TemporaryStore()
        let (first, second, id) = try twoBooks(store)
        let a = try #require(first.person(withID: id))
        var phones = a.phones
        phones.add("555-0200", label: .work)
        a.phones = phones
        let b = try #require(second.person(withID: id))
        var otherPhones = b.phones
        otherPhones.replaceLabel(at: 0, with: .iPhone)
        otherPhones.add("555-0300", label: .home)
        b.phones = otherPhones
        try first.save()
        try second.save()
        let merged = try #require(try store.openBook().person(withID: id)).phones
        #expect(Set(merged.values) == ["555-0100", "555-0200", "555-0300"])
        #expect(merged.label(at: merged.firstIndex(of: "555-0100") ?? 0) == .iPhone)
        #expect(Set(merged.map(\.identifier)).count == 3)
    }

    @Test func theSameMultiValueEntryChangedDifferentlyConflicts() throws {
        let store = try TemporaryStore()
        let (first, second, id) = try twoBooks(store)
        let a = try #require(first.person(withID: id))
        var phones = a.phones
        phones.replaceValue(at: 0, with: "555-1111")
        a.phones = phones
        let b = try #require(second.person(withID: id))
        var otherPhones = b.phones
        otherPhones.replaceValue(at: 0, with: "555-2222")
        b.phones = otherPhones
        try first.save()
        #expect {
            try second.save()
        } throws: { ($0 as? ContactsError)?.conflicts.map(\.property) == ["phones"] }
    }

    @Test func deletedInOneBookAndEditedInAnotherConflicts() throws {
        let store = try TemporaryStore()
        let (first, second, id) = try twoBooks(store)
        try first.remove(try #require(first.person(withID: id)))
        try first.save()
        try #require(second.person(withID: id)).note = "edited"
        #expect {
            try second.save()
        } throws: { ($0 as? ContactsError)?.conflicts == [SaveConflict(recordType: .person, recordID: id, property: "record")] }
    }

    @Test func editedInOneBookAndDeletedInAnotherConflicts() throws {
        let store = try TemporaryStore()
        let (first, second, id) = try twoBooks(store)
        try #require(first.person(withID: id)).note = "edited"
        try first.save()
        try second.remove(try #require(second.person(withID: id)))
        #expect {
            try second.save()
        } throws: { ($0 as? ContactsError)?.code == .conflict }
        #expect(try store.openBook().person(withID: id)?.note == "edited")
    }

    @Test func membershipsMergeAsSetChanges() throws {
        let store = try TemporaryStore()
        let first = try store.makeBook()
        let friends = Group(name: "Friends")
        try first.add(friends)
        let people = ["Ann", "Bob", "Cy"].map { makePerson($0, "Smith") }
        for person in people { try first.add(person) }
        try first.save()
        try friends.addMember(people[0])
        try first.save()

        let second = try store.openBook()
        try friends.addMember(people[1])
        try friends.removeMember(people[0])
        try first.save()
        let theirGroup = try #require(second.group(withID: friends.recordID))
        try theirGroup.addMember(try #require(second.person(withID: people[2].recordID)))
        try second.save()
        let reopened = try store.openBook()
        let members = try #require(reopened.group(withID: friends.recordID)).members().compactMap(\.firstName)
        #expect(Set(members) == ["Bob", "Cy"])
    }

    @Test func newPeopleSavedByTwoBooksGetDistinctIDs() throws {
        let store = try TemporaryStore()
        let first = try store.makeBook()
        let second = try store.openBook()
        let a = makePerson("Ann", "One")
        let b = makePerson("Bob", "Two")
        try first.add(a)
        try second.add(b)
        try first.save()
        try second.save()
        #expect(a.recordID != b.recordID)
        #expect(try store.openBook().personCount == 2)
    }

    @Test func addingAPersonDeletedElsewhereToAGroupFailsOnSave() throws {
        let store = try TemporaryStore()
        let first = try store.makeBook()
        let friends = Group(name: "Friends")
        let katie = makePerson("Katie", "Bell")
        try first.add(friends)
        try first.add(katie)
        try first.save()
        let second = try store.openBook()
        try second.remove(try #require(second.person(withID: katie.recordID)))
        try second.save()
        try friends.addMember(katie)
        #expect {
            try first.save()
        } throws: { ($0 as? ContactsError)?.code == .personNotSaved }
    }

    @Test func recordMergerTakesTheLaterModificationDate() throws {
        var base = PersonState()
        base.values[.modificationDate] = .timestamp(Date(timeIntervalSince1970: 100))
        var ours = base
        ours.values[.modificationDate] = .timestamp(Date(timeIntervalSince1970: 300))
        ours.values[.note] = .string("ours")
        var theirs = base
        theirs.values[.modificationDate] = .timestamp(Date(timeIntervalSince1970: 200))
        theirs.values[.jobTitle] = .string("theirs")
        let merged = try RecordMerger.merge(base: base, ours: ours, theirs: theirs).get()
        #expect(merged.values[.modificationDate] == .timestamp(Date(timeIntervalSince1970: 300)))
        #expect(merged.values[.note] == .string("ours"))
        #expect(merged.values[.jobTitle] == .string("theirs"))
    }

    @Test func recordMergerMergesUnknownKeysOneByOne() throws {
        var base = PersonState()
        base.unknownFields = ["a": .string("1")]
        var ours = base
        ours.unknownFields["b"] = .string("ours")
        var theirs = base
        theirs.unknownFields["a"] = .string("2")
        let merged = try RecordMerger.merge(base: base, ours: ours, theirs: theirs).get()
        #expect(merged.unknownFields == ["a": .string("2"), "b": .string("ours")])
        var clash = base
        clash.unknownFields["a"] = .string("3")
        #expect(throws: RecordMerger.Conflicts.self) { try RecordMerger.merge(base: base, ours: clash, theirs: theirs).get() }
    }
}
