import Testing
@testable import contacts

/// Commands read their options through declarations, typed.
@Suite struct ParsedArgumentsTests {
    /// Parses `words` as `list` does, with the global options.
    private func list(_ words: [String]) throws -> ParsedArguments<ListCommand.Options> {
        let parser = ArgumentParser(options: ListCommand.options + GlobalOptions.specs, commandName: "list")
        return ParsedArguments(try parser.parse(words))
    }

    private func add(_ words: [String]) throws -> ParsedArguments<AddCommand.Options> {
        let parser = ArgumentParser(options: AddCommand.options + GlobalOptions.specs, commandName: "add")
        return ParsedArguments(try parser.parse(words))
    }

    @Test func aFlagReadsWhetherItWasGiven() throws {
        #expect(try list(["--json"])[\.json])
        #expect(try !list(["--org", "x"])[\.json])
    }

    @Test func anOptionReadsItsValueOrNil() throws {
        let arguments = try list(["--org=Acme", "--email", "-x@example.com"])
        #expect(arguments[\.org] == "Acme")
        #expect(arguments[\.email] == "-x@example.com")
        #expect(arguments[\.group] == nil)
    }

    @Test func aTypedOptionReadsItsParsedValue() throws {
        #expect(try list(["--sort", "last"])[\.sort] == .lastName)
        #expect(try list(["--sort", "firstName"])[\.sort] == .firstName)
        #expect(try list([])[\.sort] == nil)
    }

    @Test func aWrongValueOfATypedOptionIsAUsageError() throws {
        let arguments = try list(["--sort", "middle"])
        let error = try #require(throws: CLIError.self) { try arguments[\.sort] }
        #expect(error.status == .usage)
    }

    @Test func aRepeatableOptionReadsEveryValueInOrder() throws {
        let arguments = try add(["--group", "b", "--phone", "mobile:1", "--group", "a", "--phone", "2"])
        #expect(arguments[\.group] == ["b", "a"])
        let phones = try arguments[\.phone]
        #expect(phones == [LabeledValue(label: .mobile, value: "1"), LabeledValue(label: nil, value: "2")])
        #expect(try arguments[\.email].isEmpty)
    }

    @Test func aLabeledValueWithNothingAfterItsLabelIsAUsageError() throws {
        let arguments = try add(["--email", "work:"])
        let error = try #require(throws: CLIError.self) { try arguments[\.email] }
        #expect(error.status == .usage)
    }

    @Test func globalOptionsGivenAfterTheCommandWinOverThoseBefore() throws {
        let parser = ArgumentParser(options: GlobalOptions.specs, commandName: "contacts")
        let before = try parser.parse(["--store", "a", "--commit"])
        let after = try parser.parse(["--store", "b"])
        let merged = ParsedArguments<GlobalOptions>(after.merged(after: before, for: GlobalOptions.specs.map(\.name)))
        #expect(merged[\.store] == "b")
        #expect(merged[\.commit])
    }
}
