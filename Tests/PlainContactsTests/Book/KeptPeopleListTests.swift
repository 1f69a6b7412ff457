import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

/// A book's people list kept between changes and runs: encoded and read back, or caught up
/// with changed people, it lists what the book lists.
@Suite struct KeptPeopleListTests {
    /// The searches compared, the empty one listing everyone.
    private static let searches = ["", "ka", "山", "Иван", "bell katie", "zz"]

    /// A store holding the sample book (31 people in several scripts).
    private func sampleStore() throws -> TemporaryStore {
        let store = try TemporaryStore()
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Examples/SampleBook")
        try FileManager.default.copyItem(at: sample, to: store.storeURL)
        return store
    }

    /// Expects `list` to list what `book` lists, for every search.
    private func expectListed(_ list: KeptPeopleList, as book: AddressBook, _ comment: Comment) {
        for words in Self.searches {
            let listed = words.isEmpty ? book.listing() : book.listing(matchingName: words)
            #expect(list.lines(matchingName: words) == listed, comment)
        }
        #expect(list.count == book.personCount, comment)
    }

    @Test func theEncodedListReadsBackAsTheSameList() throws {
        let store = try sampleStore()
        let book = try store.openBook()
        let list = KeptPeopleList(book: book)
        let bytes = try #require(list.encoded)

        let read = try #require(KeptPeopleList(encoded: bytes))
        expectListed(read, as: book, "read back")
        #expect(read.withPhotos == list.withPhotos)
        #expect(read.encoded == bytes)
        // Read where it starts in bytes that hold more before it.
        let within = try #require(KeptPeopleList(encoded: [0x7B, 0x7D, 0x0A] + bytes, at: 3))
        expectListed(within, as: book, "read at an offset")
    }

    @Test func damagedOrForeignBytesAreNotReadAsAList() throws {
        let store = try sampleStore()
        let bytes = try #require(KeptPeopleList(book: try store.openBook()).encoded)

        #expect(KeptPeopleList(encoded: []) == nil)
        #expect(KeptPeopleList(encoded: Array(bytes.dropLast(7))) == nil)
        #expect(KeptPeopleList(encoded: bytes + [0]) == nil)
        #expect(KeptPeopleList(encoded: bytes, at: bytes.count + 1) == nil)
        // The version follows the magic string and its 4-byte length.
        var otherVersion = bytes
        otherVersion[4 + "plaincontacts-people-list".utf8.count] &+= 1
        #expect(KeptPeopleList(encoded: otherVersion) == nil)
    }

    @Test func aCaughtUpListIsTheBooksAfterItsPeopleChanged() throws {
        let store = try sampleStore()
        let list = KeptPeopleList(book: try store.openBook())
        let layout = StoreLayout(root: store.storeURL)

        let other = try store.openBook()
        let people = other.allPeople(sortedBy: .lastName)
        people[2].lastName = "Aardvark"
        people[5].phones = MultiValue([("+1 555 0777", .work)])
        let added = makePerson("Katie", "Zabel")
        try other.add(added)
        try other.remove(people[9])
        try other.save()
        let changed = Set(try [people[2], people[5], added].map { try #require($0.key) })
        let removed = try #require(people[9].key)

        let fresh = try store.openBook()
        let caughtUp = try #require(try list.caughtUp(withChangedPeople: changed.union([removed]), layout: layout))
        expectListed(caughtUp, as: fresh, "caught up with the keys changed")
        // Without the removed person's key, the keys of everyone saved tell it is gone.
        let present = try #require(try list.caughtUp(withChangedPeople: changed, present: Set(fresh.personKeys), layout: layout))
        expectListed(present, as: fresh, "caught up with the people present")
        let unchanged = try list.caughtUp(withChangedPeople: [], layout: layout)
        #expect(unchanged?.lines(matchingName: "") == list.lines(matchingName: ""))
    }
}
