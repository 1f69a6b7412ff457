import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct AddressBookListingTests {
    @Test(arguments: SortOrdering.allCases)
    func theListingMatchesTheSortedPeople(_ ordering: SortOrdering) throws {
        let store = try TemporaryStore()
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Examples/SampleBook")
        try FileManager.default.copyItem(at: sample, to: store.storeURL)
        let fromIndex = try store.openBook().listing(sortedBy: ordering)
        let book = try store.openBook()
        let fromFiles = book.allPeople(sortedBy: ordering).map {
            PersonListing(recordID: $0.recordID, compositeName: $0.compositeName, firstPhone: $0.phones.first?.value, firstEmail: $0.emails.first?.value)
        }
        #expect(fromIndex.count == 31)
        #expect(fromIndex == fromFiles)
    }

    @Test(arguments: ["ka", "山", "Иван", "bell katie", "zz", "ｓｍｉｔｈ"])
    func theSearchListingMatchesTheNameSearch(_ query: String) throws {
        let store = try TemporaryStore()
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Examples/SampleBook")
        try FileManager.default.copyItem(at: sample, to: store.storeURL)
        let fromIndex = try store.openBook().listing(matchingName: query)
        let book = try store.openBook()
        let fromFiles = book.people(matchingName: query).map {
            PersonListing(recordID: $0.recordID, compositeName: $0.compositeName, firstPhone: $0.phones.first?.value, firstEmail: $0.emails.first?.value)
        }
        #expect(fromIndex == fromFiles)
    }

    @Test func theListingShowsUnsavedEditsAndAdditions() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        try book.add(katie)
        try book.save()
        let reopened = try store.openBook()
        try #require(reopened.person(withID: katie.recordID)).lastName = "Appleseed"
        try reopened.add(makePerson("Zed", "Zulu"))
        #expect(reopened.listing(sortedBy: .lastName).map(\.compositeName) == ["Katie Appleseed", "Zed Zulu"])
    }
}
