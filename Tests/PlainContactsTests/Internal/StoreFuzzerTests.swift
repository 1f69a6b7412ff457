import Foundation
import Testing
@testable import PlainContacts

extension Tag {
    /// Tests that run thousands of generated cases.
    @Tag static var fuzz: Self
}

/// The acceptance fuzz target: damaged record files, membership files, manifests, merge-driver
/// inputs and `set` arguments end in success or a `ContactsError`, never a trap or a hang, and
/// a damaged file changes no other file of the store. A longer run: `contacts-bench --fuzz N`.
@Suite(.tags(.fuzz)) struct StoreFuzzerTests {
    @Test func damagedInputsEndInTypedErrorsAndLeaveOtherFilesAlone() throws {
        let store = try TemporaryStore()
        var fuzzer = StoreFuzzer(seed: 20_261_125)
        let summary = try fuzzer.run(cases: 3000, folder: store.storeURL)
        #expect(summary.cases == 3000)
        #expect(summary.casesPerTarget.count == StoreFuzzer.Target.allCases.count)
        for failure in summary.failures { Issue.record("\(failure)") }
    }

    @Test func theSameSeedReplaysTheSameInputs() {
        var first = FuzzMutator(seed: 7)
        var second = FuzzMutator(seed: 7)
        let seed = Data(StoreFuzzer.personSeed.utf8)
        for _ in 0..<50 { #expect(first.mutate(seed) == second.mutate(seed)) }
    }
}
