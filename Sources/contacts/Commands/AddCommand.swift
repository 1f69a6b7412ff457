import PlainContacts

/// `contacts add [NAME] --first … --phone …`: adds a person and prints the new record ID.
enum AddCommand: Command {
    static let name = "add"
    static let positionals = Positionals(
        .optionalWords("NAME", excludedOptions: ["first", "middle", "last"]), expected: "a name, then options")
    static let summary = "Add a person and print the new record ID."

    /// The options of `add`; `--kind` and `--birthday` are read as words, so that their
    /// errors come in the order `add` checks them.
    struct Options: OptionGroup {
        let first = Option<String>("first", "NAME", help: "First name.")
        let last = Option<String>("last", "NAME", help: "Last name.")
        let middle = Option<String>("middle", "NAME", help: "Middle name.")
        let prefix = Option<String>("prefix", "TEXT", help: "Prefix, such as Dr.")
        let suffix = Option<String>("suffix", "TEXT", help: "Suffix, such as Jr.")
        let nickname = Option<String>("nickname", "NAME", help: "Nickname.")
        let org = Option<String>("org", "NAME", help: "Organization.")
        let department = Option<String>("department", "NAME", help: "Department.")
        let title = Option<String>("title", "TEXT", help: "Job title.")
        let note = Option<String>("note", "TEXT", help: "Note.")
        let birthday = Option<String>("birthday", "DATE", help: "Birthday, YYYY-MM-DD or --MM-DD without a year.")
        let kind = Option<String>(
            "kind", "person|organization", help: "Person (default) or organization.",
            completion: .words(["person", "organization"]))
        let phone = RepeatableOption(labeled: "phone", "[LABEL:]NUMBER", help: "A phone number (repeatable).")
        let email = RepeatableOption(labeled: "email", "[LABEL:]ADDRESS", help: "An email address (repeatable).")
        let url = RepeatableOption(labeled: "url", "[LABEL:]URL", help: "A web address (repeatable).")
        let address = RepeatableOption<String>(
            "address", "[LABEL:]STREET;CITY;STATE;ZIP;COUNTRY", help: "A postal address (repeatable).")
        let group = RepeatableOption<String>(
            "group", "GROUP", help: "Add the person to this group, by ID or name (repeatable).")
        let createGroup = Flag("create-group", help: "Create the --group groups that do not exist yet.")
    }

    /// The text properties an option sets, in the order of the options.
    static var textOptions: [(property: PropertyID, option: KeyPath<Options, Option<String>>)] {
        [
            (.firstName, \.first), (.lastName, \.last), (.middleName, \.middle), (.prefix, \.prefix),
            (.suffix, \.suffix), (.nickname, \.nickname), (.organization, \.org), (.department, \.department),
            (.jobTitle, \.title), (.note, \.note),
        ]
    }

    static let discussion = """
        NAME is the whole name as it is written, split the way a vCard's FN is: "Ada Lovelace",
        "Lovelace, Ada", "Dr. Ada King Lovelace", "Ludwig van Beethoven" and "山田 太郎" all find
        their first and last names (and prefix, middle name and suffix). Its words may also be
        given unquoted, before the options: words after an option's value are refused, as the
        rest of a value the shell split (quote it: --phone "mobile:+44 20 7946 0000"). Give the
        name either as NAME or with --first, --middle and --last, not both; --prefix, --suffix
        and --nickname override the parts NAME gives. With --kind organization and no --org,
        NAME is the organization's name.

        LABEL is a predefined label (mobile, iPhone, main, home, work, other, homeFax, workFax,
        otherFax, pager, homePage…) or a custom word without spaces or digits. Only the part before
        the first ':' can be a label, and never a URL scheme: `--url https://example.com` has no
        label. Start with ':' to give a value that has a colon but no label: `--phone :ext:12`.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let words = arguments.positionals
        let person = try makePerson(arguments, name: words.joined(separator: " "))
        guard !person.holdsNoValue else {
            throw CLIError.usage("give at least one value, such as --first or --org")
        }
        let book = try context.openBook()
        var groups: [Group] = []
        for text in arguments[\.group] {
            if let group = try existingGroup(text, in: book, creatingMissing: arguments[\.createGroup]) {
                groups.append(group)
            } else if !groups.contains(where: { $0.name == text }) {
                let group = Group(name: text)
                try book.add(group)
                groups.append(group)
            }
        }
        try book.add(person)
        try book.save()
        for group in groups where !group.members().contains(where: { $0 === person }) {
            try group.addMember(person)
        }
        try book.save()
        context.console.print(person.recordID.description)
    }

    /// The group `text` names, or `nil` when there is none and `--create-group` was given.
    private static func existingGroup(_ text: String, in book: AddressBook, creatingMissing: Bool) throws(CLIError) -> Group? {
        do {
            return try GroupLookup.group(text, in: book)
        } catch {
            guard creatingMissing, error.status == .noInput else { throw error }
            return nil
        }
    }

    /// The person the options describe; `name`, the whole name as written, fills the name parts
    /// that no option gives.
    static func makePerson(_ arguments: ParsedArguments<Options>, name: String) throws -> Person {
        let person = Person()
        let isOrganization = arguments[\.kind] == PersonKind.organization.rawValue
        person.setName(written: isOrganization && arguments[\.org] == nil ? "" : name)
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if isOrganization, !trimmed.isEmpty { person.organization = trimmed }
        // The options override what NAME gives; an empty one removes it.
        for (property, option) in textOptions {
            if let text = arguments[option] { try person.setValue(.string(text), for: property) }
        }
        if let text = arguments[\.birthday] {
            guard let birthday = try? ContactDate(parsing: text) else {
                throw CLIError.usage("--birthday takes a date written YYYY-MM-DD, or --MM-DD without a year")
            }
            person.birthday = birthday
        }
        if let text = arguments[\.kind] {
            guard let kind = PersonKind(rawValue: text) else {
                throw CLIError.usage("--kind is person or organization")
            }
            person.kind = kind
        }
        person.phones = multiValue(try arguments[\.phone])
        person.emails = multiValue(try arguments[\.email])
        person.urls = multiValue(try arguments[\.url])
        var addresses = MultiValue<PostalAddress>()
        for text in arguments[\.address] {
            let parsed = try AddressArgument.parse(text)
            addresses.add(parsed.address, label: parsed.label)
        }
        person.addresses = addresses
        return person
    }

    private static func multiValue(_ labeledValues: [LabeledValue]) -> MultiValue<String> {
        var values = MultiValue<String>()
        for labeled in labeledValues { values.add(labeled.value, label: labeled.label) }
        return values
    }
}
