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
        for kind in [DAVTestServer.Kind.radicale(password: nil), .xandikos] {
            rows.append(try bench.measure(kind, cards: cards, in: workspace))
        }
        print(table(rows, people: bench.people, runs: bench.runs))
    }

    private func measure(_ kind: DAVTestServer.Kind, cards: URL, in workspace: Workspace) throws -> Row {
        let name = if case .xandikos = kind { "Xandikos 0.4" } else { "Radicale 3.9" }
        Progress.note("\(name): filling the address book with \(Format.count(people)) cards")
        let server = try DAVTestServer(kind)
        defer { server.stop() }
        try server.fill(from: cards)
        try server.warm()

        let folder = workspace.path(name.replacingOccurrences(of: " ", with: "-"))
        let sync = try Tools(contacts: contacts, server: server, folder: folder)

        Progress.note("\(name): first syncs")
        let firstVdir = try sync.vdirsyncer()
        let firstContacts = try sync.contacts()
        var changed: [(Double, Double)] = []
        var unchanged: [(Double, Double)] = []
        for run in 0..<runs {
            Progress.note("\(name): run \(run + 1) of \(runs)")
            try changeOneCard(server, run: run)
            // The order alternates, so that neither tool always meets a server just woken.
            if run % 2 == 0 {
                let v = try sync.vdirsyncer()
                changed.append((try sync.contacts(), v))
            } else {
                let c = try sync.contacts()
                changed.append((c, try sync.vdirsyncer()))
            }
            let c = try sync.contacts()
            unchanged.append((c, try sync.vdirsyncer()))
        }
        return Row(
            server: name, first: (firstContacts, firstVdir),
            changed: (Sample(runs: changed.map(\.0)).median, Sample(runs: changed.map(\.1)).median),
            unchanged: (Sample(runs: unchanged.map(\.0)).median, Sample(runs: unchanged.map(\.1)).median))
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
            "| server | sync | contacts sync | vdirsyncer | vdirsyncer / contacts |",
            "|---|---|---|---|---|",
        ]
        for row in rows {
            for (label, pair) in [("first sync", row.first), ("one card changed", row.changed), ("nothing changed", row.unchanged)] {
                let ratio = pair.contacts > 0 ? pair.vdirsyncer / pair.contacts : 0
                lines.append(
                    "| \(row.server) | \(label) | \(Format.seconds(pair.contacts)) | \(Format.seconds(pair.vdirsyncer)) | \(String(format: "%.1fx", ratio)) |")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The two tools, each with its own store or vdir synced with one server.
private struct Tools {
    let contactsPath: String
    let store: URL
    let pair: VdirsyncerPair
    let password: String

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

    /// Seconds of one `contacts sync`.
    func contacts() throws -> Double {
        let result = try run(contactsPath, ["--store", store.path, "sync"], environment: ["CONTACTS_REMOTE_PASSWORD": password])
        try check(result, "contacts sync")
        return result.seconds
    }

    /// Seconds of one `vdirsyncer sync`.
    func vdirsyncer() throws -> Double {
        let result = try pair.sync()
        guard result.status == 0 else { throw ContactsError(.io, "vdirsyncer sync failed with exit status \(result.status)") }
        return result.seconds
    }

    private func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return try ChildProcess.run("/usr/bin/env", assignments + [program] + arguments, output: .discardAll)
    }

    private func check(_ result: ChildProcess.Result, _ what: String) throws {
        guard result.status == 0 else { throw ContactsError(.io, "\(what) failed with exit status \(result.status)") }
    }
}
