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
