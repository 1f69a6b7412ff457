import Dispatch
import Glibc
import PlainContacts
import PlainContactsSystem

/// `contacts watch [--json]`: prints a line whenever someone else changes the store.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "Print a line for every change others make to the store, until interrupted."

    /// The options of `watch`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static let discussion = """
        Prints one line per burst of changes made by other programs, `git pull` or an editor,
        such as `added people: 12; changed people: 3, 7`. With --json, each line is one JSON
        object: {"addedPeople", "changedPeople", "removedPeople", "addedGroups",
        "changedGroups", "removedGroups"} (arrays of record IDs) and "settingsChanged". Runs
        until interrupted (Ctrl-C) or terminated, then exits with status 0.
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
        console.note("Watching \(context.storeURL.path(percentEncoded: false)) for changes; stop with Ctrl-C.")
        stop.wait()
        for source in sources { source.cancel() }
        book.unregisterExternalChangeCallback(registration)
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
