import Testing

@testable import contacts_bench

@Suite("Import fidelity count")
struct ImportFidelityCountTests {
    /// Katie as an import that lost her mobile number and her work phone's label would leave her.
    private var katie: ImportedPersonView {
        var view = ImportedPersonView()
        view.givenName = "Katie"
        view.familyName = "Bell"
        view.compositeName = "Katie Bell"
        view.phones = [.init(text: "+1 555 0100", label: "other")]
        view.emails = [.init(text: "Katie@Example.org", label: nil)]
        return view
    }

    @Test func countsADroppedFieldAndAChangedLabelAsLost() {
        let records = CSVSourceReader.records(
            "First Name,Last Name,Business Phone,Mobile Phone,E-mail Address,Notes\n"
                + "Katie,Bell,+1 555 0100,+1 555 0101,katie@example.org,\n")
        let count = ImportFidelityCount(records: records, people: [katie], groups: [])
        #expect(count.records == 1)
        #expect(count.fields == 5)
        #expect(count.fieldsKept == 4)
        #expect(count.labels == 2)
        #expect(count.labelsKept == 0)
        #expect(
            count.losses == [
                .init(what: "label", line: 2, column: "Business Phone", value: "+1 555 0100", expected: "work"),
                .init(what: "field", line: 2, column: "Mobile Phone", value: "+1 555 0101", expected: "phone"),
            ])
        #expect(records[0].excluded == [.empty: 1])
    }

    @Test func pairsEachRecordWithThePersonHoldingMostOfIt() {
        var lee = ImportedPersonView()
        lee.givenName = "Lee"
        lee.familyName = "Jordan"
        let records = CSVSourceReader.records("First Name,Last Name\nLee,Jordan\nKatie,Bell\nNobody,Here\n")
        let count = ImportFidelityCount(records: records, people: [katie, lee], groups: [])
        #expect(count.records == 3)
        #expect(count.fieldsKept == 4)
        #expect(count.losses.map(\.value) == ["Nobody", "Here"])
    }

    @Test func findsGroupNamesAndMembersInTheGroupOfTheName() {
        let records = MuttSourceReader.records(
            "alias kb Katie Bell <katie@example.org>\nalias club quidditch: kb, oliver@example.org;\n")
        let club = ImportedGroupView(name: "club", members: [katie])
        let count = ImportFidelityCount(records: records, people: [katie], groups: [club])
        #expect(count.records == 2)
        #expect(count.fields == 7)
        #expect(count.losses.map(\.value) == ["kb", "quidditch", "oliver@example.org"])
    }

    @Test func findsAGroupsDisplayNameAmongTheFieldsItKeeps() {
        let records = MuttSourceReader.records("alias club quidditch: katie@example.org;\n")
        let kept = ImportedPersonView.kept(#"X-IMPORTED-FIELD;X-FORMAT=mutt;X-NAME="display-name":quidditch"#)
        let club = ImportedGroupView(name: "club", members: [katie], kept: [kept])
        let count = ImportFidelityCount(records: records, people: [katie], groups: [club])
        #expect(count.fields == 3)
        #expect(count.fieldsKept == 3)
        #expect(count.losses.isEmpty)
    }

    @Test func findsAListsDescriptionAmongTheFieldsItsGroupKeeps() {
        let records = LDIFSourceReader.records(
            "dn: cn=Book Club\nobjectclass: groupOfNames\ncn: Book Club\ndescription: Monthly readers\n"
                + "member: cn=Katie Bell,mail=katie@example.org\n")
        let kept = ImportedPersonView.kept(#"X-IMPORTED-FIELD;X-FORMAT=ldif;X-NAME="description":Monthly readers"#)
        let keeping = ImportedGroupView(name: "Book Club", members: [katie], kept: [kept])
        #expect(ImportFidelityCount(records: records, people: [katie], groups: [keeping]).losses.isEmpty)
        let forgetting = ImportedGroupView(name: "Book Club", members: [katie])
        let lost = ImportFidelityCount(records: records, people: [katie], groups: [forgetting]).losses
        #expect(lost.map(\.value) == ["Monthly readers"])
    }
}
