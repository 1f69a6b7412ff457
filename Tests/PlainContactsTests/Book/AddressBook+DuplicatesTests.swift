import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookDuplicatesTests {
    private func save(_ people: [Person], in book: AddressBook) throws {
        for person in people { try book.add(person) }
        try book.save()
    }

    private func ids(_ groups: [[Person]]) -> [[RecordID]] {
        groups.map { $0.map(\.recordID) }
    }

    @Test func peopleWithTheSameFirstAndLastNameAreLikelyDuplicates() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let a = makePerson("Katie", "Bell")
        let b = makePerson("John", "Appleseed")
        let c = makePerson("KATIE", "bell")
        let d = makePerson("Katie", nil)
        let e = makePerson("Katie", nil)
        try save([a, b, c, d, e], in: book)
        #expect(ids(book.likelyDuplicates()) == [[a.recordID, c.recordID]])
    }

    @Test func organizationsWithTheSameNameAreLikelyDuplicates() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let a = makePerson(nil, nil, organization: "Acme Inc.")
        a.kind = .organization
        let b = makePerson(nil, nil, organization: "ACME INC.")
        b.kind = .organization
        let c = makePerson("Wile", "Coyote", organization: "Acme Inc.")
        try save([a, b, c], in: book)
        #expect(ids(book.likelyDuplicates()) == [[a.recordID, b.recordID]])
    }

    @Test func phonesMatchOnTheirLastNineDigits() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let a = makePerson("Ann", "A")
        a.phones = MultiValue([(value: "+1 (555) 123-4567", label: .mobile)])
        let b = makePerson("Bea", "B")
        b.phones = MultiValue([(value: "555.123.4567", label: .work)])
        let c = makePerson("Cid", "C")
        c.phones = MultiValue([(value: "123", label: .work)])
        let d = makePerson("Dee", "D")
        d.phones = MultiValue([(value: "123", label: .home)])
        try save([a, b, c, d], in: book)
        #expect(ids(book.likelyDuplicates()) == [[a.recordID, b.recordID]])
    }

    @Test func emailsMatchWithoutRegardToCaseAndLinksChain() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let a = makePerson("Ann", "A")
        a.emails = MultiValue([(value: "Ann@Example.com", label: .home)])
        let b = makePerson("Anne", "Other")
        b.emails = MultiValue([(value: "ann@example.com", label: nil)])
        b.phones = MultiValue([(value: "555-987-6543", label: nil)])
        let c = makePerson("Zed", "Z")
        c.phones = MultiValue([(value: "5559876543", label: nil)])
        let x = makePerson("Xavier", "X")
        let y = makePerson("Yolanda", "Y")
        y.emails = MultiValue([(value: "y@example.com", label: nil)])
        let z = makePerson("Xavier", "X")
        try save([x, a, b, y, c, z], in: book)
        #expect(ids(book.likelyDuplicates()) == [[x.recordID, z.recordID], [a.recordID, b.recordID, c.recordID]])
    }

    @Test func mergingKeepsTheSurvivorsValuesAndUnitesMultiValues() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let survivor = makePerson("Katie", "Bell")
        survivor.jobTitle = "Pilot"
        survivor.phones = MultiValue([(value: "555-555-1234", label: .mobile)])
        survivor.emails = MultiValue([(value: "katie@example.com", label: .home)])
        let duplicate = makePerson("Kathryn", "Bell")
        duplicate.jobTitle = "Sailor"
        duplicate.nickname = "Kat"
        duplicate.birthday = try ContactDate(parsing: "--04-12")
        duplicate.phones = MultiValue([(value: "(555) 555-1234", label: .work), (value: "555-0199", label: .home)])
        duplicate.emails = MultiValue([(value: "KATIE@example.com", label: .work), (value: "kb@example.org", label: .work)])
        duplicate.urls = MultiValue([(value: "https://example.com/katie", label: .homePage)])
        try save([survivor, duplicate], in: book)
        let survivorID = survivor.recordID
        let duplicateID = duplicate.recordID

        try book.mergePerson(duplicate, into: survivor)
        try book.save()

        let reopened = try store.openBook()
        #expect(reopened.person(withID: duplicateID) == nil)
        let merged = try #require(reopened.person(withID: survivorID))
        #expect(merged.firstName == "Katie")
        #expect(merged.jobTitle == "Pilot")
        #expect(merged.nickname == "Kat")
        #expect(merged.birthday == (try ContactDate(parsing: "--04-12")))
        #expect(merged.phones.values == ["555-555-1234", "555-0199"])
        #expect(merged.phones.map(\.label) == [.mobile, .home])
        #expect(merged.emails.values == ["katie@example.com", "kb@example.org"])
        #expect(merged.urls.values == ["https://example.com/katie"])
        let identifiers = merged.phones.map(\.identifier) + merged.emails.map(\.identifier) + merged.urls.map(\.identifier)
        #expect(Set(identifiers).count == identifiers.count)
        #expect(merged.state.nextValueIdentifier > identifiers.map(\.rawValue).max() ?? 0)
        #expect(reopened.personCount == 1)
    }

    @Test func theSurvivorJoinsTheDuplicatesGroups() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let survivor = makePerson("Katie", "Bell")
        let duplicate = makePerson("Katie", "Bell")
        let friends = Group(name: "Friends")
        let pilots = Group(name: "Pilots")
        try save([survivor, duplicate], in: book)
        try book.add(friends)
        try book.add(pilots)
        try book.save()
        try friends.addMember(duplicate)
        try pilots.addMember(survivor)
        try book.save()

        try book.mergePerson(duplicate, into: survivor)
        try book.save()

        let reopened = try store.openBook()
        #expect(try #require(reopened.group(withID: friends.recordID)).members().map(\.recordID) == [survivor.recordID])
        #expect(try #require(reopened.group(withID: pilots.recordID)).members().map(\.recordID) == [survivor.recordID])
    }

    @Test func aReferenceToTheDuplicateResolvesToTheSurvivor() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let survivor = makePerson("Katie", "Bell")
        let duplicate = makePerson("Kate", "Belle")
        let earlier = makePerson("Other", "Person")
        try save([survivor, duplicate, earlier], in: book)
        try book.mergePerson(earlier, into: duplicate)
        try book.save()
        let reference = try #require(book.reference(to: duplicate))
        let olderReference = try #require(try store.openBook().allPeople().first { $0.firstName == "Kate" }.flatMap { _ in
            PersonReference(recordID: earlier.recordID, nameHash: NameHash.of(firstName: "Other", lastName: "Person"), key: earlier.key?.rawValue ?? "")
        })

        try book.mergePerson(duplicate, into: survivor)
        try book.save()

        let reopened = try store.openBook()
        for ref in [reference, olderReference] {
            guard case .reidentified(let person, let fresh) = reopened.resolve(ref) else {
                Issue.record("the reference was not re-identified")
                continue
            }
            #expect(person.recordID == survivor.recordID)
            #expect(fresh.recordID == survivor.recordID)
        }
    }

    @Test func theSurvivorTakesTheDuplicatesImageOnlyWhenItHasNone() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7])
        let jpg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1])
        let plain = makePerson("Ann", "A")
        let pictured = makePerson("Ann", "A")
        pictured.setImageData(png)
        let other = makePerson("Bob", "B")
        other.setImageData(jpg)
        let otherDuplicate = makePerson("Bob", "B")
        otherDuplicate.setImageData(png)
        try save([plain, pictured, other, otherDuplicate], in: book)

        try book.mergePerson(pictured, into: plain)
        try book.mergePerson(otherDuplicate, into: other)
        try book.save()

        let reopened = try store.openBook()
        #expect(try reopened.person(withID: plain.recordID)?.imageData() == png)
        #expect(try reopened.person(withID: other.recordID)?.imageData() == jpg)
        #expect(try store.files(in: "people").filter { !$0.hasSuffix(".json") }.count == 2)
    }

    @Test func unknownKeysOfTheSurvivorWinAndMissingOnesAreFilledIn() throws {
        let store = try TemporaryStore()
        let first = try store.makeBook()
        let survivor = makePerson("Ann", "A")
        let duplicate = makePerson("Ann", "A")
        try save([survivor, duplicate], in: first)
        for (person, fields) in [(survivor, #""x-color": "blue", "#), (duplicate, #""x-color": "red", "x-pet": "cat", "#)] {
            let path = try store.personFile(person)
            try store.write(try store.read(path).replacingOccurrences(of: "{\n", with: "{\n  \(fields)\n"), to: path)
        }
        let book = try store.openBook()
        let s = try #require(book.person(withID: survivor.recordID))
        let d = try #require(book.person(withID: duplicate.recordID))

        try book.mergePerson(d, into: s)
        try book.save()

        let merged = try #require(try store.openBook().person(withID: survivor.recordID))
        #expect(merged.state.unknownFields == ["x-color": .string("blue"), "x-pet": .string("cat")])
    }

    @Test func onlySavedPeopleOfThisBookCanBeMerged() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let saved = makePerson("Ann", "A")
        try save([saved], in: book)
        let unsaved = makePerson("Ann", "A")
        #expect {
            try book.mergePerson(unsaved, into: saved)
        } throws: { ($0 as? ContactsError)?.code == .personNotSaved }
        try book.add(unsaved)
        #expect {
            try book.mergePerson(saved, into: unsaved)
        } throws: { ($0 as? ContactsError)?.code == .personNotSaved }
        let other = try TemporaryStore()
        let otherBook = try other.makeBook()
        let stranger = makePerson("Ann", "A")
        try save([stranger], in: otherBook)
        #expect {
            try book.mergePerson(stranger, into: saved)
        } throws: { ($0 as? ContactsError)?.code == .recordInAnotherBook }
        #expect {
            try book.mergePerson(saved, into: saved)
        } throws: { ($0 as? ContactsError)?.code == .invalidValue }
    }

    @Test func mergingIntoAPersonWithoutIdentifiersLeftIsAnExhaustedRange() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let survivor = makePerson("Katie", "Bell")
        survivor.phones = MultiValue([(value: "555-0100", label: nil)])
        let duplicate = makePerson("Katie", "Bell")
        duplicate.phones = MultiValue([(value: "555-0199", label: nil)])
        try save([survivor, duplicate], in: book)
        try editJSONFile(store.path(try store.personFile(survivor))) { $0["nextValueID"] = 2147483647 }

        let reopened = try store.openBook()
        let keep = try #require(reopened.person(withID: survivor.recordID))
        let other = try #require(reopened.person(withID: duplicate.recordID))
        do {
            try reopened.mergePerson(other, into: keep)
            Issue.record("no error")
        } catch let error as ContactsError {
            #expect(error.code == .identifiersExhausted)
        }
        #expect(reopened.person(withID: duplicate.recordID) != nil)
    }
}
