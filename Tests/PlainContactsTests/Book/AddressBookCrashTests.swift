import DAVTestSupport
import Foundation
import Glibc
import TestTags
import Testing

@testable import PlainContacts

/// Saves of thousands of records made by a separate process (`plaincontacts-crash-helper
/// book-save` and `book-edit`) and killed with SIGKILL, at every fault point and at random
/// instants. After every kill the store, opened with ``AddressBook`` (which recovers), must hold
/// exactly the old or exactly the new records, and its folders nothing but record files.
@Suite("AddressBook crashes")
struct AddressBookCrashTests {
    /// How many people the killed save adds or edits.
    static let recordCount = 2_000
    /// How many kills at random instants each random test makes.
    static let randomKills = 8
    /// How many people the store holds before the adding save.
    static let seededCount = 20

    /// What the tests compare before and after a kill.
    struct Summary: Equatable {
        /// Each person's note by full name ("" for none).
        var notes: [String: String] = [:]
        /// Each person's record ID, by full name.
        var ids: [String: RecordID] = [:]
        /// The number of person files.
        var personCount = 0
        /// The number of people with an image.
        var imageCount = 0
        /// The full names of each group's members, by group name.
        var members: [String: Set<String>] = [:]
    }

    // MARK: Adding thousands of people

    @Test(.tags(.slow), .slowTestsEnabled) func anAddingSaveKilledAtAnyFaultPointLeavesExactlyTheOldOrTheNewPeople() throws {
        let folder = try MemoryBackedFolder()
        let template = try makeAddingTemplate(in: folder)
        let old = try openAndCheck(template)
        for point in FaultInjection.Point.allCases {
            let store = try copy(template, to: folder.appending(point.rawValue))
            let helper = try CrashHelperProcess(["book-save", store.path, "\(Self.recordCount)"], faultPoint: point)
            let end = helper.finish()
            #expect(end.reason == .uncaughtSignal && end.status == SIGKILL, "killed at \(point)")
            let result = try openAndCheck(store)
            if point.isCommitted {
                expectAdded(result, to: old, "killed at \(point)")
            } else {
                #expect(result == old, "killed at \(point)")
            }
            try FileManager.default.removeItem(at: store)
        }
    }

    @Test(.tags(.slow), .slowTestsEnabled) func anAddingSaveKilledAtRandomInstantsLeavesExactlyTheOldOrTheNewPeople() throws {
        let folder = try MemoryBackedFolder()
        let template = try makeAddingTemplate(in: folder)
        let old = try openAndCheck(template)
        let arguments = { (store: URL) in ["book-save", store.path, "\(Self.recordCount)"] }

        let calibration = try copy(template, to: folder.appending("calibration"))
        let timing = try measureSave(arguments(calibration), store: calibration)
        expectAdded(try openAndCheck(calibration), to: old, "uninterrupted save")
        try FileManager.default.removeItem(at: calibration)

        var outcomes: [String] = []
        for round in 0..<Self.randomKills {
            let store = try copy(template, to: folder.appending("round-\(round)"))
            let instant = KillInstant.random(round: round, of: Self.randomKills, timing: timing)
            let committed = try kill(arguments(store), at: instant, store: store)
            let result = try openAndCheck(store)
            let isOld = result == old
            #expect(!(committed && isOld), "round \(round): killed after the commit point, the save must roll forward")
            if !isOld { expectAdded(result, to: old, "round \(round)") }
            outcomes.append(describe(instant, committed: committed, outcome: isOld ? "old" : "new"))
            try FileManager.default.removeItem(at: store)
        }
        print("book-save of \(Self.recordCount) people took \(milliseconds(timing.duration)) ms, journal from \(milliseconds(timing.commitPoint)) to \(milliseconds(timing.journalRemoved)) ms; kills: \(outcomes.joined(separator: ", "))")
    }

    // MARK: Editing thousands of people

    @Test(.tags(.slow), .slowTestsEnabled) func anEditingSaveKilledAtAnyFaultPointLeavesExactlyTheOldOrTheNewNotes() throws {
        let folder = try MemoryBackedFolder()
        let store = try makeEditingStore(in: folder)
        let before = try openAndCheck(store)
        var current = "start"
        for (index, point) in FaultInjection.Point.allCases.enumerated() {
            let note = "edit \(index)"
            let helper = try CrashHelperProcess(["book-edit", store.path, note], faultPoint: point)
            let end = helper.finish()
            #expect(end.reason == .uncaughtSignal && end.status == SIGKILL, "killed at \(point)")
            let expected = point.isCommitted ? note : current
            let result = try openAndCheck(store)
            #expect(Set(result.notes.values) == [expected], "killed at \(point)")
            expectSamePeople(result, as: before, "killed at \(point)")
            current = expected
        }
    }

