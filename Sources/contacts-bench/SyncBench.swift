import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV

/// `contacts-bench --sync`: `contacts sync` and vdirsyncer 0.21 syncing the same CardDAV
/// collection of N generated cards (Radicale 3.9, then Xandikos 0.4), each into its own empty
/// store or vdir, in one run: the first sync, a sync after one card changed on the server, and
/// a sync when nothing changed. Whole processes are timed, as a user runs them.
///
/// The servers and vdirsyncer come from `.venv-dav` (`.ci/install-dav-servers`). Each server
/// is filled on disk before it starts and its caches are warmed by one listing, so that
/// neither tool pays for them.
struct SyncBench {
    let people: Int
    let runs: Int
    let contacts: String
    let source: CardSource

    /// One server's figures: the median seconds of each tool for each sync.
    struct Row {
        var server: String
        var first: (contacts: Double, vdirsyncer: Double)
        var changed: (contacts: Double, vdirsyncer: Double)
        var unchanged: (contacts: Double, vdirsyncer: Double)
        /// CPU seconds (user + system) of each tool's processes, by sync, medians as above.
        var cpu: [String: (contacts: Double, vdirsyncer: Double)] = [:]
        /// The server's own answer to a sync-collection after one change, seconds (median).
        var serverAnswer: Double = 0
        /// The wall seconds of `contacts sync` not spent waiting for the server (its wall time
        /// less the `serverSeconds` it reports), by sync, medians as above.
        var ownWall: [String: Double] = [:]
    }

    static func run(_ options: BenchOptions, source: CardSource) throws {
        guard let contacts = BenchSuite.contactsTool(options.contactsPath) else {
            throw ContactsError(.io, "the contacts tool was not found; build it or pass --contacts PATH")
        }
        let bench = SyncBench(people: options.sizes.first ?? 10_000, runs: options.runs, contacts: contacts, source: source)
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        let cards = workspace.path("cards")
        _ = try source.writeDirectory(count: bench.people, to: cards)
        var rows: [Row] = []
        for (position, kind) in [DAVTestServer.Kind.radicale(password: nil), .xandikos].enumerated() {
            rows.append(try bench.measure(kind, cards: cards, in: workspace, contactsFirst: position == 1))
        }
        print(table(rows, people: bench.people, runs: bench.runs))
    }

    /// One server's figures; `contactsFirst` says which tool makes the first sync first (the
    /// two servers take turns, so that each tool goes first half of the time).
    private func measure(_ kind: DAVTestServer.Kind, cards: URL, in workspace: Workspace, contactsFirst: Bool) throws -> Row {
        let name = if case .xandikos = kind { "Xandikos 0.4" } else { "Radicale 3.9" }
        Progress.note("\(name): filling the address book with \(Format.count(people)) cards")
        let server = try DAVTestServer(kind)
        defer { server.stop() }
        try server.fill(from: cards)
        try server.warm()

        let folder = workspace.path(name.replacingOccurrences(of: " ", with: "-"))
        var sync = try Tools(contacts: contacts, server: server, folder: folder)

        Progress.note("\(name): first syncs")
        let firstVdir: ChildProcess.Result
        let firstContacts: ChildProcess.Result
        if contactsFirst {
            firstContacts = try sync.contacts()
            firstVdir = try sync.vdirsyncer()
        } else {
            firstVdir = try sync.vdirsyncer()
            firstContacts = try sync.contacts()
        }
        var ownWall: [String: [Double]] = ["first sync": [sync.lastOwnWall]]
        var changed: [(ChildProcess.Result, ChildProcess.Result)] = []
        var unchanged: [(ChildProcess.Result, ChildProcess.Result)] = []
        var answers: [Double] = []
        for run in 0..<runs {
            Progress.note("\(name): run \(run + 1) of \(runs)")
            let token = try CardDAVAddressBook(url: server.addressBookURL, credentials: server.credentials).collectionState().syncToken
            try changeOneCard(server, run: run)
            if let token { answers.append(try timeSyncCollection(server, since: token)) }
            // The order alternates, and starts on each server the other way round, so that each
            // tool goes first half of the time and neither always meets a server just woken.
            let vdirsyncerFirst = (run + (contactsFirst ? 1 : 0)) % 2 == 0
            if vdirsyncerFirst {
                let v = try sync.vdirsyncer()
                changed.append((try sync.contacts(), v))
            } else {
                let c = try sync.contacts()
                changed.append((c, try sync.vdirsyncer()))
            }
            ownWall["one card changed", default: []].append(sync.lastOwnWall)
            if !vdirsyncerFirst {
                let c = try sync.contacts()
                unchanged.append((c, try sync.vdirsyncer()))
            } else {
                let v = try sync.vdirsyncer()
                unchanged.append((try sync.contacts(), v))
            }
            ownWall["nothing changed", default: []].append(sync.lastOwnWall)
        }
        func median(_ pairs: [(ChildProcess.Result, ChildProcess.Result)], _ value: (ChildProcess.Result) -> Double) -> (Double, Double) {
            (Sample(runs: pairs.map { value($0.0) }).median, Sample(runs: pairs.map { value($0.1) }).median)
        }
        return Row(
            server: name, first: (firstContacts.seconds, firstVdir.seconds),
            changed: median(changed, \.seconds), unchanged: median(unchanged, \.seconds),
            cpu: [
                "first sync": (firstContacts.cpuSeconds, firstVdir.cpuSeconds), "one card changed": median(changed, \.cpuSeconds),
                "nothing changed": median(unchanged, \.cpuSeconds),
            ],
            serverAnswer: answers.isEmpty ? 0 : Sample(runs: answers).median,
            ownWall: ownWall.mapValues { Sample(runs: $0).median })
    }

