import PlainContacts

/// `contacts new`: the new-person view on the terminal, field by field.
enum NewCommand: Command {
    static let name = "new"
    static let positionals = Positionals(expected: "options only")
    static let summary = "Add a person by answering questions on the terminal; prints the new record ID."

    /// The options of `new`.
    struct Options: OptionGroup {
        let group = RepeatableOption<String>("group", "GROUP", help: "Also add the person to this group (ID or name).")
    }

    /// The text properties asked for before the phones, emails and birthday, and after them.
    static let askedFirst: [PropertyID] = [.firstName, .lastName, .organization, .jobTitle]
    static let askedLast: [PropertyID] = [.note]

    static let discussion = """
        Leave a field empty to skip it; phones and emails are asked for until an empty line, each
        as [LABEL:]VALUE (mobile:+1 555 0100). A summary is shown before saving. Control-D
        cancels. Needs a terminal: standard input must be one (exit status 64 otherwise); in
        scripts use `contacts add`.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        guard context.standardInputIsTerminal, let terminal = TerminalDevice.open() else {
            throw CLIError.usage("`contacts new` needs a terminal; use `contacts add` in scripts")
        }
        let book = try context.openBook()
        let groups = try GroupLookup.groups(arguments[\.group], in: book)
        let cancelled = CLIError.failure("cancelled; nothing was saved")

        terminal.write(
            "New person — leave a field empty to skip it, Control-D to cancel.\n"
                + "Phones and emails may start with a label: mobile:+1 555 0100, work:kim@example.com.\n")
        let person = Person()
        func ask(_ prompt: String) throws(CLIError) -> String {
            guard let line = terminal.readLine(prompt: prompt) else { throw cancelled }
            return line.trimmingWhitespace
        }
        for property in askedFirst { try person.setValue(.string(try ask(prompt(property))), for: property) }
        person.phones = try askMany("Phone", ask)
        person.emails = try askMany("Email", ask)
        while true {
            let text = try ask("Birthday (YYYY-MM-DD or --MM-DD): ")
            if text.isEmpty { break }
            if let birthday = try? ContactDate(parsing: text) {
                person.birthday = birthday
                break
            }
            terminal.write("That is not a date; write it like 1990-04-12, or --04-12 without a year.\n")
        }
        for property in askedLast { try person.setValue(.string(try ask(prompt(property))), for: property) }

        guard !person.holdsNoValue else {
            throw CLIError.failure("nothing was entered; nothing was saved")
        }
        let summary = PersonText.text(person, in: book, groupNames: groups.compactMap(\.name))
        terminal.write("\n" + summary + "\n\n")
        guard terminal.confirm("Save? [Y/n] ", defaultAnswer: true) else { throw cancelled }

        try book.add(person)
        try book.save()
        for group in groups { try group.addMember(person) }
        try book.save()
        context.console.print(person.recordID.description)
    }

    /// The prompt for a text property: its name, capitalized, and a colon (`Job title: `).
    private static func prompt(_ property: PropertyID) -> String {
        property.localizedName.prefix(1).uppercased() + property.localizedName.dropFirst() + ": "
    }

    /// Asks for `field` until an empty answer.
    private static func askMany(
        _ field: String, _ ask: (String) throws(CLIError) -> String
    ) throws(CLIError) -> MultiValue<String> {
        var values = MultiValue<String>()
        while true {
            let answer = try ask(values.isEmpty ? "\(field): " : "Another \(field.lowercased()): ")
            if answer.isEmpty { return values }
            let labeled = LabeledValue(parsing: answer)
            if !labeled.value.isEmpty { values.add(labeled.value, label: labeled.label) }
        }
    }
}
