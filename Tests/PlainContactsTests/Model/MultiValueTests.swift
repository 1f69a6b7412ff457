import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct MultiValueTests {
    @Test func addingAssignsIncreasingIdentifiers() {
        var phones = MultiValue<String>()
        let first = phones.add("555-0100", label: .mobile)
        let second = phones.add("555-0101", label: .home)
        #expect(first.rawValue == 0)
        #expect(second.rawValue == 1)
        #expect(phones.count == 2)
        #expect(phones.values == ["555-0100", "555-0101"])
    }

    @Test func valuesLabelsAndIdentifiersAreReadByIndex() {
        var phones = MultiValue<String>()
        phones.add("555-0100", label: .mobile)
        let id = phones.add("555-0101", label: nil)
        #expect(phones.value(at: 0) == "555-0100")
        #expect(phones.label(at: 0) == .mobile)
        #expect(phones.label(at: 1) == nil)
        #expect(phones.identifier(at: 1) == id)
        #expect(phones.index(for: id) == 1)
        #expect(phones.index(for: MultiValueIdentifier(rawValue: 99)) == nil)
        #expect(phones.firstIndex(of: "555-0101") == 1)
        #expect(phones.firstIndex(of: "nope") == nil)
    }

    @Test func insertingKeepsOtherIdentifiers() {
        var phones = MultiValue<String>()
        let a = phones.add("a")
        let b = phones.add("b")
        let c = phones.insert("c", label: .work, at: 0)
        #expect(phones.values == ["c", "a", "b"])
        #expect(phones.index(for: a) == 1)
        #expect(phones.index(for: b) == 2)
        #expect(phones.index(for: c) == 0)
    }

    @Test func replacingValueAndLabelKeepsTheIdentifier() {
        var phones = MultiValue<String>()
        let id = phones.add("a", label: .home)
        phones.replaceValue(at: 0, with: "b")
        phones.replaceLabel(at: 0, with: Label("Boat"))
        #expect(phones.identifier(at: 0) == id)
        #expect(phones.value(at: 0) == "b")
        #expect(phones.label(at: 0)?.rawValue == "Boat")
    }

    @Test func aRemovedIdentifierIsNeverHandedOutAgain() {
        var phones = MultiValue<String>()
        phones.add("a")
        let removed = phones.add("b")
        phones.remove(at: 1)
        let next = phones.add("c")
        #expect(next != removed)
        #expect(next.rawValue == 2)
    }

    @Test func copiesAreIndependentValues() {
        var original = MultiValue<String>()
        original.add("a")
        var copy = original
        copy.add("b")
        #expect(original.count == 1)
        #expect(copy.count == 2)
    }

    @Test func identifiersSurviveSaveReloadAndRemovalOfOthers() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        var phones = MultiValue<String>()
        phones.add("a", label: .mobile)
        let kept = phones.add("b", label: .home)
        phones.add("c", label: .work)
        katie.phones = phones
        try book.add(katie)
        try book.save()

        let reopened = try store.openBook()
        let copy = try #require(reopened.person(withID: katie.recordID))
        var loaded = copy.phones
        #expect(loaded.index(for: kept) == 1)
        loaded.remove(at: 0)
        loaded.insert("z", at: 0)
        copy.phones = loaded
        try reopened.save()
        let again = try #require(try store.openBook().person(withID: katie.recordID))
        #expect(again.phones.value(at: again.phones.index(for: kept) ?? -1) == "b")
    }

    @Test func aRetiredIdentifierIsNotReusedAfterSaveAndReload() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        var phones = MultiValue<String>()
        phones.add("a")
        let retired = phones.add("b")
        katie.phones = phones
        try book.add(katie)
        try book.save()
        var edited = katie.phones
        edited.remove(at: 1)
        katie.phones = edited
        try book.save()

        let copy = try #require(try store.openBook().person(withID: katie.recordID))
        var loaded = copy.phones
        let fresh = loaded.add("c")
        #expect(fresh != retired)
        #expect(fresh.rawValue > retired.rawValue)
    }

    @Test func aFreshMultiValueNeverReusesARetiredIdentifierOfTheRecord() throws {
        let person = makePerson("Katie", "Bell")
        var phones = MultiValue<String>()
        phones.add("a")
        phones.add("b")
        person.phones = phones
        person.phones = MultiValue<String>()
        var replacement = MultiValue<String>()
        replacement.add("new")
        person.phones = replacement
        #expect(person.phones.identifier(at: 0).rawValue >= 2)
    }

    @Test func identifiersAreUniqueAcrossPropertiesOfARecord() {
        let person = makePerson("Katie", "Bell")
        var phones = person.phones
        let phone = phones.add("555")
        person.phones = phones
        var emails = person.emails
        let email = emails.add("k@example.com")
        person.emails = emails
        #expect(phone != email)
    }

    @Test func equalityComparesEntriesOnly() {
        var a = MultiValue<String>()
        a.add("x")
        var b = MultiValue<String>()
        b.add("x")
        b.add("y")
        b.remove(at: 1)
        #expect(a == b)
    }
}

