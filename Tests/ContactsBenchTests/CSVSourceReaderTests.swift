import Testing

@testable import contacts_bench

@Suite("CSV source reader")
struct CSVSourceReaderTests {
    @Test func pairsGooglesValuesWithTheTypesOfTheirGroupAndLeavesOutMyContacts() {
        let records = CSVSourceReader.records(
            "Name,Group Membership,E-mail 1 - Type,E-mail 1 - Value,IM 1 - Service,IM 1 - Value\n"
                + "Ola,* My Contacts ::: Hiking,* Home ::: Work,ola@example.no ::: ola@work.example,Skype,ola.n\n")
        let fields = records[0].fields
        #expect(fields.map(\.kind) == [.displayName, .group, .email, .email, .instantMessage])
        #expect(fields.map(\.value) == ["Ola", "Hiking", "ola@example.no", "ola@work.example", "ola.n"])
        #expect(fields.map { $0.label?.name } == [nil, nil, "home", "work", "Skype"])
        #expect(records[0].excluded == [.googleSystemGroup: 1, .typeCell: 2])
    }

    @Test func readsOutlooksHeadersInGermanAndLeavesOutItsDefaults() {
        let records = CSVSourceReader.records(
            "Anrede;Vorname;Position;Straße privat;Fax geschäftlich;Jahrestag;Priorität;E-Mail-Typ\n"
                + "Herr;Jürgen;Verkauf;Hauptstraße 5;+49 89 1;0.0.00;Normal;SMTP\n")
        let fields = records[0].fields
        #expect(fields.map(\.kind) == [.namePrefix, .givenName, .jobTitle, .address(.street), .phone])
        #expect(fields.map { $0.label?.name } == [nil, nil, nil, "home", "workFax"])
        #expect(records[0].excluded == [.outlookDefault: 2, .mailTransport: 1])
    }

    @Test func readsTitleAsThePrefixBesideAJobTitleAndAsTheJobTitleAlone() {
        let outlook = CSVSourceReader.records("Title,Job Title\nDr.,Engineer\n")
        let yahoo = CSVSourceReader.records("Title,Company\nEngineer,Acme\n")
        #expect(outlook[0].fields.map(\.kind) == [.namePrefix, .jobTitle])
        #expect(yahoo[0].fields.map(\.kind) == [.jobTitle, .organization])
    }

    @Test func readsARowWithAnEmailAndNoHeaderInThunderbirdsColumnOrder() {
        let records = CSVSourceReader.records(",,Alan Turing,,alan@bletchley.example,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n")
        #expect(records.count == 1)
        #expect(records[0].fields.map(\.column) == ["Display Name", "Primary Email"])
        let columns = CSVSourceReader.thunderbirdColumns
        #expect(columns.count == 37)
        #expect(Array(columns[29...31]) == ["Birth Year", "Birth Month", "Birth Day"])
        #expect(columns.last == "Notes")
    }

    @Test func keepsLineBreaksAndSeparatorsInQuotedCellsAndNamesTheRowsLine() {
        let records = CSVSourceReader.records("Name\tNotes\nAda\t\"first\tline\nsecond\"\nBob\tx\n")
        #expect(records.map(\.line) == [2, 4])
        #expect(records[0].fields.last?.value == "first\tline\nsecond")
    }
}
