import Testing
@testable import PlainContacts

@Suite struct CSVTableTests {
    private func table(_ text: String, strict: Bool = false) throws -> (CSVTable, [InterchangeError]) {
        var log = ConversionLog(source: "t.csv", strict: strict)
        let table = try CSVTable(parsing: text, log: &log)
        return (table, log.warnings)
    }

    @Test func quotedCellsHoldSeparatorsDoubledQuotesAndLineBreaks() throws {
        let (table, warnings) = try table("Name,Note\r\n\"Bell, Katie\",\"said \"\"hi\"\"\ntwice\"\r\nJohn,x\r\n")
        #expect(table.rows.map(\.cells) == [["Name", "Note"], ["Bell, Katie", "said \"hi\"\ntwice"], ["John", "x"]])
        #expect(table.rows.map(\.line) == [1, 2, 4])
        #expect(warnings.isEmpty)
    }

    @Test(arguments: [(",", "a,b"), (";", "a;b"), ("\t", "a\tb")])
    func theSeparatorIsFoundFromTheHeader(separator: String, header: String) throws {
        let (table, _) = try table(header + "\n1\(separator)2\n")
        #expect(table.separator == UInt8(ascii: separator.unicodeScalars.first ?? ","))
        #expect(table.rows.last?.cells == ["1", "2"])
    }

    @Test func aTabInsideAQuotedCellOfATabSeparatedFileStaysInTheCell() throws {
        let (table, _) = try table("A\tB\n\"x\ty\"\tz\n")
        #expect(table.rows.last?.cells == ["x\ty", "z"])
    }

    @Test func blankLinesAreNotRows() throws {
        let (table, _) = try table("A,B\n\n1,2\n\n")
        #expect(table.rows.count == 2)
    }

    @Test func aStrayQuoteIsKeptWithAWarningNamingTheLine() throws {
        let (table, warnings) = try table("A,B\n5\" disk,2\n")
        #expect(table.rows.last?.cells == ["5\" disk", "2"])
        #expect(warnings.map(\.line) == [2])
    }

    @Test func anUnclosedQuoteClosesAtTheEndWithAWarningAndIsRefusedWhenStrict() throws {
        let (table, warnings) = try table("A,B\n\"open,2\n")
        #expect(table.rows.last?.cells == ["open,2\n"])
        #expect(warnings.first?.line == 2)
        #expect(throws: InterchangeError.self) { try self.table("A,B\n\"open,2\n", strict: true) }
    }
}
