import Foundation
import PlainContacts
import PlainContactsDAV
import PlainContactsSystem

/// `contacts sync [NAME] [--prefer local|remote] [--force] [--dry-run] [--json]`: one two-way
/// sync of the store with a CardDAV address book added with `contacts remote add`.
enum SyncCommand: Command {
    static let name = "sync"
    static let positionals = Positionals(.optional("NAME"), expected: "at most one remote name")
    static let summary = "Sync the store both ways with a CardDAV account added with contacts remote add."

    /// The options of `sync`.
    struct Options: OptionGroup {
        let prefer = Option<MergePreference>(
            "prefer", "local|remote", help: "Settle properties changed differently on both sides with this side's value.",
            completion: .words(["local", "remote"])
        ) { text throws(CLIError) in
            guard let preference = MergePreference(rawValue: text) else {
                throw CLIError.usage("--prefer is local or remote")
            }
            return preference
        }
        let force = Flag("force", help: "Carry out a sync that removes more than half of the store or of the server.")
        let dryRun = Flag("dry-run", help: "Show what the sync would do, and change nothing on either side.")
        let json = SharedOptions.json
    }

    static let discussion = """
        NAME is a remote added with contacts remote add; it may be left out when the store has
        only one. Cards and people are paired by their vCard UID, so a first sync of a store and
        an account that already share cards duplicates nobody. A change on one side since the
        last sync is carried to the other; changes to different properties of the same person on
        both sides are merged. A property changed differently on both sides is a conflict: it is
        reported and left as it is on both sides, and a later sync with --prefer local or
        --prefer remote settles it. A removal on one side removes on the other, unless the other
        side changed the contact meanwhile: then it is kept, and reported.

        Uploads are conditional (If-Match, If-None-Match): a card changed on the server during the
        sync is read again and merged, never overwritten. Everything the store does not model is
        kept: a card edited in one field goes back with every other line of the server's card.
        Groups map to group cards in Apple's form (X-ADDRESSBOOKSERVER-KIND) or RFC 6350's
        (KIND:group); new groups use Apple's.

        The store is saved once at the end, and the sync's status (in .contacts/sync/NAME/, never
        committed) only after that: a sync that is interrupted leaves both sides consistent, and
        the next sync completes it. A sync that would remove more than half of either side (and
        more than 5 records) is refused unless --force is given. With --commit, or autoCommit in
        store.json, the sync is one commit naming the remote and the counts.

        The password comes from the remote's --password-command, else $CONTACTS_REMOTE_PASSWORD,
        else a prompt on the terminal; it is never written to disk.

        Prints one line: what was added, changed and removed in the store and on the server, and
        the conflicts left. --json prints the same as an object, with serverSeconds: how long a
        request to the server was in flight (the rest of the sync's time is its own). Exit
        status: 0 synced; 75
        conflicts left (everything else synced) or the removal guard refused; 77 the server
        refused the credentials; 69 the server could not be reached or kept failing; 65 the
        server sent something unreadable, or an answer larger than a sync reads (a body past
        256 MiB, a header block past 256 KiB).
        """

    static let examples = [
        CommandExample(
            "Add an account and sync with it:",
            "contacts remote add work https://dav.example.com/kim/contacts/ --user kim", "contacts sync work"),
        CommandExample("See what a sync would do, then settle the conflicts it left with the server's values:",
            "contacts sync work --dry-run", "contacts sync work --prefer remote"),
    ]

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        try context.requireStore()
        let remotes = RemoteSettingsFile(storeURL: context.storeURL)
        let settings = try chosenRemote(arguments.positionals.first, in: remotes)
        let password = try RemotePassword(environment: context.environment).password(for: settings)
        let credentials = settings.user.map { RemoteCredentials(user: $0, password: password ?? "") }
        let remote = try CardDAVAddressBook(url: settings.url, credentials: credentials)
        let book = try context.openBook()

