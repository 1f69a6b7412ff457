import Foundation
import PlainContacts

/// How the benchmark imports a `.vcf` file into a store: the library's vCard import.
enum StoreImport {
    /// The import path, as reported with the figures.
    static let method = "AddressBook.importVCards(contentsOf:options:)"

    /// Imports every card of `file` into `book` and saves; every card becomes a new person.
    ///
    /// - Returns: The number of people added.
    /// - Throws: The library's reading, vCard and saving errors.
    static func importCards(from file: URL, into book: AddressBook) throws -> Int {
        let report = try book.importVCards(contentsOf: file, options: VCardImportOptions(onMatch: .createNew))
        return report.added.count
    }
}
