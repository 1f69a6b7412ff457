import DAVTestSupport
import Foundation
import Testing

@testable import PlainContacts

/// The writer as the crash helper drives it: the store's lock, and one commit of files.
@Suite struct StoreTransactionLockedTests {
    @Test func aCommitUnderTheLockWritesThenRemoves() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        try store.write("old g\n", to: "groups/g0.json")
        try store.write("old h\n", to: "groups/h0.json")
        let root = store.storeURL
        try StoreTransaction.withExclusiveLock(onStoreAt: root, timeout: .seconds(5)) {
            try StoreTransaction.commit(
                writing: [("people/p0.json", Data("new 0\n".utf8)), ("people/p1.json", Data("new 1\n".utf8))],
                deleting: ["groups/g0.json"], storeRoot: root)
        }
        #expect(try store.read("people/p0.json") == "new 0\n")
        #expect(try store.read("people/p1.json") == "new 1\n")
        #expect(!FileManager.default.fileExists(atPath: store.path("groups/g0.json").path(percentEncoded: false)))
        #expect(try store.read("groups/h0.json") == "old h\n")
    }

    @Test func theLockIsHeldWhileTheBodyRuns() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let root = store.storeURL
        let blocked = try StoreTransaction.withExclusiveLock(onStoreAt: root, timeout: .seconds(5)) {
            (try? StoreLock(storeRoot: root).withExclusive(timeout: .zero) { true }) == nil
        }
        #expect(blocked)
        let free = try StoreLock(storeRoot: root).withExclusive(timeout: .zero) { true }
        #expect(free)
    }

    @Test func anUnacceptablePathChangesNothing() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let root = store.storeURL
        let error = try #require(throws: ContactsError.self) {
            try StoreTransaction.withExclusiveLock(onStoreAt: root, timeout: .seconds(5)) {
                try StoreTransaction.commit(
                    writing: [("people/p0.json", Data("new\n".utf8))], deleting: [".contacts/lock"], storeRoot: root)
            }
        }
        #expect(error.code == .invalidValue)
        #expect(!FileManager.default.fileExists(atPath: store.path("people/p0.json").path(percentEncoded: false)))
    }
}
