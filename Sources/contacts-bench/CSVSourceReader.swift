import Foundation

/// Reads the fields of a CSV export (Google, Outlook in several languages, Thunderbird with or
/// without its header row, Yahoo, KAddressBook, LinkedIn, a plain sheet) for the import
/// fidelity measure: one record per row, one field per non-empty cell, each with the kind and
/// label its header names (see ``CSVColumn``).
///
/// Google's ` ::: ` makes several fields of a cell, each labelled by the same part of its
/// group's type cell. A file whose first row holds an email address has no header row and is
/// read in Thunderbird's column order, the only headerless layout in use.
///
/// ```swift
/// let records = CSVSourceReader.records("Name,Home Phone\nKatie Bell,+1 555 0100\n")
/// records[0].fields.map(\.kind)   // [.displayName, .phone]
/// ```
enum CSVSourceReader {
    /// Thunderbird's CSV columns, in the order it writes them, read from its header row as its
    /// export writes it.
    ///
    /// The store's CSV reader has its own list (`CSVLayout.thunderbirdColumns`). The measure
    /// keeps this one apart on purpose, as the rest of this reader is: it reads each source file
    /// independently of the importer it judges, so a wrong or missing column in the importer's
    /// list shows as fields lost instead of agreeing with itself.
    static let thunderbirdColumns = CSVSourceTable(thunderbirdHeaderRow).rows.first?.cells ?? []

    /// The first line of a Thunderbird CSV export.
    private static let thunderbirdHeaderRow = """
        First Name,Last Name,Display Name,Nickname,Primary Email,Secondary Email,Screen Name,Work Phone,\
        Home Phone,Fax Number,Pager Number,Mobile Number,Home Address,Home Address 2,Home City,Home State,\
        Home ZipCode,Home Country,Work Address,Work Address 2,Work City,Work State,Work ZipCode,Work Country,\
        Job Title,Department,Organization,Web Page 1,Web Page 2,Birth Year,Birth Month,Birth Day,Custom 1,\
        Custom 2,Custom 3,Custom 4,Notes
        """

    /// Outlook's values that say a flag or a date was never set.
    static let outlookDefaults: Set<String> = [
        "normal", "aus", "off", "false", "falsch", "nicht angegeben", "keine angabe", "unspecified", "non spécifié",
    ]

    /// The records of `text`.
    static func records(_ text: String) -> [SourceRecord] {
        let table = CSVSourceTable(text)
        guard let first = table.rows.first else { return [] }
        let headerless = first.cells.contains { $0.contains("@") }
        let headers = headerless ? thunderbirdColumns : first.cells
        let jobTitle = headers.contains { ["job title", "position", "fonction", "役職"].contains(Words($0).lowered) }
        let columns = headers.map { CSVColumn(header: $0, jobTitleColumn: jobTitle) }
        return table.rows.dropFirst(headerless ? 0 : 1).map { record(of: $0, columns: columns) }
    }

    /// The record of a row: its type and service cells first, as the labels of their groups.
    private static func record(of row: CSVSourceTable.Row, columns: [CSVColumn]) -> SourceRecord {
        var record = SourceRecord(line: row.line)
        var types: [String: [String]] = [:]
        var services: [String: [String]] = [:]
        for (column, cell) in zip(columns, row.cells) where column.group != nil && !cell.isEmpty {
            if column.role == .type, let group = column.group { types[group] = parts(cell) }
            if column.role == .service, let group = column.group { services[group] = parts(cell) }
        }
        for (index, cell) in row.cells.enumerated() {
            let column = index < columns.count ? columns[index] : CSVColumn(header: "#\(index + 1)", role: .value)
            let value = cell.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else {
                record.exclude(.empty)
                continue
            }
            switch column.role {
            case .type, .service: record.exclude(.typeCell)
            case .mailTransport: record.exclude(.mailTransport)
            case .outlookFlag:
                if outlookDefaults.contains(value.lowercased()) {
                    record.exclude(.outlookDefault)
                } else {
                    record.add(column.header, value, kind: .other)
                }
            case .value:
                add(value, of: column, types: types, services: services, to: &record)
            }
        }
        return record
    }

    /// Adds the fields of a value cell: each group of a groups cell, each of Google's values.
    private static func add(
        _ value: String, of column: CSVColumn, types: [String: [String]], services: [String: [String]],
        to record: inout SourceRecord
    ) {
        if column.kind == .birthday || column.kind == .date, isEmptyDate(value) {
            record.exclude(.outlookDefault)
            return
        }
        if column.kind == .group {
            for name in split(value, by: column.groupSeparators) {
                let bare = name.hasPrefix("*") ? name.dropFirst().trimmingCharacters(in: .whitespaces) : name
                if ["my contacts", "mycontacts"].contains(bare.lowercased()) {
                    record.exclude(.googleSystemGroup)
                } else {
                    record.add(column.header, bare, kind: .group)
                }
            }
            return
        }
        let values = column.multiple ? parts(value) : [value]
        for (index, part) in values.enumerated() {
            var part = part
            var label = column.label
            if let group = column.group {
                let type = types[group].map { $0[min(index, $0.count - 1)] }
                let service = services[group].map { $0[min(index, $0.count - 1)] }
                label = label ?? service.flatMap(ExpectedLabel.word).map { .custom($0.name) } ?? type.flatMap(ExpectedLabel.word)
                if column.fax { label = .fax(label) }
            }
            if column.kind == .instantMessage, let (service, user) = serviceAndUser(part) {
                label = label ?? .custom(service)
                part = user
            }
            record.add(column.header, part, kind: column.kind, label: label)
        }
    }

    /// The values of a Google cell, ` ::: ` between them.
    static func parts(_ cell: String) -> [String] {
        split(cell, by: [":::"])
    }

    /// The pieces of a cell between any of `separators`, trimmed, empty ones left out.
    private static func split(_ cell: String, by separators: [String]) -> [String] {
        var pieces = [cell]
        for separator in separators {
            pieces = pieces.flatMap { $0.components(separatedBy: separator) }
        }
        return pieces.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Outlook's date that was never set: `0.0.00`, `0/0/00`.
    private static func isEmptyDate(_ value: String) -> Bool {
        value.contains { $0.isNumber } && value.allSatisfy { $0 == "0" || $0 == "." || $0 == "/" || $0 == "-" }
    }

    /// Gmail 2007's `AIM: name`: the service and the user name.
    private static func serviceAndUser(_ value: String) -> (String, String)? {
        guard let colon = value.range(of: ": ") else { return nil }
        let service = value[..<colon.lowerBound]
        guard !service.isEmpty, service.allSatisfy({ $0.isLetter || $0 == " " }) else { return nil }
        return (String(service), String(value[colon.upperBound...]))
    }
}
