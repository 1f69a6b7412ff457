import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The sync carried out against an in-memory server: every scenario of the issue that does not
/// need a real server (those run against Radicale and Xandikos in the integration tests).
@Suite struct ContactSyncTests {
    private let store: TemporaryStore
    private let server = InMemoryAddressBook()

    init() throws {
        store = try TemporaryStore()
        _ = try store.makeBook()
    }

    private var statusFolder: URL { store.path(".contacts/sync/test") }

    @discardableResult
    private func sync(
        prefer: MergePreference? = nil, force: Bool = false, dryRun: Bool = false, server: InMemoryAddressBook? = nil,
        storeURL: URL? = nil
    ) throws -> SyncReport {
        let book = try AddressBook(url: storeURL ?? store.storeURL)
        var sync = ContactSync(
            book: book, remote: server ?? self.server,
            statusFolder: (storeURL ?? store.storeURL).appending(path: ".contacts/sync/test"))
        sync.options.prefer = prefer
        sync.options.force = force
        sync.options.dryRun = dryRun
        return try sync.run()
    }

    private func addPerson(_ first: String, _ last: String, phone: String? = nil, uid: String? = nil) throws -> RecordID {
        let book = try store.openBook()
        let person = Person()
        person.firstName = first
        person.lastName = last
        if let phone { person.phones = MultiValue([(phone, .mobile)]) }
        if let uid {
            var state = person.state
            VCardRecordFields.setUID(uid, in: &state)
            person.state = state
        }
        try book.add(person)
        try book.save()
        return person.recordID
    }

    private func edit(_ id: RecordID, _ change: (Person) -> Void) throws {
        let book = try store.openBook()
        let person = try #require(book.person(withID: id))
        change(person)
        try book.save()
    }

    private func people() throws -> [Person] {
        try store.openBook().allPeople().sorted { ($0.lastName ?? "") < ($1.lastName ?? "") }
    }

    private static func card(_ uid: String, first: String, last: String, extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(last);\(first);;;", "FN:\(first) \(last)"] + extra + ["END:VCARD", ""])
            .joined(separator: "\n")
    }

    /// Every record file's bytes, by path.
    private func recordBytes() throws -> [String: Data] {
        var result: [String: Data] = [:]
        for folder in ["people", "groups"] {
            for name in try store.files(in: folder) {
                result["\(folder)/\(name)"] = try Data(contentsOf: store.path("\(folder)/\(name)"))
            }
        }
        return result
    }

    // MARK: First sync

    @Test func firstSyncCarriesEachSideToTheOther() throws {
        _ = try addPerson("Katie", "Bell", phone: "+44 20 7946 0001")
        server.put(Self.card("b-1", first: "John", last: "Appleseed", extra: ["TEL;TYPE=CELL:+1 555 0100"]), name: "b-1.vcf")

        let report = try sync()

        #expect(report.local.added == 1)
        #expect(report.remote.added == 1)
        #expect(try people().map(\.lastName) == ["Appleseed", "Bell"])
        #expect(server.cards.count == 2)
        #expect(server.href(containing: "N:Bell;Katie") != nil)
        // An initial sync-collection listed the cards and gave the token in one request.
        #expect(server.listings == 0)
    }

    @Test func cardsASyncReportLeavesOutAreFetched() throws {
        server.sendsCardsWithChanges = false
        server.put(Self.card("b-1", first: "John", last: "Appleseed"), name: "b-1.vcf")
        try sync()
        #expect(server.fetched == 1)
        server.put(Self.card("b-1", first: "Johnny", last: "Appleseed"), name: "b-1.vcf")
        try sync()
        #expect(server.fetched == 2)
        #expect(try people().first?.firstName == "Johnny")
    }

    @Test func aServerWithoutSyncCollectionIsListedAndItsCtagSparesUnchangedSyncs() throws {
        server.offersSyncCollection = false
        server.put(Self.card("b-1", first: "John", last: "Appleseed"), name: "b-1.vcf")
        try sync()
        #expect(server.listings == 1)

        let report = try sync()
        #expect(report.incremental)
        #expect(server.listings == 1)

        server.put(Self.card("b-1", first: "Johnny", last: "Appleseed"), name: "b-1.vcf")
        try sync()
        #expect(server.listings == 2)
        #expect(try people().first?.firstName == "Johnny")
    }

    @Test func aFirstSyncWhoseReportIsTooLargeListsAndFetchesTheCardsInstead() throws {
        server.answersWithCardsTooLarge = true
        server.put(Self.card("b-1", first: "John", last: "Appleseed"), name: "b-1.vcf")

        try sync()

        #expect(server.listings == 1)
        #expect(server.fetched == 1)
        #expect(try people().map(\.lastName) == ["Appleseed"])
    }

