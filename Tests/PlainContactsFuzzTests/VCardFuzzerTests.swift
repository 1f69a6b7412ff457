import DAVTestSupport
import Foundation
import TestTags
import Testing
@testable import PlainContacts
@testable import PlainContactsFuzz

/// The acceptance fuzz target of vCard import: damaged copies of the fixture cards end in
/// success or a `ContactsError` when read and mapped, never a trap or a hang; a strict import
/// that fails leaves the store byte for byte as it was; a lenient import that works leaves a
/// store that reads back and imports its own export. A longer run:
/// `contacts-bench --fuzz-vcard N`.
@Suite(.tags(.fuzz)) struct VCardFuzzerTests {
    /// The fixture cards under `Fixtures/vcards`, read recursively.
    static let corpusFolder = TestFixtures.folder.appending(path: "vcards", directoryHint: .isDirectory)

    /// 3,000 cases in three runs of their own seeds, which the suite runs side by side.
    @Test(.tags(.slow), .slowTestsEnabled, arguments: [20_261_125, 20_261_126, 20_261_127] as [UInt64])
    func damagedCardsEndInTypedErrorsAndFailedImportsLeaveTheStoreAlone(seed: UInt64) throws {
        let store = try TemporaryStore()
        var fuzzer = try VCardFuzzer(seed: seed, corpus: try VCardFuzzer.corpus(in: Self.corpusFolder))
        let summary = try fuzzer.run(cases: 1000, folder: store.storeURL)
        #expect(summary.cases == 1000)
        #expect(summary.casesPerTarget.count == VCardFuzzer.Target.allCases.count)
        #expect(summary.strictImportsRefused > 0)
        for failure in summary.failures { Issue.record("\(failure)") }
    }

    @Test func theCorpusHoldsEveryFixtureFileButTheNotes() throws {
        let corpus = try VCardFuzzer.corpus(in: Self.corpusFolder)
        #expect(corpus.count > 200)
        #expect(corpus.contains { $0.path.hasPrefix("aosp-vcard/") })
        #expect(!corpus.contains { $0.path.hasSuffix(".md") })
    }

    @Test func anEmptyCorpusIsRefused() {
        let error = #expect(throws: ContactsError.self) { _ = try VCardFuzzer(seed: 1, corpus: []) }
        #expect(error?.code == .invalidValue)
    }

    @Test func theSameSeedReplaysTheSameDamage() throws {
        var first = FuzzMutator(seed: 7)
        var second = FuzzMutator(seed: 7)
        let card = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Bell;Katie\r\nFN:Katie Bell\r\nEND:VCARD\r\n".utf8)
        var changed = 0
        for _ in 0..<200 {
            let damaged = first.mutateVCard(card)
            #expect(damaged == second.mutateVCard(card))
            if damaged != card { changed += 1 }
        }
        #expect(changed > 150)
    }

    @Test func theStoreComparisonNamesAChangedRemovedOrAddedFile() {
        let before = ["store.json": Data("{}".utf8), "people/a.json": Data("1".utf8)]
        #expect(VCardFuzzStore.difference(before, before) == nil)
        var changed = before
        changed["people/a.json"] = Data("2".utf8)
        #expect(VCardFuzzStore.difference(before, changed) == "changed people/a.json")
        var removed = before
        removed["people/a.json"] = nil
        #expect(VCardFuzzStore.difference(before, removed) == "removed people/a.json")
        var added = before
        added["people/.a.json.tmp"] = Data()
        #expect(VCardFuzzStore.difference(before, added) == "left people/.a.json.tmp")
    }
}
