import Foundation
import PlainContacts

/// `contacts-bench --import-fidelity DIR`: how many of the fields and labels of other
/// programs' exports (CSV in its layouts, LDIF, abook, mutt aliases, Eudora nicknames) the
/// library's import keeps.
///
/// Each file under the folder that the measure can read is counted by the measure's own
/// readers (``ImportSourceFormat``), never by the importer's tables, then imported into a fresh
/// store as `contacts import FILE` does (``AddressBook/importContacts(from:source:format:options:decide:)``,
/// the format found from the content), except that no record is merged into another, so that
/// each person answers for one record. Every field is then looked up in the person that holds
/// most of its record (``ImportFidelityCount``).
enum ImportFidelityRun {
    /// Measures the files under `folder` and prints the figures (as JSON when `json` is set,
    /// every loss with `details`).
    ///
    /// - Returns: The formats below `require` (fields and labels percent), empty without it.
    /// - Throws: The errors of ``summary(of:)``.
    static func run(folder: URL, details: Bool, json: Bool, require: (fields: Double, labels: Double)?) throws -> [String] {
        let summary = try summary(of: folder)
        Progress.note("counted \(Format.count(summary.total.fields)) fields of \(Format.count(summary.total.files)) files")
        print(json ? try summary.json(details: details) : summary.text(details: details))
        guard let require else { return [] }
        return summary.shortfalls(fields: require.fields, labels: require.labels)
    }

    /// Measures the files under `folder`, each imported into its own temporary store.
    ///
    /// - Throws: ``UsageError`` when `folder` is not a folder; ``ContactsError/Code/io`` when
    ///   a file cannot be read or a temporary store cannot be made.
    static func summary(of folder: URL) throws -> ImportFidelitySummary {
        let files = try BenchFolder.files(under: folder, option: "--import-fidelity")
        let workspace = try Workspace(keep: false)
        defer { workspace.finish() }
        // The folder as given, so that the figures name no machine's own path.
        var summary = ImportFidelitySummary(folder: folder.relativePath)
        for (index, file) in files.enumerated() {
            let data = try BenchFolder.read(file.url)
            let text = SourceText.decode(data)
            guard let format = ImportSourceFormat.of(name: file.name, text: text) else {
                summary.skipped.append(file.name)
                continue
            }
            let records = format.records(text)
            let store = workspace.path("store-\(index)")
            let (people, groups, importedAs) = try imported(data, name: file.name, into: store)
            let count = ImportFidelityCount(records: records, people: people, groups: groups)
            summary.add(file: file.name, format: format, importedAs: importedAs, count: count, records: records)
            workspace.remove(store)
        }
        return summary
    }

    /// Imports `data` into a new store at `store` as `contacts import` does, every record a new
    /// person; the people and groups made, and the format the report names or why the import
    /// refused the file (then nothing is kept).
    private static func imported(
        _ data: Data, name: String, into store: URL
    ) throws -> ([ImportedPersonView], [ImportedGroupView], String) {
        let book = try AddressBook.create(at: store)
        let report: VCardImportReport
        do {
            report = try book.importContacts(
                from: data, source: name, options: VCardImportOptions(onMatch: .createNew), decide: { _ in .createNew })
        } catch let error as InterchangeError {
            return ([], [], "refused: \(error.code) at line \(error.line ?? 0)")
        } catch let error as ContactsError where error.code != .io {
            return ([], [], "refused: \(error.code)")
        }
        let people = report.added.compactMap { book.person(withID: $0) }.map { ImportedPersonView(person: $0, in: book) }
        let groups = book.allGroups().map { ImportedGroupView(group: $0, in: book) }
        let read = report.formatsRead.first.map { String($0.drop { $0 != ":" }.dropFirst(2)) } ?? "vcard"
        return (people, groups, read)
    }
}
