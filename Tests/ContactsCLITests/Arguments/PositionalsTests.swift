import Testing
@testable import contacts

@Suite struct PositionalsTests {
    @Test func theCountAddsUpTheArguments() {
        #expect(Positionals(.one("BASE"), .one("OURS"), .one("THEIRS"), .optional("PATH")).count == 3...4)
        #expect(Positionals(.one("GROUP"), .oneOrMore("ID")).count == 2...Int.max)
        #expect(Positionals(.optionalWords("NAME")).count == 0...Int.max)
        #expect(Positionals().count == 0...0)
    }

    @Test(arguments: [[], ["a", "b", "c"]])
    func tooFewOrTooManyWordsAreAUsageError(words: [String]) throws {
        let positionals = Positionals(.one("GROUP"), .one("NEW-NAME"))
        let error = try #require(throws: CLIError.self) { try positionals.check(words) }
        #expect(error.status == .usage)
    }

    @Test func wordsWithinTheCountPass() throws {
        try Positionals(.one("GROUP"), .oneOrMore("ID")).check(["g", "1", "2", "3"])
        try Positionals(.optional("DIR")).check([])
    }

    @Test func theSynopsisNestsAnOptionalArgumentAfterAnOptionalOne() {
        #expect(Positionals(.optional("COMMAND"), .optional("SUBCOMMAND")).synopsis == "[COMMAND [SUBCOMMAND]]")
        #expect(Positionals(.one("BASE"), .one("OURS"), .optional("PATH")).synopsis == "BASE OURS [PATH]")
        #expect(Positionals(.one("GROUP"), .oneOrMore("ID")).synopsis == "GROUP ID...")
        #expect(Positionals(.zeroOrMore("ID")).synopsis == "[ID...]")
        #expect(Positionals(.words("ID|NAME")).synopsis == "ID|NAME")
    }
}
