import Testing

@testable import PlainContacts

@Suite("NameSearch")
struct NameSearchTests {
    private let katie = NameParts(firstName: "Katie", lastName: "Bell")
    private let taro = NameParts(
        firstName: "太郎", lastName: "山田", firstNamePhonetic: "たろう", lastNamePhonetic: "やまだ")

    @Test func prefixesOfFirstAndLastNameMatch() {
        #expect(NameSearch.matches("ka be", katie))
        #expect(NameSearch.matches("k", katie))
    }

    @Test func wholeLastNameMatches() {
        #expect(NameSearch.matches("bell", katie))
        #expect(NameSearch.matches("Katie Bell", katie))
    }

    @Test func queryWordsMatchInAnyOrder() {
        #expect(NameSearch.matches("bell katie", katie))
    }

    @Test func oneUnmatchedQueryWordFailsTheQuery() {
        #expect(!NameSearch.matches("katie x", katie))
        #expect(!NameSearch.matches("katie bells", katie))
    }

    @Test func middleOfWordDoesNotMatch() {
        #expect(!NameSearch.matches("atie", katie))
        #expect(!NameSearch.matches("ell", katie))
    }

    @Test(arguments: ["", "   ", "!!", " - "])
    func queryWithoutWordsMatchesNobody(_ query: String) {
        #expect(!NameSearch.matches(query, katie))
        #expect(!NameSearch.matches(query, NameParts()))
    }

    @Test func matchIgnoresCaseDiacriticsAndWidth() {
        #expect(NameSearch.matches("ＫＡＴＩＥ", katie))
        let chloe = NameParts(firstName: "Chlo\u{E9}", lastName: "Dubois")
        #expect(NameSearch.matches("chloe", chloe))
        #expect(NameSearch.matches("CHLOÉ DUB", chloe))
        #expect(NameSearch.matches("Chloe\u{301}", chloe))
        let zoe = NameParts(firstName: "Zoe\u{308}")
        #expect(NameSearch.matches("zoë", zoe))
    }

    @Test(arguments: [
        NameParts(prefix: "Professor"),
        NameParts(middleName: "Professor"),
        NameParts(suffix: "Professor"),
        NameParts(nickname: "Professor"),
        NameParts(firstNamePhonetic: "Professor"),
        NameParts(middleNamePhonetic: "Professor"),
        NameParts(lastNamePhonetic: "Professor"),
        NameParts(organization: "Professor Ltd"),
    ])
    func everyNameFieldIsSearched(_ parts: NameParts) {
        #expect(NameSearch.matches("prof", parts))
    }

    @Test func namesSplitOnPunctuationMatchEitherPart() {
        let obrien = NameParts(firstName: "Jean-Luc", lastName: "O'Brien")
        #expect(NameSearch.matches("brien", obrien))
        #expect(NameSearch.matches("luc o", obrien))
        #expect(NameSearch.matches("o'brien", obrien))
    }

    @Test func cjkQueryMatchesBeginningOfCJKName() {
        #expect(NameSearch.matches("山", taro))
        #expect(NameSearch.matches("山田", taro))
        #expect(NameSearch.matches("太", taro))
        #expect(!NameSearch.matches("田", taro))
    }

    @Test func cjkFullNameTypedWithoutSpaceMatches() {
        #expect(NameSearch.matches("山田太郎", taro))
        #expect(NameSearch.matches("山田太", taro))
        #expect(NameSearch.matches("山田 太郎", taro))
        #expect(!NameSearch.matches("太郎山田", taro))
    }

    @Test func phoneticReadingMatches() {
        #expect(NameSearch.matches("やまだ", taro))
        #expect(NameSearch.matches("やまだたろう", taro))
        #expect(NameSearch.matches("たろ", taro))
    }

    @Test func halfWidthKatakanaQueryMatchesFullWidthName() {
        let smith = NameParts(firstName: "ジョン", lastName: "スミス")
        #expect(NameSearch.matches("ｽﾐｽ", smith))
        #expect(NameSearch.matches("スミス・ジョン", smith))
        #expect(NameSearch.matches("ｼﾞｮ", smith))
    }

    @Test func koreanNameMatches() {
        let song = NameParts(firstName: "성광", lastName: "송")
        #expect(NameSearch.matches("송", song))
        #expect(NameSearch.matches("송성광", song))
        #expect(NameSearch.matches("성", song))
        #expect(!NameSearch.matches("광", song))
    }

    @Test func russianNameMatchesIgnoringCase() {
        let ivan = NameParts(firstName: "Иван", lastName: "Иванов")
        #expect(NameSearch.matches("иван", ivan))
        #expect(NameSearch.matches("ИВАНОВ", ivan))
        #expect(NameSearch.matches("ив ива", ivan))
        #expect(!NameSearch.matches("петр", ivan))
    }

    @Test func mixedScriptQueryIsSplitWhereScriptChanges() {
        #expect(NameSearch.queryWords("taro山田") == ["taro", "山田"])
        #expect(NameSearch.matches("taro山田", NameParts(firstName: "Taro", lastName: "山田")))
    }

    @Test func queryWordsAreNormalizedAndKeptOnce() {
        #expect(NameSearch.queryWords("  Katie KATIE  bell ") == ["katie", "bell"])
        #expect(NameSearch.queryWords("").isEmpty)
    }

    @Test func searchWordsIncludeJoinedCJKNamesButNotJoinedLatinNames() {
        let words = NameSearch.searchWords(taro)
        #expect(words.contains("山田太郎"))
        #expect(words.contains("やまだたろう"))
        let latin = NameSearch.searchWords(NameParts(firstName: "Katie", lastName: "Bell"))
        #expect(latin == ["katie", "bell"])
    }

    @Test func precomputedWordsGiveTheSameAnswerAsConvenience() {
        let searchWords = NameSearch.searchWords(katie)
        for query in ["ka be", "bell", "katie x", "atie", ""] {
            #expect(
                NameSearch.matches(queryWords: NameSearch.queryWords(query), searchWords: searchWords)
                    == NameSearch.matches(query, katie))
        }
    }
}
