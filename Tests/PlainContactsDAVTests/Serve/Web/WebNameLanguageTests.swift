import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct WebNameLanguageTests {
    @Test(arguments: [
        ("山田 太郎", "やまだ たろう", "ja"), ("ヤマダ", "", "ja"), ("김민준", "", "ko"), ("王芳", "Wang Fang", "zh"),
        ("王芳", "", "und-Hani"), ("Γιώργος", "", "el"), ("Иван", "", "und-Cyrl"), ("דנה", "", "he"),
    ])
    func aNameInAnotherScriptHasItsLanguage(name: String, reading: String, tag: String) {
        #expect(WebNameLanguage.tag(of: name, reading: reading) == tag)
    }

    @Test func aNameInLatinLettersHasNone() {
        #expect(WebNameLanguage.tag(of: "Åsa Öberg") == nil)
        #expect(WebNameLanguage.attribute(of: "Katie Bell") == "")
    }

    @Test func japaneseReadingsAreRubyOverTheirPartsAndOtherNamesAreEscaped() {
        let yamada = Person()
        yamada.lastName = "山田"
        yamada.firstName = "<太郎>"
        yamada.lastNamePhonetic = "やまだ"
        let katie = Person()
        katie.firstName = "Katie"
        katie.lastName = "<b>"

        let html = WebNameLanguage.nameHTML(of: yamada)

        #expect(html.contains("<ruby>山田<rt>やまだ</rt></ruby>"))
        #expect(html.contains("&lt;太郎&gt;"))
        #expect(WebNameLanguage.nameHTML(of: katie) == "Katie &lt;b&gt;")
    }
}
