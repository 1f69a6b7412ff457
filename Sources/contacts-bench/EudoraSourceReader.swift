import Foundation

/// Reads the fields of a Eudora nicknames file (`NNdbase.txt`) for the import fidelity
/// measure: `alias NICK ADDRESSES` lines and `note NICK <tag:value>…free text` lines.
///
/// An alias of one address is a person: the nickname, the name and address, each tag of its
/// note with the kind and label of Eudora's address book (the untagged tags are the Home tab,
/// those ending in `2` the Work tab, `other…` the Other tab), and the note's free text. An
/// alias of several addresses or of other nicknames is a group of them. The byte 0x03 is a line
/// break inside a value.
///
/// ```swift
/// let records = EudoraSourceReader.records("alias kb k@x.example\nnote kb <phone:555 0100>\n")
/// records[0].fields.map(\.label?.name)   // [nil, nil, "home"]
/// ```
enum EudoraSourceReader {
    /// Eudora's tags: where a value goes and its label.
    static let tags: [String: (kind: FieldKind, label: ExpectedLabel?)] = [
        "name": (.displayName, nil), "first": (.givenName, nil), "last": (.familyName, nil),
        "address": (.address(.formatted), .home), "city": (.address(.city), .home), "state": (.address(.region), .home),
        "zip": (.address(.postcode), .home), "country": (.address(.country), .home), "phone": (.phone, .home),
        "fax": (.phone, .fax(.home)), "mobile": (.phone, .mobile), "web": (.url, .homePage),
        "address2": (.address(.formatted), .work), "city2": (.address(.city), .work),
        "state2": (.address(.region), .work), "zip2": (.address(.postcode), .work),
        "country2": (.address(.country), .work), "phone2": (.phone, .work), "fax2": (.phone, .fax(.work)),
        "mobile2": (.phone, .mobile), "web2": (.url, .work), "title": (.jobTitle, nil),
        "company": (.organization, nil), "organization": (.organization, nil), "otheremail": (.email, .other),
        "otherphone": (.phone, .other), "otherweb": (.url, .other),
    ]

    /// The records of `text`.
    static func records(_ text: String) -> [SourceRecord] {
        var aliases: [(line: Int, key: String, list: MailboxText)] = []
        var notes: [String: (line: Int, text: String)] = [:]
        for (number, line) in SourceText.lines(text) {
            var rest = line.trimmingCharacters(in: .whitespaces)[...]
            let verb = MuttSourceReader.next(&rest)
            let key = MuttSourceReader.next(&rest)
            guard !key.isEmpty else { continue }
            if verb == "alias" {
                aliases.append((number, key, MailboxText.parse(String(rest))))
            } else if verb == "note" {
                notes[key.lowercased()] = (number, String(rest).trimmingCharacters(in: .whitespaces))
            }
        }
        let addresses = Dictionary(
            aliases.compactMap { alias in
                alias.list.mailboxes.count == 1 ? alias.list.mailboxes[0].address.map { (alias.key.lowercased(), $0) } : nil
            },
            uniquingKeysWith: { first, _ in first })
        return aliases.map { alias in
            record(of: alias, note: notes[alias.key.lowercased()], addresses: addresses)
        }
    }

    /// The record of an alias and its note: a person, or a group whose members' nicknames are
    /// looked up in `addresses`.
    private static func record(
        of alias: (line: Int, key: String, list: MailboxText), note: (line: Int, text: String)?,
        addresses: [String: String]
    ) -> SourceRecord {
        let mailboxes = alias.list.mailboxes
        guard mailboxes.count == 1, let address = mailboxes[0].address else {
            var record = SourceRecord(line: alias.line, groupName: alias.key)
            record.add("alias", alias.key, kind: .groupName)
            for mailbox in mailboxes {
                let member = mailbox.address ?? mailbox.alias.flatMap { addresses[$0.lowercased()] } ?? mailbox.alias ?? ""
                record.add("member", member, kind: .member)
            }
            return record
        }
        var record = SourceRecord(line: alias.line)
        record.add("alias", alias.key, kind: .nickname)
        if let name = mailboxes[0].name { record.add("alias name", name, kind: .displayName) }
        record.add("alias address", address, kind: .email)
        guard let note else { return record }
        let (fields, freeText) = tagged(note.text)
        for (tag, value) in fields {
            if tag.lowercased() == "primary" {
                record.exclude(value.isEmpty ? .empty : .primaryMarker)
                continue
            }
            let known = tags[tag.lowercased()] ?? (.other, nil)
            record.add("<\(tag)>", value, kind: known.kind, label: known.label, line: note.line)
        }
        record.add("note text", freeText, kind: .note, line: note.line)
        return record
    }

    /// The `<tag:value>` fields of a note and the text outside them, 0x03 read as a line break.
    static func tagged(_ text: String) -> (fields: [(String, String)], freeText: String) {
        var fields: [(String, String)] = []
        var freeText = ""
        var rest = Substring(text.replacingOccurrences(of: "\u{03}", with: "\n"))
        while let open = rest.firstIndex(of: "<") {
            freeText += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">"),
                let colon = rest[open..<close].firstIndex(of: ":")
            else {
                freeText += rest[open...]
                rest = ""
                break
            }
            fields.append((String(rest[rest.index(after: open)..<colon]), String(rest[rest.index(after: colon)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        return (fields, freeText + rest)
    }
}
