import Foundation
import Glibc
import PlainContacts
import PlainContactsDAV
import Synchronization

/// `contacts serve [--listen HOST:PORT] [--trusted-proxy ADDRESS]...`: the store as a CardDAV server, in the foreground,
/// until SIGINT or SIGTERM.
enum ServeCommand: Command {
    static let name = "serve"
    static let positionals = Positionals(expected: "options only")
    static let summary = "Serve the store as a CardDAV address book to phones and mail clients."

    /// Where the server listens unless told otherwise: this machine only, on Radicale's port.
    static let defaultListen = "127.0.0.1:5232"

    /// The options of `serve`.
    struct Options: OptionGroup {
        let listen = Option<String>(
            "listen", "HOST:PORT", help: "Listen on this address (default \(ServeCommand.defaultListen); port 0 takes a free one).")
        let trustedProxy = RepeatableOption<String>(
            "trusted-proxy", "ADDRESS",
            help: "Believe X-Forwarded-For and Forwarded from this reverse proxy: an IP address, a CIDR range "
                + "(10.0.0.0/8) or localhost (repeatable).")
        let push = Flag(
            "push", help: "Commit each change and push the commits to the store's Git remote (\"autoPush\": true in store.json does it always).")
    }

    static let discussion = """
        Runs in the foreground and prints the address to give a client, and each user's address
        books. Clients find the
        address books from the server's root (RFC 6764 /.well-known/carddav); this store's
        address book is at /NAME/contacts/ for a user NAME, or /me/contacts/ on a server without
        users, and each other book a user is granted (contacts user grant) at /NAME/BOOK/:
        another store, served with its own cards, sync tokens and commits. A book granted
        read-only is shown so by clients, and a write to it is refused with 403. Calendar
        apps subscribe to the birthdays and anniversaries at
        /NAME/birthdays.ics (/me/birthdays.ics without users), with the same user and
        password: the calendar `contacts export --format ics` writes. Each request is logged
        on standard error as one line: the time, the method, the path, the status and the time
        taken; never a header or a card. SIGINT (Control-C) or SIGTERM stops the server after
        the requests in progress are answered.

        With users (contacts user add NAME), every request needs one of them (HTTP Basic
        authentication); users added or removed while the server runs count at once. Without
        users, the server listens only on a loopback address (127.0.0.1, ::1, localhost) and
        refuses requests that came through a reverse proxy: listening on any other address
        without a user is refused at start (exit status 64).

        Every change a client makes is one save of the store under its lock, as any contacts
        command: the server, the command line and other programs never lose each other's
        writes, and the server sees changes made by them, by git pull or by an editor. With
        --commit (or autoCommit in store.json), each change is a Git commit naming the people
        changed and the client, made after the client has its answer, in order; a commit Git
        refuses is logged and tried again, and stopping waits for the commits still queued.
        One server serves a store at a time: a second contacts serve on the same store is
        refused at start, while other commands go on writing.

        With --push (or autoPush in store.json), each commit is also pushed to the store's Git
        remote (the branch's upstream, else origin), in order, on a thread of its own: a slow or
        failing push never delays a client nor the next commit. A failed push is logged with
        the commits not pushed and tried again after 2 seconds, then twice as long each time up
        to 5 minutes; contacts doctor shows them too. A push rejected because the remote moved
        is never forced: the server fetches and merges the remote's commits with the store's
        merge driver (contacts git-setup), as git pull in a clone would, then pushes. Commits
        not pushed when the server stops are pushed by the next server started on the store.

        GET /health answers 200 ok to anyone, without a user, for a reverse proxy's or a
        service manager's health check; it says nothing of the store. Under systemd (when
        $JOURNAL_STREAM names standard error) each log line starts with its syslog priority
        instead of the time, which the journal records itself.

        HOST is an IPv4 or IPv6 address ([::1]:5232) or localhost. For phones and other
        machines, put a reverse proxy with TLS (Caddy, nginx) in front; see the serving guide
        (Sources/PlainContactsDAV/PlainContactsDAV.docc/Serving.md).

        Wrong passwords are rationed per user name and client address (five, then one every
        two seconds; answered with 429), and per client address whatever the names (twenty,
        then one a second). Behind a reverse proxy every client's address is the proxy's:
        give it with --trusted-proxy 127.0.0.1 and the server takes the client's address from
        the proxy's X-Forwarded-For (or, without one, Forwarded: the right-most address that
        is not a trusted proxy), so that one phone with a stale password throttles only
        itself. That address keys the budgets and is named in the log line
        (for 203.0.113.7 via 127.0.0.1); one forwarded client may have 8 requests in progress
        at once (more get 503 with Retry-After), and the proxy itself is not held to the 16
        connections per address. From any other peer, those headers are ignored.

        The server runs in a child process of the contacts serve you started, which binds the
        address and keeps it. If a request's handling ever crashes the server process, that
        request's connection closes without an answer, each request it was handling is logged
        (a request's handling stopped the server process (signal 4, SIGILL): PROPFIND
        /kim/contacts/; restarting), and a new server process takes over at once on the same
        port; clients that connect meanwhile wait and are answered. Other requests in progress
        at that moment lose their connections too, and their clients retry. Five crashes within
        60 seconds stop the server with exit status 70.

        Exit status: 0 stopped by a signal; 64 a wrong --listen or --trusted-proxy, or a
        non-loopback address without users; 70 the server process crashed five times within a
        minute; 75 the address is in use, or another contacts serve serves this store; 77 the
        port needs privileges.
        """

