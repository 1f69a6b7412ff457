import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

@Suite struct MuttAliasReaderTests {
    private typealias Fixtures = InterchangeFixtures

    private func convert(_ text: String, strict: Bool = false) throws -> ConvertedContacts {
        try Fixtures.convert(text, format: .mutt, strict: strict)
    }

    private func imported(_ text: String) throws -> (TemporaryStore, AddressBook) {
        let store = try TemporaryStore()
        return (store, try Fixtures.importIntoFreshBook(convert(text), store: store))
    }

    private func importedFixture() throws -> (TemporaryStore, AddressBook) {
        let store = try TemporaryStore()
        let converted = try Fixtures.convert(fixture: "neomutt.aliases", format: .mutt)
        #expect(converted.warnings.isEmpty)
        return (store, try Fixtures.importIntoFreshBook(converted, store: store))
    }

    @Test func theFixtureGivesOnePersonPerAddress() throws {
        let (_, book) = try importedFixture()
        #expect(book.personCount == 6)
        let katie = try Fixtures.person(book, email: "katie@example.org")
        #expect(katie.firstName == "Katie")
        #expect(katie.lastName == "Bell")
        #expect(katie.nickname == "kb")
        #expect(Fixtures.pairs(katie.emails) == ["-=katie@example.org"])
    }

    @Test func quotedNamesWithCommasAreSplitAsLastFirst() throws {
        let (_, book) = try importedFixture()
        let lee = try Fixtures.person(book, email: "lee@example.org")
        #expect(lee.firstName == "Lee")
        #expect(lee.lastName == "Jordan")
        #expect(lee.nickname == "lee")
        #expect(lee.note == "from the club")
    }

    @Test func encodedWordsAreDecoded() throws {
        let (_, book) = try importedFixture()
        let zoe = try Fixtures.person(book, email: "zoe@example.org")
        #expect(zoe.firstName == "Zoë")
        #expect(zoe.lastName == "Ångström")
    }

    @Test func aCommentNamesTheAddress() throws {
        let (_, book) = try importedFixture()
        let mary = try Fixtures.person(book, email: "mary@example.org")
        #expect(mary.firstName == "Mary Ann van Berg")
        #expect(mary.nickname == "mary")
    }

    @Test func anAddressAloneInBracketsIsAPersonWithoutName() throws {
        let (_, book) = try importedFixture()
        let boss = try Fixtures.person(book, email: "boss@example.org")
        #expect(boss.firstName == nil)
        #expect(boss.nickname == "boss")
    }

    @Test func aliasesOfSeveralAddressesAreGroupsAndNameOtherAliases() throws {
        let (_, book) = try importedFixture()
        let katie = try Fixtures.person(book, email: "katie@example.org")
        let lee = try Fixtures.person(book, email: "lee@example.org")
        let oliver = try Fixtures.person(book, email: "oliver@example.org")
        #expect(Fixtures.groupNames(book, of: katie) == ["club", "team"])
        #expect(Fixtures.groupNames(book, of: lee) == ["friends", "team"])
        #expect(Fixtures.groupNames(book, of: oliver) == ["club", "team"])
        #expect(oliver.firstName == "Oliver")
        #expect(oliver.nickname == nil)
    }

