import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// One server per store: the lock on `.contacts/carddav/lock`, and the exclusive service that holds it.
@Suite struct CardDAVServerLockTests {
    @Test func aSecondLockOnTheStoreIsRefusedAsBusy() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let layout = StoreLayout(root: store.storeURL)
        let first = try CardDAVServerLock(layout: layout)
        withExtendedLifetime(first) {
            let error = #expect(throws: ContactsError.self) { try CardDAVServerLock(layout: layout) }
            #expect(error?.code == .busy)
        }
    }

    @Test func theLockIsFreeAgainOnceItsHolderIsGone() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let layout = StoreLayout(root: store.storeURL)
        var first: CardDAVServerLock? = try CardDAVServerLock(layout: layout)
        #expect(first != nil)
        first = nil
        let second = try CardDAVServerLock(layout: layout)
        withExtendedLifetime(second) {
            let error = #expect(throws: ContactsError.self) { try CardDAVServerLock(layout: layout) }
            #expect(error?.code == .busy)
        }
    }

    @Test func anExclusiveServiceRemovesTheStateFileAKilledServerLeftHalfWritten() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let layout = StoreLayout(root: store.storeURL)
        let folder = CardDAVStateFile.folder(in: layout)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let leftover = folder.appending(path: ".state.tmp-0123456789abcdef")
        try Data("half a state".utf8).write(to: leftover)
        let bystander = folder.appending(path: "notes.txt")
        try Data("kept".utf8).write(to: bystander)

        let shared = try CardDAVService(storeURL: store.storeURL)
        #expect(FileManager.default.fileExists(atPath: leftover.path(percentEncoded: false)))
        let service = try CardDAVService(storeURL: store.storeURL, exclusive: true)

        withExtendedLifetime((shared, service)) {
            #expect(!FileManager.default.fileExists(atPath: leftover.path(percentEncoded: false)))
            #expect(FileManager.default.fileExists(atPath: bystander.path(percentEncoded: false)))
        }
    }

    @Test func theStoreStaysWritableWhileAServerHoldsItsLock() throws {
        let server = try CardDAVTestStore()
        let lock = try CardDAVServerLock(layout: StoreLayout(root: server.store.storeURL))
        try withExtendedLifetime(lock) {
            try StoreLock(storeRoot: server.store.storeURL).withExclusive(timeout: .zero) {}
            try server.addPerson("Katie", "Bell")
            #expect(try server.etags().count == 1)
        }
    }

    @Test func theLockFileIsPrivateAndApartFromTheStateFile() throws {
        let server = try CardDAVTestStore()
        let layout = StoreLayout(root: server.store.storeURL)
        let lock = try CardDAVServerLock(layout: layout)
        try withExtendedLifetime(lock) {
            try server.addPerson("Katie", "Bell")
            _ = try server.etags()
            let folder = CardDAVStateFile.folder(in: layout).path
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["lock", "state"])
            let attributes = try FileManager.default.attributesOfItem(atPath: CardDAVServerLock.url(in: layout).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect((attributes[.size] as? Int) == 0)
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        }
    }

    @Test func exclusiveServicesOnOneStoreExcludeEachOther() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        var first: CardDAVService? = try CardDAVService(storeURL: store.storeURL, exclusive: true)
        let error = #expect(throws: ContactsError.self) { try CardDAVService(storeURL: store.storeURL, exclusive: true) }
        #expect(error?.code == .busy)
        // Services that are not exclusive, as handler tests run them, are not refused.
        _ = try CardDAVService(storeURL: store.storeURL)
        #expect(first?.home.serverLock != nil)
        first = nil
        let next = try CardDAVService(storeURL: store.storeURL, exclusive: true)
        #expect(next.home.serverLock != nil)
    }

    @Test func anExclusiveServiceOnAFolderWithoutAStoreCreatesNothing() throws {
        let folder = try TemporaryStore()
        let error = #expect(throws: ContactsError.self) { try CardDAVService(storeURL: folder.url, exclusive: true) }
        #expect(error?.code == .notAStore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
