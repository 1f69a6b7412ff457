/// Reads contacts from a Eudora nicknames file (`NNdbase.txt` and the other address books
/// Eudora keeps as text): `alias NICK ADDRESS[, ADDRESS...]` lines, and `note NICK` lines whose
/// `<tag:value>` fields hold the rest of the entry, with free text after them as its notes.
///
/// - An alias of one address is one person: its nickname, the address as an email, and from
///   its note the name (`name`, `first`, `last`), the home address, phones, fax, mobile and web
///   page (`address`, `city`, `state`, `zip`, `country`, `phone`, `fax`, `mobile`, `web`), the
///   work ones (`address2` … `country2`, `phone2`, `fax2`, `mobile2`, `web2`), the job title and
///   company (`title`, `company`, `organization`), more addresses and phones (`otheremail`,
///   `otherphone`, `otherweb`), and the note's free text. A tag the store has no place for is
///   kept with the person as a kept field. Eudora writes a line break inside a value as the
///   byte 0x03; the last line of an address is its city line when no `city` is given.
/// - An alias of several addresses, or naming other aliases, is a group named by the nickname,
///   each address (or the people of each alias named) in it.
/// - A quoted nickname (`alias "Katie Bell" ...`) may hold spaces.
///
/// ```swift
/// var log = ConversionLog(source: "NNdbase.txt", strict: false)
/// let converted = try EudoraNicknamesReader.convert(
///     "alias kb Katie Bell <k@x.example>\nnote kb <phone:555 0100><company:Acme>met at the fair\n", log: &log)
/// ```
enum EudoraNicknamesReader {
    /// The character Eudora writes for a line break inside a note's value.
    static let lineBreak: Character = "\u{03}"

    /// The tags read into the model; any other is kept as a field.
    static let knownTags: Set<String> = [
        "name", "first", "last", "address", "city", "state", "zip", "country", "phone", "fax", "mobile", "web",
        "address2", "city2", "state2", "zip2", "country2", "phone2", "fax2", "mobile2", "web2", "title", "company",
        "organization", "otheremail", "otherphone", "otherweb", "primary",
    ]

    /// One nickname: its `alias` line and its note.
    private struct Entry {
        var nickname: String
        var mailboxes: [Mailbox]
        var line: Int
        var fields: [(tag: String, value: String)] = []
        var notes = ""
    }

    /// Whether `line` is a Eudora `note` line (`note NICK <tag:…>` or free text).
    static func isNoteLine(_ line: Substring) -> Bool {
        line.hasPrefix("note ") || line.hasPrefix("note\t")
    }

