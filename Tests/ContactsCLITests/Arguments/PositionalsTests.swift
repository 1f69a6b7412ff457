import Testing
@testable import contacts

@Suite struct PositionalsTests {
    /// The options the checks below are parsed with: a flag, a value, and a value of fixed words.
    private static let options = [
        Flag("json", help: "JSON.").spec,
        Option<String>("phone", "NUMBER", help: "A phone.").spec,
        Option<String>("kind", "KIND", help: "A kind.", completion: .words(["person", "organization"])).spec,
        Option<String>("first", "NAME", help: "A first name.").spec,
    ]

    /// Parses `words` with ``options`` and checks them against `positionals`.
    private func check(_ positionals: Positionals, _ words: [String]) throws {
        let values = try ArgumentParser(options: Self.options, commandName: "test").parse(words)
        try positionals.check(values)
    }

    /// The usage error checking `words` against `positionals` throws.
    private func refusal(_ positionals: Positionals, _ words: [String]) throws -> CLIError {
        try #require(throws: CLIError.self) { try check(positionals, words) }
    }

    @Test func theCountAddsUpTheArguments() {
        #expect(Positionals(.one("BASE"), .one("OURS"), .one("THEIRS"), .optional("PATH")).count == 3...4)
        #expect(Positionals(.one("GROUP"), .oneOrMore("ID")).count == 2...Int.max)
        #expect(Positionals(.optionalWords("NAME")).count == 0...Int.max)
        #expect(Positionals().count == 0...0)
    }

    @Test(arguments: [[], ["a", "b", "c"]])
    func tooFewOrTooManyWordsAreAUsageError(words: [String]) throws {
        let error = try refusal(Positionals(.one("GROUP"), .one("NEW-NAME")), words)
        #expect(error.status == .usage)
    }

    @Test func wordsWithinTheCountPass() throws {
        try check(Positionals(.one("GROUP"), .oneOrMore("ID")), ["g", "1", "--phone", "x", "2", "3"])
        try check(Positionals(.optional("DIR")), [])
    }

    @Test func wordsLeftOverAreNamed() throws {
        let error = try refusal(Positionals(.one("GROUP"), .one("NEW-NAME")), ["g", "Best", "Friends", "Ever"])
        #expect(error.status == .usage)
        #expect(error.message.contains("Friends Ever"))
    }

    @Test func aValueWrittenAsWordsTakesRunsAfterFlagsAndAfterTheDoubleDash() throws {
        try check(Positionals(.optionalWords("NAME")), ["Ada", "--json", "Lovelace"])
        try check(Positionals(.words("NAME")), ["--json", "Ada", "Lovelace"])
        try check(Positionals(.words("NAME")), ["--phone", "1", "--", "Ada", "Lovelace"])
    }

    @Test(arguments: [
        ["Ada", "--phone", "mobile:+44", "20", "7946"],
        ["--phone=mobile:+44", "20"],
        ["--kind", "organization", "Acme", "Corp"],
    ])
    func wordsAfterAnOptionsValueAreNotTakenAsAValueWrittenAsWords(words: [String]) throws {
        let error = try refusal(Positionals(.optionalWords("NAME")), words)
        #expect(error.status == .usage)
        #expect(error.message.contains("--\(words.contains("--kind") ? "kind" : "phone")"))
    }

    @Test func anArgumentAndAnOptionItExcludesAreRefusedTogether() throws {
        let positionals = Positionals(.optionalWords("NAME", excludedOptions: ["first"]))
        #expect(try refusal(positionals, ["Ada", "--first", "Augusta"]).status == .usage)
        try check(positionals, ["--first", "Augusta"])
        try check(positionals, ["Ada Lovelace"])
    }

    @Test func theSynopsisNestsAnOptionalArgumentAfterAnOptionalOne() {
        #expect(Positionals(.optional("COMMAND"), .optional("SUBCOMMAND")).synopsis == "[COMMAND [SUBCOMMAND]]")
        #expect(Positionals(.one("BASE"), .one("OURS"), .optional("PATH")).synopsis == "BASE OURS [PATH]")
        #expect(Positionals(.one("GROUP"), .oneOrMore("ID")).synopsis == "GROUP ID...")
        #expect(Positionals(.zeroOrMore("ID")).synopsis == "[ID...]")
        #expect(Positionals(.words("ID|NAME")).synopsis == "ID|NAME")
    }
}
