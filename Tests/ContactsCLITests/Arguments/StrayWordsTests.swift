import Foundation
import Testing
@testable import contacts

/// Words a command cannot place are refused before anything is saved: words left over after
/// the positional arguments, words that continue an option's value the shell split, and a NAME
/// given together with the options that give it in parts.
@Suite struct StrayWordsTests {
    /// The words each test adds where no argument can take them.
    private static let stray = ["stray", "words"]

    /// An option every command takes whose value is free text: the stray words follow it.
    private static let valueOption = ["--lock-timeout", "5"]

    /// The commands whose positional arguments take a bounded number of words, or one value
    /// written as words: every other one takes a list of any length (see
    /// ``commandsTakingAnyNumberOfWordsAreTheListsAndQueries()``).
    static let refusingPaths = CommandDeclarationTests.commandPaths.filter { path in
        (try? CommandPath.command(path)).map { isRefusing($0.positionals) } ?? true
    }

    /// Whether stray words can be given to a command taking `positionals`.
    private static func isRefusing(_ positionals: Positionals) -> Bool {
        positionals.count.upperBound != Int.max || positionals.arguments.contains(where: \.isWrittenAsWords)
    }

    /// A store with one person, and its files.
    private static func storeWithOnePerson() throws -> (sandbox: CLISandbox, files: [String: Data]) {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell"])
        return (sandbox, try sandbox.snapshot())
    }

    @Test(arguments: refusingPaths)
    func wordsACommandCannotPlaceAreRefusedAndNothingIsSaved(path: [String]) throws {
        let (sandbox, before) = try Self.storeWithOnePerson()
        let positionals = try CommandPath.command(path).positionals
        let words = positionals.count.upperBound == Int.max
            ? ["1"] + Self.valueOption + Self.stray
            : Array(repeating: "1", count: positionals.count.upperBound) + Self.stray
        let result = try sandbox.run(path + words)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(Self.stray.joined(separator: " ")), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func commandsTakingAnyNumberOfWordsAreTheListsAndQueries() {
        // Lists of record IDs, paths, changes or books, where each word is one item, and the
        // search queries, whose words are one query: documented as taking several words.
        let expected: Set<[String]> = [
            ["search"], ["email"], ["set"], ["rm"], ["group", "add"], ["group", "remove"],
            ["import"], ["export"], ["user", "grant"], ["user", "revoke"],
        ]
        #expect(Set(CommandDeclarationTests.commandPaths).subtracting(Self.refusingPaths) == expected)
    }

    @Test(arguments: [["20", "7946", "0000"], ["20", "7946"]])
    func anUnquotedPhoneIsRefusedWithTheQuotingMeant(rest: [String]) throws {
        let (sandbox, before) = try Self.storeWithOnePerson()
        let result = try sandbox.run(["add", "--first", "Ada", "--last", "Lovelace", "--phone", "mobile:+44"] + rest)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--phone \"\((["mobile:+44"] + rest).joined(separator: " "))\""), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func anUnquotedPhoneAfterAWrittenNameIsRefused() throws {
        let (sandbox, before) = try Self.storeWithOnePerson()
        let result = try sandbox.run(["add", "Ada", "Lovelace", "--phone", "mobile:+44", "20", "7946", "0000"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("20 7946 0000"), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: ["--first", "--middle", "--last"])
    func aNameWithANamePartOptionIsRefused(option: String) throws {
        let (sandbox, before) = try Self.storeWithOnePerson()
        let result = try sandbox.run(["add", "Ada", "Lovelace", option, "Augusta"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(option) && result.stderr.contains("Ada Lovelace"), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aQuotedNameAfterANamePartOptionIsRefusedAsANameBesideIt() throws {
        let (sandbox, before) = try Self.storeWithOnePerson()
        let result = try sandbox.run(["add", "--first", "Ada", "--last", "Byron", "Ada Lovelace"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("NAME (\"Ada Lovelace\") and --first"), "\(result)")
        #expect(!result.stderr.contains("did you mean"), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aGroupNameOfTwoWordsIsRefusedWithItsQuoting() throws {
        let (sandbox, before) = try Self.storeWithOnePerson()
        let result = try sandbox.run(["group", "create", "Best", "Friends"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("\"Best Friends\""), "\(result)")
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: [["add", "Ada", "Lovelace"], ["add", "--kind", "person", "--", "Ada", "Lovelace"]])
    func aNameWrittenAsWordsIsStillTaken(words: [String]) throws {
        let (sandbox, _) = try Self.storeWithOnePerson()
        let id = try sandbox.add(Array(words.dropFirst()))
        #expect(try sandbox.json(id)["lastName"] as? String == "Lovelace")
        #expect(try sandbox.succeed(["show", "--json", "Ada", "Lovelace"]).stdout.contains("Lovelace"))
        #expect(try sandbox.succeed(["search", "ada", "love"]).lines.count == 1)
    }
}
