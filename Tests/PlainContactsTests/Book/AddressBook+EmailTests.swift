import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookEmailTests {
    /// A saved store: Ann Smith with two addresses, Joanna Ånström, Bob Nnamdi of Acme, and
    /// Carl Young without any address.
    private func storeWithPeople() throws -> TemporaryStore {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let ann = makePerson("Ann", "Smith")
        ann.emails = MultiValue([(value: "ann@acme.example", label: .work), (value: "a.smith@home.example", label: Label("Boat"))])
        let joanna = makePerson("Joanna", "Ånström")
        joanna.emails = MultiValue([(value: "joanna@x.example", label: nil)])
        let bob = makePerson("Bob", "Nnamdi", organization: "Acme")
        bob.emails = MultiValue([(value: "bob@acme.example", label: .home)])
        for person in [ann, joanna, bob, makePerson("Carl", "Young")] { try book.add(person) }
        try book.save()
        return store
    }

    private func addresses(_ query: String, in store: TemporaryStore) throws -> [String] {
        try store.openBook().emailAddresses(matching: query).map(\.address)
    }

    @Test func eachAddressCarriesItsPersonAndLabel() throws {
        let store = try storeWithPeople()
        let found = try store.openBook().emailAddresses(matching: "smith")
        #expect(found.map(\.address) == ["ann@acme.example", "a.smith@home.example"])
        #expect(found.map(\.label) == [.work, Label("Boat")])
        #expect(found.map(\.compositeName) == ["Ann Smith", "Ann Smith"])
        #expect(Set(found.map(\.recordID)).count == 1)
    }

    @Test func bestMatchesComeFirstThenTheSortOrder() throws {
        let store = try storeWithPeople()
        // Bob by the beginning of his last name, then addresses holding "nn" in the sort order.
        #expect(try addresses("nn", in: store) == ["bob@acme.example", "joanna@x.example", "ann@acme.example"])
        // Ann's whole first name before Joanna's address.
        #expect(try addresses("ann", in: store) == ["ann@acme.example", "a.smith@home.example", "joanna@x.example"])
        // The organization is a name word; the sort order puts Nnamdi before Smith.
        #expect(try addresses("acme", in: store) == ["bob@acme.example", "ann@acme.example"])
    }

    @Test func anEmptyQueryListsEveryAddressInTheSortOrder() throws {
        let store = try storeWithPeople()
        #expect(try addresses("", in: store) == [
            "joanna@x.example", "bob@acme.example", "ann@acme.example", "a.smith@home.example",
        ])
    }

    @Test func noMatchIsAnEmptyList() throws {
        let store = try storeWithPeople()
        #expect(try addresses("zz", in: store).isEmpty)
        #expect(try addresses("carl", in: store).isEmpty)
    }

    @Test(arguments: ["", "a", "nn", "acme", "ＡＮＳＴＲＯＭ", "bob nn", "example"])
    func theIndexAnswersAsReadingEveryFileWould(_ query: String) throws {
        let store = try storeWithPeople()
        let fromIndex = try store.openBook().emailAddresses(matching: query)
        // People the book has read and not changed are answered by their summaries, which
        // say the same of them as their records.
        let book = try store.openBook()
        _ = book.allPeople()
        #expect(book.emailAddresses(matching: query) == fromIndex)
        StoreIndex.remove(StoreLayout(root: store.storeURL))
        #expect(try store.openBook().emailAddresses(matching: query) == fromIndex)
    }

    @Test func unsavedEditsAndAdditionsAreSeen() throws {
        let store = try storeWithPeople()
        let book = try store.openBook()
        let bob = try #require(book.people(matchingName: "bob").first)
        bob.emails = MultiValue([(value: "robert@acme.example", label: .work)])
        let dora = makePerson("Dora", "Nnamdi")
        dora.emails = MultiValue([(value: "dora@acme.example", label: nil)])
        try book.add(dora)
        #expect(book.emailAddresses(matching: "nnamdi").map(\.address) == ["robert@acme.example", "dora@acme.example"])
        // Once saved, their summaries are the new ones.
        try book.save()
        #expect(book.emailAddresses(matching: "nnamdi").map(\.address) == ["robert@acme.example", "dora@acme.example"])
    }

    @Test func anIndexOfAnEarlierVersionIsRebuiltWithTheAddresses() throws {
        let store = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        var bytes = [UInt8](try Data(contentsOf: StoreIndex.baseURL(layout)))
        // Version 3 after the 8-byte magic, under a header checksum that holds.
        bytes[8] = 3
        let checksum = StoreIndex.checksum(bytes[0..<StoreIndex.headerSize])
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(StoreIndex.headerSize..<(StoreIndex.headerSize + 8), with: $0) }
        try Data(bytes).write(to: StoreIndex.baseURL(layout))
        #expect(StoreIndex.load(layout) == nil)
        #expect(try addresses("smith", in: store) == ["ann@acme.example", "a.smith@home.example"])
        #expect(StoreIndex.load(layout) != nil)
    }
}
