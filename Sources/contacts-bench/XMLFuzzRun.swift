import Foundation
import PlainContacts
import PlainContactsFuzz

/// `contacts-bench --fuzz-xml N`: the suite's WebDAV XML fuzz target (``WebDAVXMLFuzzer``)
/// run for longer.
enum XMLFuzzRun {
    /// Runs `cases` cases from `seed`, notes progress on standard error, prints the figures
    /// and every failure, and exits 1 when a case failed.
    ///
    /// - Throws: ``ContactsError`` when the fuzzer's served store cannot be set up.
    static func run(cases: Int, seed: UInt64) throws {
        print("fuzz-xml: seed \(seed)")
        var fuzzer = WebDAVXMLFuzzer(seed: seed)
        let summary = try fuzzer.run(cases: cases) { partial in
            Progress.note("fuzz-xml: \(Format.count(partial.tally.cases)) cases, \(partial.tally.failures.count) failures")
        }
        let tally = summary.tally
        let rate = tally.seconds > 0 ? Double(tally.cases) / tally.seconds : 0
        print("fuzz-xml: \(Format.count(tally.cases)) cases from seed \(seed) in \(String(format: "%.1f", tally.seconds)) s "
            + "(\(Int(rate.rounded())) cases/s), \(tally.failures.count) failures; \(Format.count(summary.read)) bodies read, "
            + "the rest refused; slowest case \(String(format: "%.3f", summary.slowestCase.seconds)) s")
        for target in WebDAVXMLFuzzer.Target.allCases {
            print("  \(target.rawValue): \(Format.count(tally.casesPerTarget[target] ?? 0)) cases")
        }
        for failure in tally.failures { print("FAILED \(failure)") }
        if !tally.failures.isEmpty { exit(1) }
    }
}
