import Foundation
import PlainContacts
import PlainContactsDAV

/// A seeded fuzzer of every path that reads XML, in the server and in the client: real
/// clients' request bodies and real servers' answers, damaged by ``FuzzMutator/mutateXML(_:)``
/// (invalid UTF-8 in every kind of place, other encodings, huge names, cuts, markup that is
/// not well formed), then read.
///
/// Each case ends in the body being read or refused as its caller expects; anything else (a
/// server answering 5xx, a client error of another kind, a case slower than ``slowCase``) is a
/// failure, and a trap kills the process, which the caller sees as a crash.
///
/// It lives in the fuzzing target `PlainContactsFuzz`, which the test suite and
/// `contacts-bench --fuzz-xml` link, so that both run the same cases.
///
/// ```swift
/// var fuzzer = WebDAVXMLFuzzer(seed: 1)
/// let summary = try fuzzer.run(cases: 10_000)
/// for failure in summary.failures { print(failure) }
/// ```
package struct WebDAVXMLFuzzer {
    /// What one case exercises.
    package enum Target: String, CaseIterable, Sendable {
        /// The one entry point, ``WebDAVReadingPaths/parse(_:)``, with a damaged request or answer.
        case reader
        /// A damaged request body sent to a served store with its method.
        case server
        /// A damaged answer read by the client as a multistatus and as a `DAV:error`.
        case client
    }

    /// A case that ended other than as expected, or took too long.
    package typealias Failure = FuzzFailure<Target>

    /// What a run did.
    package struct Summary: Sendable {
        /// Cases, failures and time.
        package var tally = FuzzTally<Target>()
        /// The cases whose body was read (the rest were refused).
        package var read = 0
        /// The longest a case took.
        package var slowestCase: Duration = .zero
    }

    /// The longest one case may take before it counts as a hang: a body of a few megabytes is
    /// read in milliseconds.
    static let slowCase: Duration = .seconds(10)

    var mutator: FuzzMutator

    /// A fuzzer whose cases come from `seed`.
    package init(seed: UInt64) {
        mutator = FuzzMutator(seed: seed)
    }

    /// Runs `cases` cases; server cases are served from a store in `folder` (a new temporary
    /// folder, removed after, when `nil`).
    ///
    /// - Throws: ``ContactsError`` when the served store cannot be set up.
    package mutating func run(cases: Int, folder: URL? = nil, progress: ((Summary) -> Void)? = nil) throws -> Summary {
        let root = folder ?? FileManager.default.temporaryDirectory
            .appending(path: "plaincontacts-xml-fuzz-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { if folder == nil { try? FileManager.default.removeItem(at: root) } }
        let server = try Self.servedStore(in: root)
        var summary = Summary()
        let clock = ContinuousClock()
        let started = clock.now
        for number in 0..<cases {
            let target = Target.allCases[number % Target.allCases.count]
            let seeds = target == .client ? Self.answerSeeds : target == .server ? Self.requestSeeds
                : Self.requestSeeds + Self.answerSeeds
            let seed = seeds[mutator.below(seeds.count)]
            let input = mutator.mutateXML(Data(seed.body.utf8))
            let caseStart = clock.now
            let outcome: WebDAVReadingPaths.Outcome
            switch target {
            case .reader: outcome = WebDAVReadingPaths.parse(input)
            case .server: outcome = server.respond(method: seed.method, depth: seed.depth, body: input)
            case .client: outcome = WebDAVReadingPaths.readAnswer(input)
            }
            let took = clock.now - caseStart
            summary.slowestCase = max(summary.slowestCase, took)
            var message: String?
            switch outcome {
            case .read: summary.read += 1
            case .refused: break
            case .failed(let reason): message = reason
            }
            if took > Self.slowCase { message = "took \(took)" }
            if let message {
                summary.tally.failures.append(
                    Failure(caseNumber: number, target: target, seedFile: seed.name, message: message, input: input))
            }
            summary.tally.count(target)
            if number % 5000 == 4999 { progress?(summary) }
        }
        let elapsed = (clock.now - started).components
        summary.tally.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return summary
    }

    /// The fuzzers' store (``VCardFuzzStore/makeStore(at:)``), served as `contacts serve` serves one.
    private static func servedStore(in root: URL) throws -> WebDAVReadingPaths.Server {
        try VCardFuzzStore.makeStore(at: root)
        do {
            return try WebDAVReadingPaths.Server(storeURL: root)
        } catch {
            throw ContactsError(.io, "cannot serve the fuzzer's store", path: root.path, underlying: error)
        }
    }
}
