import DAVTestSupport
import Foundation
import PlainContactsSystem
import Synchronization
import Testing

@testable import PlainContacts

/// A clock in the units of file times (nanoseconds since 1970) that a test sets ahead, to open
/// a store as if its files had last changed long before.
private final class FileTimeClock: Sendable {
    private let ahead = Atomic<Int64>(0)

    /// The current time, plus the time set ahead.
    func now() -> Int64 {
        PersonCatalog.now() + ahead.load(ordering: .relaxed)
    }

    /// Sets the clock `nanoseconds` ahead of the current time (0: back to it).
    func setAhead(by nanoseconds: Int64) {
        ahead.store(nanoseconds, ordering: .relaxed)
    }
}

/// A program that opens a store again and again reads again only the groups whose files
/// changed, and never trusts a file changed too recently to tell.
@Suite struct GroupFileCacheTests {
    /// A store with the groups Family (Katie in it) and Work, and a cache to open it with.
    private func store(clock: FileTimeClock = FileTimeClock()) throws -> (TemporaryStore, AddressBookOptions, GroupFileCache) {
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
        let cache = GroupFileCache(now: { clock.now() })
        var options = AddressBookOptions()
        options.groupFileCache = cache
        return (store, options, cache)
    }

    private func memberNames(of name: String, in book: AddressBook) throws -> [String] {
        let group = try #require(book.allGroups().first { $0.name == name })
        return book.members(of: group).compactMap(\.firstName).sorted()
    }

    @Test func onlyGroupsWhoseFilesChangedAreReadAgain() throws {
        let clock = FileTimeClock()
        let (store, options, cache) = try store(clock: clock)
        // Files become trustworthy once they last changed more than the racy window ago: the
        // first openings are as if that long after the store was written.
        clock.setAhead(by: FileSignature.racyWindow + 200_000_000)
        _ = try AddressBook(url: store.storeURL, options: options)
        #expect(cache.reads == 2)
        #expect(cache.count == 2)

        let reopened = try AddressBook(url: store.storeURL, options: options)
        #expect(cache.reads == 2)
        #expect(try memberNames(of: "Family", in: reopened) == ["Katie"])

        // Another program adds Oliver to Family just before the next opening: only Family is
        // read again, and seen.
        clock.setAhead(by: 0)
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
