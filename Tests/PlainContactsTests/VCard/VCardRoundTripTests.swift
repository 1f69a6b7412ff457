import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsFuzz

/// Generated people with every field, odd characters, long values and many multi-values go
/// out as vCard 3.0 and 4.0 and come back equal.
@Suite struct VCardRoundTripTests {
    /// Seeded random values for generated people, so that a failure names its seed.
    private struct Generator {
        var random: FuzzMutator.Random

        init(state seed: UInt64) {
            random = FuzzMutator.Random(seed: seed)
        }

        mutating func next() -> UInt64 { random.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

        /// Words mixing the characters vCard escapes or folds badly with scripts and emoji.
        static let pieces = [
            "Katie", "O'Brien", "a;b", "c,d", "back\\slash", "key:value", "two\nlines", "🙂", "👩🏽‍💻", "山田",
            "太郎", "Ελένη", "Дмитрий", "שלום", "مرحبا", "Zoë", "naïve", "x=y", "\"quoted\"", "caret^", "tab\tend",
            "ß", "ﬁ", "100%", "<tag>", "a.b", "€", "𝄞",
        ]

        /// Text of one to `words` pieces, never starting or ending with white space (import
        /// trims names, as every peer does).
        mutating func text(words: Int = 4) -> String {
            let count = 1 + below(words)
            let joined = (0..<count).map { _ in pick(Self.pieces) }.joined(separator: pick([" ", "", "-"]))
            return joined.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "x" : joined
        }

        mutating func longText() -> String {
            (0..<(20 + below(60))).map { _ in pick(Self.pieces) }.joined(separator: " ")
        }

        mutating func label(_ standard: [Label]) -> Label? {
            switch below(4) {
            case 0: nil
            case 1: Label(text(words: 2))
            default: pick(standard)
            }
        }

        mutating func date() throws -> ContactDate {
            try ContactDate(year: chance(70) ? 1900 + below(150) : nil, month: 1 + below(12), day: 1 + below(28))
        }
    }

    private func person(seed: UInt64) throws -> Person {
        var random = Generator(state: seed)
        let person = Person()
        let strings: [PropertyID] = [
            .prefix, .firstName, .middleName, .lastName, .suffix, .nickname, .firstNamePhonetic,
            .middleNamePhonetic, .lastNamePhonetic, .organization, .department, .jobTitle,
        ]
        for property in strings where random.chance(70) {
            try person.setValue(.string(random.text()), for: property)
        }
        if random.chance(30) { person.formattedName = random.text() }
        if random.chance(60) { person.note = random.chance(30) ? random.longText() : random.text(words: 8) }
        if random.chance(60) { person.birthday = try random.date() }
        if random.chance(20) { person.kind = .organization }
        let phoneLabels: [Label] = [.mobile, .home, .work, .main, .homeFax, .workFax, .otherFax, .pager, .iPhone, .other]
        person.phones = MultiValue((0..<random.below(6)).map { index in
            ("+1 555 01\(index)\(random.below(10))", random.label(phoneLabels))
        })
        person.emails = MultiValue((0..<random.below(5)).map { index in
            ("user\(index).\(random.below(1000))@example.com", random.label([.home, .work, .other]))
        })
        person.urls = MultiValue((0..<random.below(4)).map { index in
            ("https://example.com/\(index)?q=a;b,c", random.label([.homePage, .home, .work, .other]))
        })
        person.addresses = MultiValue((0..<random.below(4)).map { _ -> (PostalAddress, Label?) in
            let address = PostalAddress(
                poBox: random.chance(30) ? random.text(words: 2) : nil,
                extendedAddress: random.chance(30) ? random.text(words: 2) : nil,
                street: random.chance(90) ? random.text() : nil, city: random.chance(80) ? random.text(words: 2) : nil,
                state: random.chance(50) ? random.text(words: 1) : nil, zip: random.chance(70) ? "\(10000 + random.below(89999))" : nil,
                country: random.chance(60) ? random.text(words: 2) : nil,
                countryCode: random.chance(40) ? random.pick(["us", "de", "jp", "fr"]) : nil)
            guard !address.isEmpty else { return (PostalAddress(city: "Atlanta"), .home) }
            return (address, random.label([.home, .work, .other]))
        })
        person.dates = MultiValue(try (0..<random.below(4)).map { _ in
            (try random.date(), random.label([.anniversary, .other]))
        })
        person.relatedNames = MultiValue((0..<random.below(4)).map { _ in
            (random.text(words: 2), random.label([.spouse, .child, .mother, .father, .friend, .assistant, .manager]))
        })
        person.instantMessages = MultiValue((0..<random.below(4)).map { index in
            (InstantMessage(service: random.pick(["Skype", "Jabber", "Matrix", "ICQ"]), username: "user\(index)_\(random.below(100))"),
             random.label([.home, .work, .other]))
        })
        person.socialProfiles = MultiValue((0..<random.below(3)).map { index in
            (SocialProfile(url: "https://social.example/@u\(index)", service: random.pick(["twitter", "Mastodon"]),
                           username: "u\(index)"), random.label([.home, .work]))
        })
        if random.chance(30) {
            var bytes = [UInt8](repeating: 0, count: 64 + random.below(2000))
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
            person.setImageData(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes))
        }
        return person
    }

