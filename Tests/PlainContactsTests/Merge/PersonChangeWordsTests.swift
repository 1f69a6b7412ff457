import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct PersonChangeWordsTests {
    /// Katie Bell's file as saved, then as saved again after `change`.
    private func versions(_ change: (Person) -> Void) throws -> (before: Data, after: Data, path: String) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.phones = MultiValue([(value: "+1 555 0100", label: .mobile)])
        katie.jobTitle = "Pilot"
        try book.add(katie)
        try book.save()
        let path = StoreLayout.personPath(try #require(katie.key))
        let before = Data(try store.read(path).utf8)
        change(katie)
        try book.save()
        return (before, Data(try store.read(path).utf8), path)
    }

    @Test func anEditedPhoneReadsAsOneChangeWithItsLabel() throws {
        let (before, after, path) = try versions { katie in
            var phones = katie.phones
            phones.replaceValue(at: 0, with: "+1 555 0199")
            katie.phones = phones
        }

        #expect(PersonChangeWords.lines(from: before, to: after, path: path) == ["phone mobile +1 555 0100 → +1 555 0199"])
    }

    @Test func addedAndRemovedValuesAndANewNameAreEachSaid() throws {
        let (before, after, path) = try versions { katie in
            katie.lastName = "Bell-Smith"
            katie.jobTitle = nil
            katie.emails = MultiValue([(value: "a@b.c", label: .home)])
        }

        let lines = PersonChangeWords.lines(from: before, to: after, path: path)

        #expect(lines.contains("name Katie Bell → Katie Bell-Smith"))
        #expect(lines.contains("email home added a@b.c"))
        #expect(lines.contains("job title removed Pilot"))
        #expect(lines.count == 3)
    }

    @Test func aNewRecordListsItsValuesAndARemovedOneItsName() throws {
        let (before, _, path) = try versions { _ in }

        let created = PersonChangeWords.lines(from: nil, to: before, path: path)
        let removed = PersonChangeWords.lines(from: before, to: nil, path: path)

        #expect(created.first == "created")
        #expect(created.contains("name added Katie Bell"))
        #expect(created.contains("phone mobile added +1 555 0100"))
        #expect(removed == ["removed Katie Bell"])
    }

    @Test func aRelabelledValueAndAnUnreadableVersionAreSaid() throws {
        let (before, after, path) = try versions { katie in
            var phones = katie.phones
            phones.replaceLabel(at: 0, with: .work)
            katie.phones = phones
        }

        #expect(PersonChangeWords.lines(from: before, to: after, path: path) == ["phone +1 555 0100 label mobile → work"])
        #expect(PersonChangeWords.lines(from: before, to: Data("{".utf8), path: path) == ["the file cannot be read"])
    }
}
