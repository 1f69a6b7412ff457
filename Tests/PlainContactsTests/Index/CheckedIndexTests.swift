import DAVTestSupport
import Foundation
import Glibc
import PlainContactsSystem
import Testing

@testable import PlainContacts

/// The index is confirmed without listing `people/` only while that answers as reading every
/// file would: any change an editor, `git` or another program makes behind its back is seen.
@Suite struct CheckedIndexTests {
    /// A store with three saved people, each with an address, and their IDs by first name.
    private func storeWithPeople() throws -> (TemporaryStore, [String: RecordID]) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var people: [String: Person] = [:]
        for (first, last) in [("Katie", "Bell"), ("John", "Appleseed"), ("Anna", "Haro")] {
            let person = makePerson(first, last)
            person.emails = MultiValue([(value: "\(first.lowercased())@example.com", label: .work)])
            try book.add(person)
            people[first] = person
        }
        try book.save()
        return (store, people.mapValues(\.recordID))
    }

    /// Rewrites the index as a scan long after the files last changed would leave it: a base
    /// whose summaries and listing are all settled, so that only signatures tell changes.
    private func settle(_ store: TemporaryStore) throws -> StoreLayout {
        let layout = StoreLayout(root: store.storeURL)
        StoreIndex.remove(layout)
        let scanned = try PersonCatalog.scan(layout: layout, index: nil)
        let later = PersonCatalog.now() + 3_600_000_000_000
        try StoreIndex.write(
            scanned.summaries, peopleFolder: FileSignature.of(layout.peopleFolder.path),
            groupsFolder: FileSignature.of(layout.groupsFolder.path),
            listing: FolderListing(signature: try #require(folderSignature(layout)), listedAt: later), builtAt: later,
            layout: layout)
        return layout
    }

    /// `people/` as a listing sees it (through an open descriptor).
    private func folderSignature(_ layout: StoreLayout) -> FileSignature? {
        var status = stat()
        guard stat(layout.peopleFolder.path, &status) == 0 else { return nil }
        return FileSignature(status)
    }

    private func confirmed(_ layout: StoreLayout) throws -> CheckedIndex? {
        CheckedIndex(confirming: try #require(StoreIndex.load(layout, including: .summaries)), layout: layout)
    }

    /// Every address a book answers, with its person, as text.
    private func addresses(_ query: String, in book: AddressBook) -> [String] {
        book.emailAddresses(matching: query).map { "\($0.address) \($0.recordID) \($0.compositeName ?? "")" }
    }

    /// What a full read of the files answers.
    private func fullRead(_ query: String, in store: TemporaryStore) throws -> [String] {
        let layout = StoreLayout(root: store.storeURL)
        let saved = try (Data(contentsOf: StoreIndex.baseURL(layout)), Data(contentsOf: StoreIndex.logURL(layout)))
        defer {
            try? saved.0.write(to: StoreIndex.baseURL(layout))
            try? saved.1.write(to: StoreIndex.logURL(layout))
        }
        StoreIndex.remove(layout)
        return addresses(query, in: try store.openBook())
    }

    /// Writes `text` over a file in place (same inode, same folder), again until its signature
    /// differs from `before`: a write in the clock tick of the last could leave it unchanged.
    private func writeInPlace(_ text: String, to url: URL, differingFrom before: FileSignature) throws {
        for _ in 0..<1_000 {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
            if FileSignature.of(url.path) != before { return }
        }
        Issue.record("the file's signature never changed")
    }

    @Test func anUnchangedStoreIsConfirmedAndAnswersAsAFullRead() throws {
        let (store, ids) = try storeWithPeople()
        let layout = try settle(store)
        #expect(try confirmed(layout)?.count == 3)
        let book = try store.openBook()
        try book.validate()
        #expect(book.checked != nil)
        #expect(book.catalog == nil)
        for query in ["", "example", "john", "an", "zz"] {
            #expect(addresses(query, in: book) == (try fullRead(query, in: store)))
        }
        // Everything else reads the confirmed summaries without checking the files again.
        #expect(book.people(matchingName: "haro").map(\.recordID) == [ids["Anna"]])
        #expect(book.checked == nil)
        #expect(book.catalog?.count == 3)
        #expect(book.person(withID: ids["Katie"] ?? .invalid)?.lastName == "Bell")
    }

    @Test func anInPlaceEditThatKeepsTheSizeIsSeen() throws {
        let (store, ids) = try storeWithPeople()
        let layout = try settle(store)
        let john = try #require(try store.openBook().person(withID: ids["John"] ?? .invalid))
        let url = store.path(try store.personFile(john))
        let before = try #require(FileSignature.of(url.path))
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "\"John\"", with: "\"Jean\"")
            .replacingOccurrences(of: "john@example.com", with: "jean@example.com")
        try writeInPlace(text, to: url, differingFrom: before)
        let after = try #require(FileSignature.of(url.path))
        #expect(after.inode == before.inode)
        #expect(after.size == before.size)
        #expect(FileSignature.of(layout.peopleFolder.path) == StoreIndex.load(layout)?.peopleFolder)

        #expect(try confirmed(layout) == nil)
        let book = try store.openBook()
        try book.validate()
        #expect(book.checked == nil)
        #expect(addresses("jean", in: book) == ["jean@example.com \(john.recordID) Jean Appleseed"])
        #expect(try store.openBook().emailAddresses(matching: "john").isEmpty)
        #expect(addresses("example", in: try store.openBook()) == (try fullRead("example", in: store)))
    }

    /// An editor that restores the modification time after writing in place still changes
    /// the status-change time, which no program can set back.
    @Test func anInPlaceEditThatRestoresTheModificationTimeIsSeen() throws {
        let (store, ids) = try storeWithPeople()
        let layout = try settle(store)
        let anna = try #require(try store.openBook().person(withID: ids["Anna"] ?? .invalid))
        let url = store.path(try store.personFile(anna))
        var original = stat()
        #expect(stat(url.path, &original) == 0)
        let before = try #require(FileSignature.of(url.path))
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "anna@", with: "hana@")
        try writeInPlace(text, to: url, differingFrom: before)
        let times = [original.st_atim, original.st_mtim]
        #expect(utimensat(AT_FDCWD, url.path, times, 0) == 0)
        let after = try #require(FileSignature.of(url.path))
        #expect(after.modified == before.modified)
        #expect(after.size == before.size)
        #expect(after.inode == before.inode)
        try #require(after.changed != before.changed)

        #expect(try confirmed(layout) == nil)
        #expect(addresses("hana", in: try store.openBook()) == ["hana@example.com \(anna.recordID) Anna Haro"])
    }

    @Test func aFileAddedOrRemovedBehindTheIndexIsSeen() throws {
        let (store, ids) = try storeWithPeople()
        let layout = try settle(store)
        let katie = try #require(try store.openBook().person(withID: ids["Katie"] ?? .invalid))
        let katieFile = try store.personFile(katie)
        let copy = try store.read(katieFile)
            .replacingOccurrences(of: "\"id\": \(katie.recordID)", with: "\"id\": 40")
            .replacingOccurrences(of: "\"Katie\"", with: "\"Kim\"")
            .replacingOccurrences(of: "katie@", with: "kim@")
        try store.write(copy, to: "people/kim-added.json")
        try #require(folderSignature(layout) != StoreIndex.load(layout)?.listing?.signature)
        #expect(try confirmed(layout) == nil)
        #expect(addresses("kim", in: try store.openBook()) == ["kim@example.com 40 Kim Bell"])

        let settled = try settle(store)
        #expect(try confirmed(settled)?.count == 4)
        try FileManager.default.removeItem(at: store.path(katieFile))
        #expect(try confirmed(settled) == nil)
        let book = try store.openBook()
        #expect(book.emailAddresses(matching: "katie").isEmpty)
        #expect(book.personCount == 3)
        #expect(addresses("example", in: book) == (try fullRead("example", in: store)))
    }

    /// `git checkout` of another commit removes and writes files: the folder changes, and the
    /// other commit's people are what every answer gives.
    @Test func aGitCheckoutIsSeen() throws {
        let (store, ids) = try storeWithPeople()
        try git(["init", "-q", "-b", "main"], in: store.storeURL)
        try git(["add", "-A"], in: store.storeURL)
        try git(["commit", "-q", "-m", "three people"], in: store.storeURL)
        try git(["checkout", "-q", "-b", "other"], in: store.storeURL)
        let book = try store.openBook()
        let john = try #require(book.person(withID: ids["John"] ?? .invalid))
        john.emails = MultiValue([(value: "jappleseed@example.org", label: .home)])
        let anna = try #require(book.person(withID: ids["Anna"] ?? .invalid))
        try book.remove(anna)
        try book.save()
        try git(["commit", "-q", "-a", "-m", "John moved, Anna left"], in: store.storeURL)
        try git(["checkout", "-q", "main"], in: store.storeURL)

        let layout = try settle(store)
        #expect(try confirmed(layout)?.count == 3)
        #expect(addresses("john", in: try store.openBook()) == ["john@example.com \(john.recordID) John Appleseed"])
        try git(["checkout", "-q", "other"], in: store.storeURL)
        #expect(try confirmed(layout) == nil)
        let checkedOut = try store.openBook()
        try checkedOut.validate()
        #expect(addresses("john", in: checkedOut) == ["jappleseed@example.org \(john.recordID) John Appleseed"])
        #expect(checkedOut.emailAddresses(matching: "anna").isEmpty)
        #expect(addresses("example", in: try store.openBook()) == (try fullRead("example", in: store)))
    }

    /// A summary whose checksums hold but whose fields lie outside it is refused here as the
    /// full decoding refuses it.
    @Test func aSummaryWithMisplacedFieldsIsNotConfirmed() throws {
        let (store, _) = try storeWithPeople()
        let layout = try settle(store)
        let index = try #require(StoreIndex.load(layout, including: .summaries))
        var summaries = try #require(index.allSummaries())
        let katie = try #require(summaries.values.first { $0.parts.firstName == "Katie" })
        var writer = IndexWriter()
        katie.encode(into: &writer)
        var bytes = writer.bytes
        // The offset of the email addresses (at 52 in the body, after the 4-byte length), past the end.
        IndexWriter.store(UInt32(bytes.count * 2), at: 4 + 52, in: &bytes)
        summaries[katie.key] = PersonSummary(key: katie.key, storage: bytes, range: 4..<bytes.count)
        try StoreIndex.write(
            summaries, peopleFolder: index.peopleFolder, groupsFolder: index.groupsFolder, listing: index.listing,
            builtAt: index.builtAt, layout: layout)
        #expect(try confirmed(layout) == nil)
        #expect(addresses("katie", in: try store.openBook()) == (try fullRead("katie", in: store)))
    }

    /// A book confirmed by `validate()` answers for the people it read and changed as they now
    /// are, and a save keeps its answers right.
    @Test func unsavedChangesAfterValidationAreAnswered() throws {
        let (store, ids) = try storeWithPeople()
        _ = try settle(store)
        let book = try store.openBook()
        try book.validate()
        #expect(book.checked != nil)
        let katie = try #require(book.person(withID: ids["Katie"] ?? .invalid))
        katie.emails = MultiValue([(value: "kb@example.net", label: nil)])
        let anna = try #require(book.person(withID: ids["Anna"] ?? .invalid))
        try book.remove(anna)
        #expect(book.emailAddresses(matching: "example").map(\.address) == ["john@example.com", "kb@example.net"])
        try book.save()
        #expect(book.emailAddresses(matching: "example").map(\.address) == ["john@example.com", "kb@example.net"])
        #expect(addresses("example", in: book) == (try fullRead("example", in: store)))
    }

    @Test func theListingIsKeptInTheBaseAndTheLog() throws {
        let (store, _) = try storeWithPeople()
        let layout = try settle(store)
        let index = try #require(StoreIndex.load(layout))
        let listing = try #require(index.listing)
        #expect(listing.signature == folderSignature(layout))
        let later = FolderListing(signature: listing.signature, listedAt: listing.listedAt + 1)
        try index.append(
            updated: [], added: [], removed: [], peopleFolder: index.peopleFolder, groupsFolder: index.groupsFolder,
            listing: later, checkedAt: PersonCatalog.now(), layout: layout)
        #expect(StoreIndex.load(layout)?.listing == later)
        // A save records no listing: the last one stays.
        try index.append(
            updated: [], added: [], removed: [], peopleFolder: index.peopleFolder, groupsFolder: index.groupsFolder,
            checkedAt: PersonCatalog.now(), layout: layout)
        #expect(StoreIndex.load(layout)?.listing == later)
    }

    /// An index written by an earlier version is ignored, never read with this one's layout,
    /// and the next look at everyone rebuilds it.
    @Test func anIndexOfAnotherVersionIsRebuilt() throws {
        let (store, _) = try storeWithPeople()
        let layout = try settle(store)
        var bytes = [UInt8](try Data(contentsOf: StoreIndex.baseURL(layout)))
        IndexWriter.store(4, at: StoreIndex.magic.count, in: &bytes)
        let checksum = StoreIndex.checksum(bytes[0..<StoreIndex.headerSize])
        withUnsafeBytes(of: checksum.littleEndian) { raw in
            for (offset, byte) in raw.enumerated() { bytes[StoreIndex.headerSize + offset] = byte }
        }
        try Data(bytes).write(to: StoreIndex.baseURL(layout))
        #expect(StoreIndex.load(layout) == nil)
        let book = try store.openBook()
        #expect(addresses("example", in: book) == (try fullRead("example", in: store)))
        #expect(StoreIndex.load(layout)?.count == 3)
    }
}
