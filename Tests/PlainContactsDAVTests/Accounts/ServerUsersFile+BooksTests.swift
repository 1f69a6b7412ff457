import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The books of the users file: which store each book is, and which books each user has.
@Suite struct ServerUsersFileBooksTests {
    private let home: TemporaryStore
    private let family: TemporaryStore
    private let users: ServerUsersFile

    init() throws {
        home = try TemporaryStore()
        family = try TemporaryStore()
        for store in [home, family] { _ = try store.makeBook() }
        users = ServerUsersFile(storeURL: home.storeURL, hashIterations: 1_000, minimumIterations: 1_000)
    }

    private func name(_ text: String) throws -> ServerUserName { try ServerUserName(text) }
    private func book(_ text: String) throws -> ServedBookName { try ServedBookName(text) }

    private func books(of user: String) throws -> [String] {
        let account = try #require(try users.accounts().first { $0.name.rawValue == user })
        return account.books.map { $0.book.rawValue + ($0.access == .read ? ":read" : "") }
    }

    @Test func aUserWithoutBooksHasThisStoreAndKeepsItWhenGrantedMore() throws {
        try users.add(name("kim"), password: "pw", replacing: false)
        #expect(try books(of: "kim") == ["contacts"])
        #expect(try users.bookFolders() == [.home: home.storeURL])

        try users.grant(name("kim"), books: [ServedBookReference(name: book("family"), folder: family.storeURL)], access: .readWrite)
        #expect(try books(of: "kim") == ["contacts", "family"])
        #expect(try users.bookFolders()[book("family")]?.standardizedFileURL.path == family.storeURL.standardizedFileURL.path)

        // Granting again changes the access, and --first moves the book to the front.
        try users.grant(name("kim"), books: [ServedBookReference(name: book("family"))], access: .read, first: true)
        #expect(try books(of: "kim") == ["family:read", "contacts"])
        // A new password keeps the books.
        try users.add(name("kim"), password: "new", replacing: true)
        #expect(try books(of: "kim") == ["family:read", "contacts"])
    }

    @Test func aBookNoUserHasIsForgotten() throws {
        let familyBook = ServedBookReference(name: try book("family"), folder: family.storeURL)
        try users.add(name("kim"), password: "pw", replacing: false, books: [familyBook])
        try users.add(name("tab"), password: "pw", replacing: false, books: [ServedBookReference(name: book("family"))], access: .read)
        #expect(try books(of: "tab") == ["family:read"])

        try users.revoke(name("kim"), books: [book("family")])
        #expect(try books(of: "kim") == [])
        #expect(try users.bookFolders()[book("family")] != nil)
        try users.remove(name("tab"))
        #expect(try users.bookFolders()[book("family")] == nil)
        // Known no more, the book must be named with its folder again.
        let error = #expect(throws: ServeError.self) {
            try users.grant(name("kim"), books: [ServedBookReference(name: book("family"))], access: .readWrite)
        }
        #expect(error?.code == .bookNotFound)
    }

    @Test func oneNameIsOneStoreAndOneStoreOneName() throws {
        let other = try TemporaryStore()
        _ = try other.makeBook()
        try users.add(name("kim"), password: "pw", replacing: false, books: [
            ServedBookReference(name: book("family"), folder: family.storeURL),
        ])
        let clash = #expect(throws: ServeError.self) {
            try users.grant(name("kim"), books: [ServedBookReference(name: book("family"), folder: other.storeURL)], access: .readWrite)
        }
        #expect(clash?.code == .bookExists)
        let twice = #expect(throws: ServeError.self) {
            try users.grant(name("kim"), books: [ServedBookReference(name: book("kin"), folder: family.storeURL)], access: .readWrite)
        }
        #expect(twice?.code == .bookExists)
        let home = #expect(throws: ServeError.self) {
            try users.grant(name("kim"), books: [ServedBookReference(name: .home, folder: other.storeURL)], access: .readWrite)
        }
        #expect(home?.code == .bookExists)
        // This store by its folder is always the book `contacts`.
        try users.grant(name("kim"), books: [ServedBookReference(name: book("mine"), folder: self.home.storeURL)], access: .readWrite)
        #expect(try books(of: "kim") == ["family", "contacts"])
        // A folder without a store is refused, and nothing is written.
        let before = try Data(contentsOf: users.fileURL)
        let empty = other.storeURL.appending(path: "not-a-store")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let notStore = #expect(throws: ContactsError.self) {
            try users.grant(name("kim"), books: [ServedBookReference(name: book("empty"), folder: empty)], access: .readWrite)
        }
        #expect(notStore?.code == .notAStore)
        #expect(try Data(contentsOf: users.fileURL) == before)
    }

    @Test func aDamagedBooksEntryIsRefusedNamingTheFileAndTheBook() throws {
        try FileManager.default.createDirectory(at: home.path(".contacts"), withIntermediateDirectories: true)
        let damaged = [
            #"{"books": {"family": "relative/path"}, "users": {}}"#,
            #"{"books": {"bad name": "/x"}, "users": {}}"#,
            #"{"users": {"kim": {"passwordHash": "x", "books": [{"book": "family"}]}}}"#,
            #"{"users": {"kim": {"passwordHash": "x", "books": "family"}}}"#,
        ]
        for text in damaged {
            try home.write(text, to: ".contacts/users.json")
            let error = #expect(throws: ContactsError.self) { try users.bookFolders() }
            #expect(error?.code == .malformedFile, "\(text)")
            #expect(error?.path == users.fileURL.path(percentEncoded: false))
        }
    }

    @Test(arguments: [
        ("family", "family", false), ("shared=/srv/office", "shared", true), ("../family", "family", true),
        ("/home/kim/contacts/family/", "family", true), ("x=../y", "x", true),
    ])
    func aBookIsNamedByItsNameOrItsFolder(argument: String, expected: String, hasFolder: Bool) throws {
        let reference = try ServedBookReference(argument: argument, relativeTo: URL(filePath: "/home/kim/contacts/kim/"))
        #expect(reference.name.rawValue == expected)
        #expect((reference.folder != nil) == hasFolder)
        if argument == "../family" { #expect(reference.folder?.path(percentEncoded: false).hasPrefix("/home/kim/contacts/family") == true) }
    }

    @Test(arguments: ["", "my book", "-x", "a/b=c", "tab\tname", String(repeating: "b", count: 65), "./my folder"])
    func aNameThatCannotBeInAURLIsRefused(argument: String) {
        #expect(throws: ContactsError.self) {
            try ServedBookReference(argument: argument, relativeTo: URL(filePath: "/tmp/"))
        }
    }
}
