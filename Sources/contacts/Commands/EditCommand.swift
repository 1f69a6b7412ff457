import Foundation
import PlainContacts
import PlainContactsSystem

/// `contacts edit ID`: edits a person's JSON in the user's editor.
enum EditCommand: Command {
    static let name = "edit"
    static let positionals: Positionals = [.one("ID")]
    static let summary = "Edit a person's properties as JSON in $VISUAL, else $EDITOR, else vi."
    static let discussion = """
        The editor opens the person's editable properties as the record file holds them (without
        the store's bookkeeping: id, nameHash, nextValueID, created, modified). Change values, add
        or delete keys (a deleted key removes the property), add multi-value entries without an
        "id". Closing the editor without changes saves nothing.

        When the JSON or a value is wrong, the error is shown; on a terminal you are asked to edit
        again, otherwise (or when you decline) the exit status is 65 and your text is kept in its
        temporary file, whose path is printed.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let id = arguments.positionals[0]
        let book = try context.openBook()
        let person = try PersonLookup.person(id: id, in: book)
        let original = person.editableJSON
        let originalBytes = CanonicalJSON.encode(original)
        let file = try TemporaryFile.create(
            prefix: "contacts-\(person.recordID)-", suffix: ".json", contents: originalBytes,
            environment: context.environment)
        let terminal = context.standardInputIsTerminal ? TerminalDevice.open() : nil
        let kept = "your text is kept in \(file.path)"

        while true {
            let status = Subprocess.run(editorCommand(context.environment) + [file.path])
            guard status == 0 else {
                throw CLIError.failure(
                    "the editor " + (status.map { "exited with status \($0)" } ?? "could not be started")
                        + "; nothing was saved, \(kept)")
            }
            let bytes = try file.read()
            do {
                let json = try JSONParser.parse(bytes, path: file.path)
                if bytes == originalBytes || json == original {
                    file.remove()
                    context.console.print("No changes.")
                    return
                }
                try person.replaceEditableProperties(with: json, path: file.path)
            } catch let error as ContactsError {
                context.console.error(error.description)
                if let terminal, terminal.confirm("Edit again? [Y/n] ", defaultAnswer: true) { continue }
                throw CLIError(status: .dataError, message: "nothing was saved; \(kept)")
            }
            guard book.hasUnsavedChanges else {
                file.remove()
                context.console.print("No changes.")
                return
            }
            do {
                try book.save()
            } catch {
                context.console.note("contacts: nothing was saved; \(kept)")
                throw error
            }
            file.remove()
            context.console.print("Saved person \(person.recordID).")
            return
        }
    }

    /// `sh -c '$EDITOR "$@"'`, as Git runs editors: the variable may hold arguments, and the
    /// file name is passed without quoting troubles.
    private static func editorCommand(_ environment: [String: String]) -> [String] {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        return ["/bin/sh", "-c", "\(editor) \"$@\"", editor]
    }
}