    /// The cards of the people and groups of `text`.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` for the first recovery when the log is
    ///   strict.
    static func convert(_ text: String, log: inout ConversionLog) throws -> ConvertedContacts {
        var entries: [Entry] = []
        var index: [String: Int] = [:]
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            let line = rawLine.trimmingPrefix(while: \.isWhitespace)
            if line.isEmpty { continue }
            var rest = line
            let verb = word(&rest)
            let nickname = self.nickname(&rest)
            guard !nickname.isEmpty else {
                try log.recover("line \(number) names no nickname; it was skipped", line: number)
                continue
            }
            switch verb {
            case "alias":
                let mailboxes = self.mailboxes(rest.trimmingPrefix(while: \.isWhitespace))
                guard !mailboxes.isEmpty else {
                    try log.recover("the alias at line \(number) has no address that can be read; it was skipped", line: number)
                    continue
                }
                index[nickname.lowercased()] = entries.count
                entries.append(Entry(nickname: nickname, mailboxes: mailboxes, line: number))
            case "note":
                guard let at = index[nickname.lowercased()] else {
                    try log.recover("the note at line \(number) is for no alias before it; it was skipped", line: number)
                    continue
                }
                let (fields, notes) = noteFields(String(rest))
                entries[at].fields += fields
                entries[at].notes += (entries[at].notes.isEmpty || notes.isEmpty ? "" : "\n") + notes
            default:
                try log.recover("line \(number) is neither an alias nor a note (\(verb)); it was skipped", line: number)
            }
        }
        return cards(of: entries, index: index)
    }

    /// The next word of `text`, consumed with the white space before it.
    private static func word(_ text: inout Substring) -> String {
        text = text.drop { $0.isWhitespace }
        let word = text.prefix { !$0.isWhitespace }
        text = text.dropFirst(word.count)
        return String(word)
    }

    /// The nickname at the start of `text`: a word, or a quoted name that may hold spaces.
    private static func nickname(_ text: inout Substring) -> String {
        text = text.drop { $0.isWhitespace }
        guard text.first == "\"" else { return word(&text) }
        let quoted = text.dropFirst().prefix { $0 != "\"" }
        text = text.dropFirst(quoted.count + 1)
        if text.first == "\"" { text = text.dropFirst() }
        return String(quoted)
    }

    /// The addresses of an alias: every form mail headers allow, and Eudora's
    /// `Real Name address@example.org`.
    private static func mailboxes(_ list: Substring) -> [Mailbox] {
        if let parsed = MailboxListParser.parse(String(list)), !parsed.isEmpty,
            parsed.allSatisfy({ $0.address.contains("@") || $0.isBareWord })
        {
            return parsed
        }
        return list.split(separator: ",").compactMap { piece in
            let words = piece.split(whereSeparator: \.isWhitespace)
            guard let address = words.last, address.contains("@") else { return nil }
            return Mailbox(name: words.dropLast().joined(separator: " "), address: String(address), isBareWord: false)
        }
    }

    /// The `<tag:value>` fields of a note, its line breaks restored, and its free text.
    static func noteFields(_ note: String) -> (fields: [(tag: String, value: String)], notes: String) {
        var fields: [(tag: String, value: String)] = []
        var free = ""
        var rest = Substring(note)
        while let open = rest.firstIndex(of: "<") {
            let inside = rest[rest.index(after: open)...]
            guard let colon = inside.firstIndex(of: ":"),
                inside[..<colon].allSatisfy({ $0.isLetter || $0.isNumber }), !inside[..<colon].isEmpty,
                let close = inside[colon...].firstIndex(of: ">")
            else {
                free += rest[...open]
                rest = inside
                continue
            }
            free += rest[..<open]
            let value = String(inside[inside.index(after: colon)..<close])
            fields.append((inside[..<colon].lowercased(), value))
            rest = inside[inside.index(after: close)...]
        }
        free += rest
        let notes = free.map { $0 == lineBreak ? "\n" : $0 }
        return (fields, CardBuilder.trimmed(String(notes)))
    }

    /// A value with Eudora's line breaks as spaces (`lines == false`) or line feeds.
    private static func text(_ value: String, lines: Bool = false) -> String {
        CardBuilder.trimmed(String(value.map { $0 == lineBreak ? (lines ? "\n" : " ") : $0 }))
    }

    /// The cards: a person per address of one-address aliases, then a group per list.
    private static func cards(of entries: [Entry], index: [String: Int]) -> ConvertedContacts {
        var builder = CardBuilder()
        var groups: [(name: String, line: Int)] = []
        var memberships: [String: [String]] = [:]
        for entry in entries where entry.mailboxes.count > 1 || entry.mailboxes.contains(where: \.isBareWord) {
            groups.append((entry.nickname, entry.line))
            for mailbox in entry.mailboxes {
                if mailbox.isBareWord, let member = index[mailbox.address.lowercased()] {
                    memberships[entries[member].nickname.lowercased(), default: []].append(entry.nickname)
                } else {
                    memberships[mailbox.address.lowercased(), default: []].append(entry.nickname)
                }
            }
        }
        var written: Set<String> = []
        for entry in entries where entry.mailboxes.count == 1 && !entry.mailboxes[0].isBareWord {
            let mailbox = entry.mailboxes[0]
            written.insert(mailbox.address.lowercased())
            builder.begin(line: entry.line)
            addPerson(entry, mailbox: mailbox, to: &builder)
            builder.addGroups(
                (memberships[entry.nickname.lowercased()] ?? []) + (memberships[mailbox.address.lowercased()] ?? []),
                line: entry.line)
            builder.end()
        }
        // Addresses met only in lists are people of their own.
        for entry in entries where entry.mailboxes.count > 1 {
            for mailbox in entry.mailboxes where !mailbox.isBareWord && written.insert(mailbox.address.lowercased()).inserted {
                builder.begin(line: entry.line)
                InterchangeName.add(mailbox.name, to: &builder, line: entry.line)
                builder.addLabelled("EMAIL", kind: .email, label: nil, value: mailbox.address, line: entry.line)
                builder.addGroups(memberships[mailbox.address.lowercased()] ?? [], line: entry.line)
                builder.end()
            }
        }
        for group in groups { builder.addGroupCard(name: group.name, line: group.line) }
        return builder.finish(warnings: [])
    }

    /// One person's properties from its alias and note.
    private static func addPerson(_ entry: Entry, mailbox: Mailbox, to builder: inout CardBuilder) {
        let line = entry.line
        var value: [String: String] = [:]
        for field in entry.fields where value[field.tag] == nil { value[field.tag] = field.value }
        let first = text(value["first"] ?? ""), last = text(value["last"] ?? "")
        let shown = [mailbox.name, text(value["name"] ?? "")].first { !$0.isEmpty } ?? ""
        if !first.isEmpty || !last.isEmpty {
            builder.addName(last: last, first: first, line: line)
            builder.setDisplayName(shown.isEmpty ? [first, last].filter { !$0.isEmpty }.joined(separator: " ") : shown)
        } else if !shown.isEmpty {
            InterchangeName.add(shown, to: &builder, line: line)
        } else {
            builder.setDisplayName(entry.nickname)
        }
        builder.addText("NICKNAME", entry.nickname, line: line)
        builder.addStructured(
            "ORG", [text(value["company"] ?? value["organization"] ?? "")], line: line)
        if value["company"] != nil, let organization = value["organization"] {
            builder.addKept(format: "eudora", field: "organization", value: text(organization), line: line)
        }
        builder.addText("TITLE", text(value["title"] ?? ""), line: line)
        builder.addLabelled("EMAIL", kind: .email, label: nil, value: mailbox.address, preferred: true, line: line)
        for other in (value["otheremail"] ?? "").split(whereSeparator: { $0 == lineBreak || $0 == "," || $0 == " " }) {
            builder.addLabelled("EMAIL", kind: .email, label: .other, value: String(other), line: line)
        }
        let phones: [(tag: String, label: Label)] = [
            ("phone", .home), ("mobile", .mobile), ("fax", .homeFax), ("phone2", .work), ("mobile2", .mobile),
            ("fax2", .workFax),
        ]
        for phone in phones { builder.addLabelled("TEL", kind: .phone, label: phone.label, value: text(value[phone.tag] ?? ""), line: line) }
        for other in (value["otherphone"] ?? "").split(separator: lineBreak) {
            builder.addLabelled("TEL", kind: .phone, label: .other, value: text(String(other)), line: line)
        }
        for (suffix, label) in [("", Label.home), ("2", Label.work)] {
            builder.addLabelled(
                "ADR", kind: .address, label: label, value: "", structured: address(value, suffix: suffix), line: line)
        }
        builder.addLabelled("URL", kind: .url, label: .homePage, value: text(value["web"] ?? ""), line: line)
        builder.addLabelled("URL", kind: .url, label: .work, value: text(value["web2"] ?? ""), line: line)
        for other in (value["otherweb"] ?? "").split(separator: lineBreak) {
            builder.addLabelled("URL", kind: .url, label: .other, value: text(String(other)), line: line)
        }
        for field in entry.fields where !knownTags.contains(field.tag) {
            builder.addKept(format: "eudora", field: field.tag, value: text(field.value, lines: true), line: line)
        }
        builder.addText("NOTE", entry.notes, line: line)
    }

    /// The `ADR` components (post office box, extended, street, city, region, postcode,
    /// country) of the home address (`suffix` empty) or the work one (`2`): the street's lines
    /// as written, the last one taken as the city line when no city is given.
    private static func address(_ value: [String: String], suffix: String) -> [String] {
        var lines = (value["address" + suffix] ?? "").split(separator: lineBreak).map { CardBuilder.trimmed(String($0)) }
            .filter { !$0.isEmpty }
        var city = text(value["city" + suffix] ?? "")
        if city.isEmpty, lines.count > 1, let last = lines.popLast() { city = last }
        return ["", "", lines.joined(separator: "\n"), city, text(value["state" + suffix] ?? ""),
            text(value["zip" + suffix] ?? ""), text(value["country" + suffix] ?? "")]
    }
}