    @Test(.tags(.slow), .slowTestsEnabled) func anEditingSaveKilledAtRandomInstantsLeavesExactlyTheOldOrTheNewNotes() throws {
        let folder = try MemoryBackedFolder()
        let store = try makeEditingStore(in: folder)
        let before = try openAndCheck(store)

        let timing = try measureSave(["book-edit", store.path, "calibration"], store: store)
        var current = "calibration"
        let calibrated = try openAndCheck(store)
        #expect(Set(calibrated.notes.values) == [current])
        expectSamePeople(calibrated, as: before, "uninterrupted save")

        var outcomes: [String] = []
        for round in 0..<Self.randomKills {
            let note = "round \(round)"
            let instant = KillInstant.random(round: round, of: Self.randomKills, timing: timing)
            let committed = try kill(["book-edit", store.path, note], at: instant, store: store)
            let result = try openAndCheck(store)
            let notes = Set(result.notes.values)
            #expect(notes == [current] || notes == [note], "round \(round): the notes must be all old or all new")
            #expect(!committed || notes == [note], "round \(round): killed after the commit point, the save must roll forward")
            expectSamePeople(result, as: before, "round \(round)")
            outcomes.append(describe(instant, committed: committed, outcome: notes == [note] ? "new" : "old"))
            if notes == [note] { current = note }
        }
        print("book-edit of \(Self.recordCount) people took \(milliseconds(timing.duration)) ms, journal from \(milliseconds(timing.commitPoint)) to \(milliseconds(timing.journalRemoved)) ms; kills: \(outcomes.joined(separator: ", "))")
    }

    // MARK: Stores

    /// A store of ``seededCount`` people with the note "old", one with an image, and a group of
    /// five of them.
    private func makeAddingTemplate(in folder: MemoryBackedFolder) throws -> URL {
        let url = folder.appending("template")
        let book = try AddressBook.create(at: url)
        var seeded: [Person] = []
        for number in 1...Self.seededCount {
            let person = makePerson("Seed", "Person \(number)")
            person.note = "old"
            if number == 1 {
                person.setImageData(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("seed image".utf8))
            }
            try book.add(person)
            seeded.append(person)
        }
        let group = Group(name: "Seeded")
        try book.add(group)
        try book.save()
        for person in seeded.prefix(5) {
            try group.addMember(person)
        }
        try book.save()
        return url
    }

    /// A store of ``recordCount`` people with the note "start".
    private func makeEditingStore(in folder: MemoryBackedFolder) throws -> URL {
        let url = folder.appending("store")
        let book = try AddressBook.create(at: url)
        for number in 1...Self.recordCount {
            let person = makePerson("Edit", "Person \(number)")
            person.note = "start"
            try book.add(person)
        }
        try book.save()
        return url
    }

    private func copy(_ template: URL, to url: URL) throws -> URL {
        try FileManager.default.copyItem(at: template, to: url)
        return url
    }

    // MARK: Running the helper

    /// The phases of an uninterrupted save, measured from the helper printing "saving": when
    /// its journal appeared (the commit point), when the journal was removed (the files are in
    /// place), and when the helper exited.
    struct SaveTiming {
        var commitPoint: Duration
        var journalRemoved: Duration
        var duration: Duration
    }

    /// What a kill's delay counts from.
    enum KillOrigin: String {
        /// The helper printed "saving": the save plans, stages and writes its journal.
        case saving = "'saving'"
        /// The journal appeared: the commit applies its files.
        case journalWritten = "journal written"
        /// The journal was removed: the commit cleans up and the book updates its caches.
        case journalRemoved = "journal removed"
    }

    /// When a kill happens: a delay after an observable moment of the save.
    struct KillInstant {
        var origin: KillOrigin
        var delay: Duration