    @Test func anAnswerTooLargeEndsALaterSyncAndChangesNeitherTheStoreNorTheStatus() throws {
        server.put(Self.card("b-1", first: "John", last: "Appleseed"), name: "b-1.vcf")
        try sync()
        _ = try addPerson("Katie", "Bell")
        server.put(Self.card("b-2", first: "Remote", last: "Two"), name: "b-2.vcf")
        let records = try recordBytes()
        let statusFiles = try FileManager.default.contentsOfDirectory(atPath: statusFolder.path(percentEncoded: false))
        let status = try statusFiles.map { try Data(contentsOf: statusFolder.appending(path: $0)) }
        server.answersWithCardsTooLarge = true

        let error = try #require(throws: SyncError.self) { try sync() }

        #expect(error.code == .responseTooLarge)
        #expect(try recordBytes() == records)
        #expect(try statusFiles.map { try Data(contentsOf: statusFolder.appending(path: $0)) } == status)
        #expect(server.cards.count == 2)
    }

    @Test func firstSyncMatchesCardsTheStoreAlreadyHasByUID() throws {
        let text = Self.card("shared-1", first: "Katie", last: "Bell", extra: ["TEL;TYPE=CELL:+44 20 7946 0001"])
        _ = try store.openBook().importVCards(from: Data(text.utf8), source: "old.vcf")
        server.put(text, name: "shared-1.vcf")

        let report = try sync()

        #expect(try people().count == 1)
        #expect(server.cards.count == 1)
        #expect(report.local.total == 0)
        #expect(report.remote.total == 0)
        #expect(report.conflicts.isEmpty)
    }

    @Test func aSecondSyncWritesNothingOnEitherSide() throws {
        _ = try addPerson("Katie", "Bell", phone: "+44 20 7946 0001")
        server.put(Self.card("b-1", first: "John", last: "Appleseed", extra: ["X-UNKNOWN;X-P=1:kept"]), name: "b-1.vcf")
        try sync()
        let files = try recordBytes()
        let writes = server.writes
        let status = try Data(contentsOf: statusFolder.appending(path: "status"))

        let report = try sync()

        #expect(report.local.total == 0 && report.remote.total == 0)
        #expect(server.writes == writes)
        #expect(try recordBytes() == files)
        #expect(report.incremental)
        // The second sync reads the first one's own uploads back once, to learn the token after them.
        let settled = try Data(contentsOf: statusFolder.appending(path: "status"))
        #expect(settled != status)
        try sync()
        #expect(try Data(contentsOf: statusFolder.appending(path: "status")) == settled)
    }

    // MARK: Changes on one side

    @Test func aStoreEditReachesTheServerWithEveryUnknownLineOfTheCard() throws {
        server.put(
            Self.card(
                "u-1", first: "John", last: "Appleseed",
                extra: ["item1.TEL;TYPE=pref:+1 555 0100", "item1.X-ABLabel:Lab", "X-UNKNOWN;X-P=1:kept", "NOTE:old"]),
            name: "u-1.vcf")
        try sync()
        let id = try #require(try people().first?.recordID)

        try edit(id) { $0.note = "new note" }
        let report = try sync()

        #expect(report.remote.changed == 1)
        let text = try #require(server.text("/me/contacts/u-1.vcf"))
        #expect(text.contains("NOTE:new note"))
        #expect(text.contains("X-UNKNOWN;X-P=1:kept"))
        #expect(text.contains("item1.X-ABLabel:Lab"))
        #expect(text.contains("UID:u-1"))
    }

