/// Reads contacts from abook's `addressbook` file (`~/.abook/addressbook`): an INI file whose
/// `[format]` section names the program and version, and whose numbered sections (`[0]`,
/// `[1]`…) each hold one contact as `key=value` lines. Lines starting with `#` are comments.
///
/// | key | becomes |
/// |---|---|
/// | `name` | `FN`, and `N` as ``InterchangeName`` splits it |
/// | `email` (comma list, the first preferred) | `EMAIL` |
/// | `address`, `address2`, `city`, `state`, `zip`, `country` | `ADR` (`address2` is the extended address) |
/// | `phone` / `workphone` / `mobile` / `fax` | `TEL` home / work / mobile / other fax |
/// | `nick` | `NICKNAME` |
/// | `url` | `URL` |
/// | `notes` | `NOTE` |
/// | `anniversary` (`YYYY-MM-DD` or `--MM-DD`) | a date labelled anniversary |
/// | `groups` (comma list) | `CATEGORIES` |
/// | `custom1`… and any other key | kept (``CardBuilder/addKept(format:field:value:line:)``) |
///
/// As abook itself does, a contact without a `name` is left out (with a warning here).
///
/// ```swift
/// var log = ConversionLog(source: "addressbook", strict: false)
/// let converted = try AbookContactReader.convert("[0]\nname=Katie Bell\nemail=k@x.example\n", log: &log)
/// ```
enum AbookContactReader {
    /// The format name of kept fields.
    static let format = "abook"

    /// One `key=value` line of a section.
    private struct Field {
        /// The key before the first `=`.
        var key: String
        /// The value after it, as written.
        var value: String
        /// The 1-based line of the file.
        var line: Int
    }

    /// The cards of the contacts of `text`.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` for the first recovery when the log is
    ///   strict.
    static func convert(_ text: String, log: inout ConversionLog) throws -> ConvertedContacts {
        var builder = CardBuilder()
        var section: (name: String, line: Int)?
        var fields: [Field] = []
        var number = 0
        let lineEnds: Set<Character> = ["\n", "\r\n", "\r"]
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: lineEnds.contains) {
            number += 1
            let line = CardBuilder.trimmed(String(rawLine))
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                if let section { try addContact(section, fields, to: &builder, log: &log) }
                fields = []
                guard line.hasSuffix("]") else {
                    try log.recover(
                        "the section header at line \(number) has no closing bracket; its lines were skipped",
                        line: number)
                    section = nil
                    continue
                }
                section = (String(line.dropFirst().dropLast()), number)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                try log.recover("line \(number) has no \"=\"; it was skipped", line: number)
                continue
            }
            guard section != nil else {
                try log.recover("line \(number) is outside any section; it was skipped", line: number)
                continue
            }
            let key = CardBuilder.trimmed(String(line[..<equals]))
            fields.append(Field(key: key, value: String(line[line.index(after: equals)...]), line: number))
        }
        if let section { try addContact(section, fields, to: &builder, log: &log) }
        return builder.finish(warnings: [])
    }

    /// Adds the card of one section; the `[format]` section is passed over.
    private static func addContact(
        _ section: (name: String, line: Int), _ fields: [Field], to builder: inout CardBuilder,
        log: inout ConversionLog
    ) throws {
        if section.name.lowercased() == "format" { return }
        guard let name = fields.first(where: { $0.key == "name" && !CardBuilder.trimmed($0.value).isEmpty }) else {
            if !fields.isEmpty {
                try log.recover(
                    "the contact [\(section.name)] at line \(section.line) has no name; it was skipped",
                    line: section.line)
            }
            return
        }
        builder.begin(line: section.line)
        InterchangeName.add(name.value, to: &builder, line: name.line)
        var address = Array(repeating: "", count: 7)
        var addressLine: Int?
        let addressParts = ["address": 2, "address2": 1, "city": 3, "state": 4, "zip": 5, "country": 6]
        for field in fields where field.key != "name" {
            if let index = addressParts[field.key] {
                address[index] = field.value
                addressLine = addressLine ?? field.line
                continue
            }
            try add(field, to: &builder, log: &log)
        }
        if let addressLine {
            builder.addLabelled("ADR", kind: .address, label: nil, value: "", structured: address, line: addressLine)
        }
        builder.end()
    }

    /// Adds what a field other than the name and address parts maps to.
    private static func add(_ field: Field, to builder: inout CardBuilder, log: inout ConversionLog) throws {
        let line = field.line
        switch field.key {
        case "email":
            for (index, email) in list(field.value).enumerated() {
                builder.addLabelled("EMAIL", kind: .email, label: nil, value: email, preferred: index == 0, line: line)
            }
        case "phone": builder.addLabelled("TEL", kind: .phone, label: .home, value: field.value, line: line)
        case "workphone": builder.addLabelled("TEL", kind: .phone, label: .work, value: field.value, line: line)
        case "mobile": builder.addLabelled("TEL", kind: .phone, label: .mobile, value: field.value, line: line)
        case "fax": builder.addLabelled("TEL", kind: .phone, label: .otherFax, value: field.value, line: line)
        case "nick": builder.addText("NICKNAME", field.value, line: line)
        case "url": builder.addLabelled("URL", kind: .url, label: nil, value: field.value, line: line)
        case "notes": builder.addText("NOTE", field.value, line: line)
        case "groups": builder.addGroups(list(field.value), line: line)
        case "anniversary":
            guard let date = try? ContactDate(parsing: CardBuilder.trimmed(field.value)) else {
                try log.recover("the anniversary at line \(line) is not a date; it was kept as written", line: line)
                builder.addKept(format: format, field: field.key, value: field.value, line: line)
                return
            }
            builder.addDate("X-ABDATE", date, label: .anniversary, line: line)
        default:
            builder.addKept(format: format, field: field.key, value: field.value, line: line)
        }
    }

    /// The items of a comma-separated list, trimmed, empty ones left out.
    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { CardBuilder.trimmed(String($0)) }.filter { !$0.isEmpty }
    }
}
