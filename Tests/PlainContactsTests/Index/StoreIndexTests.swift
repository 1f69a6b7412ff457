import DAVTestSupport
import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts

/// The index must never change results: after any change made behind its back, every
/// operation answers exactly as a full read of the files would.
@Suite struct StoreIndexTests {
    /// A store with three saved people, and their IDs by first name.
    private func storeWithPeople() throws -> (TemporaryStore, [String: RecordID]) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var ids: [String: RecordID] = [:]
        for (first, last) in [("Katie", "Bell"), ("John", "Appleseed"), ("Anna", "Haro")] {
            let person = makePerson(first, last)
            try book.add(person)
            try book.save()
            ids[first] = person.recordID
        }
        return (store, ids)
    }

    /// What a full read of the files gives: (ID, composite name) sorted by ID.
    private func fullRead(_ store: TemporaryStore) throws -> [String] {
        StoreIndex.remove(StoreLayout(root: store.storeURL))
        let book = try store.openBook()
        return book.allPeople().map { "\($0.recordID) \($0.compositeName ?? "")" }.sorted()
    }

    private func indexed(_ store: TemporaryStore) throws -> [String] {
        try store.openBook().allPeople().map { "\($0.recordID) \($0.compositeName ?? "")" }.sorted()
    }

    @Test func saveKeepsTheIndexCurrentSoTheNextOpenTrustsIt() throws {
        let (store, ids) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        let index = try #require(StoreIndex.load(layout, including: .idTable))
        #expect(index.count == 3)
        #expect(IndexMaintenance(layout: layout).isCurrent())
        #expect(index.key(forID: ids["John"] ?? .invalid)?.rawValue.hasPrefix("john-appleseed-") == true)
        let book = try store.openBook()
        #expect(book.catalog == nil)
        #expect(book.personCount == 3)
        #expect(book.person(withID: ids["Anna"] ?? .invalid)?.firstName == "Anna")
    }

    @Test func anEditorsInPlaceWriteIsSeenBySearchAndList() throws {
        let (store, ids) = try storeWithPeople()
        let book = try store.openBook()
        let john = try #require(book.person(withID: ids["John"] ?? .invalid))
        let file = try store.personFile(john)
        // Same inode, same folder: only the file's own times and size change.
        let handle = try FileHandle(forWritingTo: store.path(file))
        let text = try store.read(file).replacingOccurrences(of: "\"John\"", with: "\"Johnny\"")
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        #expect(try store.openBook().people(matchingName: "johnny").count == 1)
        #expect(try store.openBook().people(matchingName: "john").map(\.firstName) == ["Johnny"])
        #expect(try indexed(store) == fullRead(store))
    }

    @Test func aGitCheckoutStyleReplacementIsSeenEverywhere() throws {
        let (store, ids) = try storeWithPeople()
        let book = try store.openBook()
        let anna = try #require(book.person(withID: ids["Anna"] ?? .invalid))
        let file = try store.personFile(anna)
        let text = try store.read(file).replacingOccurrences(of: "\"Haro\"", with: "\"Smith\"")
        try FileManager.default.removeItem(at: store.path(file))
        try store.write(text, to: file)
        let reopened = try store.openBook()
        #expect(reopened.person(withID: ids["Anna"] ?? .invalid)?.lastName == "Smith")
        #expect(reopened.people(matchingName: "smith").count == 1)
        #expect(try indexed(store) == fullRead(store))
    }

    @Test func filesAddedAndRemovedBehindTheIndexAreSeen() throws {
        let (store, ids) = try storeWithPeople()
        let book = try store.openBook()
        let katie = try #require(book.person(withID: ids["Katie"] ?? .invalid))
        let katieFile = try store.personFile(katie)
        let copy = try store.read(katieFile)
            .replacingOccurrences(of: "\"id\": \(katie.recordID)", with: "\"id\": 40")
            .replacingOccurrences(of: "\"Katie\"", with: "\"Kim\"")
        try store.write(copy, to: "people/kim-added.json")
        try FileManager.default.removeItem(at: store.path(katieFile))
        let reopened = try store.openBook()
        #expect(reopened.personCount == 3)
        #expect(reopened.person(withID: RecordID(40))?.firstName == "Kim")
        #expect(reopened.person(withID: katie.recordID) == nil)
        #expect(try indexed(store) == fullRead(store))
    }

    /// A scan that finds one new file appends it to the log instead of rewriting the base; a
    /// second scan that started from the same index must not record it again, or the count
    /// would be off.
    @Test func aScanRecordsAFewChangesInTheLogOnlyOnce() throws {
        let (store, ids) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        StoreIndex.remove(layout)
        _ = try PersonCatalog.scan(layout: layout, index: nil)
        let base = FileSignature.of(StoreIndex.baseURL(layout).path)
        let first = try #require(StoreIndex.load(layout, including: .summaries))
        let second = try #require(StoreIndex.load(layout, including: .summaries))

        let book = try store.openBook()
        let katie = try #require(book.person(withID: ids["Katie"] ?? .invalid))
        let copy = try store.read(try store.personFile(katie))
            .replacingOccurrences(of: "\"id\": \(katie.recordID)", with: "\"id\": 40")
            .replacingOccurrences(of: "\"Katie\"", with: "\"Kim\"")
        try store.write(copy, to: "people/kim-added.json")

        let scanned = try PersonCatalog.scan(layout: layout, index: first)
        #expect(scanned.summaries.count == 4)
        #expect(FileSignature.of(StoreIndex.baseURL(layout).path) == base)
        #expect(StoreIndex.load(layout)?.count == 4)
        #expect(StoreIndex.load(layout, including: .idTable)?.key(forID: RecordID(40))?.rawValue == "kim-added")

        _ = try PersonCatalog.scan(layout: layout, index: second)
        #expect(StoreIndex.load(layout)?.count == 4)
        #expect(try store.openBook().personCount == 4)
        #expect(try indexed(store) == fullRead(store))
    }

    /// A file that collides with another person's ID is not put in the log: the base is
    /// rewritten, and notes the duplicate so that opening settles it.
    @Test func aScanThatFindsADuplicateIDRewritesTheBase() throws {
        let (store, ids) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        StoreIndex.remove(layout)
        _ = try PersonCatalog.scan(layout: layout, index: nil)
        let book = try store.openBook()
        let katie = try #require(book.person(withID: ids["Katie"] ?? .invalid))
        let copy = try store.read(try store.personFile(katie)).replacingOccurrences(of: "\"Katie\"", with: "\"Kim\"")
        try store.write(copy, to: "people/kim-added.json")
        _ = try PersonCatalog.scan(layout: layout, index: StoreIndex.load(layout))
        #expect(StoreIndex.load(layout)?.hasDuplicateIDs == true)
        let reopened = try store.openBook()
        #expect(Set(reopened.allPeople().map(\.recordID)).count == 4)
    }

    @Test func anotherProcessesSaveIsSeenByABookOpenedEarlier() throws {
        let (store, _) = try storeWithPeople()
        let early = try store.openBook()
        let other = try store.openBook()
        let zed = makePerson("Zed", "Zulu")
        try other.add(zed)
        try other.save()
        // The early book did not read the people yet: the first look at all people scans.
        #expect(early.people(matchingName: "zed").count == 1)
        #expect(try store.openBook().person(withID: zed.recordID)?.firstName == "Zed")
    }

    @Test func deletingTheIndexChangesNothingButSpeed() throws {
        let (store, ids) = try storeWithPeople()
        let before = try indexed(store)
        StoreIndex.remove(StoreLayout(root: store.storeURL))
        let book = try store.openBook()
        #expect(book.personCount == 3)
        #expect(book.person(withID: ids["Katie"] ?? .invalid)?.lastName == "Bell")
        #expect(try indexed(store) == before)
        #expect(StoreIndex.load(StoreLayout(root: store.storeURL)) != nil)
    }

    @Test func aScanRefreshesFolderSignaturesSoTheNextOpenIsFastAgain() throws {
        let (store, _) = try storeWithPeople()
        // A file that comes and goes changes the folder but no record.
        try store.write("scratch", to: "people/notes.txt")
        try FileManager.default.removeItem(at: store.path("people/notes.txt"))
        let stale = try store.openBook()
        #expect(stale.catalog != nil)
        let fast = try store.openBook()
        #expect(fast.catalog == nil)
    }

    /// A byte flipped in the header, the ID table or the summaries: the damaged part is
    /// refused, and every answer stays that of a full read.
    @Test(arguments: [20, StoreIndex.headerSize + 10, -10])
    func aDamagedIndexIsIgnored(offset: Int) throws {
        let (store, ids) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        // A base that holds all three people (saves put them in the log).
        StoreIndex.remove(layout)
        _ = try PersonCatalog.scan(layout: layout, index: nil)
        var bytes = try Data(contentsOf: StoreIndex.baseURL(layout))
        #expect(bytes.count > StoreIndex.headerSize + 100)
        bytes[offset >= 0 ? offset : bytes.count + offset] ^= 0xFF
        try bytes.write(to: StoreIndex.baseURL(layout))
        #expect(StoreIndex.load(layout, including: .summaries) == nil)
        if offset >= 0 {
            #expect(StoreIndex.load(layout, including: .idTable) == nil)
        }
        if (0..<StoreIndex.headerSize).contains(offset) {
            #expect(StoreIndex.load(layout) == nil)
        }
        let book = try store.openBook()
        #expect(book.person(withID: ids["John"] ?? .invalid)?.lastName == "Appleseed")
        #expect(book.person(withID: ids["Anna"] ?? .invalid)?.lastName == "Haro")
        #expect(try indexed(store) == fullRead(store))
    }

    @Test func aTruncatedBaseIsIgnored() throws {
        let (store, _) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        StoreIndex.remove(layout)
        _ = try PersonCatalog.scan(layout: layout, index: nil)
        let bytes = try Data(contentsOf: StoreIndex.baseURL(layout))
        try bytes.prefix(bytes.count / 2).write(to: StoreIndex.baseURL(layout))
        #expect(StoreIndex.load(layout) == nil)
        #expect(try indexed(store) == fullRead(store))
    }

    /// A summary whose checksums hold but whose fields lie outside it (as a faulty writer
    /// could leave it) must not read as a person without search words: the index is ignored.
    @Test func aSummaryWithMisplacedFieldsIsNotTrusted() throws {
        let (store, _) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        StoreIndex.remove(layout)
        var summaries = try PersonCatalog.scan(layout: layout, index: nil).summaries
        let katie = try #require(summaries.values.first { $0.parts.firstName == "Katie" })
        var writer = IndexWriter()
        katie.encode(into: &writer)
        var bytes = writer.bytes
        // The offset of the search words (at 44 in the body, after the 4-byte length), past the end.
        IndexWriter.store(UInt32(bytes.count * 2), at: 4 + 44, in: &bytes)
        summaries[katie.key] = PersonSummary(key: katie.key, storage: bytes, range: 4..<bytes.count)
        // Written well after the files last changed, so that their signatures are trusted.
        try StoreIndex.write(
            summaries, peopleFolder: FileSignature.of(layout.peopleFolder.path),
            groupsFolder: FileSignature.of(layout.groupsFolder.path), builtAt: PersonCatalog.now() + 60_000_000_000,
            layout: layout)
        #expect(try store.openBook().people(matchingName: "katie").count == 1)
        #expect(try indexed(store) == fullRead(store))
    }

    /// Without its log, the base would answer with summaries older than the last saves.
    @Test func aLogThatCannotBeReadDiscardsTheWholeIndex() throws {
        let (store, _) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        #expect(StoreIndex.load(layout) != nil)
        let log = StoreIndex.logURL(layout)
        try FileManager.default.removeItem(at: log)
        // Opening a folder for reading works; reading it fails with EISDIR.
        try FileManager.default.createDirectory(at: log, withIntermediateDirectories: false)
        #expect(StoreIndex.load(layout) == nil)
        #expect(StoreIndex.load(layout, including: .summaries) == nil)
        #expect(try indexed(store) == fullRead(store))
    }

    @Test func theIDTableFindsEveryPersonAmongMany() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var people: [Person] = []
        for index in 0..<300 {
            let person = makePerson("P\(index)", "Table")
            try book.add(person)
            people.append(person)
        }
        try book.save()
        let layout = StoreLayout(root: store.storeURL)
        // Rebuild the base so that every person is in the table rather than the log.
        StoreIndex.remove(layout)
        _ = try PersonCatalog.scan(layout: layout, index: nil)
        // A save reads only the header: no table, so no lookups.
        #expect(StoreIndex.load(layout)?.key(forID: people[0].recordID) == nil)
        let index = try #require(StoreIndex.load(layout, including: .idTable))
        #expect(index.count == 300)
        for person in people {
            #expect(index.key(forID: person.recordID) == person.key)
        }
        #expect(index.key(forID: RecordID(100_000)) == nil)
        #expect(index.key(forID: RecordID(0)) == nil)
    }

    @Test func aTornLogRecordIsIgnoredAndTheIndexStopsBeingTrusted() throws {
        let (store, _) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        let log = StoreIndex.logURL(layout)
        var bytes = try Data(contentsOf: log)
        bytes.removeLast(3)
        try bytes.write(to: log)
        #expect(try indexed(store) == fullRead(store))
    }

    @Test func manySavesCompactTheLogWithoutLosingAnyone() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        var expected: [String] = []
        for index in 0..<120 {
            let person = makePerson("P\(index)", "Compact")
            // A long nickname makes each log record a few kilobytes, so the log passes the
            // compaction threshold (256 KB) several times.
            person.nickname = String(repeating: "nick ", count: 600)
            try book.add(person)
            try book.save()
            expected.append("\(person.recordID) P\(index) Compact")
        }
        let layout = StoreLayout(root: store.storeURL)
        #expect(IndexMaintenance(layout: layout).isCurrent())
        #expect(StoreIndex.load(layout)?.count == 120)
        #expect(StoreIndex.load(layout, including: .summaries)?.allSummaries()?.count == 120)
        #expect(try store.openBook().personCount == 120)
        #expect(try indexed(store) == expected.sorted())
    }

    @Test func aChangedSignatureIsReadAgainEvenOutsideTheRacyWindow() throws {
        let (store, ids) = try storeWithPeople()
        let layout = StoreLayout(root: store.storeURL)
        // An index whose every entry is trusted on signature alone.
        let scanned = try PersonCatalog.scan(layout: layout, index: nil)
        try StoreIndex.write(
            scanned.summaries, peopleFolder: FileSignature.of(layout.peopleFolder.path),
            groupsFolder: FileSignature.of(layout.groupsFolder.path),
            builtAt: PersonCatalog.now() + 3_600_000_000_000, layout: layout)
        let unchanged = try PersonCatalog.scan(layout: layout, index: StoreIndex.load(layout))
        #expect(unchanged.freshlyRead.isEmpty)

        let book = try store.openBook()
        let john = try #require(book.person(withID: ids["John"] ?? .invalid))
        let file = store.path(try store.personFile(john))
        let handle = try FileHandle(forWritingTo: file)
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"John\"", with: "\"Jean\"")
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        let changed = try PersonCatalog.scan(layout: layout, index: StoreIndex.load(layout))
        #expect(changed.freshlyRead.keys.map(\.rawValue) == [try #require(john.key).rawValue])
        #expect(changed.summaries[try #require(john.key)]?.parts.firstName == "Jean")
    }

    @Test func summariesRoundTripThroughTheBinaryForm() throws {
        var decoded = PersonRecordCoder.Decoded(id: RecordID(7), state: PersonState(), storedNameHash: nil)
        decoded.state.values[.firstName] = .string("太郎")
        decoded.state.values[.lastName] = .string("山田")
        decoded.state.values[.lastNamePhonetic] = .string("やまだ")
        decoded.state.values[.phones] = .multiString(MultiValue([(value: "555", label: .mobile)]))
        decoded.state.values[.emails] = .multiString(MultiValue([(value: "t@example.jp", label: .work), (value: "y@example.jp", label: nil)]))
        decoded.state.unknownFields["uid"] = .string("urn:uuid:1")
        decoded.state.mergedKeys = ["old-key"]
        let key = try #require(RecordKey(rawValue: "tarou-yamada-abc123"))
        let summary = PersonSummary(
            key: key, signature: FileSignature(inode: 1, size: 2, modified: 3, changed: 4), decoded: decoded)
        var writer = IndexWriter()
        summary.encode(into: &writer)
        var reader = IndexReader(writer.bytes)
        let decodedSummary = try PersonSummary.decode(&reader)
        #expect(decodedSummary == summary)
        #expect(decodedSummary.parts.lastNamePhonetic == "やまだ")
        #expect(decodedSummary.firstPhone == "555")
        #expect(decodedSummary.firstEmail == "t@example.jp")
        #expect(decodedSummary.emailCount == 2)
        #expect(decodedSummary.emails.map(\.label) == ["work", nil])
        #expect(decodedSummary.emails.map(\.address) == ["t@example.jp", "y@example.jp"])
        var walked: [String] = []
        decodedSummary.forEachEmailAddress { position, address in
            walked.append("\(position) \(String(decoding: address, as: UTF8.self))")
        }
        #expect(walked == ["0 t@example.jp", "1 y@example.jp"])
        #expect(decodedSummary.uid == "urn:uuid:1")
        #expect(decodedSummary.mergedKeys == ["old-key"])
        #expect(decodedSummary.id == RecordID(7))
        #expect(decodedSummary.signature == FileSignature(inode: 1, size: 2, modified: 3, changed: 4))
        #expect(decodedSummary.matches(queryWords: [Array("やま".utf8)]))
        #expect(decodedSummary.matches(queryWords: [Array("山田".utf8), Array("太".utf8)]))
        #expect(!decodedSummary.matches(queryWords: [Array("田".utf8)]))
        #expect(decodedSummary.sortKey(.lastName) == SortKey(decoded.state.nameParts, ordering: .lastName))
    }
}
