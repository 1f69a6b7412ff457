import Foundation
import Testing

@testable import contacts_bench

@Suite("Fidelity run")
struct FidelityRunTests {
    @Test func findsVCardFilesByNameOrContentRecursively() throws {
        let url = try temporaryFolder([
            "a.vcf": "", "b/c.VCARD": "", "b/d.ref": "BEGIN:VCARD\nEND:VCARD\n",
            "SOURCES.md": "`BEGIN:VCARD` is how a card starts\n", "e.txt": "text\n",
        ])
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try FidelityRun.vCardFiles(under: url).map(\.name) == ["a.vcf", "b/c.VCARD", "b/d.ref"])
    }

    @Test func countsTheLinesOfAnImportedCardAndItsRoundTrip() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nTEL;TYPE=CELL:+1 555 0100\r\nEND:VCARD\r\n"
        let url = try temporaryFolder(["one.vcf": card, "empty.vcf": ""])
        defer { try? FileManager.default.removeItem(at: url) }
        let summary = try FidelityRun.summary(of: url)
        #expect(summary.files == 2)
        #expect(summary.filesWithoutCards == 1)
        #expect(summary.cards == 1)
        #expect(summary.refusedCards == 0)
        #expect(summary.people == 1)
        #expect(summary.v3.exact + summary.v3.equivalent + summary.v3.lost == 3)
        #expect(summary.v3.lost == 0)
        #expect(summary.v4.lost == 0)
        #expect(summary.v4.exact + summary.v4.equivalent + summary.v4.lost == 3)
        #expect(summary.unstable == 0)
    }

    @Test func refusesAFolderThatDoesNotExist() {
        let missing = FileManager.default.temporaryDirectory.appending(path: "ContactsBenchTests-\(UUID().uuidString)")
        #expect(throws: UsageError.self) { try FidelityRun.summary(of: missing) }
    }
}
