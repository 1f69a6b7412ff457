import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts

@Suite struct RecordTextViewTests {
    @Test func aPersonBecomesANamedCardWithLabelledLines() throws {
        var state = PersonState()
        state.values[.firstName] = .string("Katie")
        state.values[.lastName] = .string("Bell")
        state.values[.jobTitle] = .string("Pilot")
        state.values[.birthday] = .date(try ContactDate(parsing: "1987-04-12"))
        state.values[.phones] = .multiString(MultiValue([(value: "555-0100", label: .mobile), (value: "555-0199", label: .homeFax)]))
        state.values[.emails] = .multiString(MultiValue([(value: "katie@example.com", label: nil)]))
        state.values[.addresses] = .multiAddress(MultiValue([
            (value: PostalAddress(street: "1234 Laurel Street", city: "Atlanta", state: "GA", zip: "30303", country: "USA"), label: .home)
        ]))
        state.values[.note] = .string("line one\nline two")
        state.values[.modificationDate] = .timestamp(try #require(Timestamp.parse("2026-11-23T08:07:36Z")))
        state.unknownFields = ["x-pet": .object(["name": .string("Rex"), "legs": .number(JSONNumber(4))])]
        let data = PersonRecordCoder.encode(id: RecordID(7), state: state)

        let text = RecordTextView.render(data, path: "people/katie-bell-9dw42k.json")

        #expect(text == """
            Katie Bell
            id: 7
            first name: Katie
            last name: Bell
            job title: Pilot
            birthday: 1987-04-12
            phone (mobile): 555-0100
            phone (home fax): 555-0199
            email: katie@example.com
            address (home): 1234 Laurel Street, Atlanta, GA 30303, USA
            note: line one
              line two
            modified: 2026-11-23T08:07:36Z
            x-pet: {"legs": 4, "name": "Rex"}

            """)
    }

    @Test func gitsTemporaryCopyOfAPersonIsRecognizedByItsContents() {
        var state = PersonState()
        state.values[.organization] = .string("Acme")
        state.values[.kind] = .kind(.organization)
        let text = RecordTextView.render(PersonRecordCoder.encode(id: RecordID(2), state: state), path: "/tmp/Xy12_acme-k2m4p5.json")
        #expect(text.hasPrefix("Acme\nid: 2\norganization: Acme\nkind: organization\n"))
    }

    @Test func aGroupFileShowsItsName() {
        var state = GroupState()
        state.name = "Friends"
        state.unknownFields = ["color": .string("blue")]
        let text = RecordTextView.render(GroupRecordCoder.encode(id: RecordID(3), state: state), path: "groups/friends-q97zpt.json")
        #expect(text == "Group: Friends\nid: 3\ncolor: \"blue\"\n")
    }

    @Test func aMembershipFileListsItsKeysSorted() {
        let text = RecordTextView.render(Data("bob-b\n\nann-a\nbob-b\n".utf8), path: "groups/friends-q97zpt.members")
        #expect(text == "ann-a\nbob-b\n")
    }

    @Test func theManifestShowsItsSettings() {
        var manifest = Manifest()
        manifest.unknownFields["autoCommit"] = .bool(true)
        let text = RecordTextView.render(manifest.data, path: "store.json")
        #expect(text == "Store settings\nformat: 1\nsort ordering: lastName\ncomposite name format: firstNameFirst\nautoCommit: true\n")
    }

    @Test func unreadableTextComesBackUnchanged() {
        let raw = "{\n<<<<<<< ours\n  \"id\": 1\n=======\n  \"id\": 2\n>>>>>>> theirs\n}\n"
        #expect(RecordTextView.render(Data(raw.utf8), path: "people/a-b.json") == raw)
        let broken = "{ \"id\": "
        #expect(RecordTextView.render(Data(broken.utf8), path: "people/a-b.json") == broken)
    }
}
