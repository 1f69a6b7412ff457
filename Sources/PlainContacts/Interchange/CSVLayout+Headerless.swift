/// CSV files written without a header row, recognised by what their columns hold.
///
/// Older Thunderbird versions and some of its add-ons write the address book's columns in
/// Thunderbird's fixed order and leave the header out: the fifth and sixth columns hold email
/// addresses, the thirtieth to thirty-second the birth year, month and day.
///
/// ```swift
/// let rows = try CSVTable(parsing: "Ada,Lovelace,,,ada@example.org,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n", log: &log).rows
/// CSVLayout.headerless(rows)?.name   // "Thunderbird's columns without a header row"
/// ```
extension CSVLayout {
    /// Thunderbird's CSV columns, in the order its export writes them.
    static let thunderbirdColumns = [
        "First Name", "Last Name", "Display Name", "Nickname", "Primary Email", "Secondary Email", "Screen Name",
        "Work Phone", "Home Phone", "Fax Number", "Pager Number", "Mobile Number", "Home Address", "Home Address 2",
        "Home City", "Home State", "Home ZipCode", "Home Country", "Work Address", "Work Address 2", "Work City",
        "Work State", "Work ZipCode", "Work Country", "Job Title", "Department", "Organization", "Web Page 1",
        "Web Page 2", "Birth Year", "Birth Month", "Birth Day", "Custom 1", "Custom 2", "Custom 3", "Custom 4", "Notes",
    ]

    /// How many rows the recognition looks at.
    private static let sampledRows = 50

    /// The layout of a file whose first row is no header but a contact in a fixed column order
    /// this reader knows; `nil` when the first row is a header or the columns are not one.
    static func headerless(_ rows: [CSVTable.Row]) -> CSVLayout? {
        guard let first = rows.first else { return nil }
        let filled = first.cells.filter { !CardBuilder.trimmed($0).isEmpty }.count
        let known = CSVLayout(header: first.cells).fields.compactMap(\.self).count
        guard known * 2 < filled else { return nil }
        guard isThunderbird(rows.prefix(sampledRows)) else { return nil }
        var layout = CSVLayout(header: thunderbirdColumns)
        layout.name = "Thunderbird's columns without a header row"
        return layout
    }

    /// Whether every row has Thunderbird's number of columns (one more when rows end with a
    /// separator), emails or nothing in the email columns, numbers or nothing in the birth
    /// year and day, and at least one row an email.
    private static func isThunderbird(_ rows: ArraySlice<CSVTable.Row>) -> Bool {
        let count = thunderbirdColumns.count
        var sawEmail = false
        for row in rows {
            let cells = row.cells.map(CardBuilder.trimmed)
            guard cells.count == count || (cells.count == count + 1 && cells[count].isEmpty) else { return false }
            for column in [4, 5] where !cells[column].isEmpty {
                guard isEmail(cells[column]) else { return false }
                sawEmail = true
            }
            for column in [29, 31] where !cells[column].isEmpty {
                guard cells[column].allSatisfy(\.isASCII), Int(cells[column]) != nil else { return false }
            }
        }
        return sawEmail
    }

    /// Whether a cell reads as one email address.
    private static func isEmail(_ cell: String) -> Bool {
        let parts = cell.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !cell.contains { $0.isWhitespace || $0 == "," || $0 == "<" }
    }
}
