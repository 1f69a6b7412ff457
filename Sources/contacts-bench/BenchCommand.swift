import Foundation
import PlainContacts

/// What `contacts-bench` does for each mode of its command line.
enum BenchCommand {
    /// Runs the mode the options ask for and prints its output.
    ///
    /// - Throws: ``UsageError``, and the library's and the generator's errors.
    static func run(_ options: BenchOptions) throws {
        let source = CardSource(choice: options.generator, seed: options.seed)
        let count = options.sizes.first ?? 10_000
        switch options.mode {
        case .help:
            print(BenchOptions.usage)
        case .generateFile(let file):
            let used = try source.writeSingleFile(count: count, to: file)
            Progress.note("wrote \(Format.count(count)) cards to \(file.path) (\(used.rawValue))")
        case .generateDirectory(let folder):
            let used = try source.writeDirectory(count: count, to: folder)
            Progress.note("wrote \(Format.count(count)) cards into \(folder.path) (\(used.rawValue))")
        case .createStore(let folder, let file):
            let imported = try PreparedStore.importCards(file, intoNewStoreAt: folder)
            Progress.note("imported \(Format.count(imported)) people into \(folder.path) (\(StoreImport.method))")
        case .childList(let folder):
            let book = try AddressBook(url: folder)
            var characters = 0
            for person in book.allPeople(sortedBy: book.sortOrdering) {
                characters += person.compositeName?.utf8.count ?? 0
            }
            print(book.personCount, characters)
        case .fuzz(let cases):
            try FuzzRun.run(cases: cases, seed: options.seed)
        case .fuzzVCard(let cases, let fixtures):
            try VCardFuzzRun.run(cases: cases, seed: options.seed, fixtures: fixtures)
        case .fuzzXML(let cases):
            try XMLFuzzRun.run(cases: cases, seed: options.seed)
        case .fidelity(let folder, let details):
            try FidelityRun.run(folder: folder, details: details, json: options.json)
        case .importFidelity(let folder, let details):
            let shortfalls = try ImportFidelityRun.run(
                folder: folder, details: details, json: options.json, require: options.require)
            guard shortfalls.isEmpty else {
                FileHandle.standardError.write(Data("contacts-bench: below the bar: \(shortfalls.joined(separator: "; "))\n".utf8))
                exit(1)
            }
        case .sync:
            try SyncBench.run(options, source: source)
        case .serve:
            try ServeBench.run(options, source: source)
        case .web:
            try WebBench.run(options, source: source)
        case .importFormats:
            try ImportFormatsBench.run(options, source: source)
        case .serveLoad(let server):
            try ServeLoad.run(options, server: server, source: source)
        case .caldavtester(let folder):
            try CalDAVTesterRun.run(options, folder: folder)
        case .timeChild(let file, let program, let arguments):
            exit(try PeakMemoryProbe.timeChild(writingTo: file, program, arguments))
        case .measure:
            try measure(options, source: source)
        }
    }

    private static func measure(_ options: BenchOptions, source: CardSource) throws {
        var machine = MachineInfo.current()
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        var results: [SizeResult] = []
        if let original = options.store {
            let store = try PreparedStore.copy(of: original, source: source, in: workspace)
            results.append(try BenchSuite(options: options, store: store, workspace: workspace).run())
        } else {
            for size in options.sizes {
                let store = try PreparedStore.generate(count: size, source: source, in: workspace)
                results.append(try BenchSuite(options: options, store: store, workspace: workspace).run())
                workspace.remove(store.url)
                workspace.remove(store.cards)
            }
        }
        machine.loadAtEnd = MachineInfo.loadAverage()
        let report = BenchReport(machine: machine, sizes: results)
        if let file = options.saveJSON {
            do {
                try Data((try report.json() + "\n").utf8).write(to: file)
            } catch let error as ContactsError {
                throw error
            } catch {
                throw ContactsError(.io, "cannot write the JSON report", path: file.path, underlying: error)
            }
        }
        print(options.json ? try report.json() : report.markdown(), terminator: options.json ? "\n" : "")
    }
}
