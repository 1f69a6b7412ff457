import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct SavePlanTests {
    private func expectExhausted(_ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error")
        } catch let error as ContactsError {
            #expect(error.code == .identifiersExhausted)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func addingAPersonAfterTheHighestRecordIDIsAnExhaustedRange() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = makePerson("Katie", "Bell")
        try book.add(person)
        try book.save()
        try editJSONFile(store.path(try store.personFile(person))) { $0["id"] = 999_999_999 }

        let reopened = try store.openBook()
        try reopened.add(makePerson("John", "Appleseed"))
        expectExhausted { try reopened.save() }
        #expect(try store.files(in: "people").count == 1)
    }

    @Test func anIDAmongTheSettledOnesDoesNotExhaustTheRange() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = makePerson("Katie", "Bell")
        try book.add(person)
        try book.save()
        try editJSONFile(store.path(try store.personFile(person))) { $0["id"] = 2147483647 }
        try store.write(#"{"group": 2147483647, "person": 2147483647}"#, to: ".contacts/ids.json")

        let reopened = try store.openBook()
        let john = makePerson("John", "Appleseed")
        try reopened.add(john)
        try reopened.save()
        #expect(john.recordID.isValid && DuplicateIDResolver.isAllocatable(john.recordID.rawValue))
        #expect(reopened.person(withID: RecordID(Int32.max))?.lastName == "Bell")
    }

    @Test func highestIDsOfTheDeviceAtTheTopAreAnExhaustedRange() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        try store.write(#"{"group": 999999999, "person": 999999999}"#, to: ".contacts/ids.json")

        let reopened = try store.openBook()
        try reopened.add(makePerson("John", "Appleseed"))
        expectExhausted { try reopened.save() }
        let other = try store.openBook()
        try other.add(Group(name: "Friends"))
        expectExhausted { try other.save() }
        #expect(try store.files(in: "groups").isEmpty)
    }

    @Test func theLastRecordIDIsHandedOut() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        try store.write(#"{"group": 999999998, "person": 999999998}"#, to: ".contacts/ids.json")

        let reopened = try store.openBook()
        let person = makePerson("John", "Appleseed")
        try reopened.add(person)
        try reopened.save()
        #expect(person.recordID == RecordID(999_999_999))
    }
}
