import FoundationEssentials

/// Reads contacts from LDIF (see ``LDIFReader``) as Thunderbird exports them, and as other
/// programs (Horde, KAddressBook, Evolution, scripts) write them.
///
/// | attributes (any case, options dropped) | becomes |
/// |---|---|
/// | `givenName`, `gn`, `sn`, `surname` (else `cn` split as ``InterchangeName`` says) | `N` |
/// | `cn`, `commonName`, else `displayName` | `FN` |
/// | `o`, `company`; `ou`, `department`, `orgUnit`, `departmentNumber` (the first of each) | `ORG` |
/// | any other text property's attribute or alias (``TextProperty/ldif``): `mozillaNickname`, `title`, `description`, `notes`… | its vCard property (`NICKNAME`, `TITLE`, `NOTE`…) |
/// | `mail` (preferred), `mozillaSecondEmail` | `EMAIL` |
/// | `telephoneNumber` / `homePhone` / `mobile`, `cellphone` / `facsimileTelephoneNumber`, `fax` / `pager` | `TEL` work / home / mobile / other fax / pager |
/// | `mozillaHomeStreet`, `homeStreet`, `homePostalAddress`, `mozillaHomeStreet2`, `mozillaHomePostalAddress2`, `mozillaHome…` | `ADR` home (line 2 is the extended address) |
/// | `street`, `postalAddress`, `postOfficeBox`, `mozillaWorkStreet2`, `mozillaPostalAddress2`, `l`, `st`, `postalCode`, `c` | `ADR` work |
/// | `mozillaWorkUrl`, `workurl`; `mozillaHomeUrl`, `homeurl`; `labeledURI` | `URL` work; home page; unlabelled |
/// | `nsAIMid` | `X-AIM` |
/// | `birthyear`, `birthmonth`, `birthday` | `BDAY` (a year alone is kept) |
/// | `jpegPhoto` | `PHOTO` |
/// | `dn`, `objectclass`, `modifytimestamp` | nothing |
/// | any other (`mozillaCustom1`…, `mozillaUseHtmlMail`), and any `name:< url` value | kept (``CardBuilder/addKept(format:field:value:line:)``) |
///
/// A `groupOfNames` record is a list: its `cn` names a group (made even when empty), and each
/// `member` DN that names a person record of the file puts that person in the group; its other
/// attributes (Thunderbird's `description`) are kept with the group as `X-IMPORTED-FIELD`
/// lines, which export writes back. Lists may come before their members. DNs are compared
/// normalised: case-insensitively, without the spaces around `,` and `=`; a member DN that
/// matches no record's DN is matched by its `mail=` part against the people's first `mail`.
/// Records that are neither people nor lists (`organizationalUnit` entries of a directory
/// dump) are passed over.
///
/// ```swift
/// var log = ConversionLog(source: "export.ldif", strict: false)
/// let converted = try LDIFContactReader.convert("dn: cn=Katie Bell\ncn: Katie Bell\n", log: &log)
/// ```
enum LDIFContactReader {
    /// The format name of kept fields.
    static let format = "ldif"

    /// Attributes read as nothing at all: the directory's bookkeeping. (Thunderbird's
    /// `mozillaUseHtmlMail`, whether the person prefers HTML mail, is the person's and kept.)
    private static let ignored: Set<String> = ["dn", "objectclass", "modifytimestamp", "createtimestamp"]

    /// Object classes of a list.
    private static let listClasses: Set<String> = ["groupofnames", "groupofuniquenames", "mozillaabgroup"]

    /// Attributes that make a record a person even without a person object class.
    private static let personAttributes: Set<String> = ["cn", "sn", "givenname", "displayname", "mail"]

    /// Object classes of a person.
    private static let personClasses: Set<String> = [
        "person", "organizationalperson", "inetorgperson", "mozillaabpersonalpha", "mozillaabpersonobsolete",
        "residentialperson",
    ]

