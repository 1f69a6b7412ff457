import DAVTestSupport
import Foundation
import Testing

@testable import PlainContacts

/// A program that opens a store again and again reads again only the groups whose files
/// changed, and never trusts a file changed too recently to tell.
@Suite struct GroupFileCacheTests {
    /// A store with the groups Family (Katie in it) and Work, and a cache to open it with.
    private func store() throws -> (TemporaryStore, AddressBookOptions, GroupFileCache) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        let family = Group(name: "Family")
        let work = Group(name: "Work")
        try book.add(family)
        try book.add(work)
        try book.save()
        try book.addMember(katie, to: family)
        try book.save()
        let cache = GroupFileCache()
        var options = AddressBookOptions()
        options.groupFileCache = cache
        return (store, options, cache)
    }

    private func memberNames(of name: String, in book: AddressBook) throws -> [String] {
        let group = try #require(book.allGroups().first { $0.name == name })
        return book.members(of: group).compactMap(\.firstName).sorted()
    }

    @Test(.tags(.slow), .slowTestsEnabled) func onlyGroupsWhoseFilesChangedAreReadAgain() throws {
        let (store, options, cache) = try store()
        // Files become trustworthy once they last changed more than the racy window ago.
        Thread.sleep(forTimeInterval: Double(FileSignature.racyWindow) / 1e9 + 0.2)
        _ = try AddressBook(url: store.storeURL, options: options)
        #expect(cache.reads == 2)
        #expect(cache.count == 2)

        let reopened = try AddressBook(url: store.storeURL, options: options)
        #expect(cache.reads == 2)
        #expect(try memberNames(of: "Family", in: reopened) == ["Katie"])

        // Another program adds Oliver to Family: only Family is read again, and seen.
        let other = try store.openBook()
        let oliver = makePerson("Oliver", "Wood")
        try other.add(oliver)
        try other.save()
        try other.addMember(oliver, to: try #require(other.allGroups().first { $0.name == "Family" }))
        try other.save()
        let afterChange = try AddressBook(url: store.storeURL, options: options)
        #expect(cache.reads == 3)
        #expect(try memberNames(of: "Family", in: afterChange) == ["Katie", "Oliver"])
        #expect(try memberNames(of: "Work", in: afterChange) == [])

        // Family's files changed just now, so it is not kept: the next opening reads it again.
        _ = try AddressBook(url: store.storeURL, options: options)
        #expect(cache.reads == 4)

        // A kept group whose files are gone is not given.
        try other.remove(try #require(other.allGroups().first { $0.name == "Work" }))
        try other.save()
        let afterRemoval = try AddressBook(url: store.storeURL, options: options)
        #expect(afterRemoval.allGroups().compactMap(\.name) == ["Family"])
        #expect(cache.reads == 5)
    }

    @Test func groupsChangedWithinTheRacyWindowAreReadAtEveryOpening() throws {
        let (store, options, cache) = try store()
        for opening in 1...3 {
            let book = try AddressBook(url: store.storeURL, options: options)
            #expect(cache.reads == 2 * opening)
            #expect(try memberNames(of: "Family", in: book) == ["Katie"])
        }
        #expect(cache.count == 0)
    }
}