        /// The `round`-th of `rounds` random instants: half of them spread over the time before
        /// the commit point, a quarter over the time the journal exists, a quarter over the time
        /// after it, each in its own slice, so that kills land all over the save and both
        /// roll-back and roll-forward happen.
        static func random(round: Int, of rounds: Int, timing: SaveTiming) -> KillInstant {
            let phases: [(origin: KillOrigin, length: Duration, count: Int)] = [
                (.saving, timing.commitPoint, rounds / 2),
                (.journalWritten, timing.journalRemoved - timing.commitPoint, rounds / 4),
                (.journalRemoved, timing.duration - timing.journalRemoved, rounds - rounds / 2 - rounds / 4),
            ]
            var slice = round
            for phase in phases {
                if slice < phase.count {
                    let width = phase.length / phase.count
                    return KillInstant(origin: phase.origin, delay: width * slice + width * Double.random(in: 0..<1))
                }
                slice -= phase.count
            }
            return KillInstant(origin: .journalRemoved, delay: .zero)
        }
    }

    /// Runs the helper to the end, watching its journal.
    private func measureSave(_ arguments: [String], store: URL) throws -> SaveTiming {
        let journal = try JournalWatch(store: store)
        let helper = try CrashHelperProcess(arguments)
        #expect(helper.waitForLine("saving"))
        let clock = ContinuousClock()
        let start = clock.now
        let written = journal.wait(for: .journalWritten, of: helper)
        let commitPoint = start.duration(to: clock.now)
        journal.wait(for: .journalRemoved, of: helper)
        let journalRemoved = start.duration(to: clock.now)
        let end = helper.finish()
        let duration = start.duration(to: clock.now)
        #expect(written, "the uninterrupted save never showed its journal")
        #expect(end.reason == .exit && end.status == 0)
        #expect(helper.lines.contains("saved"))
        return SaveTiming(commitPoint: commitPoint, journalRemoved: journalRemoved, duration: duration)
    }

    /// Starts the helper and kills it at `instant`.
    ///
    /// - Returns: Whether the journal was seen before the kill: the save was committed and the
    ///   store must then hold the new records.
    private func kill(_ arguments: [String], at instant: KillInstant, store: URL) throws -> Bool {
        let journal = try JournalWatch(store: store)
        let helper = try CrashHelperProcess(arguments)
        #expect(helper.waitForLine("saving"))
        var sawJournal = false
        if instant.origin != .saving {
            sawJournal = journal.wait(for: .journalWritten, of: helper)
        }
        if instant.origin == .journalRemoved {
            journal.wait(for: .journalRemoved, of: helper)
        }
        sleep(for: instant.delay)
        let committed = sawJournal || journalExists(in: store)
        helper.kill()
        helper.finish()
        return committed
    }

    private func journalExists(in store: URL) -> Bool {
        var status = stat()
        return lstat(store.appending(path: ".contacts/journal").path, &status) == 0
    }

