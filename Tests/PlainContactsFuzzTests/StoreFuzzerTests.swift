import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsFuzz

extension Tag {
    /// Tests that run thousands of generated cases.
    @Tag static var fuzz: Self
}

/// The acceptance fuzz target: damaged record files, membership files, manifests, merge-driver
/// inputs and `set` arguments end in success or a `ContactsError`, never a trap or a hang, and
/// a damaged file changes no other file of the store. A longer run: `contacts-bench --fuzz N`.
@Suite(.tags(.fuzz)) struct StoreFuzzerTests {
    /// 3,000 cases in three runs of their own seeds, which the suite runs side by side.
    @Test(arguments: [20_261_125, 20_261_126, 20_261_127] as [UInt64])
    func damagedInputsEndInTypedErrorsAndLeaveOtherFilesAlone(seed: UInt64) throws {
        let store = try TemporaryStore()
        var fuzzer = StoreFuzzer(seed: seed)
        let summary = try fuzzer.run(cases: 1000, folder: store.storeURL)
        #expect(summary.cases == 1000)
        #expect(summary.casesPerTarget.count == StoreFuzzer.Target.allCases.count)
        for failure in summary.failures { Issue.record("\(failure)") }
    }

    @Test func theManifestSeedIsTheManifestOfANewStore() throws {
        let seed = try #require(StoreFuzzer.makeSeeds()[.manifest])
        #expect(seed.data == StoreFileRoundTrip.newManifest)
        #expect(seed.path == StoreLayout.manifestName)
    }

    @Test func theSameSeedReplaysTheSameInputs() {
        var first = FuzzMutator(seed: 7)
        var second = FuzzMutator(seed: 7)
        let seed = Data(StoreFuzzer.personSeed.utf8)
        for _ in 0..<50 { #expect(first.mutate(seed) == second.mutate(seed)) }
    }
}
