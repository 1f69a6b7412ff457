import DAVTestSupport
import Foundation
import Glibc
import TestTags
import Testing

@testable import PlainContacts

/// Eight processes (`plaincontacts-crash-helper contend`) writing one store at the same time:
/// each adds people, overwrites a shared note (which conflicts when another process saved it in
/// between), appends to its own phone entry of two shared people, one of them the note's owner
/// (which must merge, so a swallowed conflict shows up as lost appends), and adds its people to
/// a shared group. Nothing may be lost, no ID handed out twice, no save may find the
/// store busy, and every conflict must be reported, never swallowed.
@Suite("AddressBook contention")
struct AddressBookContentionTests {
    static let workerCount = 8
    static let iterations = 20

    // The names the `contend` subcommand expects (see ContentionWorker.swift).
    static let sharedNote = (first: "Shared", last: "Note")
    static let sharedPhones = (first: "Shared", last: "Phones")
    static let groupName = "Contenders"

    /// What one worker printed.
    struct Report {
        var worker: Int
        /// The record ID of the person added in each iteration.
        var added: [Int: [RecordID]] = [:]
        /// Each reported conflict: the iteration and the conflicting "type:id:property" items.
        var conflicts: [(iteration: Int, items: [String])] = []
        var busy: [Int] = []
    }

    @Test(.tags(.slow), .slowTestsEnabled) func eightProcessesSavingAtOnceLoseNothingAndReportEveryConflict() throws {
        let folder = try MemoryBackedFolder()
        let store = folder.appending("store")
        let shared = try makeStore(at: store)

        let clock = ContinuousClock()
        let start = clock.now
        let seeds = (0..<Self.workerCount).map { _ in UInt64.random(in: 0...UInt64(UInt32.max)) }
        let workers = try (0..<Self.workerCount).map { worker in
            try CrashHelperProcess(["contend", store.path, "\(worker)", "\(Self.iterations)", "\(seeds[worker])"])
        }
        var reports: [Report] = []
        for (worker, helper) in workers.enumerated() {
            let end = helper.finish()
            #expect(end.reason == .exit && end.status == 0, "worker \(worker) failed (seed \(seeds[worker]))")
            reports.append(try parse(helper.lines, worker: worker))
        }
        let elapsed = start.duration(to: clock.now)

        let book = try AddressBook(url: store)
        try expectEveryAddedPersonOnce(in: book, reports: reports)
        try expectEveryPhoneAppend(in: book, to: shared.note)
        try expectEveryPhoneAppend(in: book, to: shared.phones)
        try expectConflictsOnlyOnTheSharedNote(reports, book: book, shared: shared)

        let conflictCount = reports.map(\.conflicts.count).reduce(0, +)
        print(
            "\(Self.workerCount) workers × \(Self.iterations) iterations took \(elapsed); "
                + "\(conflictCount) conflicts reported; seeds \(seeds)")
    }

    /// The record IDs of the shared records.
    struct Shared {
        var note: RecordID
        var phones: RecordID
        var group: RecordID
    }

    private func makeStore(at url: URL) throws -> Shared {
        let book = try AddressBook.create(at: url)
        var entries = MultiValue<String>()
        for worker in 0..<Self.workerCount {
            entries.add("w\(worker):", label: Label("w\(worker)"))
        }
        let note = makePerson(Self.sharedNote.first, Self.sharedNote.last)
        note.note = "initial"
        note.phones = entries
        let phones = makePerson(Self.sharedPhones.first, Self.sharedPhones.last)
        phones.phones = entries
        let group = Group(name: Self.groupName)
        try book.add(note)
        try book.add(phones)
        try book.add(group)
        try book.save()
        return Shared(note: note.recordID, phones: phones.recordID, group: group.recordID)
    }

