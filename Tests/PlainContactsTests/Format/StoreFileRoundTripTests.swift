import Foundation
import Testing
@testable import PlainContacts

@Suite struct StoreFileRoundTripTests {
    private let personFile = Data(
        """
        {
          "firstName": "Katie",
          "id": 1,
          "lastName": "Bell",
          "phones": [{"id": 0, "label": "mobile", "value": "555-555-1234"}]
        }

        """.utf8)

    @Test(arguments: [
        (StoreFileRoundTrip.Kind.person, "{\n  \"firstName\": \"Katie\",\n  \"id\": 1\n}\n", "people/katie-9dw42k.json"),
        (.group, "{\n  \"id\": 3,\n  \"name\": \"Friends\"\n}\n", "groups/friends-q97zpt.json"),
        (.members, "ada-l-abc123\nkatie-bell-9dw42k\n", "groups/friends-q97zpt.members"),
        (.manifest, "{\n  \"format\": 1\n}\n", "store.json"),
    ])
    func eachKindOfFileTheStoreReadsItWritesBackReadably(kind: StoreFileRoundTrip.Kind, text: String, path: String) throws {
        #expect(try StoreFileRoundTrip.reread(Data(text.utf8), as: kind, path: path) == nil)
    }

    @Test func aNewStoresManifestRereads() throws {
        #expect(try StoreFileRoundTrip.reread(StoreFileRoundTrip.newManifest, as: .manifest, path: "store.json") == nil)
    }

    @Test func aPersonIsWrittenAsTheEditLeftIt() throws {
        var edited: String?
        let failure = try StoreFileRoundTrip.reread(personFile, as: .person, path: "people/katie-bell-9dw42k.json") { person in
            person.nickname = "Kat"
            edited = person.nickname
        }
        #expect(failure == nil)
        #expect(edited == "Kat")
    }

    @Test func aFileTheStoreRefusesThrowsItsCode() {
        #expect(throws: ContactsError.self) {
            try StoreFileRoundTrip.reread(Data("[1, 2]".utf8), as: .person, path: "people/x.json")
        }
        do {
            _ = try StoreFileRoundTrip.reread(Data("{\"format\": 99}".utf8), as: .manifest, path: "store.json")
            Issue.record("a newer format read")
        } catch let error as ContactsError {
            #expect(error.code == .unsupportedFormatVersion)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aRecordFileWrittenFromAPersonReadsBackTheSamePerson() throws {
        let person = try StoreFileRoundTrip.person(fromRecordFile: personFile, path: "people/katie-bell-9dw42k.json")
        person.nickname = "Kat"
        let data = StoreFileRoundTrip.recordFile(id: RecordID(12), state: person.state)
        #expect(data == PersonRecordCoder.encode(id: RecordID(12), state: person.state))
        let again = try StoreFileRoundTrip.person(fromRecordFile: data, path: "people/katie-bell-9dw42k.json")
        #expect(again.state == person.state)
        #expect(try PersonRecordCoder.decode(data, path: "people/katie-bell-9dw42k.json").id == RecordID(12))
    }

    @Test func aPersonReadFromARecordFileHoldsItsProperties() throws {
        let person = try StoreFileRoundTrip.person(fromRecordFile: personFile, path: "people/katie-bell-9dw42k.json")
        #expect(person.firstName == "Katie")
        #expect(person.lastName == "Bell")
        #expect(person.phones.count == 1)
        #expect(person.recordID == .invalid)
    }
}
