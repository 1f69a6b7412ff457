import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookMergeChoicesTests {
    /// Katie Bell twice, with a job title, a phone and an email of their own each.
    private func pair(_ store: TemporaryStore) throws -> (AddressBook, Person, Person) {
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.jobTitle = "Pilot"
        katie.phones = MultiValue([(value: "+1 555 0100", label: .mobile)])
        let again = makePerson("Katie", "Bell")
        again.jobTitle = "Captain"
        again.phones = MultiValue([(value: "+1 555 0199", label: .work)])
        again.emails = MultiValue([(value: "katie@example.com", label: .home)])
        try book.add(katie)
        try book.add(again)
        try book.save()
        return (book, katie, again)
    }

    @Test func theDifferingPropertiesAreListedInOrder() throws {
        let (_, katie, again) = try pair(try TemporaryStore())

        #expect(AddressBook.differingProperties(katie, again) == [.jobTitle, .phones, .emails])
    }

    @Test func theComparisonShowsEachChoosablePropertyOfBothWithWhetherTheyDiffer() throws {
        let (_, katie, again) = try pair(try TemporaryStore())

        let comparison = AddressBook.mergeComparison(katie, again)
        #expect(comparison.map(\.property) == PropertyID.personProperties.filter { !$0.isReadOnly && $0 != .kind })
        #expect(comparison.filter(\.differs).map(\.property) == AddressBook.differingProperties(katie, again))
        let phones = try #require(comparison.first { $0.property == .phones })
        #expect(phones.survivor == ["mobile: +1 555 0100"])
        #expect(phones.duplicate == ["work: +1 555 0199"])
        let lastName = try #require(comparison.first { $0.property == .lastName })
        #expect(lastName.survivor == ["Bell"] && lastName.duplicate == ["Bell"] && !lastName.differs)
        let emails = try #require(comparison.first { $0.property == .emails })
        #expect(emails.survivor.isEmpty && emails.differs)
    }

    @Test func eachChoiceKeepsTheValueChosenInOneSave() throws {
        let store = try TemporaryStore()
        let (book, katie, again) = try pair(store)

        try book.mergePerson(again, into: katie, choosing: [.jobTitle: .duplicate, .phones: .survivor, .emails: .both])
        try book.save()

        let reread = try store.openBook()
        #expect(reread.allPeople().count == 1)
        let merged = try #require(reread.person(withID: katie.recordID))
        #expect(merged.jobTitle == "Captain")
        #expect(merged.phones.values == ["+1 555 0100"])
        #expect(merged.emails.values == ["katie@example.com"])
    }

    @Test func choosingThePersonWithoutAValueRemovesIt() throws {
        let store = try TemporaryStore()
        let (book, katie, again) = try pair(store)

        try book.mergePerson(again, into: katie, choosing: [.emails: .survivor, .phones: .duplicate])
        try book.save()

        let merged = try #require(try store.openBook().person(withID: katie.recordID))
        #expect(merged.emails.isEmpty)
        #expect(merged.phones.values == ["+1 555 0199"])
        #expect(merged.jobTitle == "Pilot")
    }
}
