import PlainContactsSystem
import Testing

@testable import PlainContacts

@Suite("EmailSearch")
struct EmailSearchTests {
    private let ann = NameParts(firstName: "Ann", lastName: "Smith", nickname: "Nan")
    private let joanna = NameParts(firstName: "Joanna", lastName: "Ånström")

    /// How `query` ranks `address` of the person named by `parts`.
    private func rank(_ query: String, _ parts: NameParts, _ address: String) -> EmailSearch.Rank? {
        let query = EmailSearch.Query(query)
        let names = EmailSearch.wordMatches(query, searchWords: NameSearch.searchWords(parts))
        return EmailSearch.rank(query, names: names, address: address)
    }

    @Test func aWholeNameWordIsAnExactMatch() {
        #expect(rank("ann", ann, "a.smith@example.com") == .exact)
        #expect(rank("Smith ANN", ann, "a.smith@example.com") == .exact)
        #expect(rank("nan", ann, "a.smith@example.com") == .exact)
    }

    @Test func theBeginningOfANameWordMatchesByName() {
        #expect(rank("sm", ann, "a@example.com") == .name)
        #expect(rank("ann smi", ann, "a@example.com") == .name)
    }

    @Test func theMiddleOfANameWordDoesNotMatchTheName() {
        #expect(rank("nn", ann, "a.smith@example.com") == nil)
        #expect(rank("mith", ann, "a@example.com") == nil)
    }

    @Test func aWordInsideTheAddressMatchesByAddress() {
        #expect(rank("nn", ann, "ann@example.com") == .address)
        #expect(rank("ample", ann, "a@example.com") == .address)
        #expect(rank("ann ample", ann, "a@example.com") == .address)
    }

    @Test func anAddressBeginningWithTheQueryIsAnExactMatch() {
        #expect(rank("jo", joanna, "joanna@example.com") == .exact)
        #expect(rank("a.smith@ex", ann, "a.smith@example.com") == .exact)
        #expect(rank("info", ann, "INFO@example.com") == .exact)
    }

    @Test func everyWordMustMatchOneWayOrTheOther() {
        #expect(rank("ann zz", ann, "a@example.com") == nil)
        #expect(rank("zz", ann, "a@example.com") == nil)
    }

    @Test func caseDiacriticsAndWidthAreIgnoredOnBothSides() {
        #expect(rank("anstrom", joanna, "j@example.com") == .exact)
        #expect(rank("ＡＮＳ", joanna, "j@example.com") == .name)
        #expect(rank("zoe", ann, "ZOË@example.com") == .exact)
        #expect(rank("ｅｘａｍｐｌｅ", ann, "a@example.com") == .address)
    }

    @Test(arguments: ["", "  ", "@", " - "])
    func aQueryWithoutWordsKeepsEveryAddress(_ query: String) {
        #expect(rank(query, ann, "a@example.com") == .exact)
        #expect(rank(query, NameParts(), "x@example.com") == .exact)
    }

    /// The index compares bytes in place; it must rank exactly as the words do.
    @Test(arguments: ["ann", "nn", "sm", "smith", "ＡＮＮ", "an sm", "zz", "jo", "ånström", "nan"])
    func theIndexMatchesNameWordsAsTheStringsDo(_ text: String) throws {
        for parts in [ann, joanna] {
            var decoded = PersonRecordCoder.Decoded(id: RecordID(1), state: PersonState(), storedNameHash: nil)
            decoded.state.values[.firstName] = parts.firstName.map(PropertyValue.string)
            decoded.state.values[.lastName] = parts.lastName.map(PropertyValue.string)
            decoded.state.values[.nickname] = parts.nickname.map(PropertyValue.string)
            let key = try #require(RecordKey(rawValue: "person-abc123"))
            let summary = PersonSummary(
                key: key, signature: FileSignature(inode: 1, size: 2, modified: 3, changed: 4), decoded: decoded)
            let query = EmailSearch.Query(text)
            var fromBytes: [EmailSearch.WordMatch] = []
            summary.wordMatches(query, into: &fromBytes)
            #expect(fromBytes == EmailSearch.wordMatches(query, searchWords: NameSearch.searchWords(parts)))
        }
    }
}