    @Test func aRecordFileEditedByHandIsSeenAlthoughUnchangedFilesAreNotRead() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        server.put(Self.card("u-2", first: "Katie", last: "Bell"), name: "u-2.vcf")
        try sync()
        let person = try #require(try people().first { $0.lastName == "Appleseed" })
        let file = store.path(try store.personFile(person))
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"note\": \"old\"", with: "\"note\": \"new\"").utf8).write(to: file)

        let report = try sync()

        #expect(report.remote.changed == 1)
        #expect(server.text("/me/contacts/u-1.vcf")?.contains("NOTE:new") == true)
    }

    @Test func aServerEditReachesTheStore() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed"), name: "u-1.vcf")
        try sync()

        server.put(Self.card("u-1", first: "Johnny", last: "Appleseed"), name: "u-1.vcf")
        let report = try sync()

        #expect(report.local.changed == 1)
        #expect(try people().first?.firstName == "Johnny")
        #expect(server.writes == 0)
    }

    @Test func changesToDifferentPropertiesOnBothSidesMerge() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        try sync()
        let id = try #require(try people().first?.recordID)

        try edit(id) { $0.note = "store note" }
        server.put(Self.card("u-1", first: "Johnny", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        let report = try sync()

        #expect(report.conflicts.isEmpty)
        let person = try #require(try people().first)
        #expect(person.firstName == "Johnny")
        #expect(person.note == "store note")
        let text = try #require(server.text("/me/contacts/u-1.vcf"))
        #expect(text.contains("Johnny") && text.contains("NOTE:store note"))
    }

    // MARK: Conflicts

    @Test func theSamePropertyChangedDifferentlyIsAConflictUntilAPreference() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        try sync()
        let id = try #require(try people().first?.recordID)
        try edit(id) { $0.note = "store note" }
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:phone note"]), name: "u-1.vcf")
        let serverText = server.text("/me/contacts/u-1.vcf")

        let report = try sync()

        #expect(report.conflicts.map(\.properties) == [["note"]])
        #expect(try people().first?.note == "store note")
        #expect(server.text("/me/contacts/u-1.vcf") == serverText)

        let again = try sync()
        #expect(again.conflicts.count == 1)

        let resolved = try sync(prefer: .remote)
        #expect(resolved.conflicts.isEmpty)
        #expect(try people().first?.note == "phone note")
        #expect(try sync().conflicts.isEmpty)
    }

    @Test func preferLocalSettlesAConflictWithTheStoresValue() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        try sync()
        let id = try #require(try people().first?.recordID)
        try edit(id) { $0.note = "store note" }
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:phone note"]), name: "u-1.vcf")

        let report = try sync(prefer: .local)

        #expect(report.conflicts.isEmpty)
        #expect(server.text("/me/contacts/u-1.vcf")?.contains("NOTE:store note") == true)
        #expect(try people().first?.note == "store note")
    }

    // MARK: Removals

    @Test func removalsTravelBothWays() throws {
        for index in 1...4 {
            server.put(Self.card("u-\(index)", first: "P\(index)", last: "L\(index)"), name: "u-\(index).vcf")
        }
        try sync()
        server.remove("/me/contacts/u-1.vcf")
        let book = try store.openBook()
        let victim = try #require(book.allPeople().first { $0.lastName == "L2" })
        try book.remove(victim)
        try book.save()

        let report = try sync()

        #expect(report.local.removed == 1)
        #expect(report.remote.removed == 1)
        #expect(try people().map(\.lastName) == ["L3", "L4"])
        #expect(server.cards.keys.sorted() == ["/me/contacts/u-3.vcf", "/me/contacts/u-4.vcf"])
    }

    @Test func aRemovalOfWhatTheOtherSideChangedKeepsTheChangedVersion() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed"), name: "u-1.vcf")
        try sync()
        let id = try #require(try people().first?.recordID)
        try edit(id) { $0.note = "kept" }
        server.remove("/me/contacts/u-1.vcf")

        let report = try sync()

        #expect(report.kept.count == 1)
        #expect(try people().first?.note == "kept")
        #expect(server.href(containing: "NOTE:kept") != nil)
    }

    @Test func aSyncThatWouldEmptyASideIsRefusedWithoutForce() throws {
        for index in 1...8 {
            server.put(Self.card("u-\(index)", first: "P\(index)", last: "L\(index)"), name: "u-\(index).vcf")
        }
        try sync()
        for href in server.cards.keys { server.remove(href) }
        let files = try recordBytes()

        #expect { try sync() } throws: { ($0 as? SyncError)?.code == .tooManyRemovals }
        #expect(try recordBytes() == files)

        let report = try sync(force: true)
        #expect(report.local.removed == 8)
        #expect(try people().isEmpty)
    }

    @Test func aFailedListingIsNeverAnEmptyServer() throws {
        server.offersSyncCollection = false
        server.offersCtag = false
        server.put(Self.card("u-1", first: "John", last: "Appleseed"), name: "u-1.vcf")
        try sync()
        server.listingFails = true
        let files = try recordBytes()

        #expect { try sync() } throws: { ($0 as? SyncError)?.code == .serverUnavailable }
        #expect(try recordBytes() == files)
        #expect(try people().count == 1)
    }

    // MARK: Conditional writes and interruptions

    @Test func aCardChangedOnTheServerDuringTheSyncIsMergedNotOverwritten() throws {
        server.put(Self.card("u-1", first: "John", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        try sync()
        let id = try #require(try people().first?.recordID)
        try edit(id) { $0.note = "store note" }
        let server = self.server
        var changed = false
        server.beforeUpdate = { href in
            guard !changed else { return }
            changed = true
            server.put(Self.card("u-1", first: "Johnny", last: "Appleseed", extra: ["NOTE:old"]), name: "u-1.vcf")
        }

        let report = try sync()

        #expect(report.conflicts.isEmpty)
        let text = try #require(server.text("/me/contacts/u-1.vcf"))
        #expect(text.contains("Johnny") && text.contains("NOTE:store note"))
        #expect(try people().first?.firstName == "Johnny")
    }

    @Test func aSyncCutShortIsCompletedByTheNextWithoutDuplicates() throws {
        for index in 1...3 { _ = try addPerson("P\(index)", "L\(index)") }
        server.put(Self.card("r-1", first: "Remote", last: "One"), name: "r-1.vcf")
        server.failAfterWrites = 2
        let files = try recordBytes()

        #expect { try sync() } throws: { ($0 as? SyncError)?.code == .serverUnavailable }
        #expect(try recordBytes() == files)

        server.failAfterWrites = nil
        try sync()
        #expect(try people().count == 4)
        #expect(server.cards.count == 4)
        #expect(try sync().local.total == 0)
        #expect(server.cards.count == 4)
    }

    @Test func aSecondCloneSyncingTheSameAccountDuplicatesNobody() throws {
        _ = try addPerson("Katie", "Bell")
        server.put(Self.card("r-1", first: "Remote", last: "One"), name: "r-1.vcf")
        try sync()
        let clone = try TemporaryStore()
        try FileManager.default.copyItem(at: store.storeURL, to: clone.storeURL)
        try FileManager.default.removeItem(at: clone.storeURL.appending(path: ".contacts"))

        let report = try sync(storeURL: clone.storeURL)

        #expect(report.local.added == 0 && report.remote.added == 0)
        #expect(server.cards.count == 2)
        #expect(try AddressBook(url: clone.storeURL).personCount == 2)
    }

    @Test func onlyChangedCardsAreFetchedAfterTheFirstSync() throws {
        for index in 1...20 {
            server.put(Self.card("u-\(index)", first: "P\(index)", last: "L\(index)"), name: "u-\(index).vcf")
        }
        try sync()
        let before = server.fetched
        server.put(Self.card("u-7", first: "Seven", last: "L7"), name: "u-7.vcf")

        let report = try sync()

        #expect(server.fetched - before == 1)
        #expect(report.incremental)
        #expect(report.local.changed == 1)
    }

    @Test func aDryRunWritesNothing() throws {
        _ = try addPerson("Katie", "Bell")
        server.put(Self.card("r-1", first: "Remote", last: "One"), name: "r-1.vcf")
        let files = try recordBytes()

        let report = try sync(dryRun: true)

        #expect(report.dryRun)
        #expect(report.local.added == 1 && report.remote.added == 1)
        #expect(try recordBytes() == files)
        #expect(server.writes == 0)
        #expect(!FileManager.default.fileExists(atPath: statusFolder.path))
    }

    // MARK: A book the account may only read

    @Test func changesTheServerRefusesAsReadOnlyStayInTheStoreAndTheSyncGoesOn() throws {
        server.put(Self.card("gran", first: "Grace", last: "Family"), name: "gran.vcf")
        server.put(Self.card("kit", first: "Kit", last: "Family"), name: "kit.vcf")
        try sync()
        server.readOnly = true

        // Here: one added, one edited, one removed; there: one added meanwhile.
        _ = try addPerson("Local", "Tablet")
        let gran = try #require(try people().first { $0.lastName == "Family" && $0.firstName == "Grace" })
        try edit(gran.recordID) { $0.note = "edited on the tablet" }
        let book = try store.openBook()
        try book.remove(try #require(book.allPeople().first { $0.firstName == "Kit" }))
        try book.save()
        server.put(Self.card("new", first: "New", last: "Family"), name: "new.vcf")
        let serverCards = server.texts

        let report = try sync()
        #expect(report.warnings.filter { $0.code == .readOnly }.count == 3)
        #expect(server.texts == serverCards)
        #expect(try people().compactMap(\.firstName).sorted() == ["Grace", "Local", "New"])
        #expect(try people().first { $0.firstName == "Grace" }?.note == "edited on the tablet")

        // The next sync tries again, and refuses nothing it need not.
        let again = try sync()
        #expect(again.warnings.filter { $0.code == .readOnly }.count == 3)
        #expect(again.local.total == 0)
    }

    // MARK: One UID twice

    @Test func ofTwoServerCardsWithOneUIDTheFirstByHrefIsSyncedAndTheOtherReported() throws {
        // The card that sorts last is put first, so that neither the server's order nor the
        // order in which the sync meets them decides.
        let later = server.put(Self.card("twin", first: "Zed", last: "Later"), name: "twin-b.vcf")
        server.put(Self.card("twin", first: "Ada", last: "First"), name: "twin-a.vcf")
        server.put(Self.card("other", first: "Olga", last: "Other"), name: "other.vcf")

        let report = try sync()
        #expect(try people().map(\.lastName) == ["First", "Other"])
        let clashes = report.warnings.filter { $0.code == .uidClash }
        #expect(clashes.map(\.path) == [later])

        // The next sync, which hears of no change, writes nothing anywhere.
        let writes = server.writes
        let again = try sync()
        #expect(server.writes == writes)
        #expect(again.local.total == 0)
        #expect(try people().map(\.lastName) == ["First", "Other"])
    }

    @Test func aServerPersonWithTheUIDOfAStoreGroupIsLeftAsItIs() throws {
        let group = server.put(
            "BEGIN:VCARD\nVERSION:3.0\nN:Friends\nFN:Friends\nX-ADDRESSBOOKSERVER-KIND:group\nUID:shared\nEND:VCARD\n",
            name: "group.vcf")
        try sync()
        #expect(try store.openBook().allGroups().map(\.name) == ["Friends"])

        // On the server the group gives way to a person that took its UID.
        server.remove(group)
        let person = server.put(Self.card("shared", first: "Sam", last: "Shared"), name: "person.vcf")
        let records = try recordBytes()
        let report = try sync()
        let clash = try #require(report.warnings.first { $0.code == .uidClash })
        #expect(clash.path == person)
        #expect(clash.message.contains("the store has a group and the server a person card"))
        #expect(try recordBytes() == records)
        #expect(server.text(person)?.contains("FN:Sam Shared") == true)
    }

    // MARK: Groups

    @Test func appleGroupCardsBecomeGroupsAndKeepTheirForm() throws {
        server.put(Self.card("m-1", first: "Katie", last: "Bell"), name: "m-1.vcf")
        server.put(Self.card("m-2", first: "John", last: "Appleseed"), name: "m-2.vcf")
        server.put(
            "BEGIN:VCARD\nVERSION:3.0\nN:Friends\nFN:Friends\nX-ADDRESSBOOKSERVER-KIND:group\nUID:g-1\n"
                + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m-1\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:stranger\nEND:VCARD\n",
            name: "g-1.vcf")

        try sync()
        // The group as recorded names the members the sync itself added: nothing to upload next.
        let writes = server.writes
        try sync()
        #expect(server.writes == writes)

        let book = try store.openBook()
        let group = try #require(book.allGroups().first)
        #expect(group.name == "Friends")
        #expect(group.members().map(\.lastName) == ["Bell"])

        let john = try #require(book.allPeople().first { $0.lastName == "Appleseed" })
        try group.addMember(john)
        try book.save()
        try sync()
        let text = try #require(server.text("/me/contacts/g-1.vcf"))
        #expect(text.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m-2"))
        #expect(text.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m-1"))
        #expect(text.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:stranger"))
        #expect(!text.contains("\nMEMBER"))
    }

    @Test func rfc6350GroupCardsKeepTheirFormAndNewGroupsUseApples() throws {
        server.put(Self.card("m-1", first: "Katie", last: "Bell"), name: "m-1.vcf")
        server.put(
            "BEGIN:VCARD\nVERSION:4.0\nFN:Team\nKIND:group\nUID:g-2\nMEMBER:urn:uuid:m-1\nEND:VCARD\n", name: "g-2.vcf")
        try sync()
        let book = try store.openBook()
        let team = try #require(book.allGroups().first)
        team.name = "Team A"
        let family = Group(name: "Family")
        try book.add(family)
        try book.save()
        try family.addMember(try #require(book.allPeople().first))
        try book.save()

        try sync()

        let teamText = try #require(server.text("/me/contacts/g-2.vcf"))
        #expect(teamText.contains("KIND:group") && teamText.contains("MEMBER:urn:uuid:m-1") && teamText.contains("FN:Team A"))
        #expect(teamText.contains("VERSION:4.0"))
        let familyHref = try #require(server.href(containing: "FN:Family"))
        let familyText = try #require(server.text(familyHref))
        #expect(familyText.contains("X-ADDRESSBOOKSERVER-KIND:group"))
        #expect(familyText.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:m-1"))
    }
}
