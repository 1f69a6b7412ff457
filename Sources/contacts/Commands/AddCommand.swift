import PlainContacts

/// `contacts add [NAME] --first … --phone …`: adds a person and prints the new record ID.
enum AddCommand: Command {
    static let name = "add"
    static let synopsis = "[NAME] [--first NAME] [--last NAME] [--phone [LABEL:]NUMBER]... [options]"
    static let summary = "Add a person and print the new record ID."
    static let options: [OptionSpec] = [
        .value("first", "NAME", help: "First name."),
        .value("last", "NAME", help: "Last name."),
        .value("middle", "NAME", help: "Middle name."),
        .value("prefix", "TEXT", help: "Prefix, such as Dr."),
        .value("suffix", "TEXT", help: "Suffix, such as Jr."),
        .value("nickname", "NAME", help: "Nickname."),
        .value("org", "NAME", help: "Organization."),
        .value("department", "NAME", help: "Department."),
        .value("title", "TEXT", help: "Job title."),
        .value("note", "TEXT", help: "Note."),
        .value("birthday", "DATE", help: "Birthday, YYYY-MM-DD or --MM-DD without a year."),
        .value("kind", "person|organization", help: "Person (default) or organization.", completion: .words(["person", "organization"])),
        .value("phone", "[LABEL:]NUMBER", help: "A phone number (repeatable).", repeatable: true),
        .value("email", "[LABEL:]ADDRESS", help: "An email address (repeatable).", repeatable: true),
        .value("url", "[LABEL:]URL", help: "A web address (repeatable).", repeatable: true),
        .value("address", "[LABEL:]STREET;CITY;STATE;ZIP;COUNTRY", help: "A postal address (repeatable).", repeatable: true),
        .value("group", "GROUP", help: "Add the person to this group, by ID or name (repeatable).", repeatable: true),
        .flag("create-group", help: "Create the --group groups that do not exist yet."),
    ]
    static let discussion = """
        NAME is the whole name as it is written, split the way a vCard's FN is: "Ada Lovelace",
        "Lovelace, Ada", "Dr. Ada King Lovelace", "Ludwig van Beethoven" and "山田 太郎" all find
        their first and last names (and prefix, middle name and suffix). Its words may also be
        given unquoted. --first, --last and the other name options override the parts it gives;
        with --kind organization and no --org, NAME is the organization's name.

        LABEL is a predefined label (mobile, iPhone, main, home, work, other, homeFax, workFax,
        otherFax, pager, homePage…) or a custom word without spaces or digits. Only the part before
        the first ':' can be a label, and never a URL scheme: `--url https://example.com` has no
        label. Start with ':' to give a value that has a colon but no label: `--phone :ext:12`.
        """

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws {
        let words = try arguments.positionals(0...Int.max, "a name, then options")
        let person = try makePerson(arguments, name: words.joined(separator: " "))
        guard !person.state.values.isEmpty else {
            throw CLIError.usage("give at least one value, such as --first or --org")
        }
        let book = try context.openBook()
        var groups: [Group] = []
        for text in arguments.values("group") {
            if let group = try existingGroup(text, in: book, creatingMissing: arguments.flag("create-group")) {
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
    static func makePerson(_ arguments: ParsedArguments, name: String) throws -> Person {
        let person = Person()
        let isOrganization = arguments.value("kind") == PersonKind.organization.rawValue
        let written = isOrganization && arguments.value("org") == nil ? FormattedName("") : FormattedName(name)
        person.firstName = arguments.value("first") ?? written.first
        person.lastName = arguments.value("last") ?? written.last
        person.middleName = arguments.value("middle") ?? written.middle
        person.prefix = arguments.value("prefix") ?? written.prefix
        person.suffix = arguments.value("suffix") ?? written.suffix
        person.nickname = arguments.value("nickname")
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        person.organization = arguments.value("org") ?? (isOrganization && !trimmed.isEmpty ? trimmed : nil)
        person.department = arguments.value("department")
        person.jobTitle = arguments.value("title")
        person.note = arguments.value("note")
        if let text = arguments.value("birthday") {
            guard let birthday = try? ContactDate(parsing: text) else {
                throw CLIError.usage("--birthday takes a date written YYYY-MM-DD, or --MM-DD without a year")
            }
            person.birthday = birthday
        }
        if let text = arguments.value("kind") {
            guard let kind = PersonKind(rawValue: text) else {
                throw CLIError.usage("--kind is person or organization")
            }
            person.kind = kind
        }
        person.phones = try multiValue(arguments.values("phone"), option: "phone")
        person.emails = try multiValue(arguments.values("email"), option: "email")
        person.urls = try multiValue(arguments.values("url"), option: "url")
        var addresses = MultiValue<PostalAddress>()
        for text in arguments.values("address") {
            let parsed = try AddressArgument.parse(text)
            addresses.add(parsed.address, label: parsed.label)
        }
        person.addresses = addresses
        return person
    }

    private static func multiValue(_ texts: [String], option: String) throws(CLIError) -> MultiValue<String> {
        var values = MultiValue<String>()
        for text in texts {
            let labeled = LabeledValue(parsing: text)
            guard !labeled.value.isEmpty else { throw CLIError.usage("--\(option) needs a value after the label") }
            values.add(labeled.value, label: labeled.label)
        }
        return values
    }
}
