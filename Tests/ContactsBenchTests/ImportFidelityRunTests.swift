import Foundation
import Testing

@testable import contacts_bench

@Suite("Import fidelity run")
struct ImportFidelityRunTests {
    @Test func importsEachExportAndCountsWhatComesBackAndWhatIsLost() throws {
        let url = try temporaryFolder([
            "csv/people.csv": "Name,Home Phone,Mobile Phone,Gender\nKatie Bell,+1 555 0100,+1 555 0101,\n",
            // A group holds a name, members, the RFC 5322 group's own name and the list's comment.
            "aliases":
                "alias kb Katie Bell <katie@example.org> # keeper\nalias club quidditch: kb, oliver@example.org; # weekly\n",
            "README.md": "Exports for the test.\n",
        ])
        defer { try? FileManager.default.removeItem(at: url) }
        let summary = try ImportFidelityRun.summary(of: url)
        #expect(summary.skipped == ["README.md"])
        #expect(summary.files.map(\.file) == ["aliases", "csv/people.csv"])
        #expect(
            summary.formats["csv"]
                == .init(files: 1, records: 1, fields: 3, fieldsKept: 3, labels: 2, labelsKept: 2))
        #expect(
            summary.formats["mutt"]
                == .init(files: 1, records: 2, fields: 9, fieldsKept: 9, labels: 0, labelsKept: 0))
        #expect(summary.files[0].losses.isEmpty)
        #expect(summary.excluded == ["empty": 1])
        #expect(summary.shortfalls(fields: 97, labels: 95).isEmpty)
    }

    @Test func countsEveryFieldOfARefusedFileAsLost() throws {
        let url = try temporaryFolder(["sheet.csv": "Shoe size,Favourite colour\n38,green\n"])
        defer { try? FileManager.default.removeItem(at: url) }
        let summary = try ImportFidelityRun.summary(of: url)
        #expect(summary.files.first?.importedAs.hasPrefix("refused: malformedInput") == true)
        #expect(summary.total == .init(files: 1, records: 1, fields: 2, fieldsKept: 0, labels: 0, labelsKept: 0))
    }

    @Test func refusesAFolderThatDoesNotExist() {
        let missing = FileManager.default.temporaryDirectory.appending(path: "ContactsBenchTests-\(UUID().uuidString)")
        #expect(throws: UsageError.self) { try ImportFidelityRun.summary(of: missing) }
    }
}
