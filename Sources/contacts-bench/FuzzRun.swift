import Foundation
import PlainContacts
import PlainContactsFuzz

/// `contacts-bench --fuzz N`: the suite's fuzz target (``StoreFuzzer``) run for longer.
enum FuzzRun {
    /// Runs `cases` cases from `seed`, notes progress on standard error, prints the figures
    /// and every failure, and exits 1 when a case failed.
    ///
    /// - Throws: ``ContactsError`` when the fuzzer's store cannot be set up.
    static func run(cases: Int, seed: UInt64) throws {
        var fuzzer = StoreFuzzer(seed: seed)
        let summary = try fuzzer.run(cases: cases) { partial in
            Progress.note("fuzz: \(Format.count(partial.cases)) cases, \(partial.failures.count) failures")
        }
        let rate = summary.seconds > 0 ? Double(summary.cases) / summary.seconds : 0
        print("fuzz: \(Format.count(summary.cases)) cases from seed \(seed) in \(String(format: "%.1f", summary.seconds)) s "
            + "(\(Int(rate.rounded())) cases/s), \(summary.failures.count) failures")
        for target in StoreFuzzer.Target.allCases {
            print("  \(target.rawValue): \(Format.count(summary.casesPerTarget[target] ?? 0)) cases")
        }
        for failure in summary.failures { print("FAILED \(failure)") }
        if !summary.failures.isEmpty { exit(1) }
    }
}
