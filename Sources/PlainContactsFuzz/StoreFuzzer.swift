import Foundation
import PlainContacts

/// A seeded fuzzer of what people and Git can put in a store: person and group files,
/// membership files, the manifest, three versions for the merge driver, and `set` arguments,
/// each made by damaging a valid seed with ``FuzzMutator``.
///
/// Every case must end in success or a library error (``PlainContactsFailure``): another
/// error, a clean merge that cannot be read back, or a written record that cannot be read back
/// is a failure; a trap kills the process, which the caller sees as a crash. A case slower than ``slowCase`` is a
/// failure (a hang shows as one). Every ``storeEvery``-th case damages one file of a real store
/// on disk, opens, lists and edits it, saves another person, and checks that no other file of
/// the store changed.
///
/// It lives in the fuzzing target `PlainContactsFuzz`, which the test suite and
/// `contacts-bench --fuzz` link, so that both run the same cases while the store library
/// everyone links carries no fuzzing code.
///
/// ```swift
/// var fuzzer = try StoreFuzzer(seed: 1)
/// let summary = try fuzzer.run(cases: 3000)
/// for failure in summary.failures { print(failure) }
/// ```
package struct StoreFuzzer {
    /// What one case exercises.
    package enum Target: String, CaseIterable, Sendable {
        case personFile, groupFile, membersFile, manifest, mergeDriver, setArgument, store
    }

    /// A case that ended other than in success or a library error.
    package typealias Failure = FuzzFailure<Target>

    /// What a run did.
    package typealias Summary = FuzzTally<Target>

    /// The longest a case may take before it counts as a hang.
    static let slowCase: Duration = .seconds(10)
    /// One case in this many works on a store on disk (slower than the others).
    var storeEvery = 8

    var mutator: FuzzMutator
    let seeds: [Target: (data: Data, path: String)]

    package init(seed: UInt64) {
        mutator = FuzzMutator(seed: seed)
        seeds = StoreFuzzer.makeSeeds()
    }

    /// Runs `cases` cases, in `folder` (a new temporary folder when `nil`) for store cases.
    ///
    /// - Throws: ``ContactsError`` when the store for the store cases cannot be set up.
    package mutating func run(cases: Int, folder: URL? = nil, progress: ((Summary) -> Void)? = nil) throws -> Summary {
        let root = folder ?? FileManager.default.temporaryDirectory
            .appending(path: "plaincontacts-fuzz-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { if folder == nil { try? FileManager.default.removeItem(at: root) } }
        var store = try FuzzStore(root: root)
        var summary = Summary()
        let clock = ContinuousClock()
        let started = clock.now
        for number in 0..<cases {
            let target = number % storeEvery == storeEvery - 1
                ? .store : Target.allCases.filter { $0 != .store }[mutator.below(Target.allCases.count - 1)]
            let caseStart = clock.now
            var input = Data()
            if let message = runCase(target, store: &store, input: &input) {
                summary.failures.append(Failure(caseNumber: number, target: target, message: message, input: input))
            }
            let took = clock.now - caseStart
            if took > Self.slowCase {
                summary.failures.append(Failure(caseNumber: number, target: target, message: "took \(took)", input: input))
            }
            summary.count(target)
            if number % 500 == 499 { progress?(summary) }
        }
        let elapsed = (clock.now - started).components
        summary.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return summary
    }

    /// One case; the failure message, or `nil` when it ended well.
    private mutating func runCase(_ target: Target, store: inout FuzzStore, input: inout Data) -> String? {
        do {
            switch target {
            case .personFile, .groupFile, .membersFile, .manifest:
                let seed = seeds[target] ?? (Data(), "")
                input = mutator.mutate(seed.data)
                return try Self.readAndRewrite(input, target: target, path: seed.path)
            case .mergeDriver:
                return try mergeCase(input: &input)
            case .setArgument:
                return try setCase(input: &input)
            case .store:
                return try store.damage(using: &mutator, input: &input)
            }
        } catch is any PlainContactsFailure {
            return nil
        } catch {
            return "threw \(type(of: error)): \(error)"
        }
    }
}
