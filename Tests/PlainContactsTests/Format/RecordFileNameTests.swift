import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct RecordFileNameTests {
    private func personFile(first: String?, last: String?, organization: String? = nil) -> Data {
        var state = PersonState()
        state.values[.firstName] = first.map { .string($0) }
        state.values[.lastName] = last.map { .string($0) }
        state.values[.organization] = organization.map { .string($0) }
        return PersonRecordCoder.encode(id: RecordID(1), state: state)
    }

    @Test func aPersonFileNamesThePersonInTheStoresFormat() throws {
        let data = personFile(first: "Katie", last: "Bell")
        let path = "people/katie-bell-9dw42k.json"
        #expect(RecordFileName(personFile: data, path: path, format: .firstNameFirst)?.name == "Katie Bell")
        #expect(RecordFileName(personFile: data, path: path, format: .lastNameFirst)?.name == "Bell Katie")
    }

    @Test func aPersonWithoutAnyNameReadsAsNamelessNotUnreadable() throws {
        let read = try #require(
            RecordFileName(personFile: personFile(first: nil, last: nil), path: "people/x.json", format: .firstNameFirst))
        #expect(read.name == nil)
    }

    @Test func bytesThatAreNotARecordReadAsNothing() {
        for bytes in ["", "not json", "[1, 2]", "<<<<<<< ours\n"] {
            #expect(RecordFileName(personFile: Data(bytes.utf8), path: "people/x.json", format: .firstNameFirst) == nil)
            #expect(RecordFileName(groupFile: Data(bytes.utf8), path: "groups/x.json") == nil)
        }
    }

    @Test func aGroupFileNamesTheGroup() throws {
        var state = GroupState()
        state.name = "Friends"
        let data = GroupRecordCoder.encode(id: RecordID(2), state: state)
        #expect(RecordFileName(groupFile: data, path: "groups/friends-abc123.json")?.name == "Friends")
        #expect(RecordFileName(groupFile: GroupRecordCoder.encode(id: RecordID(3), state: GroupState()), path: "groups/g.json")?.name == nil)
    }
}
