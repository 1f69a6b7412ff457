import Testing

@testable import PlainContacts

@Suite("CJKScript")
struct CJKScriptTests {
    @Test(arguments: ["山", "田", "々", "た", "ゞ", "タ", "ー", "・", "ｶ", "ﾞ", "송", "ᄀ", "𠮷"])
    func hanKanaAndHangulAreCJK(_ text: String) throws {
        let scalar = try #require(text.unicodeScalars.first)
        #expect(CJKScript.isCJK(scalar))
    }

    @Test(arguments: ["a", "é", "Ж", "Ω", " ", "-", "1", "。", "、"])
    func otherScriptsAndPunctuationAreNotCJK(_ text: String) throws {
        let scalar = try #require(text.unicodeScalars.first)
        #expect(!CJKScript.isCJK(scalar))
    }

    @Test func katakanaIsDistinguishedFromHiraganaAndHan() {
        #expect(CJKScript.isWritten("スミス・ジョーンズ", in: CJKScript.isKatakana))
        #expect(CJKScript.isWritten("ｽﾐｽ", in: CJKScript.isKatakana))
        #expect(!CJKScript.isWritten("すみす", in: CJKScript.isKatakana))
        #expect(!CJKScript.isWritten("山田", in: CJKScript.isKatakana))
    }

    @Test func whiteSpaceIsIgnoredButEmptyTextIsNotWrittenInAnyScript() {
        #expect(CJKScript.isWritten(" 山田 太郎 ", in: CJKScript.isCJK))
        #expect(!CJKScript.isWritten("   ", in: CJKScript.isCJK))
        #expect(!CJKScript.isWritten("", in: CJKScript.isCJK))
        #expect(!CJKScript.isWritten("山田 Taro", in: CJKScript.isCJK))
    }
}
