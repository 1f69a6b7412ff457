import Testing
@testable import PlainContactsDAV

@Suite struct WebFormTests {
    @Test func fieldsArePercentDecodedWithPlusAsASpace() {
        let form = WebForm("q=katie+b%C3%A9ll&empty=&flag&q=second")

        #expect(form["q"] == "katie béll")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["missing"] == nil)
    }

    @Test func aBadEscapeOrBytesThatAreNotUTF8LeaveTheFieldOut() {
        let form = WebForm("a=%zz&b=%FF&c=ok")

        #expect(form["a"] == nil)
        #expect(form["b"] == nil)
        #expect(form["c"] == "ok")
    }

    @Test func encodingKeepsOnlyUnreservedBytes() {
        #expect(WebForm.encoded("Åsa & co/1") == "%C3%85sa%20%26%20co%2F1")
        #expect(WebForm(("q=" + WebForm.encoded("a+b c"))).fields.first?.value == "a+b c")
    }
}

@Suite struct WebHTMLTests {
    @Test func everyCharacterThatCouldOpenMarkupIsEscaped() {
        #expect(WebHTML.escaped("<a href=\"x\" title='y'>&</a>") == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(WebHTML.escaped("Åsa Öberg 山田") == "Åsa Öberg 山田")
    }
}
