import Testing
@testable import contacts

/// A word that names no command is refused with the command it most likely meant: the word
/// another contacts tool uses for the job, or a name one slip away.
@Suite struct CommandSuggestionTests {
    private static let names = CommandTable.commands.map { $0.name }

    @Test(arguments: [
        ("remove", "rm"), ("delete", "rm"), ("details", "show"), ("ls", "list"), ("find", "search"),
        ("serach", "search"), ("lsit", "list"), ("imprt", "import"), ("birthday", "birthdays"),
    ])
    func aWordOfAnotherToolOrASlipSuggestsTheCommand(word: String, meant: String) {
        #expect(CommandSuggestion.command(for: word, among: Self.names) == meant)
    }

    @Test func aWordFarFromEveryCommandSuggestsNothing() {
        #expect(CommandSuggestion.command(for: "frobnicate", among: Self.names) == nil)
        #expect(CommandSuggestion.command(for: "x", among: Self.names) == nil)
    }

    @Test func editDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        #expect(CommandSuggestion.editDistance("search", "search") == 0)
        #expect(CommandSuggestion.editDistance("serach", "search") == 1)
        #expect(CommandSuggestion.editDistance("sarch", "search") == 1)
        #expect(CommandSuggestion.editDistance("searchx", "search") == 1)
        #expect(CommandSuggestion.editDistance("saerhc", "search") == 2)
        #expect(CommandSuggestion.editDistance("", "rm") == 2)
    }

    @Test func theCommandSaysWhatWasMeantAndExitsWithTheUsageStatus() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let removed = try sandbox.run(["remove", "1"])
        #expect(removed.status == 64, "\(removed)")
        #expect(removed.stderr.contains("unknown command 'remove'; did you mean `contacts rm`?"), "\(removed)")
        let unknown = try sandbox.run(["frobnicate"])
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.contains("unknown command 'frobnicate'; see `contacts help`"), "\(unknown)")
        let group = try sandbox.run(["group", "delete", "Friends"])
        #expect(group.status == 64, "\(group)")
        #expect(group.stderr.contains("unknown subcommand 'delete'; did you mean `contacts group rm`?"), "\(group)")
    }
}