    private func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        _ = nanosleep(&request, nil)
    }

    private func describe(_ instant: KillInstant, committed: Bool, outcome: String) -> String {
        "\(milliseconds(instant.delay)) ms after \(instant.origin.rawValue)\(committed ? " (committed)" : ""): \(outcome)"
    }

    private func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }

    // MARK: Checks

    /// Opens the store as a book (which recovers an interrupted save), checks that its folders
    /// hold only record files and nothing of a commit is left, and summarizes it.
    private func openAndCheck(_ store: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Summary {
        let book = try AddressBook(url: store)
        try expectOnlyRecordFiles(in: store, sourceLocation: sourceLocation)
        let privateFiles = try FileManager.default.contentsOfDirectory(atPath: store.appending(path: ".contacts").path)
        #expect(
            !privateFiles.contains { $0 == "journal" || $0 == "journal.tmp" || $0 == "staging" },
            "left in .contacts: \(privateFiles.sorted())", sourceLocation: sourceLocation)
        #expect(!StoreTransaction.needsRecovery(storeRoot: store), sourceLocation: sourceLocation)

        var summary = Summary()
        for person in book.allPeople() {
            let name = "\(person.firstName ?? "") \(person.lastName ?? "")"
            #expect(summary.notes[name] == nil, "two people named \(name)", sourceLocation: sourceLocation)
            summary.notes[name] = person.note ?? ""
            summary.ids[name] = person.recordID
            if person.hasImage {
                summary.imageCount += 1
                #expect(try person.imageData()?.isEmpty == false, sourceLocation: sourceLocation)
            }
        }
        summary.personCount = book.personCount
        let fileIDs = try personFileIDs(in: store)
        #expect(Set(fileIDs).count == fileIDs.count, "record IDs must be unique", sourceLocation: sourceLocation)
        #expect(Set(fileIDs) == Set(summary.ids.values.map { Int($0.rawValue) }), sourceLocation: sourceLocation)
        for group in book.allGroups() {
            summary.members[group.name ?? ""] = Set(group.members().map { "\($0.firstName ?? "") \($0.lastName ?? "")" })
        }
        return summary
    }

    /// `people/` holds only `*.json` files and images beside them; `groups/` only `*.json` and
    /// `*.members` files.
    private func expectOnlyRecordFiles(in store: URL, sourceLocation: SourceLocation) throws {
        let imageExtensions: Set<String> = ["jpg", "png", "gif", "webp", "heic", "tiff", "bmp", "bin"]
        let people = try FileManager.default.contentsOfDirectory(atPath: store.appending(path: "people").path)
        let keys = Set(people.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        for name in people where !name.hasSuffix(".json") {
            let url = URL(fileURLWithPath: name)
            let isImage = imageExtensions.contains(url.pathExtension)
                && keys.contains(url.deletingPathExtension().lastPathComponent)
            #expect(isImage, "unexpected file people/\(name)", sourceLocation: sourceLocation)
        }
        #expect(!people.contains { $0.hasPrefix(".") }, "hidden files in people/", sourceLocation: sourceLocation)
        let groups = try FileManager.default.contentsOfDirectory(atPath: store.appending(path: "groups").path)
        for name in groups {
            let isRecord = !name.hasPrefix(".") && (name.hasSuffix(".json") || name.hasSuffix(".members"))
            #expect(isRecord, "unexpected file groups/\(name)", sourceLocation: sourceLocation)
        }
    }

    /// `result` is `old` plus the ``recordCount`` people of `book-save`, and the old people kept
    /// their record IDs.
    private func expectAdded(
        _ result: Summary, to old: Summary, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var expected = old.notes
        for number in 1...Self.recordCount {
            expected["Crash Person \(number)"] = "new"
        }
        #expect(result.notes == expected, comment, sourceLocation: sourceLocation)
        #expect(result.personCount == old.personCount + Self.recordCount, comment, sourceLocation: sourceLocation)
        #expect(result.imageCount == old.imageCount + Self.recordCount / 100, comment, sourceLocation: sourceLocation)
        #expect(result.members == old.members, comment, sourceLocation: sourceLocation)
        for (name, id) in old.ids {
            #expect(result.ids[name] == id, comment, sourceLocation: sourceLocation)
        }
    }

    /// Same people with the same record IDs, whatever their notes.
    private func expectSamePeople(
        _ result: Summary, as before: Summary, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.personCount == before.personCount, comment, sourceLocation: sourceLocation)
        #expect(result.ids == before.ids, comment, sourceLocation: sourceLocation)
    }
}

/// The store's journal coming and going, read from inotify's queue of events in the store's
/// private folder: a journal that exists for less than a millisecond, which polling for the
/// file misses on a loaded machine, is still seen, and in order.
private final class JournalWatch {
    private let descriptor: Int32
    /// The events of the journal read and not yet waited for: `true` for its appearance.
    private var pending: [Bool] = []

    /// Starts watching the private folder of the store at `store`, which must exist.
    init(store: URL) throws {
        let folder = store.appending(path: ".contacts").path
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        let events = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, events) >= 0 else {
            throw TestSupportError("cannot watch \(folder) (errno \(errno))")
        }
    }

    deinit { close(descriptor) }

    /// Waits until the journal appears (`.journalWritten`) or goes (`.journalRemoved`);
    /// whether it did before the helper ended.
    @discardableResult
    func wait(for moment: AddressBookCrashTests.KillOrigin, of helper: CrashHelperProcess) -> Bool {
        let appearing = moment == .journalWritten
        while true {
            // Read after asking, so that the events of a helper that has ended are all read.
            let running = helper.process.isRunning
            readEvents()
            while !pending.isEmpty {
                if pending.removeFirst() == appearing { return true }
            }
            guard running else { return false }
            usleep(100)
        }
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let name = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if String(decoding: name, as: UTF8.self) == "journal" {
                    pending.append(mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0)
                }
                offset += 16 + length
            }
        }
    }
}
