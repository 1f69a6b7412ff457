import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

/// The files under `Tests/PlainContactsTests/Fixtures/exports`, found from this source file's
/// path so that the test target needs no resources, and helpers shared by the import tests of
/// other formats.
enum InterchangeFixtures {
    /// The `Fixtures/exports` folder.
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Interchange
        .deletingLastPathComponent()  // PlainContactsTests
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("exports")

    /// The bytes of a fixture.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The bytes of a fixture as `Data`, by its path under the folder (`csv/google.csv`).
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(path))
    }

    /// The CSV and tab-separated fixtures, as paths under the folder.
    static var csvFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("csv").path)) ?? []
        return names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".tsv") }.sorted().map { "csv/\($0)" }
    }

    /// The names of the fixtures ending in `suffix`, sorted.
    static func names(endingIn suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// Converts text given as a Swift string, leniently unless `strict`.
    static func convert(_ text: String, format: ContactFileFormat, strict: Bool = false) throws -> ConvertedContacts {
        try ContactConverter.convert(Array(text.utf8), source: "test.\(format.rawValue)", format: format, strict: strict)
    }

    /// Converts a fixture, leniently.
    static func convert(fixture name: String, format: ContactFileFormat) throws -> ConvertedContacts {
        try ContactConverter.convert(bytes(name), source: name, format: format, strict: false)
    }

    /// The converted cards as vCard text, to look at single lines.
    static func lines(_ converted: ConvertedContacts) -> [String] {
        String(decoding: converted.vCardText, as: UTF8.self)
            .split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Imports converted cards into a fresh book of `store`.
    @discardableResult
    static func importIntoFreshBook(_ converted: ConvertedContacts, store: TemporaryStore) throws -> AddressBook {
        let book = try store.makeBook()
        let report = try book.importVCards(
            from: Data(converted.vCardText), source: "converted.vcf",
            options: VCardImportOptions(onMatch: .createNew))
        #expect(report.membershipError == nil)
        return book
    }

    /// The one person of `book` whose email list holds `email`.
    static func person(_ book: AddressBook, email: String) throws -> Person {
        let matches = book.allPeople().filter { $0.emails.values.contains(email) }
        try #require(matches.count == 1)
        return matches[0]
    }

    /// The names of the groups holding `person`, sorted.
    static func groupNames(_ book: AddressBook, of person: Person) -> [String] {
        book.groups(containing: person).compactMap(\.name).sorted()
    }

    /// The labelled values of a multi-value as `label=value`, `-` for no label.
    static func pairs<Value>(_ values: MultiValue<Value>) -> [String] {
        values.entries.map { "\($0.label?.rawValue ?? "-")=\($0.value)" }
    }

    /// The `ContactsError` thrown by `body`, or `nil` when it throws something else or nothing.
    static func contactsError(_ body: () throws -> Void) -> ContactsError? {
        VCardTesting.contactsError(body)
    }

    /// The `InterchangeError` `body` throws, or `nil`.
    static func interchangeError(_ body: () throws -> Void) -> InterchangeError? {
        VCardTesting.interchangeError(body)
    }
}
