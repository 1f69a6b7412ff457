import Testing

@testable import PlainContacts

@Suite("NameNormalizer")
struct NameNormalizerTests {
    @Test func lowercasesASCIILetters() {
        #expect(NameNormalizer.normalize("KaTiE BELL") == "katie bell")
        #expect(NameNormalizer.normalize("O'Brien-Smith 3rd") == "o'brien-smith 3rd")
    }

    @Test func trimsAndCollapsesASCIIWhiteSpace() {
        #expect(NameNormalizer.normalize("  Katie \t\n Bell\r\n") == "katie bell")
    }

    @Test func collapsesUnicodeWhiteSpace() {
        // IDEOGRAPHIC SPACE, NO-BREAK SPACE, EM SPACE, NEXT LINE, LINE SEPARATOR
        let text = "\u{3000}Chloé\u{00A0}\u{2003}Dubois\u{0085}Jr\u{2028}"
        #expect(NameNormalizer.normalize(text) == "chloe dubois jr")
    }

    @Test func emptyAndWhiteSpaceOnlyTextBecomesEmpty() {
        #expect(NameNormalizer.normalize("") == "")
        #expect(NameNormalizer.normalize(" \t ") == "")
        #expect(NameNormalizer.normalize("\u{3000}\u{00A0}") == "")
    }

    @Test func foldsFullWidthLatinToASCII() {
        #expect(NameNormalizer.normalize("Ｋａｔｉｅ　ＢＥＬＬ") == "katie bell")
    }

    @Test func foldsHalfWidthKatakanaToFullWidth() {
        #expect(NameNormalizer.normalize("ｶﾀｶﾅ") == "カタカナ")
        #expect(NameNormalizer.normalize("ｶﾞｯｺｳ") == "ガッコウ")
    }

    @Test func dropsLatinDiacritics() {
        #expect(NameNormalizer.normalize("Chloé") == "chloe")
        #expect(NameNormalizer.normalize("ÑÚÑEZ") == "nunez")
        #expect(NameNormalizer.normalize("Zo\u{EB}") == "zoe")
        #expect(NameNormalizer.normalize("Zoe\u{308}") == "zoe")
        #expect(NameNormalizer.normalize("Dvořák") == "dvorak")
    }

    @Test func keepsLettersThatHaveNoDecomposition() {
        #expect(NameNormalizer.normalize("Ødegaard") == "ødegaard")
        #expect(NameNormalizer.normalize("Łukasz") == "łukasz")
        #expect(NameNormalizer.normalize("Straße") == "straße")
    }

    @Test func keepsJapaneseVoicedSoundMarks() {
        #expect(NameNormalizer.normalize("ガ") == "ガ")
        #expect(NameNormalizer.normalize("パ") == "パ")
        #expect(NameNormalizer.normalize("ガ") != NameNormalizer.normalize("カ"))
        #expect(NameNormalizer.normalize("カ\u{3099}") == "ガ")
    }

    @Test func lowercasesCyrillicAndGreekScalarByScalar() {
        #expect(NameNormalizer.normalize("ИВАН Иванов") == "иван иванов")
        // No final-sigma context: every capital sigma becomes σ.
        #expect(NameNormalizer.normalize("ΟΔΥΣΣΕΑΣ") == "οδυσσεασ")
    }

    @Test func cyrillicLettersWrittenWithBreveOrDiaeresisFoldToTheirBase() {
        #expect(NameNormalizer.normalize("Йосиф Ёлкин") == "иосиф елкин")
    }

    @Test func dottedCapitalIBecomesPlainI() {
        #expect(NameNormalizer.normalize("İlker") == "ilker")
    }

    @Test func keepsHangulSyllablesComposed() {
        let normalized = NameNormalizer.normalize("송성광")
        #expect(normalized == "송성광")
        #expect(normalized.unicodeScalars.count == 3)
    }

    @Test func resultIsInCanonicalComposedForm() {
        let normalized = NameNormalizer.normalize("Ẅ") // W with diaeresis: the mark is dropped
        #expect(normalized == "w")
        // A mark outside the dropped blocks stays and composes with its base.
        #expect(NameNormalizer.normalize("ﾊﾟ").unicodeScalars.map(\.value) == [0x30D1])
    }

    @Test func asciiShortcutAgreesWithGeneralPath() {
        let samples = ["  KATIE   Bell ", "Jean-Luc\tPicard", "o'brien", "A1 b2  C3"]
        for sample in samples {
            // A last word "é" forces the general path; it normalizes to "e".
            #expect(NameNormalizer.normalize(sample + " é") == NameNormalizer.normalize(sample) + " e")
        }
    }

    @Test(arguments: ["  Ｋａｔｉｅ ", "Zoë Ødegaard", "ｶﾞｯｺｳ", "ΟΔΥΣΣΕΑΣ", "İlker", "山田　太郎", "Dvořák"])
    func normalizingTwiceChangesNothing(_ text: String) {
        let once = NameNormalizer.normalize(text)
        #expect(NameNormalizer.normalize(once) == once)
    }

    @Test func wordsSplitOnApostrophesAndHyphens() {
        #expect(NameNormalizer.words("O'Brien") == ["o", "brien"])
        #expect(NameNormalizer.words("O\u{2019}Brien") == ["o", "brien"])
        #expect(NameNormalizer.words("Jean-Luc") == ["jean", "luc"])
    }

    @Test func wordsSplitOnWhiteSpaceAndPunctuation() {
        #expect(NameNormalizer.words("van der Berg") == ["van", "der", "berg"])
        #expect(NameNormalizer.words("  Dr.  Katie  (Kat) ") == ["dr", "katie", "kat"])
    }

    @Test func wordsKeepDigitsAndFoldedLetters() {
        #expect(NameNormalizer.words("Louis XIV 2nd") == ["louis", "xiv", "2nd"])
        #expect(NameNormalizer.words("ＺＯË Ødegaard") == ["zoe", "ødegaard"])
    }

    @Test func wordsKeepACJKNameAsOneWord() {
        #expect(NameNormalizer.words("山田太郎") == ["山田太郎"])
        #expect(NameNormalizer.words("송성광") == ["송성광"])
    }

    @Test func wordsAlsoIndexCJKRunsOfMixedWords() {
        #expect(NameNormalizer.words("taro山田") == ["taro山田", "山田"])
        #expect(NameNormalizer.words("a山b田") == ["a山b田", "山", "田"])
    }

    @Test func wordsOfKatakanaNameSplitOnMiddleDot() {
        #expect(NameNormalizer.words("ジョン・スミス") == ["ジョン", "スミス"])
        #expect(NameNormalizer.words("ｼﾞｮﾝ･ｽﾐｽ") == ["ジョン", "スミス"])
    }

    @Test func wordsOfTextWithoutLettersAreEmpty() {
        #expect(NameNormalizer.words("").isEmpty)
        #expect(NameNormalizer.words(" - ' . ").isEmpty)
    }
}