    /// The cards of the people and lists of `text`.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` for the first recovery when the log is
    ///   strict.
    static func convert(_ text: String, log: inout ConversionLog) throws -> ConvertedContacts {
        let records = try LDIFReader.records(text, log: &log)
        let lists = records.filter(isList)
        let people = records.filter { !isList($0) && isPerson($0) }
        let groups = try groupNames(of: people, lists: lists, log: &log)
        var builder = CardBuilder()
        for (index, record) in people.enumerated() {
            try addPerson(record, groups: groups[index], to: &builder, log: &log)
        }
        for list in lists {
            builder.addGroupCard(name: listName(list), line: list.line, keeping: keptFields(of: list))
        }
        return builder.finish(warnings: [])
    }

    /// Whether the record is a list (`groupOfNames`).
    private static func isList(_ record: LDIFRecord) -> Bool {
        listClasses.contains { record.hasObjectClass($0) }
    }

    /// Whether the record is a person: a person object class or a name or email attribute.
    private static func isPerson(_ record: LDIFRecord) -> Bool {
        personClasses.contains { record.hasObjectClass($0) }
            || record.attributes.contains { personAttributes.contains($0.key) }
    }

    /// The name of a list: its `cn`, else its `displayName`, else its DN.
    private static func listName(_ list: LDIFRecord) -> String {
        let names = list.values("cn") + list.values("displayname")
        if let name = names.map(CardBuilder.trimmed).first(where: { !$0.isEmpty }) { return name }
        return CardBuilder.trimmed(list.dn)
    }

    /// The attributes of a list a group has no place for: all but its name and members and the
    /// directory's bookkeeping.
    private static func keptFields(of list: LDIFRecord) -> [KeptField] {
        let name = listName(list)
        return list.attributes.compactMap { attribute in
            let structural = ["cn", "member", "uniquemember"].contains(attribute.key)
            let isName = attribute.key == "displayname" && CardBuilder.trimmed(attribute.text) == name
            guard !ignored.contains(attribute.key), !structural, !isName else { return nil }
            return KeptField(format: format, name: attribute.name, value: attribute.text)
        }
    }

    /// For each person, the names of the lists that have it as a member.
    private static func groupNames(
        of people: [LDIFRecord], lists: [LDIFRecord], log: inout ConversionLog
    ) throws -> [[String]] {
        var byDN: [String: Int] = [:]
        var byMail: [String: Int] = [:]
        for (index, person) in people.enumerated() {
            if !person.dn.isEmpty, byDN[normalizedDN(person.dn)] == nil { byDN[normalizedDN(person.dn)] = index }
            if let mail = person.values("mail").first.map({ CardBuilder.trimmed($0).lowercased() }), !mail.isEmpty,
                byMail[mail] == nil
            {
                byMail[mail] = index
            }
        }
        var groups = Array(repeating: [String](), count: people.count)
        for list in lists {
            let name = listName(list)
            for member in list.attributes where member.key == "member" || member.key == "uniquemember" {
                let dn = normalizedDN(member.text)
                guard !dn.isEmpty else { continue }
                let mail = mailPart(of: dn)
                guard let index = byDN[dn] ?? mail.flatMap({ byMail[$0] }) else {
                    try log.recover(
                        "the member at line \(member.line) names no record of the file; it was left out",
                        line: member.line)
                    continue
                }
                groups[index].append(name)
            }
        }
        return groups
    }

    /// A DN in the form compared: lower case, without spaces around `,` and `=`.
    static func normalizedDN(_ dn: String) -> String {
        dn.lowercased().split(separator: ",", omittingEmptySubsequences: false).map { part in
            part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { CardBuilder.trimmed(String($0)) }
                .joined(separator: "=")
        }.joined(separator: ",")
    }

    /// The value of the `mail=` part of a normalised DN.
    private static func mailPart(of dn: String) -> String? {
        dn.split(separator: ",").first { $0.hasPrefix("mail=") }.map { String($0.dropFirst(5)) }
    }

    /// The parts of a postal address as they are found.
    private struct AddressParts {
        /// The `ADR` components: post office box, extended address, street, city, region,
        /// postal code, country.
        var components = Array(repeating: "", count: 7)
        /// The line of the first part found.
        var line: Int?

