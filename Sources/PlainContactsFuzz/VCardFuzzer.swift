import Foundation
import PlainContacts

/// A seeded fuzzer of vCard import: each case damages a vCard file of a corpus (real exports
/// of phones, mail clients and other projects' test suites) with ``FuzzMutator``'s byte-level
/// and vCard-aware mutations (``FuzzMutator/mutateVCard(_:)``) and imports it.
///
/// Every case reads and maps the damaged bytes leniently in memory, which must end in success
/// or a library error (``PlainContactsFailure``), and exports each person read, which must read back as one card:
/// anything else is a failure; a trap kills the process, which the
/// caller sees as a crash. Reading slower than ``slowCase`` is a failure (a hang shows as one),
/// as is a store case slower than ``slowStoreCase``.
/// Every ``storeEvery``-th case also imports the bytes into a real store on disk holding a
/// saved person in a group (see ``VCardFuzzStore``): a strict import that throws must leave
/// every file of the store byte for byte as it was, with no file added, and a lenient import
/// that works must leave a store that opens, lists, validates, and imports its own export.
///
/// It lives in the fuzzing target `PlainContactsFuzz`, which the test suite and
/// `contacts-bench --fuzz-vcard` link, so that both run the same cases.
///
/// ```swift
/// var fuzzer = try VCardFuzzer(seed: 1, corpus: VCardFuzzer.corpus(in: folder))
/// let summary = try fuzzer.run(cases: 3000)
/// for failure in summary.failures { print(failure) }
/// ```
package struct VCardFuzzer {
    /// What one case exercises.
    package enum Target: String, CaseIterable, Sendable {
        /// Reading and mapping in memory only.
        case memory
        /// Reading and mapping in memory, then strict and lenient imports into a store on disk.
        case store
    }

    /// A case that ended other than in success or a library error, or took too long.
    package typealias Failure = FuzzFailure<Target>

    /// What a run did: the tally of every fuzz run (``FuzzTally``, its fields read through
    /// this summary) and the vCard fuzzer's own figures.
    @dynamicMemberLookup
    package struct Summary: Sendable {
        /// Cases, failures and time, as every fuzz run counts them.
        package var tally = FuzzTally<Target>()
        /// The store cases whose strict import refused the input (and so had the store compared).
        package var strictImportsRefused = 0
        /// The longest a case took to be read and mapped in memory.
        package var slowestCase: Duration = .zero
        /// The case that took ``slowestCase``, with that time as its message.
        package var slowest: Failure?
        /// The longest a store case took.
        package var slowestStoreCase: Duration = .zero

        package subscript<Value>(dynamicMember field: WritableKeyPath<FuzzTally<Target>, Value>) -> Value {
            get { tally[keyPath: field] }
            set { tally[keyPath: field] = newValue }
        }
    }

    /// The longest reading and mapping a case in memory may take before it counts as a hang.
    static let slowCase: Duration = .seconds(10)
    /// The longest a store case may take: a damaged copy of a 1,000-card file writes, exports,
    /// imports again and removes thousands of files, seconds of work on a busy disk.
    static let slowStoreCase: Duration = .seconds(60)
    /// One case in this many also imports into a store on disk (much slower than the others).
    var storeEvery = 16

    var mutator: FuzzMutator
    /// The corpus: each file's path (for reports) and bytes.
    let corpus: [(path: String, data: Data)]

    /// A fuzzer whose cases damage the files of `corpus`.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` when `corpus` is empty.
    package init(seed: UInt64, corpus: [(path: String, data: Data)]) throws {
        guard !corpus.isEmpty else { throw ContactsError(.invalidValue, "the vCard fuzzer needs at least one vCard file") }
        mutator = FuzzMutator(seed: seed)
        self.corpus = corpus
    }

    /// Every file under `folder` and its subfolders, except Markdown notes, sorted by path.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the folder or a file cannot be read.
    package static func corpus(in folder: URL) throws -> [(path: String, data: Data)] {
        guard let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] else {
            throw ContactsError(.io, "cannot list the vCard corpus", path: folder.path)
        }
        var files: [(path: String, data: Data)] = []
        for path in paths.sorted() where !path.hasSuffix(".md") {
            let url = folder.appending(path: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            do {
                files.append((path, try Data(contentsOf: url)))
            } catch {
                throw ContactsError(.io, "cannot read a vCard of the corpus", path: url.path, underlying: error)
            }
        }
        return files
    }

    /// Runs `cases` cases, in `folder` (a new temporary folder when `nil`) for store cases.
    ///
    /// - Throws: ``ContactsError`` when the store for the store cases cannot be set up.
    package mutating func run(cases: Int, folder: URL? = nil, progress: ((Summary) -> Void)? = nil) throws -> Summary {
        let root = folder ?? FileManager.default.temporaryDirectory
            .appending(path: "plaincontacts-vcard-fuzz-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { if folder == nil { try? FileManager.default.removeItem(at: root) } }
        let store = try VCardFuzzStore(root: root)
        var summary = Summary()
        let clock = ContinuousClock()
        let started = clock.now
        for number in 0..<cases {
            let target: Target = number % storeEvery == storeEvery - 1 ? .store : .memory
            let seed = corpus[mutator.below(corpus.count)]
            let input = mutator.mutateVCard(seed.data)
            for message in runCase(number, target, input: input, seedFile: seed.path, store: store, summary: &summary) {
                summary.failures.append(
                    Failure(caseNumber: number, target: target, seedFile: seed.path, message: message, input: input))
            }
            summary.tally.count(target)
            if number % 500 == 499 { progress?(summary) }
        }
        let elapsed = (clock.now - started).components
        summary.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return summary
    }

    /// One case; its failure messages, none when it ended well.
    private func runCase(
        _ number: Int, _ target: Target, input: Data, seedFile: String, store: VCardFuzzStore, summary: inout Summary
    ) -> [String] {
        let clock = ContinuousClock()
        var messages: [String] = []
        let readStart = clock.now
        if let message = Self.readInMemory(input) { messages.append(message) }
        let reading = clock.now - readStart
        if reading > summary.slowestCase {
            summary.slowestCase = reading
            summary.slowest = Failure(
                caseNumber: number, target: target, seedFile: seedFile, message: "took \(reading)", input: input)
        }
        if reading > Self.slowCase { messages.append("reading took \(reading)") }
        guard target == .store, messages.isEmpty else { return messages }
        let storeStart = clock.now
        do {
            let outcome = try store.importCase(input)
            if outcome.strictRefused { summary.strictImportsRefused += 1 }
            if let failure = outcome.failure { messages.append(failure) }
        } catch {
            messages.append("the store case could not run: \(error)")
        }
        let storing = clock.now - storeStart
        summary.slowestStoreCase = max(summary.slowestStoreCase, storing)
        if storing > Self.slowStoreCase { messages.append("the store case took \(storing)") }
        return messages
    }

    /// Reads and maps `input` leniently, as an import does before it touches a book, and
    /// exports each person read as 3.0 and 4.0; the failure message, or `nil` when reading
    /// ended in success or a library error (``PlainContactsFailure``) and each export reads back as one card.
    static func readInMemory(_ input: Data) -> String? {
        do {
            return try VCardReexport.failure(reading: input, source: "fuzz.vcf")
        } catch is any PlainContactsFailure {
            return nil
        } catch {
            return "threw \(type(of: error)): \(error)"
        }
    }
}
