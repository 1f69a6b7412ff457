import Foundation

/// Reads the fields of an abook `addressbook` file for the import fidelity measure: one record
/// per numbered section, one field per `key=value` (each address of `email` and each group of
/// `groups` on its own), with the kinds and labels of abook's own field names; the `[format]`
/// section names the program that wrote the file and is left out of the count.
///
/// ```swift
/// let records = AbookSourceReader.records("[0]\nname=Katie Bell\nmobile=+1 555 0100\n")
/// records[0].fields.map(\.label?.name)   // [nil, "mobile"]
/// ```
enum AbookSourceReader {
    /// abook's keys (`database.c`): where a value goes and its label. `phone` is abook's
    /// "Home Phone".
    static let keys: [String: (kind: FieldKind, label: ExpectedLabel?)] = [
        "name": (.displayName, nil), "email": (.email, nil), "address": (.address(.street), nil),
        "address2": (.address(.street), nil), "city": (.address(.city), nil), "state": (.address(.region), nil),
        "zip": (.address(.postcode), nil), "country": (.address(.country), nil), "phone": (.phone, .home),
        "workphone": (.phone, .work), "fax": (.phone, .fax(nil)), "mobile": (.phone, .mobile),
        "nick": (.nickname, nil), "url": (.url, nil), "notes": (.note, nil), "anniversary": (.date, .anniversary),
        "groups": (.group, nil),
    ]

    /// The records of `text`.
    static func records(_ text: String) -> [SourceRecord] {
        var records: [SourceRecord] = []
        var current: SourceRecord?
        var inHeader = false
        for (number, line) in SourceText.lines(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                if let current { records.append(current) }
                inHeader = trimmed.lowercased() == "[format]"
                current = SourceRecord(line: number)
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = String(trimmed[..<equals])
            let value = String(trimmed[trimmed.index(after: equals)...])
            guard var record = current else { continue }
            if inHeader {
                record.exclude(.fileHeader)
                current = record
                continue
            }
            let known = keys[key.lowercased()] ?? (.other, nil)
            let values = known.kind == .email || known.kind == .group ? value.split(separator: ",").map(String.init) : [value]
            for item in values {
                record.add(key, item, kind: known.kind, label: known.label, line: number)
            }
            current = record
        }
        if let current { records.append(current) }
        return records
    }
}
