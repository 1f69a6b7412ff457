import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV

/// `contacts-bench --caldavtester`: Apple's CardDAV conformance scripts (CalDAVTester's
/// CardDAV part, run by Python 2.7) against `contacts serve` and Radicale 3.9, side by side,
/// and a table of the tests each passes.
///
/// Each server starts on 127.0.0.1 on a free port with users `user01`… (passwords `user01`…)
/// and their address books `/<user>/contacts/`: `contacts serve` on a fresh store, Radicale
/// from `.venv-dav` with an htpasswd file. Each server gets its own copy of the CalDAVTester
/// folder (a run writes into it); each script runs on its own, after the address books are
/// created again where one is missing (a script may delete one, as CalendarServer makes a new
/// one by itself). Failing tests are the figure, not an
/// error: the run exits 0 unless a server or Python 2.7 is missing.
struct CalDAVTesterRun {
    /// The scripts run, in `scripts/tests/CardDAV/`.
    static let scripts = [
        "ab-client", "get", "put", "propfind", "reports", "sync-report", "current-user-principal", "well-known",
    ]
    /// Users the scripts sign in as: `user01` everywhere, `user02` to test another user.
    static let users = 2
    /// How long one script may run: a whole script takes seconds, and CalDAVTester spins
    /// forever on some server answers (a redirect loop, a substitution it cannot expand).
    static let scriptTimeout: Duration = .seconds(300)

    /// `<package root>/../shared/caldavtester`, found as ``CardSource/scriptURL`` is.
    static var defaultFolder: URL {
        CardSource.scriptURL.deletingLastPathComponent().appending(path: "caldavtester", directoryHint: .isDirectory)
    }

    let folder: URL
    let python: String
    let workspace: Workspace

    /// One server's results, by script.
    struct Column {
        var server: String
        var results: [String: CalDAVTesterOutput]
    }

    /// Runs every script against both servers and prints the table.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the `contacts` tool, Python 2.7 or
    ///   `testcaldav.py` is missing or a server does not start; the store's errors.
    static func run(_ options: BenchOptions, folder: URL) throws {
        guard let contacts = BenchSuite.contactsTool(options.contactsPath) else {
            throw ContactsError(.io, "the contacts tool was not found; build it or pass --contacts PATH")
        }
        guard let python = pythonToUse() else {
            throw ContactsError(.io, "Python 2.7 was not found: python2.7 on PATH or in pyenv's versions/2.7.18")
        }
        guard FileManager.default.fileExists(atPath: folder.appending(path: "testcaldav.py").path) else {
            throw ContactsError(.io, "no testcaldav.py in the CalDAVTester folder", path: folder.path)
        }
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        let run = CalDAVTesterRun(folder: folder, python: python, workspace: workspace)
        var columns: [Column] = []

        Progress.note("contacts serve: a new store with \(users) users")
        let store = workspace.path("served-store")
        _ = try AddressBook.create(at: store)
        let usersFile = ServerUsersFile(storeURL: store)
        for (name, password) in accounts() {
            _ = try usersFile.add(try ServerUserName(name), password: password, replacing: false)
        }
        let served = try ServingStore(contacts: contacts, store: store)
        columns.append(Column(server: "contacts serve", results: try run.runScripts(on: served.port, name: "contacts-serve")))
        served.stop()

        Progress.note("Radicale 3.9: starting with \(users) users")
        // DAVTestServer's own user (`user`) stays beside them, unused.
        let radicale = try DAVTestServer(.radicale(password: "user"), additionalUsers: accounts())
        defer { radicale.stop() }
        columns.append(Column(server: "Radicale 3.9", results: try run.runScripts(on: radicale.port, name: "radicale")))

        print(table(columns))
    }

    /// The users and their passwords: `user01`…
    static func accounts() -> [String: String] {
        var accounts: [String: String] = [:]
        for number in 1...users {
            let name = String(format: "user%02d", number)
            accounts[name] = name
        }
        return accounts
    }

    /// Runs every script against the server on `port` and reads what each printed.
    func runScripts(on port: Int, name: String) throws -> [String: CalDAVTesterOutput] {
        let copy = workspace.path("caldavtester-\(name)")
        do {
            try FileManager.default.copyItem(at: folder, to: copy)
        } catch {
            throw ContactsError(.io, "cannot copy the CalDAVTester folder", path: folder.path, underlying: error)
        }
        let template = try? String(contentsOf: copy.appending(path: "scripts/server/serverinfo.xml"), encoding: .utf8)
        let info = copy.appending(path: "serverinfo-bench.xml")
        try write(CalDAVTesterServerInfo(port: port, users: Self.users, template: template).xml, to: info)
        var results: [String: CalDAVTesterOutput] = [:]
        for script in Self.scripts {
            Progress.note("\(name): \(script).xml")
            try createAddressBooks(port: port)
            let log = workspace.path("\(name)-\(script).txt")
            try runScript(script, in: copy, serverInfo: info, output: log)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            results[script] = CalDAVTesterOutput(text)
        }
        return results
    }

