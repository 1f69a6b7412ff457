import Foundation
import PlainContacts

/// `contacts-bench --import-formats`: the same N generated people imported into a new store
/// from one vCard file and from Google's CSV of them, alternating which goes first, each
/// timed as the library's whole import (reading, converting, matching, one save).
///
/// The CSV is the store's own Google CSV export of the imported cards, so both files hold the
/// same people.
enum ImportFormatsBench {
    static func run(_ options: BenchOptions, source: CardSource) throws {
        var machine = MachineInfo.current()
        let people = options.sizes.first ?? 10_000
        let runs = max(options.runs, 1)
        let workspace = try Workspace(keep: options.keep)
        defer { workspace.finish() }
        let vcf = workspace.path("people.vcf")
        _ = try source.writeSingleFile(count: people, to: vcf)
        let first = workspace.path("first")
        _ = try PreparedStore.importCards(vcf, intoNewStoreAt: first)
        let book = try AddressBook(url: first)
        let csv = workspace.path("people.csv")
        try Data(try book.exportCSV(book.allPeople(sortedBy: nil), layout: .google).utf8).write(to: csv)
        workspace.remove(first)
        Progress.note("timing \(runs) imports of each of \(Format.count(people)) people")

        var vcardTimes: [Double] = []
        var csvTimes: [Double] = []
        for run in 0..<runs {
            let order: [(URL, Bool)] = run % 2 == 0 ? [(vcf, false), (csv, true)] : [(csv, true), (vcf, false)]
            for (file, isCSV) in order {
                let seconds = try time(importing: file, asCSV: isCSV, into: workspace.path("run-\(run)-\(isCSV)"), workspace: workspace)
                if isCSV { csvTimes.append(seconds) } else { vcardTimes.append(seconds) }
            }
        }
        machine.loadAtEnd = MachineInfo.loadAverage()
        let vcard = Sample(runs: vcardTimes)
        let google = Sample(runs: csvTimes)
        print("""
            | \(Format.count(people)) people, \(runs) runs each, alternating | median | min | max |
            |---|---:|---:|---:|
            | vCard 3.0 file (`importVCards`) | \(Format.seconds(vcard.median)) | \(Format.seconds(vcard.min)) | \(Format.seconds(vcard.max)) |
            | Google CSV (`importContacts`) | \(Format.seconds(google.median)) | \(Format.seconds(google.min)) | \(Format.seconds(google.max)) |
            | CSV / vCard | \(Format.ratio(google.median / max(vcard.median, 1e-9))) | | |

            \(machine.summary)
            """)
    }

    /// Seconds to import `file` into a new store at `folder`, which is removed afterwards.
    private static func time(importing file: URL, asCSV: Bool, into folder: URL, workspace: Workspace) throws -> Double {
        let book = try AddressBook.create(at: folder)
        let options = VCardImportOptions(onMatch: .createNew)
        let clock = ContinuousClock()
        let start = clock.now
        let report = asCSV
            ? try book.importContacts(from: try Data(contentsOf: file), source: file.path, format: .csv, options: options)
            : try book.importVCards(contentsOf: file, options: options)
        let seconds = (clock.now - start).seconds
        guard report.warnings.isEmpty || !asCSV else {
            throw ContactsError(.invalidValue, "the CSV import warned: \(report.warnings[0])")
        }
        workspace.remove(folder)
        return seconds
    }
}
