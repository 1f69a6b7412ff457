/// Reads contacts from CSV exports: Google Contacts (both layouts), Outlook and Outlook.com
/// (in any language ``CSVHeaderNames`` knows), Thunderbird, Yahoo, LinkedIn and generic
/// sheets with recognisable headers.
///
/// The first row is the header, unless the rows are in a fixed column order this reader
/// recognises by content (Thunderbird's, see ``CSVLayout/headerless(_:)``). Each further row is one contact, written as a card by
/// ``CardBuilder``: name parts, organization, dates, notes, groups, and labelled emails,
/// phones, websites, addresses, related names and accounts. A column the model has no place
/// for is kept with the person under its header (``CardBuilder/addKept(format:field:value:line:)``).
///
/// Google's cells may hold several values separated by ` ::: `, and mark the primary one with
/// `* ` before its label; its group membership leaves out the group of all contacts.
///
/// ```swift
/// var log = ConversionLog(source: "contacts.csv", strict: false)
/// let converted = try CSVContactReader.convert("Name,E-mail\nKatie Bell,k@x.example\n", log: &log)
/// converted.cardCount   // 1
/// ```
enum CSVContactReader {
    /// The format name kept fields carry.
    static let formatName = "csv"

    /// Converts every row after the header.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` when the file has no header this reader
    ///   knows, or (strict) at the first recovery.
    static func convert(_ text: String, log: inout ConversionLog) throws -> ConvertedContacts {
        let table = try CSVTable(parsing: text, log: &log)
        guard let header = table.rows.first else {
            throw log.refusal("the file is empty", line: nil)
        }
        let layout: CSVLayout
        let rows: ArraySlice<CSVTable.Row>
        if let headerless = CSVLayout.headerless(table.rows) {
            layout = headerless
            rows = table.rows[...]
        } else {
            layout = CSVLayout(header: header.cells)
            rows = table.rows.dropFirst()
        }
        guard layout.knowsAnyColumn else {
            throw log.refusal(
                "the first row is not a header this importer knows; name the columns, such as Name,Email,Phone",
                line: header.line)
        }
        var builder = CardBuilder()
        let columns = layout.headers.count
        for row in rows {
            if row.cells.count > columns,
                row.cells[columns...].contains(where: { !CardBuilder.trimmed($0).isEmpty })
            {
                try log.recover(
                    "the row has \(row.cells.count - columns) more cells than the header; "
                        + "they were kept with the person as \"column N\"",
                    line: row.line)
            }
            var card = CSVRowCard(layout: layout, line: row.line)
            try card.read(row.cells, log: &log)
            card.write(to: &builder)
        }
        var converted = builder.finish(warnings: [])
        converted.layout = layout.name
        return converted
    }
}
