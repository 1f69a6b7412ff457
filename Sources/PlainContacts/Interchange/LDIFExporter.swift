import FoundationEssentials

/// Writes people and their groups as the LDIF Thunderbird imports (RFC 2849): one
/// `mozillaAbPersonAlpha` record per person, then one `groupOfNames` record per group, whose
/// `member` lines name the people's DNs.
///
/// Values that are not RFC 2849 SAFE-STRINGs (non-ASCII text, line breaks, a leading space,
/// colon or `<`, a trailing space) are written in base64 (`name:: …`); lines longer than 76
/// columns are folded. The attributes are those ``LDIFContactReader`` reads; the text
/// properties' are their entries' (``TextProperty/ldif``), in ``TextProperty/ldifOrder``, those of
/// the name section first, the work section's after the addresses and the notes section's after
/// the birthday:
///
/// | value | attribute |
/// |---|---|
/// | first, last name; shown name (the formatted name, else the composite name, else the organization); nickname | `givenName`, `sn`; `cn`; `mozillaNickname` |
/// | emails | `mail` (the first), `mozillaSecondEmail` (the others) |
/// | phones labelled home / mobile or iPhone / a fax label / pager / anything else | `homePhone` / `mobile` / `facsimileTelephoneNumber` / `pager` / `telephoneNumber` |
/// | the first home (else unlabelled or other) address; the first work address | `mozillaHome…`; `street`, `mozillaWorkStreet2`, `l`, `st`, `postalCode`, `c` |
/// | organization, department, job title, note | `o`, `ou`, `title`, `description` |
/// | the first work (else unlabelled or other) URL; the first home page | `mozillaWorkUrl`; `mozillaHomeUrl` |
/// | the first AIM account | `nsAIMid` |
/// | birthday | `birthyear`, `birthmonth`, `birthday` |
/// | a JPEG image | `jpegPhoto` |
/// | fields kept from an LDIF import (`X-IMPORTED-FIELD;X-FORMAT=ldif`) | their own attributes |
/// | a group's fields kept from an LDIF import (a list's `description`) | their own attributes of the `groupOfNames` record |
///
/// LDIF as Thunderbird reads it has no place for email labels, further addresses and URLs,
/// other dates, related names or other instant messages; they are left out.
///
/// ```swift
/// let text = LDIFExporter.ldif([LDIFExporter.Entry(person: person, groupNames: ["Friends"], imageData: nil)])
/// ```
enum LDIFExporter {
    /// One person to write, with the names of its groups and its image.
    struct Entry {
        /// The person.
        var person: Person
        /// The names of the groups the person is in.
        var groupNames: [String]
        /// The image bytes, if any.
        var imageData: Data?
    }

    /// The longest line written; longer ones are folded (RFC 2849 suggests 76 columns).
    static let lineWidth = 76

    /// The object classes of a person record, as Thunderbird writes them.
    private static let personClasses = [
        "top", "person", "organizationalPerson", "inetOrgPerson", "mozillaAbPersonAlpha",
    ]

    /// The LDIF text of `entries`: the people in order, then their groups in order of first
    /// appearance, each record followed by a blank line. A group's `keptFields` (by group name)
    /// are written as attributes of its record, after its `cn`.
    static func ldif(_ entries: [Entry], keptFields: [String: [KeptField]] = [:]) -> String {
        var output = ""
        var groups: [String] = []
        var members: [String: [String]] = [:]
        for entry in entries {
            let dn = distinguishedName(of: entry.person)
            output += record(for: entry, dn: dn)
            for name in entry.groupNames {
                if members[name] == nil { groups.append(name) }
                members[name, default: []].append(dn)
            }
        }
        for name in groups {
            var lines = [line("dn", "cn=" + escapedDNValue(name)), line("objectclass", "top")]
            lines.append(line("objectclass", "groupOfNames"))
            lines.append(line("cn", name))
            lines += (keptFields[name] ?? []).map(keptLine)
            for dn in members[name] ?? [] { lines.append(line("member", dn)) }
            output += lines.joined() + "\n"
        }
        return output
    }