@Suite struct MultiValueIdentifierRangeTests {
    private func exhausted() -> MultiValue<String> {
        MultiValue(entries: [.init(identifier: MultiValueIdentifier(rawValue: 2147483646), label: nil, value: "a")], nextIdentifier: 0)
    }

    @Test func addingPastTheLastIdentifierAddsNothing() {
        var phones = exhausted()
        #expect(phones.add("b") == .invalid)
        #expect(phones.insert("c", at: 0) == .invalid)
        #expect(phones.values == ["a"])
    }

    @Test func reconcilingANewcomerPastTheLastIdentifierThrows() throws {
        var counter = Int32.max
        let newcomer = MultiValue<String>([(value: "b", label: nil)])
        #expect(throws: ContactsError.self) { try newcomer.reconciled(with: exhausted(), recordCounter: &counter) }
        do {
            _ = try newcomer.reconciled(with: exhausted(), recordCounter: &counter)
        } catch let error as ContactsError {
            #expect(error.code == .identifiersExhausted)
        }
    }

    @Test func settingAValueOnAnExhaustedPersonThrows() throws {
        let person = Person()
        person.phones = exhausted()
        #expect(person.phones.values == ["a"])
        var phones = person.phones
        #expect(phones.add("b") == .invalid)
        do {
            try person.setValue(.multiString(MultiValue([(value: "b", label: nil)])), for: .phones)
            Issue.record("no error")
        } catch let error as ContactsError {
            #expect(error.code == .identifiersExhausted)
        }
        #expect(person.phones.values == ["a"])
    }
}

@Suite struct MultiValueIdentifierSpreadTests {
    /// A saved person with one phone, read back by a fresh book.
    private func savedPerson(in store: TemporaryStore) throws -> (AddressBook, Person) {
        let book = try store.makeBook()
        let person = makePerson("Katie", "Bell")
        person.phones = MultiValue([(value: "555-0100", label: .mobile)])
        try book.add(person)
        try book.save()
        let reopened = try store.openBook()
        return (reopened, try #require(reopened.person(withID: person.recordID)))
    }

    @Test func clonesAddingToTheSameSavedRecordRarelyPickTheSameIdentifier() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        defer { withExtendedLifetime(book) {} }
        var clashes = 0
        for _ in 0..<200 {
            var ours = person.phones
            var theirs = person.phones
            let a = ours.add("555-0111")
            let b = theirs.add("555-0222")
            #expect(a.rawValue >= 1 && b.rawValue >= 1)
            if a == b { clashes += 1 }
        }
        #expect(clashes <= 2)
    }

    @Test func valuesAddedInOneEditTakeConsecutiveIdentifiers() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        defer { withExtendedLifetime(book) {} }
        var phones = person.phones
        let first = phones.add("555-0111")
        let second = phones.add("555-0222")
        #expect(second.rawValue == first.rawValue + 1)
        person.phones = phones
        #expect(person.phones.identifier(at: 1) == first)
        #expect(person.phones.identifier(at: 2) == second)
    }

    @Test func aRemovedIdentifierIsNeverHandedOutAgain() throws {
        let store = try TemporaryStore()
        let (book, person) = try savedPerson(in: store)
        var handedOut: Set<MultiValueIdentifier> = [person.phones.identifier(at: 0)]
        for round in 0..<20 {
            var phones = person.phones
            let added = phones.add("555-01\(round)")
            #expect(!handedOut.contains(added))
            handedOut.insert(added)
            person.phones = phones
            try book.save()
            phones = person.phones
            phones.remove(at: try #require(phones.index(for: added)))
            person.phones = phones
            try book.save()
        }
        #expect(handedOut.count == 21)
    }

    @Test func anUnsavedPersonNumbersItsValuesFromZero() {
        let person = Person()
        var phones = person.phones
        phones.add("555-0100")
        phones.add("555-0101")
        person.phones = phones
        #expect(person.phones.map(\.identifier.rawValue) == [0, 1])
    }

    @Test(arguments: [Int32(0), 1_000_000, MultiValueIdentifier.highest - (1 << 20), MultiValueIdentifier.highest - 16,
        MultiValueIdentifier.highest - 15, MultiValueIdentifier.highest - 1, MultiValueIdentifier.highest, Int32.max])
    func jumpsStayWithinTheIdentifiersLeft(_ counter: Int32) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let start = MultiValueIdentifier.spreadStart(from: counter, using: &generator)
            #expect(start >= counter)
            if counter <= MultiValueIdentifier.highest {
                #expect(start <= MultiValueIdentifier.highest)
                #expect(Int64(start) - Int64(counter) < MultiValueIdentifier.spreadWidth)
            } else {
                #expect(start == counter)
            }
        }
    }
}
