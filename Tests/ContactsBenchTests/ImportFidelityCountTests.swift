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
}
