import PlainContacts
import PlainContactsSystem

/// `contacts email [QUERY...]`: email addresses for a mail client's address query.
enum EmailCommand: Command {
    static let name = "email"
    static let positionals = Positionals(.zeroOrMore("QUERY"))
    static let summary = "List email addresses matching a name or address, for a mail client's address query."

    /// The options of `email`.
    struct Options: OptionGroup {
        let noHeader = Flag("no-header", help: "Leave out the status line (for aerc and alot).")
        let json = SharedOptions.json
    }

    static let discussion = """
        Prints a status line (Searching N people... M matching addresses), then one line per
        address: ADDRESS, tab, NAME, tab, LABEL (work, home, a custom label, or empty). This is
        the query protocol of mutt and neomutt; --no-header leaves out the status line. With
        --json, prints [{"address", "name", "label", "id"}].

        An address matches when every word of the query begins a word of the person's names
        (first, middle, last, prefix, suffix, phonetic names, nickname, organization), as with
        `contacts search`, or appears anywhere in the address; case, accents and character
        width are ignored. Several words are one query; no query lists every address. Best
        matches come first: whole words of the name, or an address beginning with the query;
        then beginnings of name words; then addresses that only contain the query. Within each,
        the store's sort order, and a person's addresses in their order.

        Exit status: 0 when an address matched; 1 when none did (only the status line is
        printed, nothing with --no-header, [] with --json).

        In mutt or neomutt (muttrc):
          set query_command = "contacts email '%s'"
          bind editor <Tab> complete-query
        In aerc (aerc.conf, [compose]):
          address-book-cmd = contacts email --no-header %s
        In alot (config, in the account's section; alot takes exit status 1 for an error):
          [[[abook]]]
            type = shellcommand
            command = sh -c 'contacts email --no-header "$@"; test $? -le 1' contacts
            regexp = '^(?P<email>[^\\t]+)\\t(?P<name>[^\\t]*)'
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let book = try context.openBook()
        // Answered from the index: no person's file is read.
        try book.validate()
        let found = book.emailAddresses(matching: arguments.positionals.joined(separator: " "))
        if arguments[\.json] {
            context.console.printJSON(.array(found.map(json)))
        } else {
            var lines = found.map(line)
            if !arguments[\.noHeader] {
                let matching = found.isEmpty ? "no matching addresses"
                    : found.count == 1 ? "1 matching address" : "\(found.count) matching addresses"
                let people = book.personCount == 1 ? "1 person" : "\(book.personCount) people"
                lines.insert("Searching \(people)... \(matching)", at: 0)
            }
            context.console.print(lines: lines)
        }
        // mutt takes a failing query for "nothing found" and shows the status line.
        if found.isEmpty {
            throw CLIError(status: .failure, message: "")
        }
    }

    /// One address as mutt reads it: address, tab, name, tab, label, each without the tabs
    /// and line breaks that would split the line.
    static func line(_ email: EmailAddressListing) -> String {
        [email.address, email.compositeName ?? "", email.label?.localizedName ?? ""].map(oneField).joined(separator: "\t")
    }

    /// `text` with its tabs and line breaks made spaces (most text has none, and is kept as is).
    private static func oneField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 >= 0xC2 }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    /// One address as `--json` prints it.
    static func json(_ email: EmailAddressListing) -> JSONValue {
        .object([
            "address": .string(email.address),
            "name": email.compositeName.map(JSONValue.string) ?? .null,
            "label": email.label.map { .string($0.rawValue) } ?? .null,
            "id": .number(JSONNumber(Int(email.recordID.rawValue))),
        ])
    }
}
