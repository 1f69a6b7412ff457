import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct PersonJSONViewTests {
    private func savedKatie(in store: TemporaryStore) throws -> (AddressBook, Person) {
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.birthday = try ContactDate(parsing: "--04-12")
        var phones = MultiValue<String>()
        phones.add("+1 555 0100", label: .mobile)
        phones.add("+1 555 0199")
        katie.phones = phones
        var addresses = MultiValue<PostalAddress>()
        addresses.add(PostalAddress(street: "1 Main St", city: "Springfield", countryCode: "us"), label: .home)
        katie.addresses = addresses
        try book.add(katie)
        try book.save()
        return (book, katie)
    }

    @Test func viewHasTheContractKeysAndLeavesOutAbsentProperties() throws {
        let store = try TemporaryStore()
        let (book, katie) = try savedKatie(in: store)
        let fields = try #require(PersonJSONView.json(of: katie, in: book).object)
        #expect(Set(fields.keys) == [
            "id", "ref", "kind", "compositeName", "firstName", "lastName", "birthday", "phones", "addresses",
            "groups", "hasImage", "created", "modified",
        ])
        #expect(fields["id"]?.int == Int(katie.recordID.rawValue))
        #expect(fields["kind"]?.string == "person")
        #expect(fields["compositeName"]?.string == "Katie Bell")
        #expect(fields["birthday"]?.string == "--04-12")
        #expect(fields["hasImage"]?.bool == false)
        #expect(fields["groups"]?.array == [])
    }

    @Test func multiValueEntriesHaveIDLabelAndValueAndNoLabelWhenThereIsNone() throws {
        let store = try TemporaryStore()
        let (book, katie) = try savedKatie(in: store)
        let phones = try #require(PersonJSONView.json(of: katie, in: book)["phones"]?.array)
        #expect(phones.count == 2)
        #expect(phones[0].object.map { Set($0.keys) } == ["id", "label", "value"])
        #expect(phones[0]["label"]?.string == "mobile")
        #expect(phones[1].object.map { Set($0.keys) } == ["id", "value"])
        #expect(phones[1]["id"]?.int == Int(katie.phones.identifier(at: 1).rawValue))
    }

    @Test func addressValueIsAnObjectOfItsPresentParts() throws {
        let store = try TemporaryStore()
        let (book, katie) = try savedKatie(in: store)
        let address = try #require(PersonJSONView.json(of: katie, in: book)["addresses"]?.array?.first?["value"]?.object)
        #expect(address == [
            "street": .string("1 Main St"), "city": .string("Springfield"), "countryCode": .string("us"),
        ])
    }

    @Test func viewNamesGroupsAndCarriesTheLongTermReference() throws {
        let store = try TemporaryStore()
        let (book, katie) = try savedKatie(in: store)
        let friends = Group(name: "Friends")
        try book.add(friends)
        try book.save()
        try friends.addMember(katie)
        try book.save()
        let view = PersonJSONView.json(of: katie, in: book)
        #expect(view["groups"]?.array == [.string("Friends")])
        let reference = try #require(book.reference(to: katie))
        #expect(view["ref"]?.string == reference.description)
    }

    @Test func organizationIsShownByItsName() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let acme = makePerson(nil, nil, organization: "Acme Inc.")
        acme.kind = .organization
        try book.add(acme)
        try book.save()
        let view = PersonJSONView.json(of: acme, in: book)
        #expect(view["kind"]?.string == "organization")
        #expect(view["compositeName"]?.string == "Acme Inc.")
    }

    @Test func unsavedPersonHasNoReference() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = makePerson("Kim", nil)
        try book.add(person)
        #expect(PersonJSONView.json(of: person, in: book)["ref"] == nil)
    }

    @Test func severalPeopleMakeOneArrayInOrder() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let people = [makePerson("Ann", "A"), makePerson("Bob", "B")]
        for person in people { try book.add(person) }
        try book.save()
        let names = PersonJSONView.json(of: people, in: book).array?.compactMap { $0["firstName"]?.string }
        #expect(names == ["Ann", "Bob"])
    }
}
