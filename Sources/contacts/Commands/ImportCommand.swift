import Foundation
import PlainContacts
import PlainContactsSystem

/// `contacts import PATH... [--format F] [--on-match merge|new|skip|ask]`: adds the people and
/// groups of vCard, CSV, LDIF, abook and mutt alias files, and of folders of vCards, to the
/// store in one save.
enum ImportCommand: Command {
    static let name = "import"
    static let positionals = Positionals(.oneOrMore("PATH"), expected: "PATH... (a file, a folder, or - for standard input)")
    static let summary = "Import people and groups from vCard, CSV, LDIF, abook or mutt files and vCard folders in one save."

    /// The options of `import`.
    struct Options: OptionGroup {
        /// The policy for a card that matches a person, and whether to ask instead.
        let onMatch = Option<(policy: VCardMatchPolicy, asks: Bool)>(
            "on-match", "merge|new|skip|ask", help: "What to do with a card that matches a person (default merge).",
            completion: .words(["merge", "new", "skip", "ask"])
        ) { text throws(CLIError) in
            switch text {
            case "merge": return (.merge, false)
            case "new": return (.createNew, false)
            case "skip": return (.skip, false)
            case "ask": return (.merge, true)
            default: throw CLIError.usage("--on-match is merge, new, skip or ask")
            }
        }
        let skipInvalid = Flag(
            "skip-invalid", help: "Leave out malformed cards, listing them on standard error, instead of failing.")
        let strict = Flag(
            "strict", help: "Refuse the input at the first problem instead of recovering from it with a warning.")
        let json = SharedOptions.json
        /// The format of every input, instead of finding it from the content.
        let format = Option<ContactFileFormat>(
            "format", "vcard|csv|ldif|abook|mutt|eudora", help: "Read every input as this format instead of telling it from the content.",
            completion: .words(ContactFileFormat.allCases.map(\.rawValue))
        ) { text throws(CLIError) in
            guard let format = ContactFileFormat(rawValue: text) else {
                throw CLIError.usage("--format is vcard, csv, ldif, abook or mutt")
            }
            return format
        }
    }

    static let discussion = """
        Each PATH is a file, - for standard input, or a folder: every *.vcf and *.vcard file
        under it, in its subfolders too, leaving out folders whose names begin with a dot (a
        khard or vdirsyncer folder, a Radicale collection, a phone backup). The format of each
        file is found from its content, the file name only settling what the content leaves
        open; --format names it instead: vcard, csv (Google Contacts, Outlook and Outlook.com in
        English, German, French, Spanish, Italian, Dutch or Japanese, Thunderbird, Yahoo,
        LinkedIn, or any sheet with recognisable headers such as Name,Email,Phone), ldif
        (Thunderbird and other mail clients), abook (~/.abook/addressbook) or mutt (alias
        files). Text may be UTF-8, UTF-16 or, with a warning saying so, Windows-1252 or
        Shift_JIS. A column or attribute with no place in the store stays with the person
        (X-IMPORTED-FIELD, shown by show --json and exported back); labels are kept.

        vCard 2.1, 3.0 and 4.0 are read. A card matches a person with the same UID (one imported
        or exported before) or else with the same first and last name. merge fills in the
        person's values and adds the card's phones, emails and groups; new adds the card as
        another person, but a card with a known UID is still merged; skip leaves the person as it
        is; ask shows each matching card on the terminal and asks what to do. CATEGORIES become
        group memberships; missing groups are created.

        The reader recovers from what phones and mail clients get wrong: a card without
        END:VCARD, lines without ':' or with odd property names (kept as written and exported
        back), comment and blank lines, UTF-16 files, text not valid in its charset (read as the
        likeliest one), broken quoted-printable and base64. Each recovery is a warning,
        FILE:LINE: what was done, on standard error. With --strict any such problem refuses the
        whole input instead (exit status 65, naming the file and line). An input that holds no
        card at all is always refused.

        All the inputs are imported in one save: when a card is malformed (without
        --skip-invalid) or the import fails, nothing is written. A single file is read a piece
        at a time; several inputs, and standard input, are read into memory first. Errors and
        malformed cards are reported as FILE:LINE: message, the line being the one in that input.

        Prints `imported N people (A added, U updated, S skipped)` and the groups created; with
        --json an object with the IDs "added", "updated" and "skipped", the "invalid" cards
        (file, line, message), the "warnings" (file, line, message) and the names in
        "groupsCreated". With --skip-invalid the exit status is 65 when cards were malformed and
        nothing was imported. --on-match ask needs a terminal: standard input must be one, or be
        the input (-).
        """

    /// The name errors give standard input.
    static let standardInputName = "(standard input)"

