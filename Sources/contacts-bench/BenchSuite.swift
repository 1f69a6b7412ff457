import Foundation
import PlainContacts

/// Measures one store: every timed operation in this process, then the per-process figures.
final class BenchSuite {
    let options: BenchOptions
    let store: PreparedStore
    let workspace: Workspace
    /// Figures in the order they are measured.
    private(set) var figures: [Figure] = []
    /// Notes for the report (skipped figures and why).
    private(set) var notes: [String] = []
    /// The raw-read floor's median, the denominator of every floor ratio.
    private(set) var floorSeconds = 0.0
    /// This process's peak memory right after the list figure.
    private(set) var memoryAfterList: ProcessMemory?
    /// A sum of what the operations returned, so that the optimizer cannot drop the work.
    private(set) var checksum = 0

    /// How long a freshly written store is left alone before the figures.
    static let settleSeconds = 3.0

    init(options: BenchOptions, store: PreparedStore, workspace: Workspace) {
        self.options = options
        self.store = store
        self.workspace = workspace
    }

    /// Measures everything.
    ///
    /// - Throws: The library's errors, and ``ContactsError/Code/io`` for the floor and child processes.
    func run() throws -> SizeResult {
        // A file written within a clock tick or two of a cache that describes it cannot be
        // trusted by its timestamp (Git's "racy" files); let the new store age past that, as any
        // store does between two commands, so that the first figures are not the only ones to
        // read everything again.
        Progress.note("letting the new store settle for \(Self.settleSeconds) s")
        Thread.sleep(forTimeInterval: Self.settleSeconds)
        let floorPass = try measureFloor()
        try measureOpenAndSearch()
        try measureList()
        try measurePersonOperations()
        try measureColdLoad()
        try measureFreshClone()
        try measureImport()
        try measureProcesses()
        return SizeResult(
            people: store.people, recordFiles: floorPass.files, recordBytes: floorPass.bytes, origin: store.origin,
            generator: store.generator, importer: StoreImport.method, runs: options.runs, figures: figures,
            processMemoryAfterList: memoryAfterList, notes: notes, checksum: checksum)
    }

    /// Adds a figure; timed figures get their floor ratio.
    func record(_ id: String, _ label: String, _ sample: Sample, unit: Figure.Unit = .seconds, detail: String? = nil) {
        let ratio = unit == .seconds && floorSeconds > 0 ? sample.median / floorSeconds : nil
        figures.append(Figure(id: id, label: label, unit: unit, sample: sample, floorRatio: ratio, detail: detail))
    }

    /// Adds a note to the report.
    func note(_ text: String) {
        notes.append(text)
        Progress.note(text)
    }

    private func measureFloor() throws -> RawReadFloor.Pass {
        Progress.note("measuring at \(Format.count(store.people)) people: raw-read floor")
        let floor = RawReadFloor(folder: store.url.appending(path: "people"))
        var pass = RawReadFloor.Pass()
        let sample = try Sample.time(options.runs) { _ in pass = try floor.readAll() }
        floorSeconds = sample.median
        record(
            "floor", "raw-read floor: list people/, open/read/close every file", sample,
            detail: "\(Format.count(pass.files)) files, \(Format.kilobytes(Double(pass.bytes) / 1024))")
        return pass
    }

    private func openBook() throws -> AddressBook {
        try AddressBook(url: store.url)
    }

    private func measureOpenAndSearch() throws {
        Progress.note("open and search")
        let runs = options.runs
        record("open", "open (`AddressBook(url:)`)", try Sample.time(runs) { _ in checksum += try openBook().personCount })
        let book = try openBook()
        for query in options.queries {
            var matches = 0
            let sample = Sample.time(runs) { _ in matches = book.people(matchingName: query).count }
            checksum += matches
            record(
                "search.book.\(query)", "search \"\(query)\" on an open book", sample,
                detail: "\(Format.count(matches)) \(matches == 1 ? "match" : "matches")")
        }
        for query in options.queries {
            let sample = try Sample.time(runs) { _ in
                let book = try openBook()
                for person in book.people(matchingName: query) { checksum += person.compositeName?.utf8.count ?? 0 }
            }
            record("search.open.\(query)", "open + search \"\(query)\" + composite names", sample)
        }
        for query in options.queries {
            var addresses = 0
            let sample = Sample.time(runs) { _ in addresses = book.emailAddresses(matching: query).count }
            checksum += addresses
            record(
                "email.book.\(query)", "email addresses for \"\(query)\" on an open book", sample,
                detail: "\(Format.count(addresses)) \(addresses == 1 ? "address" : "addresses")")
        }
    }

