/// What `contacts export --format` writes.
///
/// A new format is one case here (its word is the raw value, which help and shell completion
/// list) and one branch in ``ExportCommand``.
enum ExportFormat: String, CaseIterable, Sendable {
    /// vCards (the default), 3.0 or 4.0 as `--vcard-version` says.
    case vcard
    /// Google Contacts' CSV, which Google, Outlook.com and iCloud import.
    case csv
    /// Outlook's CSV with English headers.
    case outlookCSV = "outlook-csv"
    /// LDIF as Thunderbird imports it.
    case ldif
    /// An iCalendar birthday calendar: each birthday and anniversary as a yearly event.
    case ics

    /// The words `--format` accepts, for help: `vcard|csv|outlook-csv|ldif|ics`.
    static var words: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// Reads the word given to `--format`.
    ///
    /// - Throws: a usage error naming the formats for another word.
    static func parse(_ text: String) throws(CLIError) -> ExportFormat {
        guard let format = ExportFormat(rawValue: text.lowercased()) else {
            throw CLIError.usage("--format is one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }
}
