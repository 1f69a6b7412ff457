import Testing
@testable import contacts

@Suite struct ShellQuotingTests {
    @Test func aWordTheShellReadsBackUnchangedIsLeftAsItIs() {
        #expect(ShellQuoting.word("mobile:+44") == "mobile:+44")
        #expect(ShellQuoting.word("山田") == "山田")
    }

    @Test func aWordWithSpacesOrShellCharactersIsQuoted() {
        #expect(ShellQuoting.word("Best Friends") == "\"Best Friends\"")
        #expect(ShellQuoting.word("") == "\"\"")
        #expect(ShellQuoting.quoted("$HOME's") == "'$HOME'\\''s'")
    }
}