        /// Sets component `index` unless an earlier attribute set it; a street line (the
        /// street or the extended address) given again is added as another line.
        mutating func set(_ index: Int, _ value: String, line: Int) {
            if index == 1 || index == 2, !components[index].isEmpty {
                let lines = components[index].split(separator: "\n")
                if !lines.contains(where: { $0 == value }) { components[index] += "\n" + value }
                return
            }
            guard components[index].isEmpty else { return }
            components[index] = value
            if self.line == nil { self.line = line }
        }
    }

    /// What a record says that is written once the whole record has been read.
    private struct PersonParts {
        /// The first value of each text property that is part of `N`, `FN` or `ORG`
        /// (`givenName`, `sn`, `cn`, `o`, `ou`), with its line.
        var texts: [PropertyID: (String, Int)] = [:]
        /// `displayName` with its line.
        var display: (String, Int)?
        /// `mail` and `mozillaSecondEmail` values with their lines, written primary first.
        var emails: [(String, Int)] = []
        var secondEmails: [(String, Int)] = []
        /// The home and work address parts.
        var home = AddressParts()
        var work = AddressParts()
        /// `birthyear`, `birthmonth` and `birthday` by lower-case name.
        var birth: [String: (String, LDIFAttribute)] = [:]
    }

    /// Adds the card of a person record, in `groups`.
    private static func addPerson(
        _ record: LDIFRecord, groups: [String], to builder: inout CardBuilder, log: inout ConversionLog
    ) throws {
        builder.begin(line: record.line)
        var parts = PersonParts()
        for attribute in record.attributes where !ignored.contains(attribute.key) {
            if attribute.isURL {
                builder.addKept(format: format, field: attribute.name, value: attribute.text, line: attribute.line)
                continue
            }
            if !add(attribute, to: &builder, parts: &parts) {
                builder.addKept(format: format, field: attribute.name, value: attribute.text, line: attribute.line)
            }
        }
        addName(parts, to: &builder, line: record.line)
        for (index, email) in (parts.emails + parts.secondEmails).enumerated() {
            builder.addLabelled("EMAIL", kind: .email, label: nil, value: email.0, preferred: index == 0, line: email.1)
        }
        for (label, address) in [(Label.home, parts.home), (Label.work, parts.work)] {
            guard let line = address.line else { continue }
            builder.addLabelled(
                "ADR", kind: .address, label: label, value: "", structured: address.components, line: line)
        }
        let units = TextProperty.components(of: "ORG").map { parts.texts[$0.id] }
        if units.contains(where: { $0 != nil }) {
            builder.addStructured(
                "ORG", units.map { $0?.0 ?? "" }, line: units.lazy.compactMap { $0?.1 }.first ?? record.line)
        }
        try addBirthday(parts.birth, to: &builder, log: &log)
        builder.addGroups(groups, line: record.line)
        builder.end()
    }

