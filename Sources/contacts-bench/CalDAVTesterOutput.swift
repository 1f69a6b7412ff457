import Foundation

/// What `testcaldav.py` printed for one script: its totals and the tests that failed.
///
/// The tool prints a line per suite and per test, then the verifiers' complaints, and ends
/// with a unittest-style summary:
///
/// ```
/// scripts.tests.CardDAV.put
///   Suite: PUT VCARD
///     Test: 1                                                       [OK]
///     Test: 2                                                   [FAILED]
/// ...
/// FAILED (ok=1, ignored=0, failed=17, errors=0)
/// ```
///
/// A script whose `<start>` requests fail prints `[ERROR]` beside its name, runs no test and
/// counts one error.
struct CalDAVTesterOutput: Equatable {
    /// Tests that passed.
    var passed = 0
    /// Tests that failed.
    var failed = 0
    /// Suites or tests skipped for a feature the server information does not list.
    var ignored = 0
    /// Scripts or suites that could not run at all.
    var errors = 0
    /// The failed tests, as `suite/test`.
    var failures: [String] = []
    /// Whether the summary line was found: without it the run died midway.
    var finished = false

    /// The tests run.
    var checks: Int { passed + failed }

    /// Reads the tool's standard output.
    init(_ text: String) {
        var suite = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Suite: ") {
                suite = Self.label(of: trimmed.dropFirst("Suite: ".count))
            } else if trimmed.hasPrefix("Test: "), trimmed.hasSuffix("[FAILED]") {
                failures.append(suite + "/" + Self.label(of: trimmed.dropFirst("Test: ".count)))
            } else if trimmed.hasPrefix("PASSED (") || trimmed.hasPrefix("FAILED (") {
                readSummary(trimmed)
            }
        }
    }

    /// Reads `FAILED (ok=1, ignored=0, failed=17, errors=0)` or `PASSED (ok=3, ignored=0)`.
    private mutating func readSummary(_ line: String) {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return }
        for field in line[line.index(after: open)..<close].split(separator: ",") {
            let parts = field.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let number = Int(parts[1]) else { continue }
            switch parts[0] {
            case "ok": passed = number
            case "failed": failed = number
            case "ignored": ignored = number
            case "errors": errors = number
            default: break
            }
        }
        finished = true
    }

    /// A suite's or test's name without the status the tool pads it to.
    private static func label(of text: Substring) -> String {
        var name = text.trimmingCharacters(in: .whitespaces)
        if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
            name = String(name[..<open]).trimmingCharacters(in: .whitespaces)
        }
        return name
    }
}
