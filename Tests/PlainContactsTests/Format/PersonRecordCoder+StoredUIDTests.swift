import DAVTestSupport
import Foundation
import Testing

@testable import PlainContacts

/// A person file's UID is read from its bytes only when they are in the form the store
/// writes; anything else is left to the decoder.
@Suite struct PersonRecordCoderStoredUIDTests {
    private func uid(_ text: String) -> PersonRecordCoder.StoredUID {
        PersonRecordCoder.storedUID(inStoreWritten: Data(text.utf8))
    }

    @Test func theStoreWrittenFormGivesItsUIDOrNone() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        var state = katie.state
        VCardRecordFields.setUID("urn:uuid:4F0C-ab", in: &state)
        katie.state = state
        // Quotes inside a value are escaped, so a note that says "uid" is not taken for the key.
        katie.note = "says \"uid\": \"x\" in her note"
        let oliver = makePerson("Oliver", "Wood")
        try book.add(katie)
        try book.add(oliver)
        try book.save()
        #expect(PersonRecordCoder.storedUID(inStoreWritten: try Data(contentsOf: store.path(try store.personFile(katie))))
            == .uid("urn:uuid:4F0C-ab"))
        #expect(PersonRecordCoder.storedUID(inStoreWritten: try Data(contentsOf: store.path(try store.personFile(oliver))))
            == PersonRecordCoder.StoredUID.none)
    }

    @Test func anythingButTheStoreWrittenFormIsUndecided() {
        #expect(uid("{\n  \"id\": 1,\n  \"uid\": \"k\"\n}\n") == .uid("k"))
        #expect(uid("{\"id\": 1, \"uid\": \"k\"}") == .undecided)
        #expect(uid("{\n  \"id\": 1,\n  \"uid\": \"k\\n\"\n}\n") == .undecided)
        #expect(uid("{\n  \"id\": 1,\n  \"\\u0075id\": \"k\"\n}\n") == .undecided)
        #expect(uid("{\n  \"id\": 1,\n  \"uid\": \"k\",\n  \"uid\": \"j\"\n}\n") == .undecided)
        #expect(uid("{\n  \"x\": {\n    \"uid\": \"k\"\n  }\n}\n") == .undecided)
        #expect(uid("{\n  \"id\": 1,\n  \"uid\": 7\n}\n") == .undecided)
        #expect(uid("{\n  \"id\": 1\n}\n") == PersonRecordCoder.StoredUID.none)
    }

    @Test func onlyBytesHoldingTheImageKeyMayNameAnImage() {
        #expect(PersonRecordCoder.mayNameImage(inStoreWritten: Data("{\n  \"id\": 1,\n  \"image\": \"k.png\"\n}\n".utf8)))
        #expect(!PersonRecordCoder.mayNameImage(inStoreWritten: Data("{\n  \"id\": 1,\n  \"images\": 2\n}\n".utf8)))
        #expect(!PersonRecordCoder.mayNameImage(inStoreWritten: Data("\"imag".utf8)))
        #expect(!PersonRecordCoder.mayNameImage(inStoreWritten: Data()))
    }
}