    /// Adds what the attribute maps to, or keeps it in `parts` for later; `false` for an
    /// attribute with no mapping.
    private static func add(
        _ attribute: LDIFAttribute, to builder: inout CardBuilder, parts: inout PersonParts
    ) -> Bool {
        let value = attribute.text
        let line = attribute.line
        func once(_ slot: inout (String, Int)?) -> Bool {
            guard slot == nil else { return false }
            slot = (value, line)
            return true
        }
        func phone(_ label: Label) -> Bool {
            builder.addLabelled("TEL", kind: .phone, label: label, value: value, line: line)
            return true
        }
        func url(_ label: Label?, _ text: String) -> Bool {
            builder.addLabelled("URL", kind: .url, label: label, value: text, line: line)
            return true
        }
        if let text = TextProperty.withLDIFAttribute(attribute.key) {
            guard case .text(let name, _) = text.vCard else { return once(&parts.texts[text.id]) }
            builder.addText(name, value, line: line)
            return true
        }
        switch attribute.key {
        case "displayname": return once(&parts.display)
        case "mail": parts.emails.append((value, line))
        case "mozillasecondemail", "xmozillasecondemail": parts.secondEmails.append((value, line))
        case "telephonenumber": return phone(.work)
        case "homephone": return phone(.home)
        case "mobile", "cellphone", "carphone": return phone(.mobile)
        case "facsimiletelephonenumber", "fax": return phone(.otherFax)
        case "pager", "pagerphone": return phone(.pager)
        case "mozillahomestreet", "homestreet", "homepostaladdress": parts.home.set(2, value, line: line)
        case "mozillahomestreet2", "mozillahomepostaladdress2": parts.home.set(1, value, line: line)
        case "mozillahomelocalityname": parts.home.set(3, value, line: line)
        case "mozillahomestate": parts.home.set(4, value, line: line)
        case "mozillahomepostalcode": parts.home.set(5, value, line: line)
        case "mozillahomecountryname": parts.home.set(6, value, line: line)
        case "postofficebox": parts.work.set(0, value, line: line)
        case "street", "streetaddress", "postaladdress", "mozillaworkstreet": parts.work.set(2, value, line: line)
        case "mozillaworkstreet2", "mozillapostaladdress2": parts.work.set(1, value, line: line)
        case "l", "locality": parts.work.set(3, value, line: line)
        case "st", "region": parts.work.set(4, value, line: line)
        case "postalcode", "zip": parts.work.set(5, value, line: line)
        case "c", "countryname": parts.work.set(6, value, line: line)
        case "mozillaworkurl", "workurl": return url(.work, value)
        case "mozillahomeurl", "homeurl": return url(.homePage, value)
        case "labeleduri":
            return url(nil, String(CardBuilder.trimmed(value).split(separator: " ").first ?? ""))
        case "nsaimid", "nscpaimscreenname":
            builder.addLabelled("X-AIM", kind: .instantMessage, label: nil, value: value, line: line)
        case "birthyear", "birthmonth", "birthday":
            guard parts.birth[attribute.key] == nil else { return false }
            parts.birth[attribute.key] = (value, attribute)
        case "jpegphoto":
            guard !attribute.bytes.isEmpty else { return true }
            builder.addLine("PHOTO;ENCODING=b;TYPE=JPEG:" + Data(attribute.bytes).base64EncodedString(), line: line)
        default: return false
        }
        return true
    }

    /// Adds `N` and `FN`: `givenName` and `sn` when either is there, else `cn` (or
    /// `displayName`) split by ``InterchangeName``; `cn` is shown either way.
    private static func addName(_ parts: PersonParts, to builder: inout CardBuilder, line: Int) {
        let given = parts.texts[.firstName]
        let surname = parts.texts[.lastName]
        let common = parts.texts[.formattedName]
        let shown = common ?? parts.display
        if given != nil || surname != nil {
            builder.addName(last: surname?.0 ?? "", first: given?.0 ?? "", line: given?.1 ?? line)
            if let shown { builder.setDisplayName(shown.0) }
        } else if let shown {
            InterchangeName.add(shown.0, to: &builder, line: shown.1)
        }
        if let common, let display = parts.display,
            CardBuilder.trimmed(display.0) != CardBuilder.trimmed(common.0)
        {
            builder.addKept(format: format, field: "displayName", value: display.0, line: display.1)
        }
    }

    /// Adds `BDAY` from `birthyear`, `birthmonth` and `birthday`; what makes no date is kept
    /// as written, with a warning when a month or day is there but wrong.
    private static func addBirthday(
        _ birth: [String: (String, LDIFAttribute)], to builder: inout CardBuilder, log: inout ConversionLog
    ) throws {
        guard !birth.isEmpty else { return }
        func number(_ key: String) -> Int? { birth[key].flatMap { Int(CardBuilder.trimmed($0.0)) } }
        let line = ["birthyear", "birthmonth", "birthday"].compactMap { birth[$0]?.1.line }.min() ?? 0
        if let month = number("birthmonth"), let day = number("birthday"),
            let date = try? ContactDate(year: number("birthyear"), month: month, day: day),
            birth["birthyear"] == nil || number("birthyear") != nil
        {
            builder.addDate("BDAY", date, line: line)
            return
        }
        if birth["birthmonth"] != nil || birth["birthday"] != nil {
            try log.recover("the birthday at line \(line) is not a date; it was kept as written", line: line)
        }
        for key in ["birthyear", "birthmonth", "birthday"] {
            guard let (value, attribute) = birth[key] else { continue }
            builder.addKept(format: format, field: attribute.name, value: value, line: attribute.line)
        }
    }
}