    /// The DN of a person as Thunderbird makes it: `cn=Name,mail=address`, each part present.
    static func distinguishedName(of person: Person) -> String {
        var parts: [String] = []
        let name = shownName(of: person)
        if !name.isEmpty { parts.append("cn=" + escapedDNValue(name)) }
        if let mail = person.emails.values.first { parts.append("mail=" + escapedDNValue(mail)) }
        return parts.isEmpty ? "cn=" : parts.joined(separator: ",")
    }

    /// The name a person's `cn` shows.
    private static func shownName(of person: Person) -> String {
        person.formattedName ?? CompositeName.make(person.state.nameParts, format: .firstNameFirst)
            ?? person.organization ?? ""
    }

    /// `value` escaped for a DN (RFC 4514): `,+"\<>;` and `=` with a backslash, a leading `#`
    /// or space and a trailing space too.
    private static func escapedDNValue(_ value: String) -> String {
        var escaped = ""
        for (offset, character) in value.enumerated() {
            let leading = offset == 0 && (character == " " || character == "#")
            let edge = leading || (offset == value.count - 1 && character == " ")
            if edge || ",+\"\\<>;=".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// The record of one person.
    private static func record(for entry: Entry, dn: String) -> String {
        let person = entry.person
        var lines = [line("dn", dn)] + personClasses.map { line("objectclass", $0) }
        lines += textLines(of: person, in: .name)
        for (index, email) in person.emails.values.enumerated() {
            lines.append(line(index == 0 ? "mail" : "mozillaSecondEmail", email))
        }
        if let aim = person.instantMessages.values.first(where: { $0.service?.lowercased() == "aim" }) {
            lines.append(line("nsAIMid", aim.username))
        }
        for entry in person.phones.entries { lines.append(line(phoneAttribute(entry.label), entry.value)) }
        lines += addressLines(person.addresses)
        lines += textLines(of: person, in: .work)
        lines += urlLines(person.urls)
        if let birthday = person.birthday {
            if let year = birthday.year { lines.append(line("birthyear", String(year))) }
            lines.append(line("birthmonth", twoDigits(birthday.month)))
            lines.append(line("birthday", twoDigits(birthday.day)))
        }
        lines += textLines(of: person, in: .notes)
        if let image = entry.imageData, image.starts(with: [0xFF, 0xD8, 0xFF]) {
            lines.append(line("jpegPhoto", bytes: Array(image)))
        }
        lines += keptLines(of: person)
        return lines.joined() + "\n"
    }

    /// The lines of the text properties of `section` that have an attribute; `cn` is the shown
    /// name.
    private static func textLines(of person: Person, in section: TextProperty.Section) -> [String] {
        TextProperty.ldifAttributes(in: section).compactMap { entry in
            guard let attribute = entry.ldif else { return nil }
            return line(attribute.name, entry.id == .formattedName ? shownName(of: person) : person.text(entry.id))
        }
    }

    /// `number` with a leading zero below 10, as Thunderbird writes months and days.
    private static func twoDigits(_ number: Int) -> String {
        number < 10 ? "0\(number)" : String(number)
    }

    /// The attribute of a phone with `label`.
    private static func phoneAttribute(_ label: Label?) -> String {
        switch label {
        case .home?: "homePhone"
        case .mobile?, .iPhone?: "mobile"
        case .homeFax?, .workFax?, .otherFax?: "facsimileTelephoneNumber"
        case .pager?: "pager"
        default: "telephoneNumber"
        }
    }

    /// The lines of the home and work addresses.
    private static func addressLines(_ addresses: MultiValue<PostalAddress>) -> [String] {
        let entries = addresses.entries
        let home = entries.first { $0.label == .home } ?? entries.first { $0.label == nil || $0.label == .other }
        let work = entries.first { $0.label == .work }
        var lines: [String] = []
        if let address = home?.value {
            let (street, street2) = streetLines(address)
            lines.append(line("mozillaHomeStreet", street))
            lines.append(line("mozillaHomeStreet2", street2))
            lines.append(line("mozillaHomeLocalityName", address.city))
            lines.append(line("mozillaHomeState", address.state))
            lines.append(line("mozillaHomePostalCode", address.zip))
            lines.append(line("mozillaHomeCountryName", address.country))
        }
        if let address = work?.value {
            let (street, street2) = streetLines(address)
            lines.append(line("postOfficeBox", address.poBox))
            lines.append(line("street", street))
            lines.append(line("mozillaWorkStreet2", street2))
            lines.append(line("l", address.city))
            lines.append(line("st", address.state))
            lines.append(line("postalCode", address.zip))
            lines.append(line("c", address.country))
        }
        return lines
    }

    /// The two street lines Thunderbird has: the street's first line, and the extended address
    /// or else the street's further lines.
    private static func streetLines(_ address: PostalAddress) -> (String?, String?) {
        let street = (address.street ?? "").split(separator: "\n", maxSplits: 1).map(String.init)
        let first = street.first
        let rest = street.count > 1 ? street[1].replacing("\n", with: ", ") : nil
        if let extended = address.extendedAddress, !extended.isEmpty {
            return (first, [extended, rest].compactMap { $0 }.joined(separator: ", "))
        }
        return (first, rest)
    }

    /// The lines of the work and home page URLs.
    private static func urlLines(_ urls: MultiValue<String>) -> [String] {
        let entries = urls.entries
        let work = entries.first { $0.label == .work } ?? entries.first { $0.label == nil || $0.label == .other }
        let home = entries.first { $0.label == .homePage || $0.label == .home }
        return [line("mozillaWorkUrl", work?.value), line("mozillaHomeUrl", home?.value)]
    }

    /// The fields kept from an LDIF import, as their attributes.
    private static func keptLines(of person: Person) -> [String] {
        KeptField.fields(of: person, format: LDIFContactReader.format).map(keptLine)
    }

    /// The line of a field kept from an LDIF import, as its attribute; empty when its name
    /// cannot be an attribute name.
    private static func keptLine(_ field: KeptField) -> String {
        isAttributeName(field.name) ? line(field.name, field.value) : ""
    }

    /// Whether `name` can be written as an attribute name (letters, digits, `-`, `;`).
    private static func isAttributeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-;".unicodeScalars.contains(scalar))
        }
    }

