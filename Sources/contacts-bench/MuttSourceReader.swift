import Foundation

/// Reads the fields of a mutt or neomutt alias file for the import fidelity measure.
///
/// An `alias` of one address is a person: the alias key (a nickname), the name and the
/// address, each `-group` it joins, and the comment after `#` (a note). An alias of several
/// addresses, of other aliases' keys, or of an RFC 5322 group is a group: its key and group
/// name, and each member (an alias key stands for that alias's address). Lines ending in `\`
/// continue on the next; other commands (`set`, `source`, `unalias`) are not contacts.
///
/// ```swift
/// let records = MuttSourceReader.records("alias kb Katie Bell <k@x.example>\n")
/// records[0].fields.map(\.kind)   // [.nickname, .displayName, .email]
/// ```
enum MuttSourceReader {
    /// The records of `text`.
    static func records(_ text: String) -> [SourceRecord] {
        let aliases = logicalLines(text).compactMap(alias)
        let addresses = Dictionary(
            aliases.compactMap { alias in
                alias.list.mailboxes.count == 1 && alias.list.groupName == nil
                    ? alias.list.mailboxes[0].address.map { (alias.key.lowercased(), $0) } : nil
            },
            uniquingKeysWith: { first, _ in first })
        return aliases.map { record(of: $0, addresses: addresses) }
    }

    /// One `alias` command.
    struct Alias {
        /// The line the command starts on.
        var line: Int
        /// The alias key.
        var key: String
        /// The names of its `-group` options.
        var groups: [String]
        /// Its addresses.
        var list: MailboxText
        /// The text after `#`, if any.
        var comment: String?
    }

    /// The lines of `text` with `\`-continued lines joined, each with the line it starts on.
    static func logicalLines(_ text: String) -> [(line: Int, text: String)] {
        var result: [(line: Int, text: String)] = []
        var pending: (line: Int, text: String)?
        for (number, line) in SourceText.lines(text) {
            var joined = pending.map { ($0.line, $0.text + line) } ?? (number, line)
            if joined.1.hasSuffix("\\") {
                joined.1.removeLast()
                pending = joined
            } else {
                result.append(joined)
                pending = nil
            }
        }
        if let pending { result.append(pending) }
        return result
    }

    /// The alias a line defines, `nil` for any other command.
    private static func alias(_ line: (line: Int, text: String)) -> Alias? {
        var words = line.text.trimmingCharacters(in: .whitespaces)[...]
        guard next(&words) == "alias" else { return nil }
        var groups: [String] = []
        var key = next(&words)
        while key == "-group" {
            groups.append(next(&words))
            key = next(&words)
        }
        var body = String(words)
        var comment: String?
        if let hash = commentStart(body) {
            comment = String(body[body.index(after: hash)...]).trimmingCharacters(in: .whitespaces)
            body = String(body[..<hash])
        }
        return Alias(line: line.line, key: key, groups: groups, list: MailboxText.parse(body), comment: comment)
    }

    /// The next word, quotes removed, and the text after it.
    static func next(_ text: inout Substring) -> String {
        text = text.drop(while: \.isWhitespace)
        if text.hasPrefix("\""), let close = text.dropFirst().firstIndex(of: "\"") {
            let word = text[text.index(after: text.startIndex)..<close]
            text = text[text.index(after: close)...]
            return String(word)
        }
        let word = text.prefix { !$0.isWhitespace }
        text = text.dropFirst(word.count)
        return String(word)
    }

    /// Where a `#` comment starts: outside quotes, after white space.
    private static func commentStart(_ text: String) -> String.Index? {
        var quoted = false
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if character == "#", !quoted, previous.isWhitespace { return index }
            previous = character
        }
        return nil
    }

    /// The record of an alias: a person, or a group whose members' keys are looked up in
    /// `addresses` (alias key, lowercased, to its one address).
    private static func record(of alias: Alias, addresses: [String: String]) -> SourceRecord {
        let mailboxes = alias.list.mailboxes
        let isGroup = mailboxes.count != 1 || alias.list.groupName != nil || mailboxes.contains { $0.address == nil }
        var record = SourceRecord(line: alias.line, groupName: isGroup ? alias.key : nil)
        if isGroup {
            record.add("key", alias.key, kind: .groupName)
            if let name = alias.list.groupName { record.add("group name", name, kind: .groupName) }
            for mailbox in mailboxes {
                let member = mailbox.address ?? mailbox.alias.flatMap { addresses[$0.lowercased()] } ?? mailbox.alias ?? ""
                record.add("member", member, kind: .member)
            }
            for group in alias.groups { record.add("-group", group, kind: .other) }
            if let comment = alias.comment { record.add("comment", comment, kind: .other) }
            return record
        }
        record.add("key", alias.key, kind: .nickname)
        if let name = mailboxes[0].name { record.add("name", name, kind: .displayName) }
        if let address = mailboxes[0].address { record.add("address", address, kind: .email) }
        for group in alias.groups { record.add("-group", group, kind: .group) }
        if let comment = alias.comment { record.add("comment", comment, kind: .note) }
        return record
    }
}
