import DAVTestSupport
import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts

@Suite struct PersonEditingTests {
    private func savedPerson(in store: TemporaryStore) throws -> (AddressBook, Person) {
        let book = try store.makeBook()
        let person = makePerson("Katie", "Bell")
        var phones = MultiValue<String>()
        phones.add("555-0100", label: .mobile)
        phones.add("555-0199", label: .work)
        person.phones = phones
        person.note = "met at the conference"
        try book.add(person)
        try book.save()
        return (book, person)
    }

    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Data(text.utf8), path: "edit.json")
    }

    @Test func applySetsAndRemovesSeveralPropertiesTogether() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        try person.apply([
            PropertyEdit(key: "jobTitle", text: "Engineer"),
            PropertyEdit(key: "birthday", text: "1990-04-12"),
            PropertyEdit(key: "note", text: ""),
        ])
        #expect(person.jobTitle == "Engineer")
        #expect(person.birthday == (try ContactDate(parsing: "1990-04-12")))
        #expect(person.note == nil)
        try book.save()
        let reopened = try store.openBook().person(withID: person.recordID)
        #expect(reopened?.jobTitle == "Engineer")
        #expect(reopened?.note == nil)
    }

    @Test func entriesKeepTheirIdentifierAndNewEntriesGetFreshOnes() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        let kept = person.phones.identifier(at: 1)
        let retired = person.phones.identifier(at: 0)
        try person.apply([
            PropertyEdit(key: "phones", text: #"[{"id": \#(kept.rawValue), "label": "work", "value": "555-0199"}, {"label": "home", "value": "555-0142"}]"#)
        ])
        let phones = person.phones
        #expect(phones.count == 2)
        #expect(phones.identifier(at: 0) == kept)
        #expect(phones.identifier(at: 1) != retired)
        #expect(phones.identifier(at: 1) != kept)
        #expect(phones.label(at: 1) == .home)
    }

    @Test func anIdentifierTheRecordRetiredIsNotGivenBack() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        let retired = person.phones.identifier(at: 0)
        try person.apply([PropertyEdit(key: "phones", text: "")])
        try person.apply([
            PropertyEdit(key: "phones", text: #"[{"id": \#(retired.rawValue), "value": "555-0100"}]"#)
        ])
        #expect(person.phones.identifier(at: 0) != retired)
    }

    @Test func editableJSONHasNoBookkeepingButHasTheKind() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        let fields = try #require(person.editableJSON.object)
        #expect(Set(fields.keys) == ["firstName", "lastName", "phones", "note", "kind"])
        #expect(fields["kind"]?.string == "person")
        #expect(fields["phones"]?.array?.first?["id"] != nil)
    }

    @Test func replacingWithTheUnchangedJSONChangesNothing() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        try person.replaceEditableProperties(with: person.editableJSON, path: "edit.json")
        #expect(!book.hasUnsavedChanges)
    }

    @Test func keysRemovedFromTheJSONRemoveTheirProperties() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        var fields = try #require(person.editableJSON.object)
        fields["note"] = nil
        fields["phones"] = nil
        fields["organization"] = .string("Acme")
        try person.replaceEditableProperties(with: .object(fields), path: "edit.json")
        #expect(person.note == nil)
        #expect(person.phones.isEmpty)
        #expect(person.organization == "Acme")
        #expect(person.firstName == "Katie")
        #expect(book.hasUnsavedChanges)
    }

    @Test func aWrongValueLeavesThePersonUnchanged() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        let edited = try parse(#"{"firstName": "Kate", "phones": [{"value": 5}]}"#)
        let error = try #require(throws: ContactsError.self) {
            try person.replaceEditableProperties(with: edited, path: "edit.json")
        }
        #expect(error.code == .malformedFile)
        #expect(error.path == "edit.json")
        #expect(person.firstName == "Katie")
        #expect(!book.hasUnsavedChanges)
    }

    @Test func anUnknownKeyIsRefused() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        let error = try #require(throws: ContactsError.self) {
            try person.replaceEditableProperties(with: try parse(#"{"fistName": "Kate"}"#), path: nil)
        }
        #expect(error.code == .unknownProperty)
        #expect(person.firstName == "Katie")
    }

    @Test func storeMaintainedDatesCannotBeEdited() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        let error = try #require(throws: ContactsError.self) {
            try person.replaceEditableProperties(with: try parse(#"{"created": "2020-01-01T00:00:00Z"}"#), path: nil)
        }
        #expect(error.code == .unknownProperty)
    }

    @Test func theEditedJSONMustBeAnObject() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        let error = try #require(throws: ContactsError.self) {
            try person.replaceEditableProperties(with: .array([]), path: "edit.json")
        }
        #expect(error.code == .malformedFile)
    }

    @Test func organizationKindCanBeSetAndRemovedThroughTheJSON() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        var fields = try #require(person.editableJSON.object)
        fields["kind"] = .string("organization")
        try person.replaceEditableProperties(with: .object(fields), path: nil)
        #expect(person.kind == .organization)
        fields["kind"] = nil
        try person.replaceEditableProperties(with: .object(fields), path: nil)
        #expect(person.kind == .person)
    }

    @Test func identifierAtTheTopOfItsRangeIsRefused() throws {
        let store = try TemporaryStore()
        let (_, person) = try savedPerson(in: store)
        do {
            try person.apply([PropertyEdit(key: "phones", text: #"[{"id": 2147483647, "value": "x"}]"#)])
            Issue.record("no error")
        } catch let error as ContactsError {
            #expect(error.code == .malformedFile)
        }
        #expect(person.phones.values == ["555-0100", "555-0199"])
    }
}
