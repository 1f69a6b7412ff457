import Foundation
import Testing
@testable import PlainContacts

/// A fresh store folder for one test, removed when the value is deinitialized.
final class TemporaryStore {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appending(path: "PlainContactsTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The folder of a new store inside the temporary folder.
    var storeURL: URL { url.appending(path: "book", directoryHint: .isDirectory) }

    /// Creates the store and opens a book on it.
    func makeBook() throws -> AddressBook {
        try AddressBook(url: storeURL, options: AddressBookOptions(createIfMissing: true))
    }

    /// Opens another book on the same store.
    func openBook() throws -> AddressBook {
        try AddressBook(url: storeURL)
    }

    func path(_ relative: String) -> URL { storeURL.appending(path: relative) }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: path(relative), encoding: .utf8)
    }

    func write(_ text: String, to relative: String) throws {
        try Data(text.utf8).write(to: path(relative))
    }

    /// Names of the files in a store folder, sorted.
    func files(in relative: String) throws -> [String] {
        let folder = path(relative)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The file of a saved person.
    func personFile(_ person: Person) throws -> String {
        let key = try #require(person.key)
        return "people/\(key.rawValue).json"
    }
}

/// A person with a first and last name, added to nothing.
func makePerson(_ first: String?, _ last: String?, organization: String? = nil) -> Person {
    let person = Person()
    person.firstName = first
    person.lastName = last
    person.organization = organization
    return person
}
