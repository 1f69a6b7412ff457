import PlainContacts
import PlainContactsSystem

/// `contacts resolve REF`: re-identifies a long-term reference.
enum ResolveCommand: Command {
    static let name = "resolve"
    static let positionals: Positionals = [.one("REF")]
    static let summary = "Find the person a stored reference (the \"ref\" of --json output) points to."

    /// The options of `resolve`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static let discussion = """
        Prints the person's current record ID. When the person was re-identified (its ID changed,
        say after a merge of two clones), a fresh reference is given: store it instead of the old
        one. With --json, prints {"status": "found|reidentified|ambiguous|notFound", "id", "ref",
        "candidates"}.

        Exit status: 0 found or re-identified; 66 not found; 1 ambiguous (several people have the
        referenced name and none is the original record; their IDs are listed).
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let text = arguments.positionals[0]
        guard let reference = PersonReference(text) else {
            throw CLIError.usage("not a person reference; references look like v1:12:…:katie-bell-x7k2mq")
        }
        let book = try context.openBook()
        let json = arguments[\.json]
        let console = context.console
        let resolution = book.resolve(reference)
        if case .found = resolution {} else {
            // A file that could not be read may hold the person referred to.
            try PersonLookup.checkReads(book)
        }
        switch resolution {
        case .found(let person):
            print(status: "found", person: person, book: book, json: json, console: console)
        case .reidentified(let person, let fresh):
            print(status: "reidentified", person: person, book: book, json: json, console: console)
            if !json { console.note("The person was re-identified; store the fresh reference \(fresh)") }
        case .ambiguous(let people):
            if json {
                console.printJSON(.object([
                    "status": .string("ambiguous"),
                    "candidates": .array(people.map { candidate($0, in: book) }),
                ]))
            }
            throw CLIError(
                status: .failure,
                message: "the reference is ambiguous: \(people.count) people have its name; candidate IDs: "
                    + people.map { $0.recordID.description }.joined(separator: ", "))
        case .notFound:
            if json { console.printJSON(.object(["status": .string("notFound")])) }
            throw CLIError.noInput("no person matches the reference any more")
        }
    }

    private static func print(status: String, person: Person, book: AddressBook, json: Bool, console: Console) {
        guard json else {
            console.print(person.recordID.description)
            return
        }
        var fields = candidate(person, in: book).object ?? [:]
        fields["status"] = .string(status)
        console.printJSON(.object(fields))
    }

    private static func candidate(_ person: Person, in book: AddressBook) -> JSONValue {
        var fields: [String: JSONValue] = ["id": .number(JSONNumber(Int(person.recordID.rawValue)))]
        if let reference = book.reference(to: person) { fields["ref"] = .string(reference.description) }
        if let name = person.compositeName { fields["compositeName"] = .string(name) }
        return .object(fields)
    }
}
