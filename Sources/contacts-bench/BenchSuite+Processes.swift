import Foundation
import PlainContacts

/// The figures measured in child processes: what one `contacts` invocation costs, and the
/// peak memory of one operation on its own.
extension BenchSuite {
    /// Times `contacts list`, `contacts search` and `contacts email` (with and without
    /// `contacts watch` running) as whole processes, and
    /// measures the peak memory of `contacts list` and of an open + list in a child of this
    /// program.
    ///
    /// - Throws: ``ContactsError/Code/io`` when a child cannot be started.
    func measureProcesses() throws {
        Progress.note("child processes")
        guard let bench = Self.ownExecutable() else {
            note("cannot find this program's own executable: child-process figures skipped")
            return
        }
        let probe = PeakMemoryProbe(
            timeTool: ChildProcess.findExecutable("/usr/bin/time"), benchExecutable: bench,
            outputFile: workspace.path("peak-kilobytes.txt"))
        if let contacts = Self.contactsTool(options.contactsPath) {
            try measureContactsTool(contacts, probe: probe)
        } else {
            note(
                "no `contacts` executable beside contacts-bench: per-process figures skipped "
                    + "(build it first: swift build -c release)")
        }
        if let memory = try peakMemory(probe, bench, ["--child-list", store.url.path]) {
            record(
                "memory.childList", "peak memory: open + list alone in a child process (\(probe.method))", memory,
                unit: .kilobytes)
        } else {
            note("the child open + list failed; its memory figure is left out")
        }
    }

    private func measureContactsTool(_ contacts: String, probe: PeakMemoryProbe) throws {
        let listArguments = ["--store", store.url.path, "list"]
        guard let list = try processTime(contacts, listArguments) else {
            note("`contacts --store DIR list` failed; the contacts figures are skipped")
            return
        }
        record("process.list", "`contacts list` as one process (output discarded)", list)
        if let query = options.queries.first {
            let searchArguments = ["--store", store.url.path, "search", query]
            let check = try ChildProcess.run(contacts, searchArguments, output: .discardAll)
            if check.status == 0, let search = try processTime(contacts, searchArguments) {
                record("process.search", "`contacts search \(query)` as one process (output discarded)", search)
            } else {
                note("`contacts search` is not available (exit status \(check.status)); its figure is skipped")
            }
            // `email` exits 1 when nothing matches, as mail clients expect: time a query that
            // matches, and the empty query, which lists every address.
            for (id, words) in [("process.email", [query]), ("process.emailAll", [])] {
                let emailArguments = ["--store", store.url.path, "email"] + words
                let shown = (["email"] + words).joined(separator: " ")
                if let email = try processTime(contacts, emailArguments) {
                    record(id, "`contacts \(shown)` as one process (output discarded)", email)
                } else {
                    note("`contacts \(shown)` found nothing or failed; its figure is skipped")
                }
            }
            try measureEmailWatched(contacts, query: query)
        }
        if let memory = try peakMemory(probe, contacts, listArguments) {
            record("memory.contactsList", "peak memory: `contacts list` process (\(probe.method))", memory, unit: .kilobytes)
        }
    }

    /// Times `contacts email` again with `contacts watch` running on the store, so that each
    /// process checks only the files the watcher names instead of one `stat` per person.
    private func measureEmailWatched(_ contacts: String, query: String) throws {
        let socket = store.url.appending(path: ".contacts/watch.socket").path
        let watcher = try ChildProcess.start(contacts, ["--store", store.url.path, "watch"])
        defer {
            kill(watcher, SIGTERM)
            ChildProcess.wait(for: watcher)
        }
        // The watcher answers once its socket exists; a store whose path is too long for a
        // socket gets one elsewhere, and these figures are then skipped.
        var waited = 0
        while !FileManager.default.fileExists(atPath: socket), waited < 1000 {
            usleep(10_000)
            waited += 1
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            note("`contacts watch` did not answer on \(socket); the watched figures are skipped")
            return
        }
        for (id, words) in [("process.emailWatched", [query]), ("process.emailAllWatched", [])] {
            let emailArguments = ["--store", store.url.path, "email"] + words
            let shown = (["email"] + words).joined(separator: " ")
            // The first run checks every file and marks the index with the watcher's token.
            _ = try ChildProcess.run(contacts, emailArguments, output: .discard)
            if let email = try processTime(contacts, emailArguments) {
                record(id, "`contacts \(shown)` as one process, with `contacts watch` running", email)
            } else {
                note("`contacts \(shown)` with a watcher found nothing or failed; its figure is skipped")
            }
        }
    }

    /// The wall time of runs of a program, or `nil` when a run fails.
    private func processTime(_ program: String, _ arguments: [String]) throws -> Sample? {
        var failed = false
        let sample = try Sample.collect(options.runs, warmUp: true) { _ in
            let result = try ChildProcess.run(program, arguments, output: .discard)
            failed = failed || result.status != 0
            return result.seconds
        }
        return failed ? nil : sample
    }

    /// The peak memory of runs of a program, or `nil` when a run fails or reports nothing.
    private func peakMemory(_ probe: PeakMemoryProbe, _ program: String, _ arguments: [String]) throws -> Sample? {
        var peaks: [Double] = []
        for _ in 0..<options.runs {
            let result = try probe.run(program, arguments)
            guard result.status == 0, let kilobytes = result.kilobytes else { return nil }
            peaks.append(Double(kilobytes))
        }
        return Sample(runs: peaks)
    }

    /// The `contacts` tool: the given path, or the one built beside this program.
    static func contactsTool(_ given: String?) -> String? {
        if let given { return ChildProcess.findExecutable(given) }
        guard let own = ownExecutable() else { return nil }
        let sibling = URL(fileURLWithPath: own).deletingLastPathComponent().appending(path: "contacts").path
        return ChildProcess.findExecutable(sibling)
    }

    /// This program's executable, from `/proc/self/exe`.
    static func ownExecutable() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath
    }
}
