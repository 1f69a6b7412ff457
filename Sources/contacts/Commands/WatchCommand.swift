import Dispatch
import FoundationEssentials
import Glibc
import PlainContacts
import PlainContactsSystem

/// `contacts watch [--json]`: prints a line whenever someone else changes the store.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "Answer reading commands which files changed, and print a line for every change others make."

    /// The options of `watch`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static let discussion = """
        Keeps inotify watches on the store's folders and answers, on a socket in .contacts/,
        which files changed since a reading command last looked, so that `contacts email`,
        `search`, `list` and `show` look only at those instead of every person file. Optional:
        without it every command checks every file, and no command starts it. One per store: a
        second one says so on standard error and only prints changes. It refuses a store on a
        network file system (NFS, SMB), where other machines' changes raise no events here.

        Prints one line per burst of changes made by other programs, `git pull` or an editor,
        such as `added people: 12; changed people: 3, 7`. With --json, each line is one JSON
        object: {"addedPeople", "changedPeople", "removedPeople", "addedGroups",
        "changedGroups", "removedGroups"} (arrays of record IDs) and "settingsChanged". Logs to
        standard error. Runs until interrupted (Ctrl-C), terminated or the store's folder goes
        away, then exits with status 0; suits a systemd user unit or `&`.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let book = try context.openBook()
        let json = arguments[\.json]
        let console = context.console
        let queue = DispatchQueue(label: "contacts.watch")
        let registration = try book.registerExternalChangeCallback(queue: queue) { change in
            console.print(json ? CanonicalJSON.compact(object(change)) : line(change))
        }
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        let indexWatcher = try IndexWatcherThread(storeURL: context.storeURL, console: console) { stop.signal() }
        console.note("Watching \(context.storeURL.path(percentEncoded: false)) for changes; stop with Ctrl-C.")
        stop.wait()
        indexWatcher.stop()
        for source in sources { source.cancel() }
        book.unregisterExternalChangeCallback(registration)
    }

    /// The store's watcher (``AddressBook/runWatcher(storeAt:stopWhenReadable:log:)``) on a
    /// thread of its own, stopped through a pipe.
    private struct IndexWatcherThread {
        private let stopEnd: Int32
        private let readEnd: Int32
        private let finished = DispatchSemaphore(value: 0)

        /// Starts it; `storeGone` is called when it ends because the store's folder went away.
        /// A watcher that cannot start (another runs, a network file system) says why on
        /// standard error, and the command goes on printing changes.
        init(storeURL: URL, console: Console, storeGone: @escaping @Sendable () -> Void) throws {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                throw CLIError(status: .failure, message: "cannot make a pipe for the watcher")
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            stopEnd = ends[1]
            readEnd = ends[0]
            let readEnd = readEnd
            let finished = finished
            // Signalled by the watcher's first line, which says where it answers, or its end:
            // the command says it is watching only once reading commands can ask.
            let started = DispatchSemaphore(value: 0)
            DispatchQueue(label: "contacts.watch.index").async {
                defer { started.signal() }
                do {
                    try AddressBook.runWatcher(storeAt: storeURL, stopWhenReadable: readEnd) { line in
                        console.note(line)
                        started.signal()
                    }
                    storeGone()
                } catch let error as ContactsError where error.code == .busy {
                    console.note("Another `contacts watch` answers reading commands for this store; this one only prints changes.")
                } catch {
                    console.note("Not answering reading commands: \(error). Printing changes only.")
                }
                finished.signal()
            }
            started.wait()
        }

        /// Stops the watcher and waits for its thread to end.
        func stop() {
            var byte: UInt8 = 1
            _ = write(stopEnd, &byte, 1)
            finished.wait()
            close(stopEnd)
            close(readEnd)
        }
    }

    /// `added people: 12; changed people: 3, 7`.
    static func line(_ change: StoreChange) -> String {
        let parts: [(String, Set<RecordID>)] = [
            ("added people", change.addedPeople), ("changed people", change.changedPeople),
            ("removed people", change.removedPeople), ("added groups", change.addedGroups),
            ("changed groups", change.changedGroups), ("removed groups", change.removedGroups),
        ]
        var texts = parts.filter { !$0.1.isEmpty }.map { "\($0.0): " + $0.1.sorted().map(\.description).joined(separator: ", ") }
        if change.settingsChanged { texts.append("settings changed") }
        return texts.joined(separator: "; ")
    }

    static func object(_ change: StoreChange) -> JSONValue {
        func ids(_ set: Set<RecordID>) -> JSONValue {
            .array(set.sorted().map { .number(JSONNumber(Int($0.rawValue))) })
        }
        return .object([
            "addedPeople": ids(change.addedPeople), "changedPeople": ids(change.changedPeople),
            "removedPeople": ids(change.removedPeople), "addedGroups": ids(change.addedGroups),
            "changedGroups": ids(change.changedGroups), "removedGroups": ids(change.removedGroups),
            "settingsChanged": .bool(change.settingsChanged),
        ])
    }
}
