import DAVTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@testable import PlainContacts

@Suite("StoreLock")
struct StoreLockTests {
    private struct Failure: Error {}

    @Test func secondExclusiveInstanceTimesOutWithBusyWhileTheFirstHoldsTheLock() throws {
        let fixture = try WriterFixture()
        let first = StoreLock(storeRoot: fixture.root)
        let second = StoreLock(storeRoot: fixture.root)
        try first.withExclusive(timeout: .seconds(5)) {
            let error = #expect(throws: ContactsError.self) {
                try second.withExclusive(timeout: .milliseconds(30)) {}
            }
            #expect(error?.code == .busy)
        }
    }

    @Test func secondInstanceGetsTheLockAfterTheFirstReleasesIt() throws {
        let fixture = try WriterFixture()
        let first = StoreLock(storeRoot: fixture.root)
        let second = StoreLock(storeRoot: fixture.root)
        try first.withExclusive(timeout: .seconds(5)) {}
        let value = try second.withExclusive(timeout: .zero) { 42 }
        #expect(value == 42)
    }

    @Test func sharedLocksOfSeveralInstancesCoexist() throws {
        let fixture = try WriterFixture()
        let first = StoreLock(storeRoot: fixture.root)
        let second = StoreLock(storeRoot: fixture.root)
        let third = StoreLock(storeRoot: fixture.root)
        let reached = try first.withShared(timeout: .seconds(5)) {
            try second.withShared(timeout: .zero) {
                try third.withShared(timeout: .zero) { true }
            }
        }
        #expect(reached)
    }

    @Test func exclusiveLockIsRefusedWhileASharedLockIsHeld() throws {
        let fixture = try WriterFixture()
        let reader = StoreLock(storeRoot: fixture.root)
        let writer = StoreLock(storeRoot: fixture.root)
        try reader.withShared(timeout: .seconds(5)) {
            let error = #expect(throws: ContactsError.self) {
                try writer.withExclusive(timeout: .milliseconds(30)) {}
            }
            #expect(error?.code == .busy)
        }
        try writer.withExclusive(timeout: .zero) {}
    }

    @Test func sharedLockIsRefusedWhileAnExclusiveLockIsHeld() throws {
        let fixture = try WriterFixture()
        let writer = StoreLock(storeRoot: fixture.root)
        let reader = StoreLock(storeRoot: fixture.root)
        try writer.withExclusive(timeout: .seconds(5)) {
            let error = #expect(throws: ContactsError.self) {
                try reader.withShared(timeout: .milliseconds(30)) {}
            }
            #expect(error?.code == .busy)
        }
    }

    @Test func exclusiveLockWaitsUntilASharedHolderOnAnotherThreadReleases() throws {
        let fixture = try WriterFixture()
        let root = fixture.root
        let readerHolds = Mutex(false)
        let readerReleased = Atomic(false)
        let thread = Thread {
            do {
                let reader = StoreLock(storeRoot: root)
                try reader.withShared(timeout: .seconds(10)) {
                    readerHolds.withLock { $0 = true }
                    usleep(100_000)
                    readerReleased.store(true, ordering: .sequentiallyConsistent)
                }
            } catch {
                readerHolds.withLock { $0 = true }
            }
        }
        thread.start()
        while !readerHolds.withLock({ $0 }) { usleep(1_000) }
        let writer = StoreLock(storeRoot: root)
        let sawRelease = try writer.withExclusive(timeout: .seconds(30)) {
            readerReleased.load(ordering: .sequentiallyConsistent)
        }
        #expect(sawRelease)
    }

    @Test func lockIsReleasedWhenTheBodyThrows() throws {
        let fixture = try WriterFixture()
        let first = StoreLock(storeRoot: fixture.root)
        let second = StoreLock(storeRoot: fixture.root)
        #expect(throws: Failure.self) {
            try first.withExclusive(timeout: .seconds(5)) { throw Failure() }
        }
        try second.withExclusive(timeout: .zero) {}
        try first.withShared(timeout: .zero) {}
    }

    @Test func nestedCallsOnTheSameInstanceRunWithoutWaiting() throws {
        let fixture = try WriterFixture()
        let lock = StoreLock(storeRoot: fixture.root)
        let other = StoreLock(storeRoot: fixture.root)
        let depth = try lock.withExclusive(timeout: .seconds(5)) {
            try lock.withShared(timeout: .zero) {
                try lock.withExclusive(timeout: .zero) { 3 }
            }
        }
        #expect(depth == 3)
        // The outer call still held the lock after the inner ones returned.
        try lock.withExclusive(timeout: .seconds(5)) {
            try lock.withExclusive(timeout: .zero) {}
            #expect(throws: ContactsError.self) {
                try other.withShared(timeout: .zero) {}
            }
        }
    }

    @Test func sharedLockIsNotTurnedIntoAnExclusiveOne() throws {
        let fixture = try WriterFixture()
        let lock = StoreLock(storeRoot: fixture.root)
        try lock.withShared(timeout: .seconds(5)) {
            let error = #expect(throws: ContactsError.self) {
                try lock.withExclusive(timeout: .zero) {}
            }
            #expect(error?.code == .busy)
        }
    }

    @Test func lockFileAndPrivateFolderArePrivateWhateverTheUmask() throws {
        let fixture = try WriterFixture()
        try withUmask(0) {
            try StoreLock(storeRoot: fixture.root).withShared(timeout: .seconds(5)) {}
        }
        #expect(try fixture.permissions(of: ".contacts") == 0o700)
        #expect(try fixture.permissions(of: ".contacts/lock") == 0o600)
    }

    @Test func lockOfAMissingStoreFailsWithIO() throws {
        let fixture = try WriterFixture()
        let lock = StoreLock(storeRoot: fixture.url("missing/store"))
        let error = #expect(throws: ContactsError.self) {
            try lock.withExclusive(timeout: .seconds(5)) {}
        }
        #expect(error?.code == .io)
        #expect(!fixture.exists("missing"))
    }

    @Test func lockNamedByItsPrivateFolderExcludesLockNamedByTheStoreRoot() throws {
        let fixture = try WriterFixture()
        let byFolder = StoreLock(privateFolder: fixture.url(".contacts"))
        let byRoot = StoreLock(storeRoot: fixture.root)
        try byFolder.withExclusive(timeout: .seconds(5)) {
            let error = #expect(throws: ContactsError.self) {
                try byRoot.withShared(timeout: .milliseconds(30)) {}
            }
            #expect(error?.code == .busy)
        }
        #expect(fixture.files(under: ".contacts") == [".contacts/lock"])
    }

    @Test func sameInstanceCanBeLockedAgainAfterRelease() throws {
        let fixture = try WriterFixture()
        let lock = StoreLock(storeRoot: fixture.root)
        let other = StoreLock(storeRoot: fixture.root)
        for _ in 0..<3 {
            var ran = false
            try lock.withExclusive(timeout: .seconds(5)) {
                ran = true
                // Really held: another instance is refused at once.
                let error = #expect(throws: ContactsError.self) {
                    try other.withShared(timeout: .zero) {}
                }
                #expect(error?.code == .busy)
            }
            #expect(ran)
            // Really released: the other instance takes it at once.
            var otherRan = false
            try other.withExclusive(timeout: .zero) { otherRan = true }
            #expect(otherRan)
        }
    }

    @Test func lockHeldByAnotherProcessIsBusyUntilThatProcessEnds() throws {
        let fixture = try WriterFixture()
        let process = Process()
        process.executableURL = try crashHelperExecutable()
        process.arguments = ["hold", fixture.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")

        let lock = StoreLock(storeRoot: fixture.root)
        let error = #expect(throws: ContactsError.self) {
            try lock.withShared(timeout: .milliseconds(30)) {}
        }
        #expect(error?.code == .busy)

        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try lock.withExclusive(timeout: .seconds(5)) {}
    }

    @Test func lockOfAKilledProcessIsReleased() throws {
        let fixture = try WriterFixture()
        let process = Process()
        process.executableURL = try crashHelperExecutable()
        process.arguments = ["hold", fixture.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.availableData
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let lock = StoreLock(storeRoot: fixture.root)
        try lock.withExclusive(timeout: .seconds(5)) {}
    }
}
