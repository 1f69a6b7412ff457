import PlainContacts
import PlainContactsSystem

/// `contacts group list`: every group with its member count.
enum GroupListCommand: Command {
    static let name = "list"
    static let summary = "List groups: ID, name and number of members, one per line."

    /// The options of `group list`.
    struct Options: OptionGroup {
        let json = SharedOptions.json
    }

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        let book = try context.openBook()
        let groups = book.allGroups()
        if arguments[\.json] {
            context.console.printJSON(.array(groups.map { group in
                var fields: [String: JSONValue] = [
                    "id": .number(JSONNumber(Int(group.recordID.rawValue))),
                    "memberCount": .number(JSONNumber(group.members().count)),
                ]
                if let name = group.name { fields["name"] = .string(name) }
                // What an import had no place for, as `show --json` lists a person's.
                let kept = VCardRecordFields.lines(of: group.state)
                if !kept.isEmpty { fields["keptLines"] = .array(kept.map(JSONValue.string)) }
                return .object(fields)
            }))
        } else {
            context.console.print(lines: groups.map { "\($0.recordID)\t\($0.name ?? "")\t\($0.members().count)" })
        }
    }
}
