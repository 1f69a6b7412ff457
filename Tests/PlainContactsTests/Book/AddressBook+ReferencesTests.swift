import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookReferencesTests {
    /// Rewrites the "id" of a saved person's file, as a renumbering after a merge would.
    private func renumber(_ person: Person, to id: Int32, in store: TemporaryStore) throws {
        let file = try store.personFile(person)
        let text = try store.read(file).replacingOccurrences(of: "\"id\": \(person.recordID)", with: "\"id\": \(id)")
        try store.write(text, to: file)
    }

    @Test func aReferenceToAnUnchangedPersonIsFound() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        #expect(book.reference(to: katie) == nil)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        guard case .found(let person) = try store.openBook().resolve(reference) else {
            Issue.record("not found")
            return
        }
        #expect(person.recordID == katie.recordID)
    }

    @Test func aReferenceSurvivesRenumbering() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        try renumber(katie, to: 77, in: store)
        guard case .reidentified(let person, let fresh) = try store.openBook().resolve(reference) else {
            Issue.record("not re-identified")
            return
        }
        #expect(person.recordID == RecordID(77))
        #expect(fresh.recordID == RecordID(77))
    }

    @Test func aReferenceSurvivesARenameAndARenumbering() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        katie.lastName = "Appleseed"
        try book.save()
        try renumber(katie, to: 50, in: store)
        guard case .reidentified(let person, _) = try store.openBook().resolve(reference) else {
            Issue.record("not re-identified")
            return
        }
        #expect(person.lastName == "Appleseed")
    }

    @Test func aStaleIDPointingAtSomeoneElseFallsBackToTheNameHash() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        // Katie is deleted and entered again (new key, new ID); someone else holds nothing.
        try book.remove(katie)
        try book.save()
        let again = makePerson("KATIE", "bell")
        try book.add(again)
        try book.save()
        guard case .reidentified(let person, let fresh) = book.resolve(reference) else {
            Issue.record("not re-identified")
            return
        }
        #expect(person === again)
        #expect(fresh.recordID == again.recordID)
    }

    @Test func severalPeopleWithTheNameAreAmbiguous() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        try book.remove(katie)
        try book.add(makePerson("Katie", "Bell"))
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        guard case .ambiguous(let people) = book.resolve(reference) else {
            Issue.record("not ambiguous")
            return
        }
        #expect(people.count == 2)
    }

    @Test func aReferenceToADeletedPersonIsNotFound() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        try book.remove(katie)
        try book.save()
        guard case .notFound = book.resolve(reference) else {
            Issue.record("found a deleted person")
            return
        }
    }

    @Test func theReferenceTextRoundTrips() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reference = try #require(book.reference(to: katie))
        #expect(PersonReference(reference.description) == reference)
        #expect(PersonReference("v1:0:zz:key") == nil)
        #expect(PersonReference("not a reference") == nil)
        let encoded = try JSONEncoder().encode([reference])
        #expect(try JSONDecoder().decode([PersonReference].self, from: encoded) == [reference])
    }
}
