import FoundationEssentials
import Glibc
import PlainContacts
import PlainContactsFuzz

/// The `contend` subcommand: one of several processes that write the same store at once.
///
/// The store must hold the people "Shared" "Note" and "Shared" "Phones", each with one phone
/// entry labelled `w<worker>` per worker, and the group "Contenders". Each iteration `i`:
///
/// 1. opens a new book or reverts the previous one (chosen by the seeded generator);
/// 2. adds the person "W<worker>" "I<i>", sets the note of "Shared" "Note" to "W<worker> I<i>"
///    (which conflicts when another worker saved that note in between), and appends " <i>" to
///    this worker's own phone entry of both shared people (which merges; a save that swallowed
///    a conflict by overwriting "Shared" "Note" would lose other workers' appends);
/// 3. keeps the book open for a short random pause, so that other workers save in between;
/// 4. saves, and prints "ADDED <i> <record ID>";
/// 5. adds the new person to "Contenders" and saves again.
///
/// When a save fails with `.conflict`, the worker prints
/// "CONFLICT <i> <type>:<record ID>:<property>[,…]", reverts, applies again only the changes
/// that did not conflict, and saves again. When a save fails with `.busy`, it prints
/// "BUSY <i>" and exits with an error. Any other error ends the worker as well.
struct ContentionWorker {
    /// The first and last name of the person whose note every worker overwrites.
    static let sharedNoteName = (first: "Shared", last: "Note")
    /// The first and last name of the second person whose phone entries the workers append to.
    static let sharedPhonesName = (first: "Shared", last: "Phones")
    /// The group every added person joins.
    static let groupName = "Contenders"

    /// The label of a worker's own phone entry.
    static func phoneLabel(worker: Int) -> Label {
        Label("w\(worker)")
    }

    /// One change of an iteration, which can be applied again to a reverted book.
    private struct Edit {
        var recordType: RecordType
        /// The record changed, or `nil` for a record this edit adds.
        var recordID: RecordID?
        var property: String
        var apply: (AddressBook) throws -> Void

        func isHit(by conflict: SaveConflict) -> Bool {
            conflict.recordType == recordType && conflict.recordID == recordID
                && (conflict.property == property || conflict.property == "record")
        }
    }

    /// The records every iteration uses, found by name once.
    private struct SharedRecords {
        var note: RecordID
        var phones: RecordID
        var group: RecordID
    }

    private let store: URL
    private let worker: Int
    private let iterations: Int
    private var generator: SeededRandom
    private var book: AddressBook?

    /// A worker that runs `iterations` iterations; `seed` fixes its pauses and its choices
    /// between reopening and reverting.
    init(store: URL, worker: Int, iterations: Int, seed: UInt64) {
        self.store = store
        self.worker = worker
        self.iterations = iterations
        generator = SeededRandom(seed: seed)
    }

    /// Runs every iteration.
    ///
    /// - Throws: `.busy`, an unresolvable `.conflict`, or any other error of the library.
    mutating func run() throws {
        for iteration in 0..<iterations {
            do {
                try runIteration(iteration)
            } catch let error as ContactsError where error.code == .busy {
                emit("BUSY \(iteration)")
                throw error
            }
        }
    }

    private mutating func runIteration(_ iteration: Int) throws {
        let book = try freshBook()
        let shared = try sharedRecords(in: book)
        let first = "W\(worker)"
        let last = "I\(iteration)"
        let edits = [
            Edit(recordType: .person, recordID: nil, property: "record") { book in
                let person = Person()
                person.firstName = first
                person.lastName = last
                try book.add(person)
            },
            Edit(recordType: .person, recordID: shared.note, property: "note") { book in
                try ContentionWorker.person(shared.note, in: book).note = "\(first) \(last)"
            },
            appendToOwnPhone(of: shared.note, iteration: iteration),
            appendToOwnPhone(of: shared.phones, iteration: iteration),
        ]
        for edit in edits { try edit.apply(book) }
        pause()
        try save(book, iteration: iteration, edits: edits)

        guard let added = book.allPeople().first(where: { $0.firstName == first && $0.lastName == last }),
            added.recordID.isValid
        else {
            throw ContactsError(.recordNotFound, "the added person is missing after its save")
        }
        let id = added.recordID
        emit("ADDED \(iteration) \(id)")
        let join = Edit(recordType: .group, recordID: shared.group, property: "members") { book in
            guard let group = book.group(withID: shared.group) else {
                throw ContactsError(.recordNotFound, "the shared group is missing")
            }
            try group.addMember(ContentionWorker.person(id, in: book))
        }
        try join.apply(book)
        try save(book, iteration: iteration, edits: [join])
    }

    /// Appends " <iteration>" to this worker's own phone entry of a shared person, a change that
    /// merges with every other worker's.
    private func appendToOwnPhone(of id: RecordID, iteration: Int) -> Edit {
        Edit(recordType: .person, recordID: id, property: "phones") { [worker] book in
            let person = try ContentionWorker.person(id, in: book)
            var phones = person.phones
            let label = ContentionWorker.phoneLabel(worker: worker)
            guard let index = phones.indices.first(where: { phones.label(at: $0) == label }) else {
                throw ContactsError(.recordNotFound, "a shared person has no phone entry for this worker")
            }
            phones.replaceValue(at: index, with: phones.value(at: index) + " \(iteration)")
            person.phones = phones
        }
    }

    /// Saves; on a conflict, reports it, reverts, applies the edits that did not conflict and
    /// tries again.
    private func save(_ book: AddressBook, iteration: Int, edits: [Edit]) throws {
        var remaining = edits
        for _ in 0..<10 {
            do {
                try book.save()
                return
            } catch let error as ContactsError where error.code == .conflict {
                let list = error.conflicts.map { "\($0.recordType.rawValue):\($0.recordID):\($0.property)" }
                emit("CONFLICT \(iteration) \(list.joined(separator: ","))")
                try book.revert()
                remaining.removeAll { edit in error.conflicts.contains(where: edit.isHit) }
                for edit in remaining { try edit.apply(book) }
            }
        }
        throw ContactsError(.conflict, "the save kept conflicting after ten attempts")
    }

    /// The previous book reverted, or a new one.
    private mutating func freshBook() throws -> AddressBook {
        if let book, Bool.random(using: &generator) {
            try book.revert()
            return book
        }
        let opened = try AddressBook(url: store)
        book = opened
        return opened
    }

    /// Sleeps up to 20 ms, holding the book's loaded state while others save.
    private mutating func pause() {
        usleep(UInt32.random(in: 0...20_000, using: &generator))
    }

    private func sharedRecords(in book: AddressBook) throws -> SharedRecords {
        func named(_ name: (first: String, last: String)) throws -> RecordID {
            guard let person = book.allPeople().first(where: { $0.firstName == name.first && $0.lastName == name.last })
            else {
                throw ContactsError(.recordNotFound, "the store lacks a shared person the workers need")
            }
            return person.recordID
        }
        guard let group = book.groups(named: ContentionWorker.groupName).first else {
            throw ContactsError(.recordNotFound, "the store lacks the shared group")
        }
        return SharedRecords(
            note: try named(ContentionWorker.sharedNoteName), phones: try named(ContentionWorker.sharedPhonesName),
            group: group.recordID)
    }

    private static func person(_ id: RecordID, in book: AddressBook) throws -> Person {
        guard let person = book.person(withID: id) else {
            throw ContactsError(.recordNotFound, "a person the worker changes is missing")
        }
        return person
    }
}
