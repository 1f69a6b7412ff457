import Foundation

/// A fuzz case that ended other than in success or a library error (``PlainContactsFailure``),
/// or took too long: its number (to replay it), what it exercised, the seed file it damaged
/// when there is a corpus, and the damaged input.
package struct FuzzFailure<Target: RawRepresentable<String> & Sendable>: Sendable, CustomStringConvertible {
    var caseNumber: Int
    var target: Target
    /// The corpus file the case damaged, relative to the corpus folder; `nil` without a corpus.
    var seedFile: String? = nil
    var message: String
    var input: Data

    package var description: String {
        let source = seedFile.map { ", from \($0)" } ?? ""
        return "case \(caseNumber) (\(target.rawValue)\(source)): \(message); input \(FuzzMutator.preview(input))"
    }
}

/// What a fuzz run did: how many cases, of each target, the failures and the time taken.
package struct FuzzTally<Target: Hashable & RawRepresentable<String> & Sendable>: Sendable {
    package var cases = 0
    package var casesPerTarget: [Target: Int] = [:]
    package var failures: [FuzzFailure<Target>] = []
    package var seconds = 0.0

    /// Counts one case of `target`.
    mutating func count(_ target: Target) {
        cases += 1
        casesPerTarget[target, default: 0] += 1
    }
}
