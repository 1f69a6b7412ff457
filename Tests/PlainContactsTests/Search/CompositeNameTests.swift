import Testing

@testable import PlainContacts

@Suite("CompositeName")
struct CompositeNameTests {
    private let fullName = NameParts(
        prefix: "Dr.", firstName: "Katie", middleName: "Anne", lastName: "Bell", suffix: "Jr.")

    @Test func firstNameFirstWritesPrefixFirstMiddleLastSuffix() {
        #expect(CompositeName.make(fullName, format: .firstNameFirst) == "Dr. Katie Anne Bell Jr.")
    }

    @Test func lastNameFirstWritesPrefixLastFirstMiddleSuffix() {
        #expect(CompositeName.make(fullName, format: .lastNameFirst) == "Dr. Bell Katie Anne Jr.")
    }

    @Test func skipsEmptyAndWhiteSpaceOnlyParts() {
        let parts = NameParts(prefix: "", firstName: "Katie", middleName: "  ", lastName: "Bell", suffix: "\t")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Katie Bell")
        #expect(CompositeName.make(parts, format: .lastNameFirst) == "Bell Katie")
    }

    @Test func trimsWhiteSpaceAroundParts() {
        let parts = NameParts(firstName: " Chloé ", lastName: "\u{3000}Dubois\n")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Chloé Dubois")
    }

    @Test func organizationKindIsShownByOrganization() {
        let parts = NameParts(firstName: "Katie", lastName: "Bell", organization: "Acme", isOrganization: true)
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Acme")
    }

    @Test func organizationKindWithoutOrganizationNameIsShownByPersonName() {
        let parts = NameParts(firstName: "Katie", lastName: "Bell", organization: " ", isOrganization: true)
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Katie Bell")
    }

    @Test func personWithOrganizationIsShownByName() {
        let parts = NameParts(firstName: "Katie", lastName: "Bell", organization: "Acme")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Katie Bell")
    }

    @Test func personWithoutNamePartsIsShownByOrganization() {
        let parts = NameParts(nickname: "Kat", organization: "Acme")
        #expect(CompositeName.make(parts, format: .lastNameFirst) == "Acme")
    }

    @Test func personWithoutNamePartsOrOrganizationIsShownByNickname() {
        let parts = NameParts(nickname: " Kat ", organization: "")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Kat")
    }

    @Test func nicknameIsNotShownBesideName() {
        let parts = NameParts(firstName: "Katherine", nickname: "Kat")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Katherine")
    }

    @Test func recordWithoutAnyNameHasNoCompositeName() {
        #expect(CompositeName.make(NameParts(), format: .firstNameFirst) == nil)
        #expect(CompositeName.make(NameParts(firstName: " ", nickname: ""), format: .lastNameFirst) == nil)
        #expect(CompositeName.make(NameParts(isOrganization: true), format: .lastNameFirst) == nil)
    }

    @Test func prefixAloneIsAName() {
        #expect(CompositeName.make(NameParts(prefix: "Dr.", organization: "Acme"), format: .firstNameFirst) == "Dr.")
    }

    @Test(arguments: CompositeNameFormat.allCases)
    func japaneseNameIsWrittenLastNameFirstWithoutDelimiter(_ format: CompositeNameFormat) {
        let parts = NameParts(firstName: "太郎", lastName: "山田")
        #expect(CompositeName.make(parts, format: format) == "山田太郎")
    }

    @Test(arguments: CompositeNameFormat.allCases)
    func koreanNameIsWrittenLastNameFirstWithoutDelimiter(_ format: CompositeNameFormat) {
        let parts = NameParts(firstName: "성광", lastName: "송")
        #expect(CompositeName.make(parts, format: format) == "송성광")
    }

    @Test func chineseNameWithMiddleNameWritesLastFirstMiddle() {
        let parts = NameParts(firstName: "小", middleName: "明", lastName: "王")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "王小明")
    }

    @Test(arguments: CompositeNameFormat.allCases)
    func katakanaNameIsJoinedWithMiddleDot(_ format: CompositeNameFormat) {
        let parts = NameParts(firstName: "ジョン", lastName: "スミス")
        #expect(CompositeName.make(parts, format: format) == "スミス・ジョン")
    }

    @Test func katakanaMixedWithHanUsesNoDelimiter() {
        let parts = NameParts(firstName: "ジョン", lastName: "山田")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "山田ジョン")
    }

    @Test func iterationMarkAndHiraganaCountAsCJK() {
        let parts = NameParts(firstName: "さくら", lastName: "佐々木")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "佐々木さくら")
    }

    @Test func cjkNameKeepsPrefixAndSuffixApartWithSpaces() {
        let parts = NameParts(prefix: "Dr.", firstName: "太郎", lastName: "山田", suffix: "様")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Dr. 山田太郎 様")
    }

    @Test func nameMixingLatinAndCJKFollowsFormat() {
        let parts = NameParts(firstName: "Taro", lastName: "山田")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Taro 山田")
        #expect(CompositeName.make(parts, format: .lastNameFirst) == "山田 Taro")
    }

    @Test func russianNameFollowsFormat() {
        let parts = NameParts(firstName: "Иван", middleName: "Петрович", lastName: "Иванов")
        #expect(CompositeName.make(parts, format: .firstNameFirst) == "Иван Петрович Иванов")
        #expect(CompositeName.make(parts, format: .lastNameFirst) == "Иванов Иван Петрович")
    }
}