    @Test(arguments: VCardVersion.allCases)
    func generatedPeopleComeBackEqual(_ version: VCardVersion) throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let people = try (1...150).map { try person(seed: UInt64($0)) }
        for person in people { try book.add(person) }
        try book.save()
        let friends = Group(name: "Friends; and, family")
        try book.add(friends)
        try book.save()
        for person in people.prefix(40) { try friends.addMember(person) }
        try book.save()

        let text = try book.exportVCards(book.allPeople(), version: version)
        let copyStore = try TemporaryStore()
        let copy = try copyStore.makeBook()
        let report = try copy.importVCards(from: Data(text.utf8), source: "round.vcf")
        #expect(report.added.count == people.count)
        #expect(report.warnings.isEmpty)

        let originals = try Dictionary(uniqueKeysWithValues: book.allPeople().map { person in
            (VCardRecordFields.derivedUID(for: try #require(person.key)), person)
        })
        for imported in copy.allPeople() {
            let uid = VCardRecordFields.matchKey(try #require(VCardRecordFields.uid(of: imported.state)))
            let original = try #require(originals[uid])
            let groups = { (book: AddressBook, person: Person) in book.groups(containing: person).compactMap(\.name) }
            let expected = try PersonSnapshot.lines(original, groupNames: groups(book, original), includeUID: false)
            let actual = try PersonSnapshot.lines(imported, groupNames: groups(copy, imported), includeUID: false)
            #expect(actual == expected, "seed of \(original.recordID) differs after a \(version.rawValue) round trip")
        }
    }
}

/// Cards that once lost something on the way through the store: imported, exported and
/// imported into a fresh store, they come back as they went in.
@Suite struct VCardCardRoundTripTests {
    private let store: TemporaryStore
    private let copyStore: TemporaryStore

    init() throws {
        store = try TemporaryStore()
        copyStore = try TemporaryStore()
    }

    private func card(_ lines: [String], version: String) -> String {
        (["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The unfolded content lines of vCard text.
    private func contentLines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    /// The snapshot of every person of a book, sorted, without UIDs.
    private func snapshots(_ book: AddressBook) throws -> [String] {
        try book.allPeople().map { person in
            let groups = book.groups(containing: person).compactMap(\.name)
            return try PersonSnapshot.lines(person, groupNames: groups, includeUID: false).joined(separator: "\n")
        }.sorted()
    }

    /// A fresh book holding what `data` imports, without warnings.
    private func imported(_ data: Data) throws -> AddressBook {
        let book = try store.makeBook()
        let report = try book.importVCards(from: data, source: "card.vcf")
        #expect(report.warnings.isEmpty)
        return book
    }

    /// Another fresh book holding what the exported text imports.
    private func reimported(_ exported: String) throws -> AddressBook {
        let copy = try copyStore.makeBook()
        _ = try copy.importVCards(from: Data(exported.utf8), source: "export.vcf")
        return copy
    }

    @Test func aVCard21NoteWithBackslashNLineBreaksComesBackAsLines() throws {
        let text = card(["N:Moss;Nina;;;", #"NOTE:Call after 6\nGate code 42\Nkeys in C:\temp\; ask"#], version: "2.1")
        let book = try imported(Data(text.utf8))
        let person = try #require(book.allPeople().first)
        #expect(person.note == "Call after 6\nGate code 42\nkeys in C:\\temp; ask")
        let exported = try book.exportVCards(book.allPeople(), version: .v3)
        #expect(contentLines(exported).contains(#"NOTE:Call after 6\nGate code 42\nkeys in C:\\temp\; ask"#))
        #expect(try snapshots(reimported(exported)) == snapshots(book))
    }

    /// The 3.0 export of a fixture's quoted-printable 2.1 `LABEL`, kept with the person.
    private static let labels = [
        "ez-vcard/ezvcard/io/text/outlook-2003.vcf":
            #"LABEL;WORK:TheOffice\n123 Main St\nAustin, TX 12345\nUnited States of America"#,
        "kcontacts/vcard7.vcf.2_1ref": #"LABEL;WORK:401 Park Drive  3 West\nBoston\\, MA 02215\nUSA\nHerecomesyetanotherline"#,
    ]

    @Test(arguments: labels.keys.sorted())
    func aQuotedPrintableLabelIsExportedAsItsDecodedText(_ fixture: String) throws {
        let book = try imported(try VCardFixtures.data(fixture))
        let exported = try book.exportVCards(book.allPeople(), version: .v3)
        #expect(contentLines(exported).filter { $0.hasPrefix("LABEL") } == [Self.labels[fixture]])
        #expect(try snapshots(reimported(exported)) == snapshots(book))
    }

    @Test func aVCard21AgentCardBeginningOnTheAgentLineIsKeptWholeAndWrittenBack() throws {
        let nested = ["BEGIN:VCARD", "VERSION:2.1", "N:Aide;Al;;;", "TEL;WORK:+1 555 0107", "END:VCARD"]
        let text = card(["N:Boss;Bea;;;", "AGENT:" + nested.joined(separator: "\r\n"), "TEL:+1 555 0106"], version: "2.1")
        let book = try imported(Data(text.utf8))
        let person = try #require(book.allPeople().first)
        #expect(book.allPeople().count == 1)
        #expect(person.lastName == "Boss")
        #expect(person.phones.values == ["+1 555 0106"])
        let agent = "AGENT:" + VCardText.escape(nested.joined(separator: "\n"))
        #expect(VCardRecordFields.lines(of: person.state) == [agent])
        let exported = try book.exportVCards(book.allPeople(), version: .v3)
        #expect(contentLines(exported).contains(agent))
        #expect(try snapshots(reimported(exported)) == snapshots(book))
    }

    @Test(arguments: VCardVersion.allCases)
    func aCardWithOnlyANicknameGetsNoFirstNameFromItsExport(_ version: VCardVersion) throws {
        let book = try imported(Data(card(["NICKNAME:Kat", "TEL:+1 555 0108"], version: "3.0").utf8))
        let person = try #require(book.allPeople().first)
        #expect(person.firstName == nil)
        #expect(person.nickname == "Kat")
        let exported = try book.exportVCards(book.allPeople(), version: version)
        #expect(contentLines(exported).contains("N:;;;;"))
        #expect(contentLines(exported).contains("FN:Kat"))
        let copy = try reimported(exported)
        #expect(copy.allPeople().first?.firstName == nil)
        #expect(try snapshots(copy) == snapshots(book))
    }

    @Test(arguments: VCardVersion.allCases)
    func anEmptyGroupCardComesBackAsAnEmptyGroup(_ version: VCardVersion) throws {
        let text = card(["KIND:group", "FN:Book club", "UID:urn:uuid:6d3a4c2e-0b1f-4d5e-9a8b-7c6d5e4f3a2b"], version: "4.0")
            + card(["N:Neighbours", "FN:Neighbours", "X-ADDRESSBOOKSERVER-KIND:group", "UID:neighbours-1"], version: "3.0")
            + card(["N:Bell;Katie;;;", "CATEGORIES:Friends"], version: "3.0")
        let book = try imported(Data(text.utf8))
        #expect(Set(book.allGroups().compactMap(\.name)) == ["Book club", "Neighbours", "Friends"])
        let exported = try book.exportVCards(book.allPeople(), groups: book.allGroups(), version: version)
        // Friends travels in Katie's CATEGORIES; only the empty groups need a card of their own.
        #expect(contentLines(exported).filter { $0 == "BEGIN:VCARD" }.count == 3)
        let copy = try reimported(exported)
        #expect(Set(copy.allGroups().compactMap(\.name)) == ["Book club", "Neighbours", "Friends"])
        let club = try #require(copy.allGroups().first { $0.name == "Book club" })
        #expect(club.members().isEmpty)
        #expect(try snapshots(copy) == snapshots(book))
    }
}
