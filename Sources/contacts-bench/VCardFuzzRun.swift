import Foundation
import PlainContacts
import PlainContactsFuzz

/// `contacts-bench --fuzz-vcard N`: the suite's vCard import fuzz target (``VCardFuzzer``)
/// run for longer.
enum VCardFuzzRun {
    /// The corpus when `--fixtures` is not given: the test fixtures, seen from the package root.
    static let defaultFixtures = "Tests/PlainContactsTests/Fixtures/vcards"

    /// Runs `cases` cases from `seed` over the vCard files under `fixtures`, notes progress on
    /// standard error, prints the figures and every failure, and exits 1 when a case failed.
    ///
    /// - Throws: ``ContactsError`` when the corpus cannot be read or is empty, or the fuzzer's
    ///   store cannot be set up.
    static func run(cases: Int, seed: UInt64, fixtures: URL) throws {
        var fuzzer = try VCardFuzzer(seed: seed, corpus: try VCardFuzzer.corpus(in: fixtures))
        let summary = try fuzzer.run(cases: cases) { partial in
            Progress.note("fuzz-vcard: \(Format.count(partial.cases)) cases, \(partial.failures.count) failures")
        }
        let rate = summary.seconds > 0 ? Double(summary.cases) / summary.seconds : 0
        print("fuzz-vcard: \(Format.count(summary.cases)) cases from seed \(seed) over \(fixtures.path) in "
            + "\(String(format: "%.1f", summary.seconds)) s (\(Int(rate.rounded())) cases/s), \(summary.failures.count) failures")
        let reading = String(format: "%.3f", summary.slowestCase.seconds)
        let storing = String(format: "%.3f", summary.slowestStoreCase.seconds)
        print("  slowest reading: \(reading) s, slowest store case: \(storing) s; "
            + "strict imports refused: \(Format.count(summary.strictImportsRefused))")
        for target in VCardFuzzer.Target.allCases {
            print("  \(target.rawValue): \(Format.count(summary.casesPerTarget[target] ?? 0)) cases")
        }
        if let slowest = summary.slowest { print("  slowest reading: \(slowest)") }
        for failure in summary.failures { print("FAILED \(failure)") }
        if !summary.failures.isEmpty { exit(1) }
    }
}
