import Testing
@testable import PlainContacts

@Suite struct ImportedDateTests {
    @Test(arguments: [
        ("1975-12-12", false, "1975-12-12"), ("--04-12", false, "--04-12"), ("   1-01-01", false, "--01-01"),
        ("0001-05-03", false, "--05-03"), ("1604-05-03", false, "--05-03"), ("19751212", false, "1975-12-12"),
        ("20.01.1991", false, "1991-01-20"), ("20/01/1991", false, "1991-01-20"), ("1/20/1991", true, "1991-01-20"),
        ("3/4/1990", false, "1990-03-04"), ("3/4/1990", true, "1990-04-03"), ("1980/5/6", true, "1980-05-06"),
        ("12/12/1975 0:00:00", false, "1975-12-12"), ("1975-12-12T00:00:00Z", false, "1975-12-12"),
        ("4/15/90", false, "1990-04-15"),
    ])
    func datesAreReadAsExportsWriteThem(text: String, dayFirst: Bool, expected: String) {
        #expect(ImportedDate.parse(text, dayFirst: dayFirst)?.description == expected)
    }

    @Test(arguments: ["0.0.00", "00/00/0000", "", "  "])
    func outlooksNoDateIsEmpty(text: String) {
        #expect(ImportedDate.isEmpty(text))
    }

    @Test func monthsMayBeWords() {
        #expect(ImportedDate.month("december") == 12)
        #expect(ImportedDate.month("Dez") == 12)
        #expect(ImportedDate.month("7") == 7)
        #expect(ImportedDate.month("13") == nil)
    }
}