    private func parse(_ lines: [String], worker: Int) throws -> Report {
        var report = Report(worker: worker)
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            let iteration = try #require(fields.count >= 2 ? Int(fields[1]) : nil, "unexpected output: \(line)")
            switch fields[0] {
            case "ADDED":
                let id = try #require(fields.count == 3 ? Int32(fields[2]) : nil, "unexpected output: \(line)")
                report.added[iteration, default: []].append(RecordID(id))
            case "CONFLICT":
                let items = fields.count == 3 ? fields[2].split(separator: ",").map(String.init) : []
                report.conflicts.append((iteration, items))
            case "BUSY":
                report.busy.append(iteration)
            default:
                Issue.record("unexpected output of worker \(worker): \(line)")
            }
        }
        return report
    }

    /// Every person a worker added is in the store exactly once, under the record ID its save
    /// reported, record IDs are unique, and the shared group holds all of them.
    private func expectEveryAddedPersonOnce(in book: AddressBook, reports: [Report]) throws {
        var expectedNames = Set<String>()
        for report in reports {
            #expect(report.busy.isEmpty, "worker \(report.worker) found the store busy in iterations \(report.busy)")
            for iteration in 0..<Self.iterations {
                #expect(report.added[iteration]?.count == 1, "worker \(report.worker) iteration \(iteration)")
                expectedNames.insert("W\(report.worker) I\(iteration)")
            }
        }
        var idsByName: [String: [RecordID]] = [:]
        for person in book.allPeople() {
            let name = "\(person.firstName ?? "") \(person.lastName ?? "")"
            idsByName[name, default: []].append(person.recordID)
        }
        #expect(book.personCount == expectedNames.count + 2)
        for report in reports {
            for (iteration, ids) in report.added {
                #expect(idsByName["W\(report.worker) I\(iteration)"] == ids, "worker \(report.worker) iteration \(iteration)")
            }
        }
        let fileIDs = try personFileIDs(in: book.url)
        #expect(Set(fileIDs).count == fileIDs.count, "record IDs must be unique")
        #expect(Set(fileIDs) == Set(idsByName.values.joined().map { Int($0.rawValue) }))

        let group = try #require(book.groups(named: Self.groupName).first)
        let members = group.members().map { "\($0.firstName ?? "") \($0.lastName ?? "")" }
        #expect(members.count == expectedNames.count)
        #expect(Set(members) == expectedNames)
    }

    /// Each worker's phone entry of a shared person holds every iteration, in order, exactly
    /// once.
    private func expectEveryPhoneAppend(
        in book: AddressBook, to id: RecordID, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let person = try #require(book.person(withID: id), sourceLocation: sourceLocation)
        let phones = person.phones
        #expect(phones.count == Self.workerCount, sourceLocation: sourceLocation)
        let suffix = (0..<Self.iterations).map { " \($0)" }.joined()
        for worker in 0..<Self.workerCount {
            let index = try #require(
                phones.indices.first { phones.label(at: $0) == Label("w\(worker)") }, sourceLocation: sourceLocation)
            #expect(phones.value(at: index) == "w\(worker):" + suffix, "person \(id), worker \(worker)", sourceLocation: sourceLocation)
        }
    }

    /// Every reported conflict concerns the shared note, at least one happened, and the note
    /// finally holds a text whose save did not conflict.
    private func expectConflictsOnlyOnTheSharedNote(_ reports: [Report], book: AddressBook, shared: Shared) throws {
        var conflicted = Set<String>()
        for report in reports {
            for conflict in report.conflicts {
                #expect(conflict.items == ["person:\(shared.note):note"], "worker \(report.worker)")
                conflicted.insert("W\(report.worker) I\(conflict.iteration)")
            }
        }
        #expect(!conflicted.isEmpty, "the workers never conflicted: the test no longer provokes conflicts")
        let note = try #require(book.person(withID: shared.note)?.note)
        #expect(note.hasPrefix("W"))
        #expect(!conflicted.contains(note), "the final note comes from a save that conflicted")
    }
}