    static let examples = [
        CommandExample("Import a phone's export, merging cards that match people already in the store:", "contacts import contacts.vcf"),
        CommandExample("Import a folder of vCards as new people, and a mutt alias file:", "contacts import --on-match new cards/", "contacts import --format mutt ~/.mutt/aliases"),
    ]

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let names = arguments.positionals
        guard names.filter({ $0 == "-" }).count <= 1 else {
            throw CLIError.usage("standard input (-) can be read only once")
        }
        let (policy, asks) = try arguments[\.onMatch] ?? (.merge, false)
        var terminal: TerminalDevice?
        if asks {
            guard context.standardInputIsTerminal || names.contains("-"), let device = TerminalDevice.open() else {
                throw CLIError.usage("--on-match ask needs a terminal; in scripts use merge, new or skip")
            }
            terminal = device
        }
        let files = try names.flatMap(expand)
        let options = VCardImportOptions(
            onMatch: policy, skipInvalid: arguments[\.skipInvalid], strict: arguments[\.strict])
        let format = try arguments[\.format]

        let single = try files.count == 1 && files[0] != "-" ? formatOf(files[0], forced: format) : nil
        let (report, invalidCards) =
            switch single {
            case .vcard?: try importFile(files[0], options: options, terminal: terminal, context: context)
            case let other?: try importConverted(files[0], format: other, options: options, terminal: terminal, context: context)
            case nil: try importJoined(files, format: format, options: options, terminal: terminal, context: context)
            }