        var sync = ContactSync(book: book, remote: remote, statusFolder: remotes.statusFolder(for: settings.name))
        sync.options.prefer = try arguments[\.prefer]
        sync.options.force = arguments[\.force]
        sync.options.dryRun = arguments[\.dryRun]
        let storeURL = context.storeURL
        sync.options.history = { key in GitRunner.history(of: StoreRepository.path(ofPersonWithKey: key), in: storeURL) }
        let bar = ProgressBar()
        if !arguments[\.json] {
            sync.options.progress = { progress in
                bar.show(progress.phase == .reading ? "reading cards" : "syncing", done: progress.done, total: progress.total)
            }
        }
        let report: SyncReport
        do {
            report = try sync.run()
            bar.finish()
        } catch {
            bar.finish()
            throw error
        }
        for warning in report.warnings { context.console.note("warning: \(warning.description)") }
        for conflict in report.conflicts {
            context.console.note("conflict: \(describe(conflict.recordID, uid: conflict.uid, in: book)): "
                + "\(conflict.properties.joined(separator: ", ")) changed on both sides")
        }
        for kept in report.kept {
            context.console.note("kept: \(describe(kept.recordID, uid: kept.uid, in: book)) was removed "
                + (kept.keptLocal ? "on the server but changed here; uploaded again" : "here but changed on the server; downloaded again"))
        }
        if arguments[\.json] {
            context.console.printJSON(json(report, remote: settings.name.description, serverSeconds: remote.serverSeconds))
        } else {
            context.console.print(summary(report, remote: settings.name.description))
        }
        if !report.dryRun, report.local.total > 0 {
            context.commitNote.headline = "sync \(settings.name): \(counts(report.local)) here, \(counts(report.remote)) on the server"
        }
        if !report.conflicts.isEmpty {
            var error = CLIError(
                status: .temporaryFailure,
                message: "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s") left as they are on both sides; "
                    + "sync again with --prefer local or --prefer remote to settle them")
            error.keepsChanges = true
            throw error
        }
    }

    /// The remote named on the command line, or the store's only one.
    private static func chosenRemote(_ name: String?, in remotes: RemoteSettingsFile) throws -> RemoteSettings {
        if let name {
            guard let settings = try remotes.remote(named: try RemoteName(name)) else {
                throw CLIError.noInput("no remote named \"\(name)\"; see contacts remote list")
            }
            return settings
        }
        let all = try remotes.remotes()
        switch all.count {
        case 0: throw CLIError.noInput("the store has no remote; add one with contacts remote add NAME URL")
        case 1: return all[0]
        default:
            throw CLIError.usage("the store has several remotes; name one: \(all.map(\.name.description).joined(separator: ", "))")
        }
    }

    private static func describe(_ id: RecordID?, uid: String, in book: AddressBook) -> String {
        guard let id else { return "card \(uid)" }
        if let name = book.person(withID: id)?.compositeName { return "\(id) \(name)" }
        if let name = book.group(withID: id)?.name { return "group \(id) \(name)" }
        return "record \(id)"
    }

    private static func counts(_ counts: SyncReport.Counts) -> String {
        "\(counts.added) added, \(counts.changed) changed, \(counts.removed) removed"
    }

    static func summary(_ report: SyncReport, remote: String) -> String {
        let conflicts = report.conflicts.isEmpty
            ? "no conflicts" : "\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s")"
        let verb = report.dryRun ? "would sync" : "synced"
        return "\(verb) \(remote): store \(counts(report.local)); server \(counts(report.remote)); \(conflicts)"
    }

    /// The report as `--json` prints it; `serverSeconds`, the time a request to the server was
    /// in flight, with three decimals.
    static func json(_ report: SyncReport, remote: String, serverSeconds: Double = 0) -> JSONValue {
        func object(_ counts: SyncReport.Counts) -> JSONValue {
            .object([
                "added": .number(JSONNumber(counts.added)), "changed": .number(JSONNumber(counts.changed)),
                "removed": .number(JSONNumber(counts.removed)),
            ])
        }
        return .object([
            "remote": .string(remote),
            "dryRun": .bool(report.dryRun),
            "incremental": .bool(report.incremental),
            "store": object(report.local),
            "server": object(report.remote),
            "conflicts": .array(
                report.conflicts.map { conflict in
                    .object([
                        "uid": .string(conflict.uid),
                        "id": conflict.recordID.map { .number(JSONNumber(Int($0.rawValue))) } ?? .null,
                        "properties": .array(conflict.properties.map(JSONValue.string)),
                    ])
                }),
            "kept": .array(
                report.kept.map { kept in
                    .object([
                        "uid": .string(kept.uid), "side": .string(kept.keptLocal ? "store" : "server"),
                    ])
                }),
            "warnings": .array(report.warnings.map { .string($0.description) }),
            "serverSeconds": .number(JSONNumber(literal: String(format: "%.3f", serverSeconds)) ?? JSONNumber(0)),
        ])
    }
}