    /// Times the server's own answer to a sync-collection report since `token`, with the body
    /// read, on a new connection: what any client waits for before it can do anything.
    private func timeSyncCollection(_ server: DAVTestServer, since token: String) throws -> Double {
        let xml = ServeBench.syncCollectionBody(since: token)
        let headers = ["Content-Type": "application/xml; charset=utf-8", "Authorization": server.credentials.basicAuthorization]
        let connection = RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()
        let start = clock.now
        let response = try connection.send("REPORT", server.addressBookPath, headers: headers, body: Data(xml.utf8))
        let seconds = (clock.now - start).seconds
        guard response.status == 207 else {
            throw ContactsError(.io, "the server answered sync-collection with \(response.status)")
        }
        return seconds
    }

    /// Rewrites one card's note on the server, as a phone would.
    private func changeOneCard(_ server: DAVTestServer, run: Int) throws {
        let book = try CardDAVAddressBook(url: server.addressBookURL, credentials: server.credentials)
        guard let version = try book.listCards().min(by: { $0.href < $1.href }),
            let card = try book.fetchCards([version.href]).first
        else { throw ContactsError(.io, "the server has no card to change", path: server.addressBookURL.absoluteString) }
        var text = String(decoding: card.data, as: UTF8.self)
        text = text.replacingOccurrences(of: "\r\nEND:VCARD", with: "\r\nNOTE:changed on the phone \(run)\r\nEND:VCARD")
        _ = try book.updateCard(at: version.href, data: Data(text.utf8), etag: version.etag)
    }


    private static func table(_ rows: [Row], people: Int, runs: Int) -> String {
        var lines = [
            "Sync of \(Format.count(people)) cards, whole processes, seconds (median of \(runs) for the later syncs):",
            "",
            "| server | sync | contacts sync | vdirsyncer | vdirsyncer / contacts | CPU: contacts | CPU: vdirsyncer | contacts, not waiting |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            for (label, pair) in [("first sync", row.first), ("one card changed", row.changed), ("nothing changed", row.unchanged)] {
                let ratio = pair.contacts > 0 ? pair.vdirsyncer / pair.contacts : 0
                let cpu = row.cpu[label] ?? (0, 0)
                lines.append(
                    "| \(row.server) | \(label) | \(Format.seconds(pair.contacts)) | \(Format.seconds(pair.vdirsyncer)) | "
                        + "\(String(format: "%.1fx", ratio)) | \(Format.seconds(cpu.contacts)) | \(Format.seconds(cpu.vdirsyncer)) | "
                        + "\(Format.seconds(row.ownWall[label] ?? 0)) |")
            }
        }
        lines.append("")
        lines.append("The servers' own answer to a sync-collection after one change (median of \(runs)): "
            + rows.map { "\($0.server) \(Format.seconds($0.serverAnswer))" }.joined(separator: ", ") + ".")
        lines.append("CPU is user plus system time of the tool's processes: its own work, not time spent waiting.")
        lines.append("Not waiting: the wall time of contacts sync less the time a request to the server was in flight "
            + "(its --json serverSeconds).")
        return lines.joined(separator: "\n")
    }
}

/// The two tools, each with its own store or vdir synced with one server.
private struct Tools {
    let contactsPath: String
    let store: URL
    let pair: VdirsyncerPair
    let password: String
    /// The wall seconds of the last `contacts sync` not spent waiting for the server.
    private(set) var lastOwnWall: Double = 0

    init(contacts: String, server: DAVTestServer, folder: URL) throws {
        contactsPath = contacts
        password = server.password
        store = folder.appending(path: "store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        pair = try VdirsyncerPair(folder: folder, addressBook: server.addressBookURL, user: server.user, password: server.password)
        try check(run(contactsPath, ["--store", store.path, "init"]), "contacts init")
        try check(
            run(contactsPath, [
                "--store", store.path, "remote", "add", "bench", server.addressBookURL.absoluteString, "--user", server.user,
                "--no-discover",
            ]), "contacts remote add")
    }

    /// One `contacts sync`, timed; its wall time not spent waiting for the server goes to
    /// ``lastOwnWall``.
    mutating func contacts() throws -> ChildProcess.Result {
        let report = store.deletingLastPathComponent().appending(path: "sync-report.json").path
        let result = try ChildProcess.run(
            "/usr/bin/env", ["CONTACTS_REMOTE_PASSWORD=\(password)", contactsPath, "--store", store.path, "sync", "--json"],
            output: .file(report))
        try check(result, "contacts sync")
        let printed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        guard let waited = (printed?["serverSeconds"] as? NSNumber)?.doubleValue else {
            throw ContactsError(.io, "contacts sync --json printed no serverSeconds", path: report)
        }
        lastOwnWall = result.seconds - waited
        return result
    }

    /// One `vdirsyncer sync`, timed.
    func vdirsyncer() throws -> ChildProcess.Result {
        let result = try run(pair.program.path, ["sync"], environment: ["VDIRSYNCER_CONFIG": pair.configuration.path])
        guard result.status == 0 else { throw ContactsError(.io, "vdirsyncer sync failed with exit status \(result.status)") }
        return result
    }

    private func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return try ChildProcess.run("/usr/bin/env", assignments + [program] + arguments, output: .discardAll)
    }

    private func check(_ result: ChildProcess.Result, _ what: String) throws {
        guard result.status == 0 else { throw ContactsError(.io, "\(what) failed with exit status \(result.status)") }
    }
}