    /// Creates each user's address book with an extended `MKCOL` where it is missing.
    private func createAddressBooks(port: Int) throws {
        let connection = RawHTTPConnection(port: port)
        let body = Data(
            (#"<?xml version="1.0" encoding="utf-8"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">"#
                + #"<d:set><d:prop><d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop></d:set></d:mkcol>"#)
                .utf8)
        for (user, password) in Self.accounts() {
            let headers = [
                "Authorization": RemoteCredentials(user: user, password: password).basicAuthorization,
                "Content-Type": "application/xml; charset=utf-8",
            ]
            let path = "/\(user)/contacts/"
            let found = try connection.send("PROPFIND", path, headers: headers.merging(["Depth": "0"]) { $1 }, body: Data())
            guard found.status == 404 else { continue }
            let made = try connection.send("MKCOL", path, headers: headers, body: body)
            guard made.status == 201 else {
                throw ContactsError(.io, "creating \(path) answered HTTP \(made.status)")
            }
        }
    }

    /// Runs `testcaldav.py` on one script, its output into `output`.
    private func runScript(_ script: String, in copy: URL, serverInfo: URL, output: URL) throws {
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw ContactsError(.io, "cannot create the output file", path: output.path)
        }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["testcaldav.py", "-s", serverInfo.path, "-x", "scripts/tests", "CardDAV/\(script).xml"]
        process.currentDirectoryURL = copy
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = "pycalendar-src:."
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ContactsError(.io, "cannot start Python 2.7", path: python, underlying: error)
        }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.scriptTimeout
        while process.isRunning {
            if clock.now > deadline {
                Progress.note("\(script).xml ran past \(Self.scriptTimeout); stopped")
                process.terminate()
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        process.waitUntilExit()
    }

    private func write(_ text: String, to file: URL) throws {
        do {
            try Data(text.utf8).write(to: file)
        } catch {
            throw ContactsError(.io, "cannot write the server information", path: file.path, underlying: error)
        }
    }

    /// pyenv's 2.7.18, else `python2.7` on `PATH`: the first that runs (pyenv's shim on `PATH`
    /// exists but fails when 2.7 is not the selected version).
    static func pythonToUse() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let roots = [environment["PYENV_ROOT"], environment["HOME"].map { $0 + "/.pyenv" }].compactMap { $0 }
        let candidates = roots.map { $0 + "/versions/2.7.18/bin/python2.7" } + [ChildProcess.findExecutable("python2.7")].compactMap { $0 }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate)
                && (try? ChildProcess.run(candidate, ["--version"], output: .discardAll))?.status == 0
        }
    }

    /// The table: per script, the tests run and those each server passed, then the failures of
    /// the first server.
    static func table(_ columns: [Column]) -> String {
        var lines = [
            "CalDAVTester's CardDAV scripts; a check is one of its tests (one or more requests, each verified):",
            "",
            "| script | checks | " + columns.map { "passed by \($0.server)" }.joined(separator: " | ") + " |",
            "|---|---:|" + columns.map { _ in "---:|" }.joined(),
        ]
        var totals = Array(repeating: 0, count: columns.count)
        var allChecks = 0
        for script in scripts {
            let outputs = columns.map { $0.results[script] }
            let checks = outputs.map { $0?.checks ?? 0 }.max() ?? 0
            allChecks += checks
            var cells: [String] = []
            for (index, output) in outputs.enumerated() {
                guard let output, output.finished else {
                    cells.append("did not finish")
                    continue
                }
                totals[index] += output.passed
                cells.append(output.checks == 0 && output.errors > 0 ? "0 (set-up failed)" : String(output.passed))
            }
            lines.append("| \(script).xml | \(checks) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("| all | \(allChecks) | " + totals.map(String.init).joined(separator: " | ") + " |")
        for column in columns {
            let failures = scripts.flatMap { script in
                (column.results[script]?.failures ?? []).map { "\(script).xml \($0)" }
            }
            guard !failures.isEmpty else { continue }
            lines += ["", "Failed by \(column.server):"] + failures.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
