import Testing

@testable import PlainContacts

@Suite("SortKey")
struct SortKeyTests {
    private func sorted(_ people: [NameParts], by ordering: SortOrdering) -> [NameParts] {
        // Stable by input position, standing in for the caller's tie-break by record ID.
        people.enumerated()
            .sorted { lhs, rhs in
                let left = SortKey(lhs.element, ordering: ordering)
                let right = SortKey(rhs.element, ordering: ordering)
                return left != right ? left < right : lhs.offset < rhs.offset
            }
            .map(\.element)
    }

    private let anneBell = NameParts(firstName: "Anne", lastName: "Bell")
    private let katieBell = NameParts(firstName: "Katie", lastName: "Bell")
    private let zoeAdams = NameParts(firstName: "Zoë", lastName: "Adams")

    @Test func lastNameOrderingSortsByLastThenFirstName() {
        #expect(sorted([katieBell, zoeAdams, anneBell], by: .lastName) == [zoeAdams, anneBell, katieBell])
    }

    @Test func firstNameOrderingSortsByFirstThenLastName() {
        let anneAdams = NameParts(firstName: "Anne", lastName: "Adams")
        #expect(
            sorted([zoeAdams, katieBell, anneBell, anneAdams], by: .firstName)
                == [anneAdams, anneBell, katieBell, zoeAdams])
    }

    @Test func phoneticNameSortsBeforeWrittenName() {
        // Written, 山 (U+5C71) precedes 青 (U+9752); read, あおき precedes やまだ.
        let yamada = NameParts(firstName: "太郎", lastName: "山田", lastNamePhonetic: "やまだ")
        let aoki = NameParts(firstName: "花子", lastName: "青木", lastNamePhonetic: "あおき")
        #expect(sorted([yamada, aoki], by: .lastName) == [aoki, yamada])
        #expect(SortKey(yamada, ordering: .lastName).primary == "やまだ")
    }

    @Test func phoneticFirstNameSortsWithFirstNameOrdering() {
        let hanako = NameParts(firstName: "花子", firstNamePhonetic: "はなこ")
        let akira = NameParts(firstName: "明", firstNamePhonetic: "あきら")
        #expect(sorted([hanako, akira], by: .firstName) == [akira, hanako])
    }

    @Test(arguments: SortOrdering.allCases)
    func personWithOneNameSortsByIt(_ ordering: SortOrdering) {
        let madonna = NameParts(firstName: "Madonna")
        let prince = NameParts(lastName: "Prince")
        let lee = NameParts(firstName: "Nina", lastName: "Lee")
        let expected = ordering == .lastName ? [lee, madonna, prince] : [madonna, lee, prince]
        #expect(sorted([prince, madonna, lee], by: ordering) == expected)
        #expect(SortKey(madonna, ordering: ordering).primary == "madonna")
    }

    @Test func organizationKindSortsByOrganization() {
        let acme = NameParts(firstName: "Zed", lastName: "Zulu", organization: "Acme", isOrganization: true)
        #expect(SortKey(acme, ordering: .lastName).primary == "acme")
        #expect(sorted([katieBell, acme], by: .lastName) == [acme, katieBell])
    }

    @Test func personWithOnlyOrganizationSortsByOrganization() {
        let carrier = NameParts(nickname: "Aaron", organization: "Carrier Pigeons")
        #expect(SortKey(carrier, ordering: .firstName).primary == "carrier pigeons")
        #expect(sorted([carrier, katieBell], by: .lastName) == [katieBell, carrier])
    }

    @Test func personWithNameSortsByNameNotOrganization() {
        let worker = NameParts(firstName: "Katie", lastName: "Bell", organization: "Acme")
        #expect(SortKey(worker, ordering: .lastName).primary == "bell")
    }

    @Test func middleNameSortsWhenNoFirstOrLastName() {
        let middle = NameParts(middleName: "Quinn", nickname: "Aa")
        #expect(SortKey(middle, ordering: .lastName).primary == "quinn")
    }

    @Test func nicknameSortsWhenNoOtherName() {
        let kat = NameParts(prefix: "Dr.", nickname: "Kat")
        #expect(SortKey(kat, ordering: .firstName).primary == "kat")
        #expect(sorted([katieBell, kat], by: .firstName) == [kat, katieBell])
    }

    @Test(arguments: SortOrdering.allCases)
    func recordWithoutNameSortsAfterEveryNamedRecord(_ ordering: SortOrdering) {
        let nameless = NameParts(prefix: "Dr.", suffix: "Jr.")
        let last = NameParts(lastName: "\u{10FFFD}")
        #expect(!SortKey(nameless, ordering: ordering).hasName)
        #expect(sorted([nameless, last, katieBell], by: ordering) == [katieBell, last, nameless])
    }

    @Test func recordsWithoutNameHaveEqualKeys() {
        let empty = SortKey(NameParts(), ordering: .lastName)
        let blank = SortKey(NameParts(firstName: " ", organization: "\t", isOrganization: true), ordering: .lastName)
        #expect(empty == blank)
        #expect(!(empty < blank) && !(blank < empty))
    }

    @Test func identicalNamesHaveEqualKeysForCallerToBreakTie() {
        let one = SortKey(katieBell, ordering: .lastName)
        let other = SortKey(NameParts(firstName: "KATIE", lastName: "Bell"), ordering: .lastName)
        #expect(one == other)
        #expect(!(one < other))
        #expect(Set([one, other]).count == 1)
    }

    @Test func sortingIgnoresCaseDiacriticsAndWidth() {
        let emile = SortKey(NameParts(firstName: "Émile"), ordering: .firstName)
        #expect(emile == SortKey(NameParts(firstName: "emile"), ordering: .firstName))
        #expect(emile == SortKey(NameParts(firstName: "Ｅｍｉｌｅ"), ordering: .firstName))
        let ed = SortKey(NameParts(firstName: "Ed"), ordering: .firstName)
        let fay = SortKey(NameParts(firstName: "fay"), ordering: .firstName)
        #expect(ed < emile && emile < fay)
    }

    @Test func orderIsByUnicodeScalarValueNotLocale() {
        let zed = SortKey(NameParts(lastName: "Zed"), ordering: .lastName)
        let oyvind = SortKey(NameParts(lastName: "Øyvind"), ordering: .lastName)  // ø is U+00F8
        let ivanov = SortKey(NameParts(lastName: "Иванов"), ordering: .lastName)
        let yamada = SortKey(NameParts(lastName: "山田"), ordering: .lastName)
        let song = SortKey(NameParts(lastName: "송"), ordering: .lastName)
        #expect(zed < oyvind)
        #expect(oyvind < ivanov)
        #expect(ivanov < yamada)
        #expect(yamada < song)
    }

    @Test func secondaryNameDecidesWhenPrimaryIsEqual() {
        let bellAnne = SortKey(anneBell, ordering: .lastName)
        let bellKatie = SortKey(katieBell, ordering: .lastName)
        let bellOnly = SortKey(NameParts(lastName: "Bell"), ordering: .lastName)
        #expect(bellOnly < bellAnne)
        #expect(bellAnne < bellKatie)
        #expect(!(bellKatie < bellAnne))
    }

    @Test func shorterPrimaryThatIsPrefixSortsFirst() {
        let bell = SortKey(NameParts(firstName: "Zed", lastName: "Bell"), ordering: .lastName)
        let bellamy = SortKey(NameParts(firstName: "Anne", lastName: "Bellamy"), ordering: .lastName)
        #expect(bell < bellamy)
    }
}
