import Foundation
import PlainContacts

/// A fresh store folder for one test, removed when the value is deinitialized.
public final class TemporaryStore {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appending(path: "PlainContactsTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The folder of a new store inside the temporary folder.
    public var storeURL: URL { url.appending(path: "book", directoryHint: .isDirectory) }

    /// Creates the store and opens a book on it.
    public func makeBook() throws -> AddressBook {
        try AddressBook(url: storeURL, options: AddressBookOptions(createIfMissing: true))
    }

    /// Opens another book on the same store.
    public func openBook() throws -> AddressBook {
        try AddressBook(url: storeURL)
    }

    public func path(_ relative: String) -> URL { storeURL.appending(path: relative) }

    public func read(_ relative: String) throws -> String {
        try String(contentsOf: path(relative), encoding: .utf8)
    }

    public func write(_ text: String, to relative: String) throws {
        try Data(text.utf8).write(to: path(relative))
    }

    /// Names of the files in a store folder, sorted.
    public func files(in relative: String) throws -> [String] {
        let folder = path(relative)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The file of a saved person.
    ///
    /// - Throws: ``TestSupportError`` when the person has no file (it was never saved).
    public func personFile(_ person: Person) throws -> String {
        guard let key = person.key else { throw TestSupportError("the person has no file; save it first") }
        return "people/\(key.rawValue).json"
    }
}

/// A person with a first and last name, added to nothing.
public func makePerson(_ first: String?, _ last: String?, organization: String? = nil) -> Person {
    let person = Person()
    person.firstName = first
    person.lastName = last
    person.organization = organization
    return person
}