    /// The folded line of an attribute with a text value; empty for no or empty text.
    static func line(_ name: String, _ value: String?) -> String {
        guard let value, !value.isEmpty else { return "" }
        if isSafe(value) { return folded(name + ": " + value) }
        return line(name, bytes: Array(value.utf8))
    }

    /// The folded line of an attribute with a base64 value.
    private static func line(_ name: String, bytes: [UInt8]) -> String {
        folded(name + ":: " + Data(bytes).base64EncodedString())
    }

    /// Whether `value` is an RFC 2849 SAFE-STRING and has no trailing space.
    static func isSafe(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard let first = bytes.first else { return true }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: ":") || first == UInt8(ascii: "<") { return false }
        if bytes.last == UInt8(ascii: " ") { return false }
        return bytes.allSatisfy { $0 != 0 && $0 != 10 && $0 != 13 && $0 < 0x80 }
    }

    /// `line` folded at ``lineWidth`` columns, with its line end. Lines are ASCII by then, so
    /// bytes are columns.
    private static func folded(_ line: String) -> String {
        var bytes = Array(line.utf8)[...]
        var result = String(decoding: bytes.prefix(lineWidth), as: UTF8.self) + "\n"
        bytes = bytes.dropFirst(lineWidth)
        while !bytes.isEmpty {
            result += " " + String(decoding: bytes.prefix(lineWidth - 1), as: UTF8.self) + "\n"
            bytes = bytes.dropFirst(lineWidth - 1)
        }
        return result
    }
}