    @Test func aGroupsDisplayNameIsKeptWithTheGroupOfTheAlias() throws {
        let (_, book) = try importedFixture()
        let club = try #require(book.groups(named: "club").first)
        #expect(
            VCardRecordFields.lines(of: club.state) == [#"X-IMPORTED-FIELD;X-FORMAT=mutt;X-NAME="display-name":quidditch"#])
        #expect(book.groups(named: "quidditch").isEmpty)
        let team = try #require(book.groups(named: "team").first)
        #expect(VCardRecordFields.lines(of: team.state).isEmpty)
    }

    @Test func aListsCommentIsKeptWithItsGroupNotAsItsPeoplesNotes() throws {
        let (_, book) = try imported("alias club k@x.example, o@x.example  # meets on Thursdays\n")
        let club = try #require(book.groups(named: "club").first)
        #expect(
            VCardRecordFields.lines(of: club.state) == [#"X-IMPORTED-FIELD;X-FORMAT=mutt;X-NAME="comment":meets on Thursdays"#])
        #expect(try Fixtures.person(book, email: "k@x.example").note == nil)
    }

    @Test func aDisplayNameThatIsTheKeyIsNotKeptTwice() throws {
        let (_, book) = try imported("alias club club: k@x.example, o@x.example;\n")
        let club = try #require(book.groups(named: "club").first)
        #expect(VCardRecordFields.lines(of: club.state).isEmpty)
    }

    @Test func continuedLinesAreJoined() throws {
        let converted = try convert("alias team a@x.example, \\\n  b@x.example\n")
        #expect(converted.cardCount == 3)
    }

    @Test func aTrailingCommentIsTheNoteAndAHashInQuotesIsKept() throws {
        let (_, book) = try imported("alias kb \"Katie #1 Bell\" <k@x.example> # the chaser\n")
        let katie = try Fixtures.person(book, email: "k@x.example")
        #expect(katie.firstName == "Katie #1 Bell")
        #expect(katie.note == "the chaser")
    }

    @Test func aListsCommentIsNoNoteOfItsMembersAndACommentLineIsNothing() throws {
        let (_, book) = try imported("# my aliases\nalias team a@x.example, b@x.example # the team\n")
        #expect(book.allPeople().allSatisfy { $0.note == nil })
        #expect(book.personCount == 2)
    }

    @Test func otherCommandsAreSkippedWithAWarning() throws {
        let converted = try convert("set realname=\"Me\"\nsource ~/.mutt/other\nalias kb k@x.example\n")
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.map(\.line) == [1, 2])
        #expect(Fixtures.interchangeError { _ = try convert("set x=1\nalias kb k@x.example\n", strict: true) }?.code == .malformedInput)
    }

    @Test func unreadableAddressesSkipTheAliasWithAWarning() throws {
        let text = "alias a Katie Bell\nalias b <k@x.example\nalias c \"Unclosed <c@x.example>\nalias d nobody\nalias e ok@x.example\n"
        let converted = try convert(text)
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.map(\.line) == [1, 2, 3, 4])
    }

    @Test func groupOptionsAddGroups() throws {
        let (_, book) = try imported("alias -group work -group chasers kb Katie Bell <k@x.example>\n")
        let katie = try Fixtures.person(book, email: "k@x.example")
        #expect(Fixtures.groupNames(book, of: katie) == ["chasers", "work"])
        #expect(katie.nickname == "kb")
    }

    @Test func theSameAddressInTwoAliasesIsOnePerson() throws {
        let (_, book) = try imported("alias kb Katie Bell <K@x.example>\nalias old-kb katie bell <k@x.example>\nalias team k@x.example, l@x.example\n")
        #expect(book.personCount == 2)
        let katie = try Fixtures.person(book, email: "K@x.example")
        #expect(katie.nickname == "kb")
        #expect(Fixtures.groupNames(book, of: katie) == ["team"])
    }

    @Test func unaliasRemovesAnEarlierAlias() throws {
        let converted = try convert("alias kb k@x.example\nalias lee l@x.example\nunalias kb\n")
        #expect(converted.cardCount == 1)
        #expect(!Fixtures.lines(converted).contains { $0.contains("k@x.example") })
    }

    @Test func latin1BEncodedNamesAreDecoded() throws {
        // "Wus=" is "Zë" in ISO-8859-1; the space between two encoded words is dropped.
        let (_, book) = try imported("alias zoe =?ISO-8859-1?B?Wus=?= =?ISO-8859-1?Q?=C5ngstr=F6m?= <z@x.example>\n")
        let zoe = try Fixtures.person(book, email: "z@x.example")
        #expect(zoe.firstName == "ZëÅngström")
    }

    @Test func aliasesNamingEachOtherInALoopAreSkippedWithAWarning() throws {
        let converted = try convert("alias a b, k@x.example\nalias b a\nalias c l@x.example\n")
        #expect(converted.cardCount == 1)
        #expect(converted.warnings.map(\.line) == [1, 2])
    }

    @Test func aliasesNamingOthersManyTimesAreExpandedOnce() throws {
        // Each alias names the one before twice: expanding naively would take 2^40 steps.
        var text = "alias a0 k@x.example\n"
        for level in 1...40 { text += "alias a\(level) a\(level - 1), a\(level - 1)\n" }
        let converted = try convert(text)
        #expect(converted.cardCount == 1 + 40)
        #expect(converted.warnings.isEmpty)
    }
}