        for error in invalidCards { context.console.note(error.description) }
        for warning in report.warnings { context.console.note(warning.description) }
        if arguments[\.json] {
            context.console.printJSON(json(report, invalidCards: invalidCards))
        } else {
            context.console.print(summary(report, invalidCards: invalidCards))
        }
        if let error = report.membershipError { throw error }
        if !invalidCards.isEmpty, report.added.isEmpty, report.updated.isEmpty, report.groupsCreated.isEmpty {
            throw CLIError(status: .dataError, message: "no card could be imported")
        }
    }

    /// Imports one file, read a piece at a time; errors name the file as it was given.
    private static func importFile(
        _ name: String, options: VCardImportOptions, terminal: TerminalDevice?, context: CommandContext
    ) throws -> (VCardImportReport, invalidCards: [InterchangeError]) {
        let url = URL(filePath: name)
        let book = try context.openBook()
        func named<Domain>(_ error: PlainContactsError<Domain>) -> PlainContactsError<Domain> {
            guard error.path == url.path else { return error }
            var renamed = error
            renamed.path = name
            return renamed
        }
        let decide = terminal.map { terminal in
            { (match: VCardMatch) throws -> VCardMatchDecision in
                try ask(match, at: "\(name):\(match.line)", in: book, terminal: terminal)
            }
        }
        do {
            var report = try book.importVCards(contentsOf: url, options: options, decide: decide)
            report.warnings = report.warnings.map(named)
            return (report, report.invalidCards.map(named))
        } catch let error as InterchangeError {
            throw named(error)
        } catch let error as ContactsError {
            throw named(error)
        }
    }

    /// Imports one file in another format, converted to cards in memory; warnings and errors
    /// name the file and its own lines.
    private static func importConverted(
        _ name: String, format: ContactFileFormat, options: VCardImportOptions, terminal: TerminalDevice?,
        context: CommandContext
    ) throws -> (VCardImportReport, invalidCards: [InterchangeError]) {
        let input = try readInput(name)
        let book = try context.openBook()
        let decide = terminal.map { terminal in
            { (match: VCardMatch) throws -> VCardMatchDecision in
                try ask(match, at: "\(name):\(match.line)", in: book, terminal: terminal)
            }
        }
        let report = try book.importContacts(
            from: input.data, source: name, format: format, options: options, decide: decide)
        return (report, report.invalidCards)
    }

    /// Imports several inputs, or standard input, read into memory and imported together;
    /// errors name the input and the line in it.
    private static func importJoined(
        _ names: [String], format: ContactFileFormat?, options: VCardImportOptions, terminal: TerminalDevice?,
        context: CommandContext
    ) throws -> (VCardImportReport, invalidCards: [InterchangeError]) {
        let inputs = try names.map(readInput)
        let book = try context.openBook()
        let decide = terminal.map { terminal in
            { (match: VCardMatch) throws -> VCardMatchDecision in
                try ask(match, at: "\(match.source):\(match.line)", in: book, terminal: terminal)
            }
        }
        let report = try book.importContacts(from: inputs, format: format, options: options, decide: decide)
        return (report, report.invalidCards)
    }

    /// The files a PATH stands for: itself, or for a folder its vCard files (see
    /// ``VCardFolder``), checked to be readable before anything is imported.
    private static func expand(_ path: String) throws(CLIError) -> [String] {
        guard path != "-" else { return [path] }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CLIError.noInput("\(path): no such file or folder")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CLIError.noInput("\(path): permission denied")
        }
        guard isFolder.boolValue else { return [path] }
        let files = try VCardFolder.files(in: path)
        guard !files.isEmpty else {
            throw CLIError.noInput("\(path) is a folder without .vcf or .vcard files; name the file to import")
        }
        return files
    }

    /// The format of a file: `forced`, else what its first bytes and name say.
    private static func formatOf(_ name: String, forced: ContactFileFormat?) throws(CLIError) -> ContactFileFormat {
        if let forced { return forced }
        guard let handle = FileHandle(forReadingAtPath: name) else { throw CLIError.noInput("cannot read \(name)") }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64 * 1024)) ?? Data()
        return detected(head, name: name)
    }

    /// The format the content (and the name) of an input says; vCard when neither tells, so
    /// that the vCard reader names the first line it cannot read.
    private static func detected(_ bytes: Data, name: String) -> ContactFileFormat {
        ContactFileFormat.detect(bytes, fileName: name == standardInputName ? nil : name) ?? .vcard
    }

    /// The bytes of a file, or of standard input for `-`.
    private static func readInput(_ name: String) throws(CLIError) -> ContactInput {
        if name == "-" {
            do {
                return ContactInput(name: standardInputName, data: try FileHandle.standardInput.readToEnd() ?? Data())
            } catch {
                throw CLIError.failure("cannot read standard input (\(error))")
            }
        }
        guard let data = FileManager.default.contents(atPath: name) else {
            throw CLIError.noInput("cannot read \(name)")
        }
        return ContactInput(name: name, data: data)
    }

    // MARK: Asking

    /// Shows a card that matches a person and asks what to do with it.
    ///
    /// - Throws: exit status 1 when the user ends the input (Control-D): the import stops and
    ///   nothing is written.
    private static func ask(
        _ match: VCardMatch, at location: String, in book: AddressBook, terminal: TerminalDevice
    ) throws(CLIError) -> VCardMatchDecision {
        let reason = match.matchedBy == .uid ? "the same UID" : "the same name"
        let existing = match.existingRecordID.isValid
            ? "person \(match.existingRecordID), \(match.existingName ?? "(no name)")"
            : "\(match.existingName ?? "a person") from an earlier card of this import"
        let card = PersonText.text(match.card, in: book, groupNames: [])
        terminal.write(printable("\n\(location)\n\(card)\n\nThis card has \(reason) as \(existing).\n"))
        while true {
            guard let answer = terminal.readLine(prompt: "[m]erge into it, [n]ew contact, [s]kip? ") else {
                throw CLIError.failure("cancelled; nothing was imported")
            }
            switch answer.trimmingWhitespace.lowercased() {
            case "m", "merge": return .merge
            case "n", "new": return .createNew
            case "s", "skip": return .skip
            default: terminal.write("Answer m, n or s.\n")
            }
        }
    }

    /// `text` with control characters other than line breaks shown as spaces, so that a card
    /// cannot move the cursor or change the terminal.
    private static func printable(_ text: String) -> String {
        String(text.map { character in
            character != "\n" && character.unicodeScalars.contains { $0.properties.generalCategory == .control }
                ? " " : character
        })
    }

    // MARK: Output

    private static func summary(_ report: VCardImportReport, invalidCards: [InterchangeError]) -> String {
        let imported = report.added.count + report.updated.count
        var text = "imported \(count(imported, "person", "people")) (\(report.added.count) added, "
            + "\(report.updated.count) updated, \(report.skipped.count) skipped)"
        if !report.groupsCreated.isEmpty {
            text += "; \(count(report.groupsCreated.count, "group", "groups")) created"
        }
        if !invalidCards.isEmpty {
            text += "; \(count(invalidCards.count, "malformed card", "malformed cards")) left out"
        }
        for format in report.formatsRead { text += "; read \(format)" }
        return text
    }

    private static func count(_ number: Int, _ singular: String, _ plural: String) -> String {
        "\(number) \(number == 1 ? singular : plural)"
    }

    private static func json(_ report: VCardImportReport, invalidCards: [InterchangeError]) -> JSONValue {
        func ids(_ ids: [RecordID]) -> JSONValue {
            .array(ids.map { .number(JSONNumber(Int($0.rawValue))) })
        }
        func located(_ error: InterchangeError) -> JSONValue {
            var fields: [String: JSONValue] = ["message": .string(error.message)]
            if let path = error.path { fields["file"] = .string(path) }
            if let line = error.line { fields["line"] = .number(JSONNumber(line)) }
            return .object(fields)
        }
        return .object([
            "added": ids(report.added),
            "updated": ids(report.updated),
            "skipped": ids(report.skipped),
            "invalid": .array(invalidCards.map(located)),
            "warnings": .array(report.warnings.map(located)),
            "groupsCreated": .array(report.groupsCreated.map(JSONValue.string)),
            "formatsRead": .array(report.formatsRead.map(JSONValue.string)),
        ])
    }
}
