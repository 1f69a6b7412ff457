import Foundation
import Testing
@testable import PlainContacts

@Suite struct PropertyEditTests {
    @Test func textKeysTakePlainText() throws {
        let edit = try PropertyEdit(key: "jobTitle", text: "Engineer [senior]")
        #expect(edit.property == .jobTitle)
        #expect(edit.json == .string("Engineer [senior]"))
    }

    @Test func anEmptyValueRemovesTheProperty() throws {
        #expect(try PropertyEdit(key: "phones", text: "").json == .null)
        #expect(try PropertyEdit(key: "note", text: "").json == .null)
    }

    @Test func multiValueKeysTakeJSON() throws {
        let edit = try PropertyEdit(key: "emails", text: #"[{"label": "work", "value": "kim@example.com"}]"#)
        #expect(edit.json.array?.first?["value"]?.string == "kim@example.com")
    }

    @Test(arguments: ["fistName", "groups", "id", "nameHash", ""])
    func unknownKeysAreUnknownProperties(key: String) throws {
        let error = try #require(throws: ContactsError.self) { try PropertyEdit(key: key, text: "x") }
        #expect(error.code == .unknownProperty)
    }

    @Test(arguments: ["created", "modified"])
    func storeMaintainedDatesCannotBeSet(key: String) throws {
        let error = try #require(throws: ContactsError.self) { try PropertyEdit(key: key, text: "2026-01-01T00:00:00Z") }
        #expect(error.code == .unknownProperty)
    }

    @Test(arguments: [#"[{"label": "#, "not json", #"[{"value": 1}]"#, #"{"value": "x"}"#, #"[{"label": "x"}]"#])
    func malformedMultiValuesAreMalformed(text: String) throws {
        let error = try #require(throws: ContactsError.self) { try PropertyEdit(key: "phones", text: text) }
        #expect(error.code == .malformedFile)
        #expect(error.path == nil)
    }

    @Test(arguments: ["2021-02-29", "12-04", "--13-01", "yesterday"])
    func impossibleBirthdaysAreInvalidValues(text: String) throws {
        let error = try #require(throws: ContactsError.self) { try PropertyEdit(key: "birthday", text: text) }
        #expect(error.code == .invalidValue)
    }

    @Test func kindIsPersonOrOrganization() throws {
        #expect(try PropertyEdit(key: "kind", text: "organization").json == .string("organization"))
        let error = try #require(throws: ContactsError.self) { try PropertyEdit(key: "kind", text: "company") }
        #expect(error.code == .invalidValue)
    }

    @Test func editableKeysLeaveOutStoreMaintainedDates() {
        #expect(PropertyEdit.editableKeys.contains("firstName"))
        #expect(PropertyEdit.editableKeys.contains("socialProfiles"))
        #expect(!PropertyEdit.editableKeys.contains("created"))
        #expect(!PropertyEdit.editableKeys.contains("modified"))
    }
}
