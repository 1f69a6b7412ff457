import Foundation

/// The formats the import fidelity measure reads with its own readers, found by its own look
/// at a file (its name, then its first lines), independently of the library's detection.
///
/// vCard files are left to `contacts-bench --fidelity`, which compares them line by line.
///
/// ```swift
/// ImportSourceFormat.of(name: "google.csv", text: "Name,E-mail 1 - Value\n")   // .csv
/// ```
enum ImportSourceFormat: String, CaseIterable, Encodable {
    /// Comma-, semicolon- or tab-separated values (``CSVSourceReader``).
    case csv
    /// LDIF (``LDIFSourceReader``).
    case ldif
    /// abook's `addressbook` (``AbookSourceReader``).
    case abook
    /// mutt and neomutt aliases (``MuttSourceReader``).
    case mutt
    /// Eudora's nicknames (``EudoraSourceReader``).
    case eudora

    /// The format of a file named `name` holding `text`, `nil` for anything else.
    static func of(name: String, text: String) -> ImportSourceFormat? {
        let file = (name as NSString).lastPathComponent.lowercased()
        let suffix = (file as NSString).pathExtension
        if ["csv", "tsv", "tab"].contains(suffix) { return .csv }
        if ["ldif", "ldi"].contains(suffix) { return .ldif }
        if ["vcf", "vcard", "md"].contains(suffix) { return nil }
        let lines = SourceText.lines(text).prefix(200).map { $0.text.trimmingCharacters(in: .whitespaces) }
        if file == "addressbook" || suffix == "addressbook" || lines.contains("[format]") { return .abook }
        let aliases = lines.contains { $0.hasPrefix("alias ") }
        if aliases, lines.contains(where: { $0.hasPrefix("note ") }) { return .eudora }
        if aliases { return .mutt }
        return nil
    }

    /// The records of `text` in this format.
    func records(_ text: String) -> [SourceRecord] {
        switch self {
        case .csv: CSVSourceReader.records(text)
        case .ldif: LDIFSourceReader.records(text)
        case .abook: AbookSourceReader.records(text)
        case .mutt: MuttSourceReader.records(text)
        case .eudora: EudoraSourceReader.records(text)
        }
    }
}
