import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

/// Only a file or folder that does not exist reads as missing; anything else that stops a read
/// is an error that keeps its cause.
@Suite struct StoreReaderTests {
    private func store() throws -> (TemporaryStore, StoreReader) {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        return (store, StoreReader(layout: StoreLayout(root: store.storeURL)))
    }

    @Test func aFolderWhereAFileShouldBeIsAnErrorNotAMissingFile() throws {
        let (store, reader) = try store()
        let url = store.path("people/katie-bell-aaaaaa.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        var caught: ContactsError?
        do {
            _ = try reader.read(url)
        } catch let error as ContactsError {
            caught = error
        }
        #expect(caught?.code == .io)
        #expect((caught?.underlying as? SystemCallError)?.errno == EISDIR)
    }

    @Test func aManifestThatCannotBeReadIsNotMistakenForNoStore() throws {
        let (store, reader) = try store()
        try FileManager.default.removeItem(at: store.path("store.json"))
        try FileManager.default.createDirectory(at: store.path("store.json"), withIntermediateDirectories: false)
        #expect(throws: ContactsError.self) { try reader.readManifest() }
        do {
            _ = try reader.readManifest()
        } catch let error as ContactsError {
            #expect(error.code == .io)
        }
    }

    @Test func aFileWhereTheGroupsFolderShouldBeIsMalformed() throws {
        let (store, reader) = try store()
        try FileManager.default.removeItem(at: store.path("groups"))
        try store.write("not a folder\n", to: "groups")
        var caught: ContactsError?
        do {
            _ = try reader.fileNames(in: store.path("groups"), withExtension: ".json")
        } catch let error as ContactsError {
            caught = error
        }
        #expect(caught?.code == .malformedFile)
    }

    @Test func aFolderThatDoesNotExistHoldsNoFiles() throws {
        let (store, reader) = try store()
        try FileManager.default.removeItem(at: store.path("groups"))
        #expect(try reader.fileNames(in: store.path("groups"), withExtension: ".json").isEmpty)
        #expect(try reader.read(store.path("groups/friends-aaaaaa.json")) == nil)
    }
}