    private func measureList() throws {
        Progress.note("list")
        let sample = try Sample.time(options.runs) { _ in
            let book = try openBook()
            for person in book.allPeople(sortedBy: book.sortOrdering) {
                checksum += person.compositeName?.utf8.count ?? 0
            }
        }
        record("list", "list: open + `allPeople(sortedBy:)` + composite names", sample)
        memoryAfterList = ProcessMemory.current()
    }

    private func measurePersonOperations() throws {
        let ids = try openBook().allPeople().map(\.recordID).sorted()
        guard !ids.isEmpty else {
            note("the store has nobody: show and save figures skipped")
            return
        }
        let id = ids[ids.count / 2]
        Progress.note("show and save record \(id)")
        let show = try Sample.time(options.runs) { _ in
            let book = try openBook()
            guard let person = book.person(withID: id) else {
                throw ContactsError(.recordNotFound, "record \(id) vanished during the benchmark")
            }
            checksum += touchEveryProperty(of: person)
        }
        record("show", "show by ID: open + `person(withID:)` + every property", show, detail: "record \(id)")
        let save = try Sample.time(options.runs) { run in
            let book = try openBook()
            guard let person = book.person(withID: id) else {
                throw ContactsError(.recordNotFound, "record \(id) vanished during the benchmark")
            }
            person.note = "Edited by contacts-bench, run \(run) at \(Date().timeIntervalSince1970)"
            try book.save()
        }
        record("save", "one-record save: open + edit a note + `save()`", save, detail: "record \(id)")
    }

    private func measureColdLoad() throws {
        Progress.note("full load")
        let sample = try Sample.time(options.runs) { _ in
            let book = try openBook()
            for person in book.allPeople() { checksum += touchEveryProperty(of: person) }
        }
        record("fullLoad", "full load: open + every property of every person", sample)
    }

    /// Open + list in a copy of the store without `.contacts/` (the device-local folder Git
    /// ignores), as the first command after `git clone` finds it: whatever the library derives
    /// and caches there must be built again. Each run gets its own copy; copying is not timed.
    private func measureFreshClone() throws {
        Progress.note("list in a fresh clone")
        let clone = workspace.path("fresh-clone")
        let items: [URL]
        do {
            items = try FileManager.default.contentsOfDirectory(at: store.url, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent != ".contacts" }
        } catch {
            throw ContactsError(.io, "cannot list the store folder", path: store.url.path, underlying: error)
        }
        var runs: [Double] = []
        for _ in 0..<options.runs {
            workspace.remove(clone)
            do {
                try FileManager.default.createDirectory(at: clone, withIntermediateDirectories: true)
                for item in items {
                    try FileManager.default.copyItem(at: item, to: clone.appending(path: item.lastPathComponent))
                }
            } catch {
                throw ContactsError(.io, "cannot copy the store", path: clone.path, underlying: error)
            }
            runs.append(
                try Sample.time(1, warmUp: false) { _ in
                    let book = try AddressBook(url: clone)
                    for person in book.allPeople(sortedBy: book.sortOrdering) {
                        checksum += person.compositeName?.utf8.count ?? 0
                    }
                }.median)
        }
        workspace.remove(clone)
        record("freshClone", "list in a fresh clone: open + list with no `.contacts/` yet", Sample(runs: runs))
    }

    private func measureImport() throws {
        let count = options.importRuns(people: store.people)
        var runs = store.firstImportSeconds.map { [$0] } ?? []
        while runs.count < count {
            Progress.note("import run \(runs.count + 1) of \(count)")
            let folder = workspace.path("import-run")
            workspace.remove(folder)
            runs.append(
                try Sample.time(1, warmUp: false) { _ in
                    _ = try PreparedStore.importCards(store.cards, intoNewStoreAt: folder)
                }.median)
            workspace.remove(folder)
        }
        let sample = Sample(runs: runs)
        record("import", "import \(Format.count(store.people)) cards into an empty store", sample)
        let rates = Sample(runs: runs.map { Double(store.people) / $0 })
        record("importRate", "import throughput", rates, unit: .cardsPerSecond)
    }

    /// Reads every property of a person and its composite name; returns how many were set.
    private func touchEveryProperty(of person: Person) -> Int {
        var found = person.compositeName?.utf8.count ?? 0
        for property in PropertyID.personProperties where person.value(for: property) != nil {
            found += 1
        }
        return found
    }
}
