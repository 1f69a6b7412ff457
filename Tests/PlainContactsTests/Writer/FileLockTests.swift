import Foundation
import Testing

@testable import PlainContacts

@Suite("FileLock")
struct FileLockTests {
    @Test func aSecondExclusiveLockIsRefusedWhenItDoesNotWait() throws {
        let fixture = try WriterFixture()
        let path = fixture.url("locks/lock").path(percentEncoded: false)
        let folder = fixture.url("locks").path(percentEncoded: false)
        let first = try FileLock.open(path, in: folder)
        defer { FileLock.release(first) }
        #expect(try FileLock.acquire(.exclusive, on: first, waiting: .upTo(.zero), action: "lock"))
        let second = try FileLock.open(path, in: folder)
        defer { FileLock.release(second) }
        #expect(try !FileLock.acquire(.exclusive, on: second, waiting: .upTo(.zero), action: "lock"))
        #expect(try !FileLock.acquire(.shared, on: second, waiting: .upTo(.milliseconds(30)), action: "lock"))
    }

    @Test func sharedHoldersCoexist() throws {
        let fixture = try WriterFixture()
        let path = fixture.url("lock").path(percentEncoded: false)
        let folder = fixture.url("").path(percentEncoded: false)
        let first = try FileLock.open(path, in: folder)
        defer { FileLock.release(first) }
        let second = try FileLock.open(path, in: folder)
        defer { FileLock.release(second) }
        #expect(try FileLock.acquire(.shared, on: first, waiting: .upTo(.zero), action: "lock"))
        #expect(try FileLock.acquire(.shared, on: second, waiting: .upTo(.zero), action: "lock"))
    }

    @Test func withLockThrowsTheBusyErrorAndKeepsTheLockFile() throws {
        let fixture = try WriterFixture()
        let path = fixture.url("lock").path(percentEncoded: false)
        let folder = fixture.url("").path(percentEncoded: false)
        let holder = try FileLock.open(path, in: folder)
        defer { FileLock.release(holder) }
        #expect(try FileLock.acquire(.exclusive, on: holder, waiting: .forever, action: "lock"))
        let error = #expect(throws: ContactsError.self) {
            try FileLock.withLock(
                path, in: folder, .exclusive, waiting: .upTo(.zero), action: "lock",
                busy: ContactsError(.busy, "busy", path: path)) {}
        }
        #expect(error?.code == .busy)
        #expect(fixture.files() == ["lock"])
    }
}
