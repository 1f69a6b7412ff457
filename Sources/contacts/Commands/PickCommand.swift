import Glibc
import PlainContacts

/// `contacts pick`: the people picker on the terminal.
enum PickCommand: Command {
    static let name = "pick"
    static let positionals = Positionals(expected: "options only")
    static let summary = "Choose a person on the terminal and print the record ID (or one of their values)."

    /// The options of `pick`.
    struct Options: OptionGroup {
        let query = Option<String>("query", "TEXT", help: "Start with this search text.")
        let property = Option<Property>(
            "property", "phone|email|address|url", help: "Then choose one of the person's values and print it.",
            completion: .words(Property.allCases.map(\.rawValue))
        ) { text throws(CLIError) in
            guard let property = Property(rawValue: text) else {
                throw CLIError.usage("--property is phone, email, address or url")
            }
            return property
        }
    }

    static let discussion = """
        Type to search by name, Up and Down to move, Enter or 1–9 to choose, Escape or Control-C to
        cancel (exit status 1). The picker draws on the terminal, so the result can be captured:
          ID=$(contacts pick)
        A person with a single value of --property is chosen without asking again.
        Needs a terminal: standard input must be one (exit status 64 otherwise).
        """

    /// The properties `--property` can name.
    enum Property: String, CaseIterable {
        case phone, email, address, url

        var plural: String {
            switch self {
            case .phone: "phone numbers"
            case .email: "email addresses"
            case .address: "postal addresses"
            case .url: "web addresses"
            }
        }

        func values(of person: Person) -> [(label: Label?, text: String)] {
            switch self {
            case .phone: person.phones.map { ($0.label, $0.value) }
            case .email: person.emails.map { ($0.label, $0.value) }
            case .url: person.urls.map { ($0.label, $0.value) }
            case .address: person.addresses.map { ($0.label, $0.value.formattedLines.joined(separator: ", ")) }
            }
        }
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let property = try arguments[\.property]
        guard context.standardInputIsTerminal, let terminal = TerminalDevice.open() else {
            throw CLIError.usage("`contacts pick` needs a terminal; use `contacts search` in scripts")
        }
        let book = try context.openBook()
        func people(_ query: String) -> [Person] {
            query.trimmingWhitespace.isEmpty ? book.allPeople(sortedBy: nil) : book.people(matchingName: query)
        }
        let picker = ListPicker(
            terminal: terminal,
            heading: "Choose a person — type to search, ↑/↓ to move, Enter or 1–9 to choose, Esc to cancel",
            isFilterable: true,
            items: { query in
                people(query).map { person in
                    let detail = property.flatMap { $0.values(of: person).first?.text }
                        ?? person.phones.values.first ?? person.emails.values.first ?? ""
                    return ListPicker.Item(title: person.compositeName ?? "(no name)", detail: detail)
                }
            })
        guard let choice = picker.run(query: arguments[\.query] ?? "") else {
            throw CLIError(status: .failure, message: "")
        }
        let person = people(choice.query)[choice.index]
        guard let property else {
            context.console.print(person.recordID.description)
            return
        }
        let values = property.values(of: person)
        switch values.count {
        case 0:
            throw CLIError.failure("person \(person.recordID) has no \(property.plural)")
        case 1:
            context.console.print(values[0].text)
        default:
            let valuePicker = ListPicker(
                terminal: terminal,
                heading: "Choose one of the \(property.plural) of \(person.compositeName ?? "this person") — Enter or 1–9, Esc to cancel",
                isFilterable: false,
                items: { _ in values.map { ListPicker.Item(title: $0.label?.localizedName ?? "", detail: $0.text) } })
            guard let valueChoice = valuePicker.run() else {
                throw CLIError(status: .failure, message: "")
            }
            context.console.print(values[valueChoice.index].text)
        }
    }
}