    static let examples = [
        CommandExample("Serve the store to the clients of this machine:", "contacts serve"),
        CommandExample(
            "Serve a household behind a reverse proxy on this machine, with a user, committing each change:",
            "contacts user add kim", "contacts serve --trusted-proxy 127.0.0.1 --commit"),
        CommandExample(
            "Push every commit to a Git host, so that another machine can take over from it:",
            "git -C ~/.local/share/contacts remote add origin git@git.example.com:kim/contacts.git",
            "contacts serve --push"),
        CommandExample("Ask whether the server is up, as a health check does:", "curl -fsS http://127.0.0.1:5232/health"),
    ]

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let (host, port) = try listenAddress(arguments[\.listen] ?? defaultListen)
        try context.requireStore()
        guard context.environment[ServeSupervisor.workerVariable] == "1" else {
            let supervisor = ServeSupervisor(host: host, port: port, environment: context.environment, console: context.console)
            let status = try supervisor.run()
            guard status == .success else { throw CLIError(status: status, message: "") }
            return
        }
        // The server process ends with its supervisor, however the supervisor ends.
        guard ParentDeathSignal.request(SIGTERM) else { return }
        try serve(arguments, host: host, port: port, inheritance: inheritance(context.environment), in: context)
    }

    /// What the server process inherited from its supervisor (``ServeSupervisor``): the
    /// listening sockets from descriptor 3 on, then the request journal. The variables that
    /// told it are removed, so that programs it starts (Git) do not see them.
    private static func inheritance(_ environment: [String: String]) -> ContactsServer.Inheritance {
        let count = max(0, Int32(environment[ServeSupervisor.listenDescriptorsVariable] ?? "") ?? 0)
        let journal = environment[ServeSupervisor.journalDescriptorVariable].flatMap(Int32.init)
        let crashPath = environment[ContactsServer.Inheritance.crashPathVariable].flatMap { $0.isEmpty ? nil : $0 }
        let names = [
            ServeSupervisor.workerVariable, ServeSupervisor.listenDescriptorsVariable, ServeSupervisor.journalDescriptorVariable,
            ServeSupervisor.restartVariable,
        ]
        names.forEach { unsetenv($0) }
        return ContactsServer.Inheritance(
            listeningDescriptors: (0..<count).map { ServeSupervisor.firstInheritedDescriptor + $0 },
            journal: journal.flatMap { try? HTTPRequestJournal(adopting: $0) }, crashPath: crashPath)
    }

    /// Serves in the server process until SIGINT or SIGTERM; prints the banner unless this
    /// process was started after a crash.
    private static func serve(
        _ arguments: ParsedArguments<Options>, host: String, port: UInt16, inheritance: ContactsServer.Inheritance,
        in context: CommandContext
    ) throws {
        let restarted = context.environment[ServeSupervisor.restartVariable] == "1"
        let store = context.storeURL
        let console = context.console
        let journal = JournalStream(environment: context.environment)
        let log: @Sendable (String) -> Void = { line in console.note(journal.line(line)) }
        let committer = ServeCommitter(store: store, explicit: context.commitRequested, push: arguments[\.push], log: log)
        let usersFile = UserCommand.usersFile(in: context)
        let trustedProxies: TrustedProxies
        do {
            trustedProxies = try TrustedProxies(arguments[\.trustedProxy])
        } catch {
            throw CLIError.usage(error.message)
        }
        let server = try ContactsServer(
            storeURL: store, options: AddressBookOptions(lockTimeout: context.lockTimeout()),
            usersFile: usersFile, host: host, port: port, trustedProxies: trustedProxies,
            log: log, afterChange: { change in committer.record(change) },
            bookOpened: { book in committer.watch(book) }, inheritance: inheritance, history: GitStoreHistory())
        guard server.requiresAuthentication || ContactsServer.isLoopback(host) else {
            throw CLIError.usage(
                "refusing to serve on \(host) without a user: anyone who reaches it could read and change every contact; "
                    + "add one with `contacts user add NAME`, or listen on 127.0.0.1")
        }
        try server.start()
        // The supervisor passes on the Control-C the terminal sent to both: say it once.
        let stopping = StopNotice()
        let watch = try server.stopOnSignals { _ in
            stopping.once { log("stopping: finishing the requests in progress") }
        }
        guard !restarted else {
            server.waitUntilStopped()
            watch.cancel()
            committer.finish()
            log("stopped")
            return
        }
        let root = "http://\(hostForURL(host)):\(server.port)/"
        let accounts = try usersFile.accounts()
        let users = accounts.map(\.name.rawValue)
        console.print("Serving \(store.path(percentEncoded: false)) at \(root)")
        if users.isEmpty {
            console.print("Give a client the address \(root); it finds the address book, \(root)me/contacts/, by itself.")
        } else {
            console.print("Give a client the address \(root) and a user's name and password; it finds the address books by itself.")
            for account in accounts {
                let books = account.books.map { grant in
                    "\(root)\(account.name)/\(grant.book)/" + (grant.access == .read ? " (read-only)" : "")
                }
                console.print("The address books of \(account.name): " + books.joined(separator: ", ") + ".")
            }
        }
        console.print(
            "Clients that take the address book itself (vdirsyncer with collections = null) take "
                + (users.isEmpty ? "that address." : "one of those addresses."))
        if users.isEmpty {
            console.print("Calendar apps subscribe to the birthdays at \(root)me/birthdays.ics.")
        } else {
            console.print("The birthday calendar of " + users.map { "\($0) is \(root)\($0)/birthdays.ics" }.joined(separator: ", of ") + ".")
        }
        if !trustedProxies.isEmpty {
            console.print("Requests from \(trustedProxies) count as the client named in their X-Forwarded-For or Forwarded.")
        }
        console.print("Control-C stops the server.")
        server.waitUntilStopped()
        watch.cancel()
        committer.finish()
        log("stopped")
    }

    /// The host and port of `--listen`: `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for 127.0.0.1.
    static func listenAddress(_ text: String) throws(CLIError) -> (host: String, port: UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw CLIError.usage("--listen takes HOST:PORT, such as 127.0.0.1:5232 or [::1]:5232, not \"\(text)\"")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "127.0.0.1" }
        guard !host.contains("[") && !host.contains("]") && !host.contains("/") else {
            throw CLIError.usage("--listen takes HOST:PORT, such as 127.0.0.1:5232 or [::1]:5232, not \"\(text)\"")
        }
        return (host, port)
    }

    /// The host as written in a URL: an IPv6 address in brackets; any-address hosts become
    /// this machine's loopback, which is where a local client reaches them.
    private static func hostForURL(_ host: String) -> String {
        switch host {
        case "0.0.0.0": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") ? "[\(host)]" : host
        }
    }

    /// The time of a log line: UTC, to the second.
    static func timestamp() -> String {
        Date.now.formatted(.iso8601)
    }

}

/// Runs a piece of code once however many threads ask: `contacts serve`'s "stopping" line.
private final class StopNotice: Sendable {
    private let done = Atomic<Bool>(false)

    /// Runs `body` on the first call only.
    func once(_ body: () -> Void) {
        if !done.exchange(true, ordering: .acquiringAndReleasing) { body() }
    }
}
