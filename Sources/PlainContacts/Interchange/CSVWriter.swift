/// Writes CSV as spreadsheets and Google, Outlook.com and iCloud read it: comma-separated,
/// CRLF line ends, cells quoted when they hold a comma, quote or line break, quotes doubled.
///
/// ```swift
/// var writer = CSVWriter()
/// writer.row(["Name", "Note"])
/// writer.row(["Bell, Katie", "said \"hi\""])
/// writer.text   // "Name,Note\r\n\"Bell, Katie\",\"said \"\"hi\"\"\"\r\n"
/// ```
struct CSVWriter {
    /// The text written so far.
    private(set) var text = ""

    /// Appends one row.
    mutating func row(_ cells: [String]) {
        text += cells.map(Self.cell).joined(separator: ",")
        text += "\r\n"
    }

    /// One cell, quoted when it must be.
    static func cell(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == ";" })
            || value.first == " " || value.last == " "
        else { return value }
        return "\"" + value.replacing("\"", with: "\"\"") + "\""
    }
}
