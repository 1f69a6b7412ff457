import Foundation
import PlainContactsSystem
import Testing

@testable import PlainContacts

@Suite("JSONParser on store files")
struct JSONParserStoreFileTests {
    @Test func aSyntaxErrorNamesTheFileLineAndColumn() {
        #expect {
            _ = try JSONParser.parse(Data("{\n  \"a\": x\n}".utf8), path: "people/ada.json")
        } throws: { error in
            guard let error = error as? ContactsError else { return false }
            return error.code == .malformedFile && error.path == "people/ada.json" && error.line == 2
                && error.column == 8
        }
    }

    @Test func conflictMarkersKeepTheirOwnCode() {
        #expect {
            _ = try JSONParser.parse(Data("{\n<<<<<<< HEAD\n}\n".utf8), path: "groups/friends.json")
        } throws: { error in
            guard let error = error as? ContactsError else { return false }
            return error.code == .conflictMarkers && error.path == "groups/friends.json" && error.line == 2
        }
    }

    @Test func aValidDocumentParsesAsWithoutAPath() throws {
        let bytes = Data(#"{"id": 7}"#.utf8)
        #expect(try JSONParser.parse(bytes, path: "7.json") == JSONParser.parse(bytes))
    }
}
