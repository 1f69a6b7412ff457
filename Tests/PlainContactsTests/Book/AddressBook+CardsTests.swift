import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookCardsTests {
    /// Katie Bell with a mobile phone and a note, saved.
    private func katie(in book: AddressBook) throws -> Person {
        let katie = makePerson("Katie", "Bell")
        katie.phones = MultiValue([(value: "+1 555 0100", label: .mobile)])
        katie.note = "met at the match"
        try book.add(katie)
        try book.save()
        return katie
    }

    /// The person's state as a card would give it: the same values, numbered afresh.
    private func card(of person: Person, edit: (Person) -> Void) -> PersonState {
        let copy = Person(state: person.state)
        edit(copy)
        return copy.state
    }

    @Test func aCardWithoutAPersonIsAddedAndSavedByItsOperation() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let applied = try book.saveCard(makePerson("Oliver", "Wood").state, to: nil, merging: .cardWins(datedByCard: false))
        #expect(applied.change == .added)
        #expect(applied.person.recordID.isValid)
        #expect(try store.openBook().people(matchingName: "Oliver").count == 1)
    }

    @Test func whatTheCardSaysWinsAndWhatItCannotCarryIsKept() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = try katie(in: book)
        let identifier = person.phones.identifier(at: 0)
        let card = card(of: person) { $0.jobTitle = "Chaser" }
        let applied = try book.saveCard(card, to: person, merging: .cardWins(datedByCard: false))
        #expect(applied.change == .changed)
        let saved = try #require(try store.openBook().person(withID: person.recordID))
        #expect(saved.jobTitle == "Chaser")
        #expect(saved.phones.identifier(at: 0) == identifier)
    }

    @Test func aCardThatSaysWhatThePersonHoldsChangesNothing() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = try katie(in: book)
        let applied = try book.applyCard(person.state, to: person, merging: .cardWins(datedByCard: false))
        #expect(applied.change == .unchanged)
        #expect(!book.hasUnsavedChanges)
    }

    @Test func aThreeWayConflictLeavesThePersonAsItWas() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = try katie(in: book)
        let base = person.state
        person.note = "ours"
        let theirs = card(of: Person(state: base)) { $0.note = "theirs" }
        let applied = try book.applyCard(theirs, to: person, merging: .threeWay(base: base, prefer: nil))
        #expect(applied.change == .conflicted(["note"]))
        #expect(person.note == "ours")

        let settled = try book.applyCard(theirs, to: person, merging: .threeWay(base: base, prefer: .remote))
        #expect(settled.change == .changed)
        #expect(person.note == "theirs")
    }

    @Test func anImportsMergeUnitesMultiValuesAndReplacesSingleValues() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = try katie(in: book)
        let imported = makePerson("Katie", "Bell")
        imported.phones = MultiValue([(value: "+1 555 0199", label: .home)])
        imported.note = "from the club's list"
        let applied = try book.applyCard(imported.state, to: person, merging: .unite)
        #expect(applied.change == .changed)
        #expect(person.phones.values == ["+1 555 0100", "+1 555 0199"])
        #expect(person.note == "from the club's list")
    }

    @Test func aGroupCardNamesANewGroupAndKeepsTheCardAsSent() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Team\r\nUID:team-1\r\nEND:VCARD\r\n"
        let sent = try #require(try VCardReader.parse(Data(text.utf8), source: "team.vcf", strict: true).first)
        let group = try book.applyGroupCard(GroupCard(name: "Team", uid: "team-1", members: []), to: nil, keepingSent: sent)
        try book.save()
        #expect(group.name == "Team")
        #expect(GroupCard.keptSent(in: group.state) != nil)
        #expect(try store.openBook().groups(named: "Team").count == 1)
    }
}
