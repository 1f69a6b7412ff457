import Foundation

/// Reads the fields of an LDIF export (Thunderbird's, Horde's, any `inetOrgPerson`) for the
/// import fidelity measure: one record per entry, one field per attribute value, each with the
/// kind and label its attribute names; `groupOfNames` entries are groups with their `member`s.
///
/// Continuation lines, `#` comments and base64 values (`attr:: …`) are read as RFC 2849 says.
///
/// ```swift
/// let records = LDIFSourceReader.records("dn: cn=Katie\ncn: Katie\nmobile: +1 555\n")
/// records[0].fields.map(\.kind)   // [.displayName, .phone]
/// ```
enum LDIFSourceReader {
    /// The attributes the measure knows, lowercased: where a value goes and its label.
    static let attributes: [String: (kind: FieldKind, label: ExpectedLabel?)] = [
        "givenname": (.givenName, nil), "sn": (.familyName, nil), "surname": (.familyName, nil),
        "cn": (.displayName, nil), "commonname": (.displayName, nil), "displayname": (.displayName, nil),
        "mozillanickname": (.nickname, nil), "xmozillanickname": (.nickname, nil),
        "mail": (.email, nil), "mozillasecondemail": (.email, nil), "xmozillasecondemail": (.email, nil),
        "nsaimid": (.instantMessage, .custom("aim")), "nscpaimscreenname": (.instantMessage, .custom("aim")),
        "telephonenumber": (.phone, .work), "homephone": (.phone, .home), "mobile": (.phone, .mobile),
        "cellphone": (.phone, .mobile), "fax": (.phone, .fax(nil)), "facsimiletelephonenumber": (.phone, .fax(nil)),
        "pager": (.phone, .pager), "pagerphone": (.phone, .pager),
        "homestreet": (.address(.street), .home), "mozillahomestreet": (.address(.street), .home),
        "mozillahomestreet2": (.address(.street), .home), "mozillahomelocalityname": (.address(.city), .home),
        "mozillahomestate": (.address(.region), .home), "mozillahomepostalcode": (.address(.postcode), .home),
        "mozillahomecountryname": (.address(.country), .home),
        "street": (.address(.street), .work), "streetaddress": (.address(.street), .work),
        "postofficebox": (.address(.street), .work), "mozillaworkstreet2": (.address(.street), .work),
        "l": (.address(.city), .work), "locality": (.address(.city), .work), "st": (.address(.region), .work),
        "postalcode": (.address(.postcode), .work), "c": (.address(.country), .work),
        "countryname": (.address(.country), .work), "co": (.address(.country), .work),
        "title": (.jobTitle, nil), "ou": (.department, nil), "department": (.department, nil),
        "o": (.organization, nil), "company": (.organization, nil),
        "mozillaworkurl": (.url, .work), "workurl": (.url, .work), "mozillahomeurl": (.url, .homePage),
        "homeurl": (.url, .homePage), "labeleduri": (.url, nil),
        "birthyear": (.birthdayPart(.year), nil), "birthmonth": (.birthdayPart(.month), nil),
        "birthday": (.birthdayPart(.day), nil), "description": (.note, nil),
    ]

    /// Attributes that are the directory's bookkeeping, never contact data.
    static let bookkeeping: Set<String> = [
        "dn", "objectclass", "changetype", "modifytimestamp", "createtimestamp", "version",
    ]

    /// The records of `text`.
    static func records(_ text: String) -> [SourceRecord] {
        entries(text).map(record)
    }

    /// The entries of `text`: each a list of (line, attribute, value), lines unfolded and
    /// base64 values decoded.
    static func entries(_ text: String) -> [[(line: Int, name: String, value: String)]] {
        var entries: [[(line: Int, name: String, value: String)]] = []
        var current: [(line: Int, text: String)] = []
        func flush() {
            let attributes = current.compactMap(attribute)
            if !attributes.isEmpty { entries.append(attributes) }
            current = []
        }
        for (number, line) in SourceText.lines(text) {
            if line.isEmpty {
                flush()
            } else if line.hasPrefix("#") {
                continue
            } else if line.hasPrefix(" "), !current.isEmpty {
                current[current.count - 1].text += line.dropFirst()
            } else {
                current.append((number, line))
            }
        }
        flush()
        return entries
    }

    /// An unfolded line as its attribute and value, a base64 value decoded; `nil` without `:`.
    private static func attribute(_ line: (line: Int, text: String)) -> (line: Int, name: String, value: String)? {
        guard let colon = line.text.firstIndex(of: ":") else { return nil }
        let name = String(line.text[..<colon])
        var rest = line.text[line.text.index(after: colon)...]
        if rest.hasPrefix(":") {
            rest = rest.dropFirst()
            let data = Data(base64Encoded: rest.trimmingCharacters(in: .whitespaces), options: .ignoreUnknownCharacters)
            return (line.line, name, data.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        return (line.line, name, rest.trimmingCharacters(in: .whitespaces))
    }

    /// The record of an entry: a group for `groupOfNames`, else a person.
    private static func record(_ entry: [(line: Int, name: String, value: String)]) -> SourceRecord {
        let classes = entry.filter { $0.name.lowercased() == "objectclass" }.map { $0.value.lowercased() }
        let isGroup = classes.contains { $0 == "groupofnames" || $0 == "groupofuniquenames" }
        let groupName = isGroup ? entry.first { $0.name.lowercased() == "cn" }?.value : nil
        var record = SourceRecord(line: entry.first?.line ?? 1, groupName: groupName)
        for attribute in entry {
            let name = attribute.name.lowercased()
            if bookkeeping.contains(name) {
                record.exclude(attribute.value.isEmpty ? .empty : .directoryBookkeeping)
            } else if isGroup {
                let kind: FieldKind = name == "cn" ? .groupName : name == "member" || name == "uniquemember" ? .member : .other
                record.add(attribute.name, kind == .member ? member(attribute.value) : attribute.value, kind: kind, line: attribute.line)
            } else {
                let known = attributes[name] ?? (.other, nil)
                record.add(attribute.name, attribute.value, kind: known.kind, label: known.label, line: attribute.line)
            }
        }
        return record
    }

    /// A member's DN as the person it names: the `mail` of the DN, else its `cn`, else the DN.
    static func member(_ dn: String) -> String {
        let parts = dn.split(separator: ",").map { part -> (String, String) in
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return (pair.first?.lowercased() ?? "", pair.count > 1 ? pair[1] : "")
        }
        return parts.first { $0.0 == "mail" }?.1 ?? parts.first { $0.0 == "cn" }?.1 ?? dn
    }
}
