import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

/// The store never follows a symbolic link out of its folder: a record file or manifest that is
/// a link is refused when loading, and a save replaces a link rather than writing through it.
@Suite("AddressBook symbolic links")
struct AddressBookSymbolicLinkTests {
    /// A saved store with one person (with an image) in one group, and a folder beside it for
    /// the files links point to.
    private func makeStore() throws -> (store: TemporaryStore, katie: Person, group: Group) {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        katie.setImageData(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("original".utf8))
        let group = Group(name: "Friends")
        try book.add(katie)
        try book.add(group)
        try book.save()
        try group.addMember(katie)
        try book.save()
        return (store, katie, group)
    }

    /// Writes `data` to a file outside the store and links `relative` inside the store to it.
    @discardableResult
    private func link(_ relative: String, in store: TemporaryStore, to data: Data) throws -> URL {
        let outside = store.url.appending(path: "outside-\(UUID().uuidString)")
        try data.write(to: outside)
        let inside = store.path(relative)
        if FileManager.default.fileExists(atPath: inside.path) {
            try FileManager.default.removeItem(at: inside)
        }
        try #require(symlink(outside.path, inside.path) == 0)
        return outside
    }

    private func isLink(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    private func expectRefusal(
        of relative: String, in store: TemporaryStore, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: ContactsError.self, sourceLocation: sourceLocation) { try store.openBook() }
        #expect(error?.code == .malformedFile, sourceLocation: sourceLocation)
        #expect(error?.path?.hasSuffix(relative) == true, "path: \(error?.path ?? "none")", sourceLocation: sourceLocation)
    }

    @Test func aPersonFileLinkingOutOfTheStoreIsRefusedWhenLoading() throws {
        let (store, katie, _) = try makeStore()
        let bytes = try Data(contentsOf: store.path(try store.personFile(katie)))
        let text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: "\"id\": \(katie.recordID)", with: "\"id\": 999")
        try link("people/evil.json", in: store, to: Data(text.utf8))
        expectRefusal(of: "people/evil.json", in: store)
    }

    @Test func aMembershipFileLinkingOutOfTheStoreIsRefusedWhenLoading() throws {
        let (store, _, group) = try makeStore()
        let key = try #require(group.key)
        let members = try Data(contentsOf: store.path("groups/\(key.rawValue).members"))
        try link("groups/\(key.rawValue).members", in: store, to: members)
        expectRefusal(of: "groups/\(key.rawValue).members", in: store)
    }

    @Test func aManifestLinkingOutOfTheStoreIsRefusedWhenLoading() throws {
        let (store, _, _) = try makeStore()
        try link("store.json", in: store, to: try Data(contentsOf: store.path("store.json")))
        expectRefusal(of: "store.json", in: store)
    }

    @Test func aSaveReplacesALinkedImageInsteadOfWritingThroughIt() throws {
        let (store, katie, _) = try makeStore()
        let book = try store.openBook()
        let name = try #require(try store.files(in: "people").first { $0.hasSuffix(".jpg") })
        let outsideBytes = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("outside".utf8)
        let outside = try link("people/\(name)", in: store, to: outsideBytes)

        let person = try #require(book.person(withID: katie.recordID))
        let newBytes = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("replaced".utf8)
        person.setImageData(newBytes)
        try book.save()

        #expect(try Data(contentsOf: outside) == outsideBytes)
        #expect(!isLink(store.path("people/\(name)")))
        #expect(try Data(contentsOf: store.path("people/\(name)")) == newBytes)
    }

    @Test func aSaveDoesNotWriteThroughAPersonFileReplacedByALink() throws {
        let (store, katie, _) = try makeStore()
        let book = try store.openBook()
        let person = try #require(book.person(withID: katie.recordID))
        let file = try store.personFile(katie)
        let bytes = try Data(contentsOf: store.path(file))
        let outside = try link(file, in: store, to: bytes)

        person.note = "changed"
        let error = #expect(throws: ContactsError.self) { try book.save() }
        #expect(error?.code == .malformedFile)
        #expect(try Data(contentsOf: outside) == bytes)
        #expect(isLink(store.path(file)))
    }
}
