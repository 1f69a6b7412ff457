import PlainContacts

/// Finds the group a command names by record ID or exact name.
enum GroupLookup {
    /// The group whose ID is `text`, or else whose name is exactly `text`.
    ///
    /// - Throws: exit status 66 when there is no such group; a usage error listing the IDs
    ///   when several groups have that name.
    static func group(_ text: String, in book: AddressBook) throws(CLIError) -> Group {
        if let value = Int32(text), value > 0, let group = book.group(withID: RecordID(value)) {
            return group
        }
        let named = book.groups(named: text)
        switch named.count {
        case 0:
            throw CLIError.noInput("no group has the ID or name \"\(text)\"; see `contacts group list`")
        case 1:
            return named[0]
        default:
            throw CLIError(
                status: .usage,
                message: "several groups are named \"\(text)\"; use one of their IDs: "
                    + named.map { $0.recordID.description }.joined(separator: ", "))
        }
    }

    /// The groups named by `texts`, in order.
    static func groups(_ texts: [String], in book: AddressBook) throws(CLIError) -> [Group] {
        var groups: [Group] = []
        for text in texts {
            let group = try group(text, in: book)
            if !groups.contains(where: { $0 === group }) { groups.append(group) }
        }
        return groups
    }
}
